"""What a rulebook reference selects from the game: the card it names, or the rows or cards and
columns a block reference stands for. The validator and the renderer call the same `resolve`, so
what validates is exactly what prints.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..expressions import ExpressionError, UnknownTouched, evaluate, expose, game_functions
from ..model import Card, FieldSpec, Game, Row, RulebookRef
from .syntax import parse_columns

CARD_KEYS = ("name", "id", "count", "number", "type")
_STANDARD_TITLES = {"id": "Id", "name": "Name", "count": "Count", "number": "No.", "type": "Type"}
_SHORT_CODE = re.compile(r"^[a-z]\d+$")  # m1, q3: printed as M1, Q3


def humanize(name: str) -> str:
    """A column name as a heading: as_written -> As written, m1 -> M1."""
    if _SHORT_CODE.match(name):
        return name.upper()
    words = name.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class Column:
    name: str
    title: str
    spec: FieldSpec | None  # None for a card's standard keys
    labelled: bool = False  # the heading was given in the reference


@dataclass(frozen=True)
class Selection:
    """What a block reference prints: items (cards or rows) and the columns to show."""

    ref: RulebookRef
    layout: str  # table | list | numbered | terms
    columns: tuple[Column, ...]
    term: tuple[Column, ...]  # terms layout: the columns that make the term
    group: Column | None
    items: tuple[Card | Row, ...]
    caption: str | None
    number_column: str | None  # numbered layout: the whole-number key that numbers items
    indented: frozenset[int] = frozenset()  # indexes of items the `indent=` expression picks


def value_of(item: Card | Row, name: str) -> Any:
    if isinstance(item, Card) and name == "type":
        return item.type
    return item.get(name)


def spec_of(game: Game, item: Card | Row, name: str, column: Column) -> FieldSpec | None:
    """The field spec that types `name` for this item (card types differ in a mixed list)."""
    if isinstance(item, Card):
        card_type = game.card_types.get(item.type)
        if card_type is not None:
            return card_type.fields.get(name) or card_type.back_fields.get(name)
        return None
    return column.spec


def _available(game: Game, ref: RulebookRef) -> tuple[dict[str, FieldSpec | None], list[str]]:
    """Column name -> spec for the reference's target, in declared order; or problems."""
    if ref.kind == "table":
        table = game.tables.get(ref.target)
        if table is None:
            known = ", ".join(sorted(game.tables)) or "none"
            return {}, [f"{ref.source}: no table {ref.target!r} (tables: {known})"]
        return dict(table.columns), []
    columns: dict[str, FieldSpec | None] = {k: None for k in CARD_KEYS}
    problems = []
    for type_id in ref.target.split(","):
        card_type = game.card_types.get(type_id)
        if card_type is None:
            known = ", ".join(sorted(game.card_types)) or "none"
            problems.append(f"{ref.source}: no card type {type_id!r} (card types: {known})")
            continue
        for name, spec in {**card_type.fields, **card_type.back_fields}.items():
            columns.setdefault(name, spec)
    return columns, problems


def _column(name: str, title: str | None, spec: FieldSpec | None) -> Column:
    if title:
        return Column(name, title, spec, labelled=True)
    if spec is not None and spec.title:
        return Column(name, spec.title, spec)
    return Column(name, _STANDARD_TITLES.get(name) or humanize(name), spec)


def _pick(
    ref: RulebookRef, option: str, available: Mapping[str, FieldSpec | None], problems: list[str]
) -> list[Column]:
    picked = []
    for name, title in parse_columns(ref.options[option]):
        if name not in available:
            known = ", ".join(available)
            problems.append(f"{ref.source}: {option}: no column {name!r} (columns: {known})")
        else:
            picked.append(_column(name, title, available[name]))
    return picked


def _items(game: Game, ref: RulebookRef) -> list[Card | Row]:
    if ref.kind == "table":
        return list(game.tables[ref.target].rows)
    types = ref.target.split(",")  # in the order the reference names them, then file order
    return sorted((card for card in game.cards if card.type in types), key=lambda c: types.index(c.type))


def _names(item: Card | Row, columns: Mapping[str, Any]) -> dict[str, Any]:
    """What an expression sees: every column (None where the item gives no value)."""
    values = dict.fromkeys(columns)
    if isinstance(item, Card):
        values.update({"id": item.id, "type": item.type, "name": item.name, "count": item.count})
        values.update({"number": item.number, **item.fields})
        label = item.id
    else:
        values.update(item.values)
        label = "row"
    return {k: expose(v, f"{label}.{k}") for k, v in values.items()}


def _filter(
    game: Game, ref: RulebookRef, option: str, items: list, columns: Mapping[str, Any], problems: list[str]
) -> list:
    """The items for which the option's expression is true (an unknown value counts as false)."""
    expression = ref.options.get(option)
    if expression is None:
        return items
    functions = game_functions(game)
    chosen = []
    for item in items:
        try:
            keep = evaluate(expression, _names(item, columns), functions)
        except UnknownTouched:
            continue
        except ExpressionError as exc:
            if not exc.repeated:  # a spent work budget is reported once
                problems.append(f"{ref.source}: {option}: {exc}")
            return []
        if keep:
            chosen.append(item)
    return chosen


def resolve(game: Game, ref: RulebookRef) -> tuple[Selection | None, list[str]]:
    """A table or cards reference -> what it prints, or the problems that stop it."""
    available, problems = _available(game, ref)
    if problems:
        return None, problems
    options = ref.options
    if "columns" in options:
        columns = _pick(ref, "columns", available, problems)
    elif ref.kind == "table":
        columns = [_column(n, None, s) for n, s in available.items()]
    else:
        columns = [_column(n, None, s) for n, s in available.items() if n not in ("id", "type", "count")]
    term = _pick(ref, "term", available, problems) if "term" in options else []
    group = None
    if "group" in options:
        found = _pick(ref, "group", available, problems)
        group = found[0] if found else None
    layout = options.get("as", "table")
    if term and layout != "terms":
        problems.append(f"{ref.source}: term= is used only with as=terms")
    if layout == "terms" and not term:
        if len(columns) < 2:
            problems.append(f"{ref.source}: as=terms needs a term and at least one more column")
        else:
            term, columns = columns[:1], columns[1:]
    if not columns:
        problems.append(f"{ref.source}: no columns to show")
    items = _filter(game, ref, "where", _items(game, ref), available, problems)
    indented = set()
    if "indent" in options:
        indented = {id(item) for item in _filter(game, ref, "indent", items, available, problems)}
    if problems:
        return None, problems
    number_column = None
    if ref.kind == "table":
        table = game.tables[ref.target]
        key_spec = table.columns.get(table.key) if table.key else None
        if key_spec is not None and key_spec.type == "int":
            number_column = table.key
    caption = options.get("caption")
    if caption == "title":
        caption = (
            game.tables[ref.target].title
            if ref.kind == "table"
            else ", ".join(game.card_types[t].title for t in ref.target.split(","))
        )
    return (
        Selection(
            ref=ref,
            layout=layout,
            columns=tuple(columns),
            term=tuple(term),
            group=group,
            items=tuple(items),
            caption=caption or None,
            number_column=number_column,
            indented=frozenset(i for i, item in enumerate(items) if id(item) in indented),
        ),
        [],
    )


def resolve_card(game: Game, ref: RulebookRef) -> tuple[Card | None, str, list[str]]:
    """A `{card:id field=...}` reference -> the card and the field it prints."""
    card = game.card(ref.target)
    field_name = ref.options.get("field", "name")
    if card is None:
        return None, field_name, [f"{ref.source}: no card {ref.target!r} in this game"]
    card_type = game.card_types.get(card.type)
    fields = (
        *CARD_KEYS,
        *(card_type.fields if card_type else ()),
        *(card_type.back_fields if card_type else ()),
    )
    if field_name not in fields:
        known = ", ".join(fields)
        return None, field_name, [f"{ref.source}: a {card.type} card has no field {field_name!r} ({known})"]
    return card, field_name, []
