"""Rendered card sides kept between builds, so a rebuild after one edit lays out and draws only
the cards that changed.

A side's SVG and the problems its render found are a function of what its template can see:
the card (with its locations, which the problems name), its card type and layout, the game's
identity and tables, the template files, the style (a file beside the templates), the fonts,
deckwright's and Jinja's code, the card's art, and any other card the template looks up with
`find_card`. The key covers all but the last; the cards a render looked up are stored with it and
compared on every hit, since which ones a template asks for is only known once it has run.
A card with an art file is not kept (art may be a symlink and is checked at each use); neither is
a render that failed, so every template error is reported afresh.

Entries are kept in a `PickleStore`: one that cannot be read or written only means rendering
again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from ...cache import PickleStore, code_version, digest, files_digest
from ...model import Card, Game
from ...safety.containment import is_inside, resolved_roots

if TYPE_CHECKING:
    from .template import Rendered


def _files(folders: Iterable[Path]) -> list[Path]:
    """Every file a template loader can reach under `folders`, through linked folders too."""
    found, seen = set(), set()
    folders = list(folders)
    inside = resolved_roots(folders)  # what the loader may serve; a link out is not read here
    for folder in folders:
        for root, dirs, files in os.walk(folder, followlinks=True):
            real = os.path.realpath(root)
            # a link back up the tree, a folder already read, or a link out of the template
            # folders (which the loader refuses to serve: never walked, a link to / included)
            if real in seen or not is_inside(Path(real), inside):
                dirs.clear()
                continue
            seen.add(real)
            found.update(
                Path(root, name)
                for name in files
                if Path(root, name).is_file() and is_inside(Path(os.path.realpath(Path(root, name))), inside)
            )
    return sorted(found)


def card_digest(game: Game, card: Card | None) -> str:
    """A card as a template sees it through `find_card`: its data and its card type."""
    if card is None:
        return "none"
    return digest(repr(card), repr(game.card_types[card.type]))


@dataclass(frozen=True)
class _Entry:
    looked_up: tuple[tuple[str, str], ...]  # (card id, card_digest) of every find_card
    rendered: Rendered


class FaceCache:
    def __init__(
        self,
        cache_dir: Path,
        game: Game,
        template_dirs: Iterable[Path],
        font_files: Iterable[Path],
        read: bool = True,
    ) -> None:
        """`template_dirs`: the template loader's search path; `font_files`: fonts.yaml and
        every font it names. Without `read` (`build --no-cache`) every side is rendered afresh
        and kept."""
        self.game = game
        self.read = read
        self.store = PickleStore(cache_dir / "faces")
        self._common = digest(
            code_version(),
            jinja2.__version__,
            files_digest(_files(template_dirs)),
            files_digest(font_files),
            repr(game.id),
            repr(game.info),
            repr(sorted((t.id, repr(t.rows)) for t in game.tables.values())),
        )

    def key(self, card: Card, side: str, template: str, layout: object) -> str:
        return digest(self._common, side, template, card_digest(self.game, card), repr(layout))

    def get(self, key: str) -> Rendered | None:
        if not self.read:
            return None
        entry = self.store.get(f"{key[:2]}/{key}")
        if not isinstance(entry, _Entry):  # missing, damaged, or not ours: render again
            return None
        for card_id, seen in entry.looked_up:
            if card_digest(self.game, self.game.card(card_id)) != seen:
                return None
        return entry.rendered

    def put(self, key: str, rendered: Rendered, looked_up: Iterable[str]) -> None:
        seen = tuple((i, card_digest(self.game, self.game.card(i))) for i in dict.fromkeys(looked_up))
        self.store.put(f"{key[:2]}/{key}", _Entry(seen, rendered))
