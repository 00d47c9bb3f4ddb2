"""Where things are: the project folder with cards/, layouts/, templates/, fonts/, build/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GAME_FILE = "game.yaml"


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def cards_dir(self) -> Path:
        return self.root / "cards"

    @property
    def layouts_dir(self) -> Path:
        return self.root / "layouts"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def fonts_dir(self) -> Path:
        return self.root / "fonts"

    @property
    def art_dir(self) -> Path:
        return self.root / "art"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    def game_templates_dir(self, game_folder: Path, game_id: str) -> Path:
        """A game's own `templates/` folder if it has one, else `templates/<game-id>/`."""
        own = game_folder / "templates"
        return own if own.is_dir() else self.templates_dir / game_id

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
            return path
        return None


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` that has cards/ or layouts/; else `start`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "layouts").is_dir() and (folder / "cards").is_dir():
            return folder
    return start
