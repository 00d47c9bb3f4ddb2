"""Incremental, reproducible builds: the cache re-renders exactly what changed."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, REPO, TempProject
from deckwright.cache import RenderCache
from deckwright.cli import main
from deckwright.writer import Writer


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


def build_only(project: TempProject, capsys, only: str, jobs: str = "1") -> str:
    code = main(["--project", str(project.root), "build", "mini", "--only", only, "--jobs", jobs])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out + err


def test_editing_one_card_redraws_its_thumbnail_and_composes_its_sheet(mini: TempProject, capsys) -> None:
    log = build_only(mini, capsys, "cards,proofs")
    assert renders(log) == 6  # five images, each with its thumbnail, and the sheet
    mini.replace("mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    log = build_only(mini, capsys, "cards,proofs")
    assert "(2 rendered" in log  # cy's image with its thumbnail, and the sheet from the cache's others
    assert "thumbnails" not in log  # no thumbnail drawn on its own


def test_proofs_alone_draw_only_thumbnails(mini: TempProject, capsys) -> None:
    assert renders(build_only(mini, capsys, "proofs")) == 6  # five thumbnails and the sheet
    mini.replace("mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    assert renders(build_only(mini, capsys, "proofs")) == 2  # cy's thumbnail and the sheet
    assert renders(build_only(mini, capsys, "cards")) == 5  # no card image was kept from the thumbnails


def test_a_build_without_proofs_makes_no_thumbnails(mini: TempProject, capsys) -> None:
    assert renders(build_only(mini, capsys, "cards")) == 5  # the images alone
    log = build_only(mini, capsys, "proofs")
    assert renders(log) == 6 and "thumbnails: 5 rendered" in log  # none were kept from the images


def test_a_sheet_is_the_same_from_thumbnails_drawn_with_the_images_or_alone(tmp_path: Path, capsys) -> None:
    sheets = []
    for n, only in enumerate(("cards,proofs", "proofs")):
        project = TempProject(tmp_path / f"p{n}")
        project.add_game(FIXTURES / "mini")
        build_only(project, capsys, only)
        sheets.append((project.root / "build/mini/proofs/main.png").read_bytes())
    assert sheets[0] == sheets[1]


def test_a_pool_gives_each_face_its_own_images(tmp_path: Path, capsys, monkeypatch) -> None:
    from deckwright.context import card_images

    monkeypatch.setattr(card_images, "POOL_FROM", 2)  # the mini game's five faces go to the pool
    results = []
    for n, jobs in enumerate(("1", "2")):
        project = TempProject(tmp_path / f"p{n}")
        project.add_game(FIXTURES / "mini")
        build_only(project, capsys, "cards,proofs", jobs)
        results.append(tree_hashes(project.root / "build" / "mini"))
    assert results[0] == results[1]
    project.replace("mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    assert "(2 rendered" in build_only(project, capsys, "cards,proofs", "2")  # the workers cached the rest


def test_a_torn_cache_entry_reads_as_a_miss(tmp_path: Path) -> None:
    """Cache entries are not synced to disk; a crash may leave one short, empty or zeroed."""
    cache = RenderCache(tmp_path, "fonts")
    key = cache.key("png", "face")
    data = bytes(range(256)) * 40
    cache.put(key, data)
    assert cache.get(key) == data
    entry = cache._path(key)
    whole = entry.read_bytes()
    for torn in (whole[: len(whole) // 2], b"", bytes(len(whole)), whole[:-1] + b"\0"):
        entry.write_bytes(torn)
        assert cache.get(key) is None


def test_outputs_are_synced_to_disk_and_cache_entries_are_not(tmp_path: Path, monkeypatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    RenderCache(tmp_path / "cache", "fonts").put("ab" + "0" * 62, b"entry")
    assert synced == []
    Writer(tmp_path / "out").write_bytes("card.png", b"output")
    assert len(synced) == 1
