"""Where things are: the project folder with cards/, layouts/, templates/, fonts/, build/.

A game folder may bring its own templates/, fonts/, layouts/ and art/; what it does not bring
comes from the project it sits in, and then from the defaults shipped inside the package
(`deckwright/defaults/`: layouts, papers, print services, open-licence fonts, the starter
theme). A game that sits in no project is a project of its own (`Project.standalone`): its
outputs go to `<game>/build/`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GAME_FILE = "game.yaml"
# Package data: the built-in layouts, fonts and templates (see pyproject's package-data).
DEFAULTS = Path(__file__).resolve().parent / "defaults"
THEMES = DEFAULTS / "templates"


@dataclass(frozen=True)
class Project:
    root: Path
    # A game folder that sits in no project: `root` is the game folder itself.
    standalone: bool = False
    out: Path | None = None  # `--out`: where builds write instead of the game's build folder

    @property
    def cards_dir(self) -> Path:
        return self.root / "cards"

    @property
    def layouts_dir(self) -> Path:
        """The project's layouts/, else the built-in ones."""
        own = self.root / "layouts"
        return own if own.is_dir() else DEFAULTS / "layouts"

    @property
    def templates_dir(self) -> Path:
        """The folder holding `_shared/` (documents, diff and check pages): the project's, else built in."""
        own = self.root / "templates"
        if (own / "_shared").is_dir():
            return own
        # Resolved: in a checkout the built-in _shared/ is a link to the repository's, and the
        # template loader serves nothing through a link leading out of its folders.
        return (DEFAULTS / "templates" / "_shared").resolve().parent

    @property
    def fonts_dir(self) -> Path:
        """The project's fonts/ (with its fonts.yaml), else the built-in open-licence set."""
        own = self.root / "fonts"
        return own if (own / "fonts.yaml").is_file() else DEFAULTS / "fonts"

    def game_fonts_dir(self, game_folder: Path) -> Path:
        """A game's own fonts/ (with a fonts.yaml), else the project's, else built in."""
        own = game_folder / "fonts"
        return own if (own / "fonts.yaml").is_file() else self.fonts_dir

    def game_layouts_dirs(self, game_folder: Path) -> list[Path]:
        """Where a game's layouts, papers and services come from, least specific first: the
        project's layouts/ (else the built-in ones), then the game's own, which adds to them
        (or replaces one by name). A folder reached twice (a link to the other) counts once."""
        dirs = [self.layouts_dir]
        own = game_folder / "layouts"
        if own.is_dir() and own.resolve() != self.layouts_dir.resolve():
            dirs.append(own)
        return dirs

    def game_art_dirs(self, game_folder: Path, game_id: str) -> list[Path]:
        """Where a game's art is looked up, most specific first: `<game>/art/`, then the
        project's `art/<game-id>/`."""
        dirs = [game_folder / "art"]
        if not self.standalone:
            dirs.append(self.art_dir / game_id)
        return dirs

    def game_build_dir(self, game_id: str) -> Path:
        """Where a game's outputs go: `--out`, else `<game>/build/` for a game on its own, else
        the project's `build/<game>/`."""
        if self.out is not None:
            return self.out
        return self.build_dir if self.standalone else self.build_dir / game_id

    @property
    def art_dir(self) -> Path:
        return self.root / "art"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    def game_inputs(self, folder: Path) -> list[Path]:
        """Every file or folder a build of the game in `folder` reads: what the up-to-date check
        hashes and what watch and serve watch."""
        return [
            folder,
            self.game_templates_dir(folder, folder.name),
            self.templates_dir / "_shared",
            THEMES,  # a style.yaml's `theme:` draws with these
            *self.game_layouts_dirs(folder),
            self.game_fonts_dir(folder),
            *self.game_art_dirs(folder, folder.name),
        ]

    @property
    def written_inside_games(self) -> list[Path]:
        """Folders a build writes inside a game folder, which watchers must not take for saves:
        a game on its own builds into its own folder."""
        return [self.build_dir] if self.standalone else []

    def game_templates_dir(self, game_folder: Path, game_id: str) -> Path:
        """A game's own `templates/` folder if it has one, else `templates/<game-id>/`, else
        the built-in starter theme."""
        own = game_folder / "templates"
        if own.is_dir():
            return own
        project = self.root / "templates" / game_id
        return project if project.is_dir() or not self.standalone else THEMES / "starter"

    def display(self, path: Path) -> str:
        """A path as messages show it: relative to the project when inside it. A link is shown
        by its own name, not by where it leads."""
        try:
            return str((path.parent.resolve() / path.name).relative_to(self.root.resolve()))
        except ValueError:
            return str(path)

    def game_folders(self) -> dict[str, Path]:
        """Every folder under cards/ that holds a game.yaml, by folder name."""
        if not self.cards_dir.is_dir():
            return {}
        return {
            p.name: p for p in sorted(self.cards_dir.iterdir()) if p.is_dir() and (p / GAME_FILE).is_file()
        }

    def resolve_game(self, name: str) -> Path | None:
        """A game id under cards/, or a path to a game folder anywhere."""
        folders = self.game_folders()
        if name in folders:
            return folders[name]
        path = Path(name)
        if not path.is_absolute():
            path = Path.cwd() / path
        if path.is_dir() and (path / GAME_FILE).is_file():
            return path.resolve()  # `..` names the folder it stands for
        return None


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` that has cards/ and layouts/; else `start`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "layouts").is_dir() and (folder / "cards").is_dir():
            return folder
    return start


def find_game(start: Path) -> Path | None:
    """The game folder `start` is in (the nearest folder at or above it with a game.yaml)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / GAME_FILE).is_file():
            return folder
    return None


def project_for(game_folder: Path, out: Path | None = None) -> Project:
    """The project a game folder sits in (`<project>/cards/<game>/`), else the game on its own."""
    game_folder = game_folder.resolve()
    root = game_folder.parent.parent
    if game_folder.parent.name == "cards" and (root / "layouts").is_dir():
        return Project(root, out=out)
    return Project(game_folder, standalone=True, out=out)
