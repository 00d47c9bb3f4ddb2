"""Card fields and table cells against the declared field specs; every unknown is a warning."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import STANDARD_CARD_KEYS, FieldSpec, Game, Unknown

# C0 and C1 control characters (and DEL), except the line break and tab text may hold: they
# cannot be drawn, and most of them cannot even appear in the SVG a card is drawn from.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def control_problem(value: Any) -> str | None:
    """'contains a control character (U+0007)' for text holding one, else None."""
    found = _CONTROL.search(value) if isinstance(value, str) else None
    return f"contains a control character (U+{ord(found.group()):04X})" if found else None


def _check_printable(value: Any, loc: Loc, what: str, diags: Diagnostics) -> None:
    problem = control_problem(value)
    if problem:
        diags.error(loc, f"{what} {problem}")


def check_schema(game: Game, diags: Diagnostics) -> None:
    info = game.info
    for key in ("edition", "version", "date", "tagline"):
        value = getattr(info, key)
        if isinstance(value, Unknown):
            _warn_unknown(value, f"game: {key!r}", diags)
    # the texts that are printed without a field spec: names and titles
    for key in ("name", "edition", "version", "date", "tagline", "source", "notes"):
        _check_printable(getattr(info, key), info.loc, f"game: {key!r}", diags)
    for key, value in info.extra.items():
        _check_printable(value, info.loc, f"game: {key!r}", diags)
    for type_id, card_type in game.card_types.items():
        _check_printable(card_type.title, card_type.loc, f"card type {type_id!r}: 'title'", diags)
    for deck_id, deck in game.decks.items():
        _check_printable(deck.title, deck.loc, f"deck {deck_id!r}: 'title'", diags)
    for table_id, table in game.tables.items():
        _check_printable(table.title, table.loc, f"table {table_id!r}: 'title'", diags)
    for card in game.cards:
        card_type = game.card_types[card.type]
        specs = {**card_type.fields, **card_type.back_fields}
        what = f"card {card.id!r}"
        _check_printable(card.name, card.loc_of("name"), f"{what}: 'name'", diags)
        _check_printable(card.number, card.loc_of("number"), f"{what}: 'number'", diags)
        for key in card.fields:
            if key not in specs:
                accepted = ", ".join((*STANDARD_CARD_KEYS, *specs))
                diags.error(
                    card.key_loc(key),
                    f"{what}: unknown key {key!r} for a {card.type} card (accepted: {accepted})",
                )
        for name, spec in specs.items():
            _check_value(
                card.fields.get(name),
                name in card.fields,
                spec,
                card.loc_of(name),
                f"{what}: {name!r}",
                diags,
            )
        if isinstance(card.count, Unknown):
            _warn_unknown(card.count, f"{what}: count", diags)
        if isinstance(card.number, Unknown):
            _warn_unknown(card.number, f"{what}: number", diags)
    for table in game.tables.values():
        for i, row in enumerate(table.rows):
            what = f"table {table.id!r} row {i + 1}"
            for name, spec in table.columns.items():
                given = name in row.values
                if spec.expr is not None and isinstance(row.values.get(name), Unknown):
                    continue  # reported where the unknown it was computed from is
                _check_value(row.values.get(name), given, spec, row.loc_of(name), f"{what}: {name!r}", diags)


def _warn_unknown(value: Unknown, what: str, diags: Diagnostics) -> None:
    note = f": {value.note}" if value.note else ""
    diags.warning(value.loc, f"{what} is unknown{note}", code="unknown")
    _check_printable(value.note, value.loc, f"{what}: the note of the unknown", diags)  # printed


def _check_value(value: Any, given: bool, spec: FieldSpec, loc: Loc, what: str, diags: Diagnostics) -> None:
    if not given:
        if spec.required:
            diags.error(loc, f"{what} is required")
        return
    if isinstance(value, Unknown):
        _warn_unknown(value, what, diags)
        return
    problem = _type_problem(value, spec)
    if problem:
        diags.error(loc, f"{what} {problem}")
        return
    if spec.type == "list":
        n = len(value)
        if spec.min_items is not None and n < spec.min_items:
            diags.error(loc, f"{what} needs at least {spec.min_items} items, has {n}")
        if spec.max_items is not None and n > spec.max_items:
            diags.error(loc, f"{what} takes at most {spec.max_items} items, has {n}")
        if spec.of is not None:
            for i, item in enumerate(value):
                item_loc = item.loc if isinstance(item, Unknown) else loc
                _check_value(item, True, spec.of, item_loc, f"{what}[{i + 1}]", diags)


_TYPE_NAMES: Mapping[str, str] = {
    "str": "one line of text",
    "text": "text",
    "int": "a whole number",
    "bool": "true or false",
    "enum": "one of the enumerated values",
    "ref": "the id of a card",
    "list": "a list",
}


def _type_problem(value: Any, spec: FieldSpec) -> str | None:
    t = spec.type
    if t in ("str", "text", "ref"):
        if not isinstance(value, str):
            return f"must be {_TYPE_NAMES[t]}, not {type(value).__name__} {value!r}"
        if t == "str" and "\n" in value.strip():
            return "must be one line (use type: text for several)"
        if t in ("str", "text"):
            return control_problem(value)
        return None
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number, not {value!r}"
        if spec.min is not None and value < spec.min:
            return f"must be at least {spec.min}, not {value}"
        if spec.max is not None and value > spec.max:
            return f"must be at most {spec.max}, not {value}"
        return None
    if t == "bool":
        return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
    if t == "enum":
        if value not in spec.values:
            return f"is {value!r}, which is not one of: {', '.join(spec.values)}"
        return None
    if t == "list":
        return None if isinstance(value, tuple) else f"must be a list, not {value!r}"
    return None
