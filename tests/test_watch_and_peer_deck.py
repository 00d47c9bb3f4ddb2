"""`deckwright watch` notices saves; the peer deck reads its cards straight from CSV."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from deckwright.cli import main
from deckwright.watch import changed, snapshot, wait_for_change

PEER_DECK = REPO / "examples" / "peer-deck"
SHARED_CSV = REPO.parent / "shared" / "bench" / "peer-deck" / "cards.csv"


def test_wait_for_change_reports_added_modified_and_removed_files(tmp_path: Path) -> None:
    data = tmp_path / "cards"
    data.mkdir()
    (data / "a.yaml").write_text("a: 1\n")
    (data / "b.yaml").write_text("b: 1\n")
    before = snapshot([data])
    assert changed(before, snapshot([data])) == []

    def edit(_: float) -> None:  # the designer saves while we sleep
        (data / "a.yaml").write_text("a: 22\n")
        (data / "b.yaml").unlink(missing_ok=True)
        (data / "c.yaml").write_text("c: 1\n")

    paths, after = wait_for_change([data], before, interval=0.01, sleep=edit)
    assert [p.name for p in paths] == ["a.yaml", "b.yaml", "c.yaml"]
    assert changed(after, snapshot([data])) == []


def test_peer_deck_cards_come_from_its_csv(capsys) -> None:
    code = main(["--project", str(REPO), "export", str(PEER_DECK), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    import json

    cards = json.loads(out)["cards"]
    assert len(cards) == 105
    first = cards[0]
    assert first["id"] == "001-105"
    assert first["number"] == "001/105"
    assert first["name"] == "Iron Tower"
    assert first["fields"]["type_line"] == "Spell - Ritual"
    assert first["fields"]["color"] == "#e8e2b7"


@pytest.mark.skipif(not SHARED_CSV.is_file(), reason="shared/ is not beside the project")
def test_peer_deck_csv_is_the_benchmark_workload() -> None:
    assert (PEER_DECK / "cards.csv").read_bytes() == SHARED_CSV.read_bytes()


def test_a_bad_csv_cell_is_located(tmp_path: Path, capsys) -> None:
    import shutil

    game = tmp_path / "peer-deck"
    shutil.copytree(PEER_DECK, game)
    csv_path = game / "cards.csv"
    lines = csv_path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3].replace("Burning Wyrm", "")  # a card without a name
    csv_path.write_text("".join(lines), encoding="utf-8")
    code = main(["--project", str(REPO), "validate", str(game)])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "cards.csv:4:1: error: card '003-105' needs a 'name'" in out
