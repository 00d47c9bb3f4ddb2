"""game.yaml `build:`: the outputs and print-and-play papers a plain `deckwright build` makes."""

from __future__ import annotations

import pytest

from conftest import TempProject
from deckwright.cli import main


def set_build(project: TempProject, block: str) -> None:
    path = project.path("mini", "game.yaml")
    path.write_text(path.read_text(encoding="utf-8") + "\nbuild:\n" + block, encoding="utf-8")


def build(project: TempProject, capsys, *extra: str) -> tuple[int, str]:
    code = main(["--project", str(project.root), "build", "mini", "--jobs", "1", *extra])
    out, err = capsys.readouterr()
    return code, out + err


def built(project: TempProject) -> set[str]:
    return {p.name for p in (project.root / "build" / "mini").iterdir()}


def test_the_game_chooses_its_outputs_and_papers(mini: TempProject, capsys) -> None:
    set_build(mini, "  outputs: [cards, pnp]\n  papers: [a4]\n")
    code, log = build(mini, capsys)
    assert code == 0, log
    assert built(mini) == {"cards", "pnp-a4.pdf"}
    assert "tgc" not in log and "proofs" not in log


def test_only_on_the_command_line_overrides_the_game(mini: TempProject, capsys) -> None:
    set_build(mini, "  outputs: [cards]\n")
    code, log = build(mini, capsys, "--only", "tgc")
    assert code == 0, log
    assert built(mini) == {"tgc"}


def test_without_build_settings_every_output_is_built(mini: TempProject, capsys) -> None:
    code, log = build(mini, capsys, "--only", "cards,pnp")
    assert code == 0, log
    assert {"pnp-a4.pdf", "pnp-letter.pdf"} <= built(mini)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("  outputs: [cards, posters]\n", "build: outputs: no output 'posters' (one of cards, tgc,"),
        ("  outputs: [cards, cards]\n", "build: outputs lists 'cards' twice"),
        ("  outputs: []\n", "build: outputs must name at least one"),
        ("  papers: a4\n", "build: papers must be a list"),
        ("  colour: true\n", "colour"),
    ],
)
def test_bad_build_settings_are_located_errors(mini: TempProject, capsys, block: str, message: str) -> None:
    set_build(mini, block)
    code, log = build(mini, capsys)
    assert code == 1, log
    line = next(line for line in log.splitlines() if message in line)
    assert line.startswith("cards/mini/game.yaml:"), line
    assert not (mini.root / "build" / "mini").exists()


def test_an_unknown_paper_fails_the_build_and_names_the_papers(mini: TempProject, capsys) -> None:
    set_build(mini, "  papers: [a5]\n")
    code, log = build(mini, capsys, "--only", "pnp")
    assert code == 1, log
    assert "build: papers: no paper 'a5' in layouts/papers.yaml (papers: a4, letter)" in log
    assert "cards/mini/game.yaml:" in log
