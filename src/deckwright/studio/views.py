"""What the page shows, as JSON-ready dicts: the games' state, a page of a deck's cards (filtered
by type, deck and text), and one card with everything that quotes it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..diagnostics import Diagnostic
from ..model import Card, Game, Unknown
from .live import GameLive, Studio

PAGE_SIZE = 60  # cards per gallery page: 10,000 cards are 167 pages, each drawn on demand
OUTPUT_FILES = re.compile(r"^(pnp-[\w-]+\.pdf|rulebook\.(html|pdf)|errata\.(md|csv|pdf)|check\.html)$")


def editor_link(studio: Studio, diag_or_loc) -> str:
    loc = getattr(diag_or_loc, "loc", diag_or_loc)
    return f"vscode://file{quote(str(studio.absolute(loc)))}:{loc.line}:{loc.col}"


def diagnostic(studio: Studio, d: Diagnostic) -> dict:
    return {**d.as_dict(), "text": str(d), "editor": editor_link(studio, d)}


def outputs(studio: Studio, live: GameLive) -> list[dict]:
    """The documents and print files the page links to, as written in build/<game>/."""
    folder = studio.build_dir(live)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and OUTPUT_FILES.match(path.name):
            st = path.stat()
            found.append({"name": path.name, "size": st.st_size, "v": f"{st.st_mtime_ns:x}"})
    return found


def state(studio: Studio) -> dict:
    games = []
    for live in studio.games.values():
        game = live.game
        diags = [*studio.shared.sorted(), *live.diagnostics]
        decks, types = [], []
        if game is not None:
            for deck in game.decks.values():
                cards = [c for c in game.cards if c.type in deck.types]
                decks.append(
                    {"id": deck.id, "title": deck.title, "cards": len(cards), "copies": _copies(cards)}
                )
            types = [{"id": t.id, "title": t.title} for t in game.card_types.values()]
        games.append(
            {
                "id": live.id,
                "name": game.info.name if game else live.id,
                "state": live.state,
                "message": live.message,
                "stages": live.stages,
                "version": live.version,
                "seconds": round(live.seconds, 3),
                "stage_seconds": {k: round(v, 3) for k, v in live.stage_seconds.items()},
                "errors": sum(d.severity.value == "error" for d in diags),
                "warnings": sum(d.severity.value == "warning" for d in diags),
                "diagnostics": [diagnostic(studio, d) for d in diags],
                "decks": decks,
                "types": types,
                "cards": len(game.cards) if game else 0,
                "outputs": outputs(studio, live),
            }
        )
    return {"version": studio.version, "games": games}


def _copies(cards: list[Card]) -> int:
    return sum(c.count for c in cards if isinstance(c.count, int))


def face_urls(live: GameLive, name: str | None) -> dict | None:
    if name is None or name not in live.faces:
        return None
    version = live.faces[name]
    game = quote(live.id)
    if name in live.previews:
        full = f"/preview/{game}/{quote(name)}.png?v={version}"
    else:
        full = f"/files/{game}/cards/{quote(name)}.png?v={version}"
    return {"name": name, "image": full, "thumb": f"/thumb/{game}/{quote(name)}.png?v={version}"}


def _search_text(card: Card) -> str:
    values = [card.id, card.name, card.type, *(_plain(v) for v in card.fields.values())]
    return " ".join(values).casefold()


def _plain(value: Any) -> str:
    if isinstance(value, Unknown):
        return "unknown"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    return "" if value is None else str(value)


def card_has_error(card: Card, errors: set[tuple[str, int]]) -> bool:
    locs = [card.loc, *card.field_locs.values()]
    return any((loc.path, loc.line) in errors for loc in locs)


def cards(
    studio: Studio, live: GameLive, query: str = "", type_: str = "", deck: str = "", offset: int = 0
) -> dict:
    game = live.game
    if game is None:
        return {"total": 0, "offset": 0, "limit": PAGE_SIZE, "cards": []}
    words = query.casefold().split()
    types = set(game.decks[deck].types) if deck in game.decks else None
    errors = studio.error_locs(live)
    chosen = []
    for card in game.cards:
        if type_ and card.type != type_:
            continue
        if types is not None and card.type not in types:
            continue
        if words:
            text = _search_text(card)
            if not all(w in text for w in words):
                continue
        chosen.append(card)
    offset = max(0, min(offset, max(0, len(chosen) - 1) // PAGE_SIZE * PAGE_SIZE))
    page = chosen[offset : offset + PAGE_SIZE]
    return {
        "total": len(chosen),
        "offset": offset,
        "limit": PAGE_SIZE,
        "cards": [_card_item(game, live, c, errors) for c in page],
    }


def _card_item(game: Game, live: GameLive, card: Card, errors: set[tuple[str, int]]) -> dict:
    deck = game.deck_of(card)
    return {
        "id": card.id,
        "name": card.name,
        "type": game.card_types[card.type].title,
        "deck": deck.title if deck else "",
        "count": card.count if isinstance(card.count, int) else "?",
        "error": card_has_error(card, errors),
        "front": face_urls(live, live.front_of.get(card.id)),
        "back": face_urls(live, live.back_of.get(card.id)),
    }


def card(studio: Studio, live: GameLive, card_id: str) -> dict | None:
    game = live.game
    found = game.card(card_id) if game else None
    if found is None:
        return None
    card_type = game.card_types[found.type]
    layout = studio.catalog.layouts.get(card_type.layout) if studio.catalog else None
    errors = studio.error_locs(live)
    mine = [
        diagnostic(studio, d)
        for d in live.diagnostics
        if (d.loc.path, d.loc.line)
        in {(loc.path, loc.line) for loc in [found.loc, *found.field_locs.values()]}
    ]
    fields = [
        {
            "name": name,
            "value": _plain(value),
            "unknown": isinstance(value, Unknown),
            "where": str(found.loc_of(name)),
            "editor": editor_link(studio, found.loc_of(name)),
        }
        for name, value in found.fields.items()
    ]
    return {
        **_card_item(game, live, found, errors),
        "number": found.number,
        "where": str(found.loc),
        "editor": editor_link(studio, found.loc),
        "fields": fields,
        "layout": _layout(layout),
        "diagnostics": mine,
        "tables": _tables_quoting(studio, game, found),
        "rulebook": _rulebook_quoting(studio, game, found),
    }


def _layout(layout) -> dict | None:
    if layout is None:
        return None
    return {
        "id": layout.id,
        "title": layout.title,
        "width": layout.width,
        "height": layout.height,
        "bleed": layout.bleed,
        "safe": layout.safe,
        "radius": layout.corner_radius,
    }


def _mentions(value: Any, card: Card) -> bool:
    if isinstance(value, list | tuple):
        return any(_mentions(v, card) for v in value)
    return isinstance(value, str) and value in (card.id, card.name)


def _tables_quoting(studio: Studio, game: Game, card: Card) -> list[dict]:
    found = []
    for table in game.tables.values():
        for row in table.rows:
            columns = [c for c, v in row.values.items() if _mentions(v, card)]
            if columns:
                key = row.values.get(table.key) if table.key else None
                loc = row.loc_of(columns[0])
                found.append(
                    {
                        "table": table.title,
                        "id": table.id,
                        "row": _plain(key) if key is not None else "",
                        "columns": columns,
                        "where": str(loc),
                        "editor": editor_link(studio, loc),
                    }
                )
    return found


def _rulebook_quoting(studio: Studio, game: Game, card: Card) -> list[dict]:
    """Rulebook sections whose references name the card (or list all cards of its type)."""
    found = []
    for file in game.rulebook:
        lines = file.text.splitlines()
        for ref in file.refs:
            quotes = (ref.kind == "card" and ref.target == card.id) or (
                ref.kind == "cards" and card.type in ref.target.split(",")
            )
            if not quotes:
                continue
            found.append(
                {
                    "section": _heading_above(lines, ref.loc.line) or Path(file.path).stem,
                    "reference": ref.source,
                    "where": str(ref.loc),
                    "editor": editor_link(studio, ref.loc),
                }
            )
    return found


def _heading_above(lines: list[str], line: int) -> str:
    for text in reversed(lines[: max(0, line)]):
        if text.startswith("#"):
            return text.lstrip("#").strip()
    return ""
