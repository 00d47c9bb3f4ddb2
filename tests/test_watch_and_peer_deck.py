"""`deckwright watch` notices saves; the peer deck reads its cards straight from CSV."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from conftest import REPO
from deckwright.cli import main
from deckwright.watch import Listener, saves

PEER_DECK = REPO / "examples" / "peer-deck"
SHARED_CSV = REPO.parent / "shared" / "bench" / "peer-deck" / "cards.csv"


def test_saves_are_heard_from_the_os_and_temporary_files_are_not(tmp_path: Path) -> None:
    data, built = tmp_path / "cards", tmp_path / "build"
    data.mkdir()
    built.mkdir()
    stop, batches = threading.Event(), []

    def listen() -> None:
        for batch in saves([tmp_path], stop, ignored=[built]):
            batches.append(batch)
            stop.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    deadline = time.monotonic() + 20
    while not batches and time.monotonic() < deadline:  # until the watcher is up and hears
        (data / "a.yaml.swp").write_text("editor's temp\n")
        (built / "out.png").write_text("an output\n")
        (data / "a.yaml").write_text(f"a: {time.monotonic()}\n")
        time.sleep(0.2)
    stop.set()
    listener.join(timeout=5)
    assert batches, "no save heard"
    assert batches[0] == [data / "a.yaml"]


def test_a_save_made_while_the_first_build_runs_is_not_lost(tmp_path: Path) -> None:
    listener = Listener([tmp_path])  # made before the build, as watch and serve make it
    (tmp_path / "a.yaml").write_text("a: 1\n")  # saved at once, while "the build" runs
    time.sleep(0.5)
    try:
        assert next(iter(listener)) == [tmp_path / "a.yaml"]
    finally:
        listener.stop.set()


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
