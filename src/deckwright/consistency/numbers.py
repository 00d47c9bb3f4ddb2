"""Numbers against texts: what notes and prose state about a card, a counter or a track.

1. Notes about cards. A table that declares `editor: {about: <column>}` holds statements about
   the cards that column names (designer notes). For each head noun, when the note states one
   number of it ("peeking 5 cards") and the card's own texts state one number of it ("the top
   4 cards"), the two must agree; so must the card's count field named for that noun in the
   plural ("2 uses" against `uses_per_game`). A noun counted with several numbers on either side
   is left alone: it counts different things.
2. Ranges against the data. "the Devotion track (0–8)" is checked against fields
   `devotion_track_min`/`devotion_track_max`: on the same card or row as the text, or on any
   card type whose cards all hold the same range. The field's base name must be among the words
   that name the range, at least one of them before it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Loc
from ..model import Card, Game, Row, Table
from .finding import Finding, Side
from .texts import Text, card_label, card_texts, game_texts, row_key, row_label, row_texts
from .words import Pair, Range, pairs, ranges, singular


def number_findings(game: Game) -> list[Finding]:
    return [*_note_findings(game), *_range_findings(game)]


# --- notes about cards ------------------------------------------------------------------------


def _by_head(found: list[tuple[Text, Pair]]) -> dict[str, list[tuple[Text, Pair]]]:
    heads: dict[str, list[tuple[Text, Pair]]] = {}
    for text, pair in found:
        heads.setdefault(pair.head, []).append((text, pair))
    return heads


def _numbers(items: list[tuple[Text, Pair]]) -> set[int]:
    return {pair.number for _, pair in items}


def _side(text: Text, items: list[tuple[Text, Pair]]) -> Side:
    marks = tuple((p.start, p.end) for t, p in items if t is text)
    return text.side(marks)


def _quote(text: Text, pair: Pair) -> str:
    return "“" + text.text[pair.start : pair.end] + "”"


def _note_findings(game: Game) -> Iterator[Finding]:
    for table in game.tables.values():
        about = table.editor.about if table.editor else None
        if about is None:
            continue
        for row in table.rows:
            subjects = row.get(about)
            ids = subjects if isinstance(subjects, tuple) else (subjects,)
            notes = [t for t in row_texts(game, table, row) if t.field != about]
            stated = _by_head([(t, p) for t in notes for p in pairs(t.text)])
            for card in (game.card(i) for i in ids if isinstance(i, str)):
                if card is not None:
                    yield from _against_card(game, table, row, card, stated)


def _against_card(
    game: Game, table: Table, row: Row, card: Card, stated: dict[str, list[tuple[Text, Pair]]]
) -> Iterator[Finding]:
    texts = [t for t in card_texts(game, card) if t.field != "name"]
    own = _by_head([(t, p) for t in texts for p in pairs(t.text)])
    note_name = row_label(table, row)
    name = card_label(card)
    for head, said in stated.items():
        said_numbers = _numbers(said)
        if len(said_numbers) != 1:
            continue
        (number,) = said_numbers
        note_text, note_pair = said[0]
        key = f"table:{table.id}/{row_key(table, row)}|{card.id}|{head}"
        printed = own.get(head, [])
        if len(_numbers(printed)) == 1 and number not in _numbers(printed):
            card_text, card_pair = printed[0]
            yield Finding(
                kind="numbers",
                key=key,
                message=(
                    f"{note_name} says {_quote(note_text, note_pair)} about {name}; "
                    f"the card says {_quote(card_text, card_pair)}"
                ),
                sides=(_side(note_text, said), _side(card_text, printed)),
            )
            continue
        for field, value in _count_fields(game, card, said[0][1]):
            if value != number:
                yield Finding(
                    kind="numbers",
                    key=f"{key}|{field}",
                    message=(
                        f"{note_name} says {_quote(note_text, note_pair)} about {name}; "
                        f"the card's {field} is {value}"
                    ),
                    sides=(
                        _side(note_text, said),
                        Side(f"{name}, {field}", card.loc_of(field), f"{field}: {value}"),
                    ),
                )


def _count_fields(game: Game, card: Card, pair: Pair) -> Iterator[tuple[str, int]]:
    """The card's int fields that count the pair's noun: "uses" -> uses_per_game."""
    plural = pair.plural if pair.plural != pair.head else pair.head + "s"
    for name, value in card.fields.items():
        words = name.split("_")
        if words[-1] in ("min", "max") or plural not in words:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            yield name, value


# --- ranges against the data --------------------------------------------------------------------


def _range_fields(names) -> dict[str, tuple[str, str]]:
    """`<base>_min` / `<base>_max` pairs among field or column names, by base."""
    names = set(names)
    return {n[:-4]: (n, n[:-4] + "_max") for n in names if n.endswith("_min") and n[:-4] + "_max" in names}


def _named(base: str, before: tuple[str, ...], after: tuple[str, ...], own: bool = False) -> bool:
    """The field's base words name the range; in another item's text one of them must come
    before it ("the Devotion track (0–8)", not "at 5–6 players")."""
    words = {singular(w) for w in base.split("_")}
    return words <= set(before) | set(after) and (own or bool(words & set(before)))


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _type_ranges(game: Game) -> list[tuple[str, str, str, int, int, Card]]:
    """(type, base, min field, low, high, first card) for ranges every card of a type agrees on."""
    out = []
    for type_id, card_type in game.card_types.items():
        fields = {**card_type.fields, **card_type.back_fields}
        for base, (lo, hi) in _range_fields(fields).items():
            values = {(_int(c.fields.get(lo)), _int(c.fields.get(hi))): c for c in game.cards_of(type_id)}
            if len(values) == 1:
                ((low, high), card) = next(iter(values.items()))
                if low is not None and high is not None:
                    out.append((type_id, base, lo, low, high, card))
    return out


def _range_findings(game: Game) -> Iterator[Finding]:
    shared = _type_ranges(game)
    for text in game_texts(game):
        item_fields = _item_ranges(text)
        for found in ranges(text.text):
            before = (*found.before, *(singular(w) for w in text.field.split("_")))
            for base, (low, high, side_label, loc) in item_fields.items():
                if _named(base, before, found.after, own=True) and (found.low, found.high) != (low, high):
                    yield _range_finding(text, found, base, low, high, side_label, loc)
            for type_id, base, lo, low, high, card in shared:
                if text.card is not None and text.card.type == type_id:
                    continue  # the card's own fields are compared above
                if _named(base, found.before, found.after) and (found.low, found.high) != (low, high):
                    label = f"every {game.card_types[type_id].title}: {base}_min/_max"
                    yield _range_finding(text, found, f"{type_id}.{base}", low, high, label, card.loc_of(lo))


def _item_ranges(text: Text) -> dict[str, tuple[int, int, str, Loc]]:
    """The card's or row's own `<base>_min/_max` values, for a range stated in its own text."""
    item: Card | Row | None = text.card or text.row
    if item is None:
        return {}
    values = item.fields if isinstance(item, Card) else item.values
    out = {}
    for base, (lo, hi) in _range_fields(values).items():
        low, high = _int(values.get(lo)), _int(values.get(hi))
        if low is None or high is None:
            continue
        label = f"{card_label(item)}" if isinstance(item, Card) else row_label(text.table, item)
        out[base] = (low, high, f"{label}, {base}_min/_max", item.loc_of(lo))
    return out


def _range_finding(text: Text, found: Range, base: str, low: int, high: int, label: str, loc: Loc) -> Finding:
    stated = text.text[found.start : found.end]
    return Finding(
        kind="numbers",
        key=f"{text.place}|{base}",
        message=f"{text.label} states the range “{stated}”; the data has {low}–{high} ({label})",
        sides=(
            text.side(((found.start, found.end),)),
            Side(label, loc, f"{base}_min: {low}, {base}_max: {high}"),
        ),
    )
