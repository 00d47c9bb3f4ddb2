"""Shared test helpers: throwaway copies of projects to mutate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckwright.diagnostics import Diagnostics
from deckwright.pipeline import Checked, check_game, load_layouts
from deckwright.project import Project

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = ("light-and-mist", "midnight-congregation", "light-vs-darkness")


class TempProject:
    """A project in a temp dir with the repo's layouts and chosen games copied in."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(REPO / "layouts", root / "layouts")
        (root / "cards").mkdir()
        self.project = Project(root)

    def add_game(self, source: Path, game_id: str | None = None) -> Path:
        target = self.root / "cards" / (game_id or source.name)
        shutil.copytree(source, target)
        return target

    def path(self, game: str, file: str) -> Path:
        return self.root / "cards" / game / file

    def replace(self, game: str, file: str, old: str, new: str, count: int = 1) -> None:
        """Edit a data file; the old text must occur exactly `count` times."""
        path = self.path(game, file)
        text = path.read_text(encoding="utf-8")
        found = text.count(old)
        assert found == count, f"{old!r} occurs {found} times in {file}, expected {count}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    def check(self, game: str) -> Checked:
        shared = Diagnostics()
        layouts = load_layouts(self.project, shared)
        assert not shared.has_errors, [str(d) for d in shared]
        return check_game(self.project, self.root / "cards" / game, layouts)


@pytest.fixture
def temp_project(tmp_path: Path) -> TempProject:
    return TempProject(tmp_path / "project")


@pytest.fixture
def mini(temp_project: TempProject) -> TempProject:
    temp_project.add_game(FIXTURES / "mini")
    return temp_project


def messages(checked: Checked, severity: str = "error") -> list[str]:
    return [str(d) for d in checked.diags if d.severity.value == severity]
