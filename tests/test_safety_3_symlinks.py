"""Issue 18, case 3: a link inside a game folder (or its templates) that leads outside is
refused, not followed: a rulebook chapter, a stylesheet, a YAML file. A file that is not a
regular file (/dev/zero behind a link, a FIFO) is refused before it is read, not after the
size check passed on its `st_size` of 0."""

from __future__ import annotations

import os

import pytest

from safety_support import SECRET, Hostile, error_at

CHAPTER = "# Rules\n\nPlay {card:ann}.\n"


def _with_rulebook(game: Hostile) -> None:
    (game.folder / "rulebook").mkdir()
    game.write("rulebook/01-rules.md", CHAPTER)


def test_a_rulebook_chapter_linked_outside_is_refused_and_the_rulebook_stays(tmp_path) -> None:
    game = Hostile(tmp_path)
    _with_rulebook(game)
    assert game.run("build", "mini", "--only", "rulebook").code == 0
    before = game.outputs()
    game.path("rulebook/02-more.md").symlink_to(game.secret)
    for argv in (("validate", "mini"), ("build", "mini", "--only", "rulebook")):
        run = game.run(*argv)
        assert run.code == 1
        error_at(run, "cards/mini/rulebook/02-more.md:1:1:", "refused", "outside")
    assert game.outputs() == before
    game.nothing_leaked()


def test_a_rulebook_stylesheet_linked_outside_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    _with_rulebook(game)
    (game.templates / "rulebook.css").symlink_to(game.secret)
    run = game.run("build", "mini", "--only", "rulebook")
    assert run.code == 1
    error_at(run, "templates/mini/rulebook.css:1:1:", "stylesheet", "refused", "outside")
    game.nothing_leaked()


def test_a_yaml_file_linked_outside_is_refused_and_shows_none_of_it(tmp_path) -> None:
    game = Hostile(tmp_path)
    game.path("extra.yaml").symlink_to(game.secret)
    run = game.run("validate", "mini")
    assert run.code == 1
    error_at(run, "cards/mini/extra.yaml:1:1:", "refused", "outside")
    assert "PASSWORD" not in run.out + run.err


@pytest.mark.parametrize("name", ["extra.yaml", "rulebook/01-rules.md"])
def test_a_file_linked_to_dev_zero_is_refused_without_reading(tmp_path, name) -> None:
    game = Hostile(tmp_path)
    (game.folder / "rulebook").mkdir()
    game.path(name).symlink_to("/dev/zero")
    run = game.run("validate", "mini", timeout=60)  # before: MemoryError and a traceback
    assert run.code == 1
    error_at(run, f"cards/mini/{name}:1:1:", "refused")


@pytest.mark.parametrize("name", ["extra.yaml", "rulebook/01-rules.md"])
def test_a_fifo_in_the_game_folder_is_refused_without_waiting(tmp_path, name) -> None:
    game = Hostile(tmp_path)
    (game.folder / "rulebook").mkdir()
    os.mkfifo(game.path(name))
    run = game.run("validate", "mini", timeout=60)
    assert run.code == 1
    error_at(run, f"cards/mini/{name}:1:1:", "not a regular file")


def test_a_link_inside_the_game_folder_is_still_followed(tmp_path) -> None:
    """Containment is about where a link leads, not about links: one inside the game works."""
    game = Hostile(tmp_path)
    (game.folder / "shared").mkdir()
    os.replace(game.path("spells.yaml"), game.path("shared/spells.yaml"))
    game.path("spells.yaml").symlink_to(game.path("shared/spells.yaml"))
    run = game.run("validate", "mini")
    assert run.code == 0, run.out + run.err
    assert SECRET not in run.out
