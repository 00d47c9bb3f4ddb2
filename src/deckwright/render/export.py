"""The normalised database as JSON or CSV, for spreadsheets and tools."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..model import Card, Game, Row, Unknown
from ..safety.csvsafe import csv_bytes

LIST_SEPARATOR = "; "


def _plain(value: Any) -> Any:
    if isinstance(value, Unknown):
        return {"unknown": value.note}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def card_dict(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "type": card.type,
        "name": card.name,
        "count": _plain(card.count),
        "number": _plain(card.number),
        "fields": {k: _plain(v) for k, v in sorted(card.fields.items())},
    }


def _row_dict(row: Row) -> dict[str, Any]:
    return {k: _plain(v) for k, v in row.values.items()}


def export_json(game: Game) -> bytes:
    info = game.info
    data = {
        "game": {
            "id": info.id,
            "name": info.name,
            "edition": _plain(info.edition),
            "version": _plain(info.version),
            "players": {"min": info.players_min, "max": info.players_max},
        },
        "cards": [card_dict(c) for c in game.cards],
        "tables": {
            t.id: {"title": t.title, "key": t.key, "rows": [_row_dict(r) for r in t.rows]}
            for t in game.tables.values()
        },
    }
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Unknown):
        return "unknown"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return LIST_SEPARATOR.join(_cell(v) for v in value)
    return str(value)


def export_csv(game: Game) -> bytes:
    """One row per card; one column per field any card type declares."""
    fields = sorted({name for c in game.cards for name in c.fields})
    header = ["id", "type", "name", "count", "number", *fields]
    rows = (
        [card.id, card.type, card.name, _cell(card.count), _cell(card.number)]
        + [_cell(card.fields.get(f)) for f in fields]
        for card in game.cards
    )
    return csv_bytes([header, *rows])  # cells a spreadsheet would evaluate are neutralised
