"""Unique ids, references that resolve to a card of the right type, symmetric references."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import Card, FieldSpec, Game, Unknown


def check_references(game: Game, diags: Diagnostics) -> None:
    _unique_ids(game, diags)
    for card in game.cards:
        card_type = game.card_types[card.type]
        for name, spec in {**card_type.fields, **card_type.back_fields}.items():
            for target, loc in _refs(card.fields.get(name), spec, card.loc_of(name)):
                _resolve(game, target, spec, loc, f"card {card.id!r}: {name!r}", diags)
            if spec.symmetric:
                _symmetric(game, card, name, diags)
    for table in game.tables.values():
        for i, row in enumerate(table.rows):
            for name, spec in table.columns.items():
                for target, loc in _refs(row.values.get(name), spec, row.loc_of(name)):
                    _resolve(game, target, spec, loc, f"table {table.id!r} row {i + 1}: {name!r}", diags)


def _unique_ids(game: Game, diags: Diagnostics) -> None:
    first: dict[str, Card] = {}
    for card in game.cards:
        if card.id in first:
            other = first[card.id]
            diags.error(
                card.loc_of("id"),
                f"duplicate card id {card.id!r} (first defined at {other.loc_of('id')})",
            )
        else:
            first[card.id] = card


def _refs(value: Any, spec: FieldSpec, loc: Loc) -> Iterator[tuple[str, Loc]]:
    """The ids a value refers to, for ref fields and lists of refs (unknowns skipped)."""
    if isinstance(value, Unknown) or value is None:
        return
    if spec.type == "ref" and isinstance(value, str):
        yield value, loc
    elif spec.type == "list" and spec.of is not None and isinstance(value, tuple):
        for item in value:
            yield from _refs(item, spec.of, loc)


def _target_spec(spec: FieldSpec) -> FieldSpec:
    return spec.of if spec.type == "list" and spec.of is not None else spec


def _resolve(game: Game, target: str, spec: FieldSpec, loc: Loc, what: str, diags: Diagnostics) -> None:
    allowed = _target_spec(spec).to
    card = game.card(target)
    if card is None:
        diags.error(loc, f"{what} refers to {target!r}, which is no card of this game")
    elif allowed and card.type not in allowed:
        diags.error(loc, f"{what} refers to {target!r}, a {card.type} card; expected {' or '.join(allowed)}")


def _symmetric(game: Game, card: Card, name: str, diags: Diagnostics) -> None:
    value = card.fields.get(name)
    if not isinstance(value, tuple):
        return
    for target_id in value:
        target = game.card(target_id) if isinstance(target_id, str) else None
        if target is None:
            continue
        back = target.fields.get(name)
        if isinstance(back, Unknown):
            continue
        if not isinstance(back, tuple) or card.id not in back:
            where = target.loc_of(name) if name in target.fields else target.loc
            diags.error(
                card.loc_of(name),
                f"card {card.id!r} lists {target.id!r} in {name!r}, "
                f"but {target.id!r} does not list {card.id!r} back (at {where})",
            )
