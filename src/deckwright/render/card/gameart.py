"""Where a game's art is found: `<game>/art/<card-id>.(png|jpg|svg)` by convention, or the file
a card's `art` key names (in `<game>/art/`); inside a project, also `art/<game-id>/` as before.
The checks on the files themselves (containment, size, SVG safety) are `ArtLibrary`'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from .art import EXTENSIONS, ArtLibrary


class GameArt(ArtLibrary):
    def __init__(self, dirs: Sequence[Path], named: Mapping[str, str] | None = None) -> None:
        """`dirs`: the art folders, most specific first; `named`: card id -> the file its
        `art` key names, relative to an art folder."""
        super().__init__(dirs[0] if dirs else Path("art"))
        self.dirs = list(dirs)
        self.named = dict(named or {})
        self._found_in: dict[Path, Path] = {}

    def find(self, game_id: str, card_id: str) -> Path | None:
        candidates = [self.named[card_id]] if card_id in self.named else [f"{card_id}{e}" for e in EXTENSIONS]
        for folder in self.dirs:
            for name in candidates:
                path = folder / name
                if path.exists() or path.is_symlink():
                    self._found_in[path] = folder
                    return path
        return None

    def root_of(self, path: Path) -> Path:
        """The folder holding the art folder the file was found in (`<game>/` for `<game>/art/`,
        the project's `art/` for `art/<game>/`): an art folder that is itself a link out of
        it is refused like a file that is."""
        found = self._found_in.get(path)
        return found.parent if found is not None else self.art_dir


def art_files(dirs: Sequence[Path]) -> dict[str, Path]:
    """Every art file of the folders by name (the first folder wins), in name order."""
    found: dict[str, Path] = {}
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in EXTENSIONS and path.name not in found:
                found[path.name] = path
    return dict(sorted(found.items()))
