"""Shared test helpers: throwaway copies of projects to mutate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckwright.diagnostics import Diagnostics
from deckwright.pipeline.load import Checked, check_game, load_catalog, load_fonts, prepare_fonts
from deckwright.project import Project
from goldenfiles import GOLDEN, Golden

REPO = Path(__file__).resolve().parent.parent
# The robustness modules share a built mini project to break (fixtures `built`, `project`).
pytest_plugins = ["robustness_support"]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = ("light-and-mist", "midnight-congregation", "light-vs-darkness")
GOLDEN_KEY = pytest.StashKey[Golden]()


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="store the current outputs as the golden files under tests/golden/ (see its README)",
    )


def pytest_configure(config) -> None:
    """Point fontconfig at the shipped fonts before any test imports cairo or WeasyPrint,
    as `deckwright build` does; later projects' fonts resolve to the same folder."""
    diags = Diagnostics()
    assert prepare_fonts(Project(REPO), diags) is not None, [str(d) for d in diags]
    config.stash[GOLDEN_KEY] = Golden(update=config.getoption("--update-golden"))


def pytest_terminal_summary(terminalreporter, config) -> None:
    golden = config.stash.get(GOLDEN_KEY, None)
    if golden is not None and golden.update:
        where = GOLDEN.relative_to(REPO)
        changed = golden.changed or ["(none: every golden file already matched)"]
        terminalreporter.write_sep("=", f"--update-golden: files re-blessed under {where}/")
        for name in changed:
            terminalreporter.write_line(f"  {name}")


@pytest.fixture(scope="session")
def golden(pytestconfig) -> Golden:
    """The golden files (tests/golden/): compared, or re-blessed with --update-golden."""
    return pytestconfig.stash[GOLDEN_KEY]


class TempProject:
    """A project in a temp dir with the repo's layouts and chosen games copied in."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(REPO / "layouts", root / "layouts")
        (root / "cards").mkdir()
        (root / "fonts").symlink_to(REPO / "fonts")  # read-only here, and large
        shutil.copytree(REPO / "templates" / "_shared", root / "templates" / "_shared")
        self.project = Project(root)

    def add_game(self, source: Path, game_id: str | None = None, templates: Path | None = None) -> Path:
        """Copy a game folder in, with its templates (from templates/<id> beside it by default)."""
        game_id = game_id or source.name
        target = self.root / "cards" / game_id
        shutil.copytree(source, target)
        templates = templates or source.parent / "templates" / source.name
        if not templates.is_dir():
            templates = REPO / "templates" / source.name
        if templates.is_dir():
            shutil.copytree(templates, self.root / "templates" / game_id)
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

    def check(self, game: str, fit: bool = True) -> Checked:
        """Validate a game; with `fit`, its text is laid out in its templates too."""
        shared = Diagnostics()
        catalog = load_catalog(self.project, shared)
        fonts = load_fonts(self.project, shared) if fit else None
        assert not shared.has_errors, [str(d) for d in shared]
        return check_game(self.project, self.root / "cards" / game, catalog, fonts)


@pytest.fixture
def temp_project(tmp_path: Path) -> TempProject:
    return TempProject(tmp_path / "project")


@pytest.fixture
def mini(temp_project: TempProject) -> TempProject:
    temp_project.add_game(FIXTURES / "mini")
    return temp_project


def messages(checked: Checked, severity: str = "error") -> list[str]:
    return [str(d) for d in checked.diags if d.severity.value == severity]
