"""Limits the data can exceed: the largest value any legal combination of cards reaches.

A table declares `editor: {limit: {...}}`: its rows are the contributions to one quantity. A row
whose `cards` column is empty is the base (always counted); any other row counts when all its
cards are in play. Each contribution column is one reading (e.g. by the card texts, by the
designer notes). A legal combination has at most `at_most[type]` cards of each type (an
expression, as in checks) and no two cards where one lists the other in the `exclusive` field.
The largest total over every legal combination is compared with each bound (a card field: the
smallest among a type's cards, or one card's value); an unknown contribution cannot be bounded.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ..diagnostics import Diagnostics, Loc
from ..expressions import ExpressionError, UnknownTouched, evaluate, game_functions
from ..model import Card, Game, LimitBound, LimitSpec, Row, Table, Unknown
from .finding import Finding, Side
from .texts import card_label, row_key, row_label

MAX_COMBINATIONS = 100_000


def limit_findings(game: Game, diags: Diagnostics) -> list[Finding]:
    findings = []
    for table in game.tables.values():
        spec = table.editor.limit if table.editor else None
        if spec is not None:
            findings.extend(_limit(game, table, spec, diags))
    return findings


def _ids(value) -> tuple[str, ...]:
    if isinstance(value, tuple):
        return tuple(v for v in value if isinstance(v, str))
    return (value,) if isinstance(value, str) else ()


def _bound(game: Game, bound: LimitBound, diags: Diagnostics) -> tuple[int, Loc, str] | None:
    """The bound's value, where it is, and which card gives it."""
    if bound.card is not None:
        card = game.card(bound.card)
        if card is None:
            diags.error(bound.loc, f"limit bound {bound.what!r}: no card {bound.card!r}")
            return None
        candidates = [card]
    else:
        if bound.type not in game.card_types:
            diags.error(bound.loc, f"limit bound {bound.what!r}: no card type {bound.type!r}")
            return None
        candidates = list(game.cards_of(bound.type))
    values = []
    for card in candidates:
        value = card.count if bound.field == "count" else card.fields.get(bound.field)
        if isinstance(value, int) and not isinstance(value, bool):
            values.append((value, card.loc_of(bound.field), card_label(card)))
        elif value is None and bound.field != "count":
            diags.error(
                bound.loc, f"limit bound {bound.what!r}: card {card.id!r} has no field {bound.field!r}"
            )
            return None
    return min(values, key=lambda v: v[0]) if values else None


def _at_most(game: Game, spec: LimitSpec, diags: Diagnostics) -> dict[str, int] | None:
    out = {}
    functions = game_functions(game)
    for type_id, value in spec.at_most.items():
        if type_id not in game.card_types:
            diags.error(spec.loc, f"limit at_most: no card type {type_id!r}")
            return None
        if isinstance(value, str):
            try:
                value = evaluate(value, {}, functions)
            except (ExpressionError, UnknownTouched) as exc:
                if not getattr(exc, "repeated", False):  # a spent work budget is reported once
                    diags.error(spec.loc, f"limit at_most.{type_id}: {exc}")
                return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            diags.error(spec.loc, f"limit at_most.{type_id} must give a whole number >= 0, gave {value!r}")
            return None
        out[type_id] = value
    return out


def _combinations(game: Game, cards: list[Card], at_most: dict[str, int], exclusive: str | None):
    by_type: dict[str, list[Card]] = {}
    for card in cards:
        by_type.setdefault(card.type, []).append(card)
    choices = []
    for type_id, members in by_type.items():
        most = min(at_most.get(type_id, len(members)), len(members))
        choices.append([c for n in range(most + 1) for c in itertools.combinations(members, n)])
    for picked in itertools.product(*choices):
        combo = tuple(c for group in picked for c in group)
        if exclusive and any(
            b.id in _ids(a.fields.get(exclusive)) for a, b in itertools.permutations(combo, 2)
        ):
            continue
        yield combo


def _limit(game: Game, table: Table, spec: LimitSpec, diags: Diagnostics) -> Iterator[Finding]:
    at_most = _at_most(game, spec, diags)
    bounds = [(b, _bound(game, b, diags)) for b in spec.bounds]
    if at_most is None or any(v is None for _, v in bounds):
        return
    rows = [(row, [game.card(i) for i in _ids(row.get(spec.cards))]) for row in table.rows]
    if any(None in cards for _, cards in rows):
        return  # a broken reference: the validator reports it
    candidates = list({c.id: c for _, cards in rows for c in cards}.values())
    combos = list(
        itertools.islice(_combinations(game, candidates, at_most, spec.exclusive), MAX_COMBINATIONS + 1)
    )
    if len(combos) > MAX_COMBINATIONS:
        diags.error(spec.loc, f"limit: more than {MAX_COMBINATIONS} combinations of cards; declare at_most")
        return
    smallest = min(v[0] for _, v in bounds)
    for column in spec.contributions:
        reading = table.columns[column].title or column
        yield from _reading(game, table, spec, column, reading, rows, combos, bounds, smallest)


def _reading(game, table, spec, column, reading, rows, combos, bounds, smallest) -> Iterator[Finding]:
    best: tuple[int, tuple, list] | None = None
    unknown: dict[int, Row] = {}
    for combo in combos:
        chosen = {c.id for c in combo}
        counted = [(row, cards) for row, cards in rows if all(c.id in chosen for c in cards)]
        missing = [row for row, _ in counted if isinstance(row.get(column), Unknown)]
        if missing:
            for row in missing:
                unknown[id(row)] = row
            continue
        total = sum(row.get(column) or 0 for row, _ in counted)
        if best is None or total > best[0]:
            best = (total, combo, counted)
    key = f"{table.id}|{column}"
    bound_sides = [Side(f"{b.what} ({card})", loc, f"{b.field}: {value}") for b, (value, loc, card) in bounds]
    bound_words = " and ".join(f"the {value} {b.what}" for b, (value, _, _) in bounds)
    if unknown:
        rows_unknown = list(unknown.values())
        names = ", ".join(_row_name(table, spec, r, game) for r in rows_unknown)
        notes = "; ".join(r.get(column).note for r in rows_unknown)
        yield Finding(
            kind="limits",
            key=key,
            message=(
                f"{_sentence(spec.quantity)}, {reading}: {names} sets no limit ({notes}), so nothing "
                f"keeps the {spec.quantity} within {bound_words}"
            ),
            sides=(*[_row_side(table, spec, r, column, game) for r in rows_unknown], *bound_sides),
        )
        return
    if best is None or best[0] <= smallest:
        return
    total, combo, counted = best
    parts = " + ".join(str(row.get(column)) for row, _ in counted)
    names = " + ".join(card_label(c) for c in combo) or "no cards"
    over = " and ".join(f"the {value} {b.what}" for b, (value, _, _) in bounds if total > value)
    yield Finding(
        kind="limits",
        key=key,
        message=(
            f"{_sentence(spec.quantity)}, {reading}: the legal combination {names} reaches {total} "
            f"({parts}), more than {over}"
        ),
        sides=(*[_row_side(table, spec, r, column, game) for r, _ in counted], *bound_sides),
    )


def _row_name(table: Table, spec: LimitSpec, row: Row, game: Game) -> str:
    cards = [game.card(i) for i in _ids(row.get(spec.cards))]
    return " + ".join(card_label(c) for c in cards if c) or row_key(table, row)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _row_side(table: Table, spec: LimitSpec, row: Row, column: str, game: Game) -> Side:
    value = row.get(column)
    shown = f"unknown: {value.note}" if isinstance(value, Unknown) else str(value)
    texts = [v for n, s in table.columns.items() if s.type == "text" and isinstance(v := row.get(n), str)]
    text = f"{column}: {shown}" + (f" — “{texts[0]}”" if texts else "")
    name = _row_name(table, spec, row, game)
    label = row_label(table, row) + (f" ({name})" if name != row_key(table, row) else "")
    return Side(label, row.loc_of(column), text)
