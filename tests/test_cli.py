"""The command line: exit codes, output formats, and the README's contract."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from conftest import GAMES, REPO, TempProject
from deckwright.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_exit_codes(mini: TempProject, capsys) -> None:
    root = str(mini.root)
    code, out, err = run(capsys, "--project", root, "validate")
    assert code == 0
    assert "mini: ok (0 errors, 2 warnings)" in err  # an unknown value; cards without art
    code, *_ = run(capsys, "--project", root, "validate", "--strict")
    assert code == 1
    mini.replace("mini", "spells.yaml", "count: 4", "count: 5")
    code, out, _ = run(capsys, "--project", root, "validate", "mini")
    assert code == 1
    assert re.search(r"^cards/mini/checks\.yaml:\d+:\d+: error: the main deck", out, re.M)
    code, _, err = run(capsys, "--project", root, "validate", "nope")
    assert code == 2
    assert "no game 'nope'" in err


def test_validate_json(mini: TempProject, capsys) -> None:
    code, out, _ = run(capsys, "--project", str(mini.root), "validate", "--format", "json")
    payload = json.loads(out)
    assert code == 0
    assert payload["errors"] == 0
    assert payload["diagnostics"][0]["severity"] == "warning"
    assert payload["diagnostics"][0]["line"] == 14


def test_game_folder_path_is_accepted(mini: TempProject, capsys) -> None:
    code, _, err = run(capsys, "--project", str(mini.root), "validate", str(mini.root / "cards/mini"))
    assert code == 0, err


def test_bad_yaml_is_one_line_not_a_traceback(mini: TempProject, capsys) -> None:
    mini.path("mini", "spells.yaml").write_text("type: spell\ncards: [\n", encoding="utf-8")
    code, out, err = run(capsys, "--project", str(mini.root), "validate")
    assert code == 1
    assert "Traceback" not in out + err
    assert re.search(r"^cards/mini/spells\.yaml:3:1: error: YAML syntax error", out, re.M)


def test_export_json_and_csv(mini: TempProject, capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "--project", str(mini.root), "export", "mini")
    data = json.loads(out)
    assert code == 0
    assert sum(c["count"] for c in data["cards"]) == 10
    assert data["cards"][1]["fields"]["text"] == {"unknown": "The source prints no text for Bob."}
    assert data["tables"]["setup"]["rows"][2]["heroes"] == ["ann", "ann", "bob", "cy", "cy"]
    target = tmp_path / "mini.csv"
    code, *_ = run(
        capsys, "--project", str(mini.root), "export", "mini", "--format", "csv", "-o", str(target)
    )
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert code == 0
    assert [r["id"] for r in rows] == ["ann", "bob", "cy", "zap"]
    assert rows[1]["text"] == "unknown"
    assert rows[0]["rivals"] == "bob"


def test_list(mini: TempProject, capsys) -> None:
    code, out, _ = run(capsys, "--project", str(mini.root), "list")
    assert code == 0
    assert out.startswith("mini\tMini & Co — Test edition\t3-5 players\t10 cards")


@pytest.mark.parametrize("game", GAMES)
def test_reference_games_validate_without_errors(game: str, capsys) -> None:
    code, out, err = run(capsys, "--project", str(REPO), "validate", "--quiet", game)
    assert code == 0, out
    assert f"{game}: ok (0 errors" in err


def test_readme_commands_are_the_makefile_contract() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    first_block = readme.split("```sh", 1)[1].split("```", 1)[0]
    assert first_block.strip().splitlines()[0].startswith("make build")
    assert "make test" in first_block
    assert re.search(r"^build: \$\(STAMP\)\n\t\$\(BIN\)/deckwright build$", makefile, re.M)
    assert re.search(r"^test: \$\(STAMP\)\n\t\$\(BIN\)/python -m pytest$", makefile, re.M)
    assert "-m venv $(VENV)" in makefile
    assert "make test" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_every_command_is_documented_in_the_readme() -> None:
    from deckwright.cli import _parser

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sub = next(a for a in _parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"deckwright {name}" in readme, name
