"""Incremental, reproducible builds: the cache re-renders exactly what changed."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, REPO, TempProject
from deckwright.cli import main


def build(project: TempProject, capsys, *extra: str) -> str:
    code = main(["--project", str(project.root), "build", "mini", "--only", "cards", "--jobs", "1", *extra])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out + err


def renders(log: str) -> int:
    match = re.search(r"\((\d+) rendered", log)
    assert match, log
    return int(match.group(1))


def test_no_op_rebuild_renders_nothing(mini: TempProject, capsys) -> None:
    assert renders(build(mini, capsys)) == 5  # four fronts and the shared back
    assert "mini: up to date" in build(mini, capsys)


def test_editing_one_card_rerenders_that_card(mini: TempProject, capsys) -> None:
    build(mini, capsys)
    mini.replace("mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    log = build(mini, capsys)
    assert renders(log) == 1
    assert "(1 rendered, 4 from cache)" in log


def test_editing_a_template_rerenders_the_cards_that_use_it(mini: TempProject, capsys) -> None:
    build(mini, capsys)
    path = mini.root / "templates/mini/hero-front.svg.j2"
    path.write_text(path.read_text().replace("geom.safe.at(0, 122,", "geom.safe.at(0, 124,"))
    assert renders(build(mini, capsys)) == 3  # ann, bob, cy; not the spell, not the back


def test_editing_a_font_rerenders_the_cards_drawn_with_it(mini: TempProject) -> None:
    # fontconfig serves one font folder per process, so a project with its own fonts builds
    # in a process of its own, as it would on a designer's machine.
    fonts = mini.root / "fonts"
    fonts.unlink()
    shutil.copytree(REPO / "fonts", fonts)
    back = mini.root / "templates/mini/back.svg.j2"
    back.write_text(back.read_text().replace('"title", fill=', '"label", fill='))
    command = [sys.executable, "-m", "deckwright.cli", "--project", str(mini.root), "build", "mini"]
    command += ["--only", "cards", "--jobs", "1"]
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    assert renders(first.stdout) == 5
    inter_bold = fonts / "inter" / "Inter-Bold.otf"
    inter_bold.write_bytes(inter_bold.read_bytes() + b"\0")  # same font, a different file
    second = subprocess.run(command, capture_output=True, text=True, check=True)
    assert renders(second.stdout) == 1  # only the back draws with Inter Bold


def test_no_cache_renders_everything(mini: TempProject, capsys) -> None:
    build(mini, capsys)
    assert renders(build(mini, capsys, "--no-cache")) == 5


def tree_hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_two_clean_builds_give_identical_bytes(tmp_path: Path, capsys) -> None:
    results = []
    for n in (1, 2):
        project = TempProject(tmp_path / f"p{n}")
        project.add_game(FIXTURES / "mini")
        code = main(["--project", str(project.root), "build", "mini", "--no-cache", "--jobs", "2"])
        out, err = capsys.readouterr()
        assert code == 0, out + err
        results.append(tree_hashes(project.root / "build" / "mini"))
    assert results[0] == results[1]
    assert any(name.endswith(".png") for name in results[0])
