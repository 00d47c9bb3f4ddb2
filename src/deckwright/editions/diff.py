"""Two versions of a game's model -> typed change records.

Cards are matched by id. A card whose id is new but whose text is the text of a card that went
away (same card type, word similarity of their texts at least `similarity`, 0.9 by default) is
a rename, like a card that kept its id and changed its name. Tables' rows are matched by the
table's key, else by position (a sequence match of whole rows). Derived rows and computed columns
are compared expanded, as the validator and the outputs see them. Rulebook chapters are compared
paragraph by paragraph (paragraphs are separated by blank lines).

Encoders' notes (`note:`) are not printed and not compared; neither is the note of an unknown
value (an unknown prints as a placeholder, whatever its note says).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..consistency.texts import card_label
from ..consistency.words import compare, word_diff
from ..diagnostics import Loc
from ..model import Card, Game, Row, RulebookFile, Table, Unknown

SIMILARITY = 0.9

# Kinds of change, grouped as the changelog groups them.
GROUPS: dict[str, tuple[str, ...]] = {
    "game": ("game", "schema"),
    "cards": ("card-added", "card-removed", "card-renamed", "count", "field"),
    "tables": ("table-added", "table-removed", "table", "row-added", "row-removed", "row"),
    "checks": ("check-added", "check-removed", "check"),
    "rulebook": ("chapter-added", "chapter-removed", "paragraph"),
}
KINDS = tuple(kind for kinds in GROUPS.values() for kind in kinds)


@dataclass(frozen=True)
class Change:
    """One difference between the two versions, where it is (the new version's place, else the
    old one's), and the values on both sides as plain data."""

    kind: str
    subject: str  # stable: "card:ann", "card:ann.text", "table:setup/4.light", "rulebook:01-x.md#3"
    message: str
    loc: Loc
    card: str | None = None  # the card it is about (its new id)
    old_card: str | None = None  # its id in the old version
    field: str | None = None
    old: Any = None
    new: Any = None
    words: tuple[tuple[str, str], ...] = ()  # word diff of old -> new text

    @property
    def group(self) -> str:
        return next(group for group, kinds in GROUPS.items() if self.kind in kinds)

    def line(self) -> str:
        return f"{self.loc.path}:{self.loc.line}: {self.kind}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "path": self.loc.path,
            "line": self.loc.line,
            "message": self.message,
            "card": self.card,
            "old_card": self.old_card,
            "field": self.field,
            "old": self.old,
            "new": self.new,
            "words": [list(op) for op in self.words],
        }


# -- plain values ------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A model value as JSON-able data: unknowns as {"unknown": note}, tuples as lists."""
    if isinstance(value, Unknown):
        return {"unknown": value.note}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not f.name.endswith(("loc", "locs")) and not f.name.startswith("_")
        }
    return value


def _same_key(value: Any) -> Any:
    """What equality compares: plain data, with every unknown alike (its note is not printed)."""
    if isinstance(value, Unknown):
        return ("unknown",)
    if isinstance(value, tuple | list):
        return tuple(_same_key(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _same_key(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(
            (f.name, _same_key(getattr(value, f.name)))
            for f in dataclasses.fields(value)
            if not f.name.endswith(("loc", "locs")) and not f.name.startswith("_")
        )
    return value


def same(a: Any, b: Any) -> bool:
    return _same_key(a) == _same_key(b)


def show(value: Any) -> str:
    """A value as a message shows it."""
    if isinstance(value, Unknown):
        return "unknown"
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _text_change(old: Any, new: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(old, str) and isinstance(new, str):
        return word_diff(old, new)
    return ()


def describe_values(old: Any, new: Any) -> str:
    """ "old → new", or for texts the word diff ([-deleted-] {+inserted+})."""
    if isinstance(old, str) and isinstance(new, str) and (" " in old or " " in new):
        from ..consistency.words import diff_text

        how = " (punctuation or spacing only)" if compare(old, new) == "punctuation" else ""
        return diff_text(word_diff(old, new)) + how
    return f"{show(old)} → {show(new)}"


# -- the comparison ----------------------------------------------------------------------------


def diff_games(old: Game, new: Game, similarity: float = SIMILARITY) -> list[Change]:
    """Every change from `old` to `new`, in report order: game, cards, tables, checks, rulebook."""
    changes: list[Change] = []
    changes += _game_changes(old, new)
    changes += _card_changes(old, new, similarity)
    changes += _table_changes(old, new)
    changes += _check_changes(old, new)
    changes += _rulebook_changes(old, new)
    return changes


def _game_changes(old: Game, new: Game) -> Iterator[Change]:
    for name in ("name", "edition", "version", "date", "tagline", "players_min", "players_max"):
        a, b = getattr(old.info, name), getattr(new.info, name)
        if not same(a, b):
            yield Change(
                "game",
                f"game.{name}",
                f"{name}: {describe_values(a, b)}",
                new.info.loc,
                field=name,
                old=plain(a),
                new=plain(b),
                words=_text_change(a, b),
            )
    for what, a_map, b_map in (
        ("enum", old.enums, new.enums),
        ("card type", old.card_types, new.card_types),
        ("deck", old.decks, new.decks),
    ):
        for key in sorted(set(a_map) | set(b_map)):
            a, b = a_map.get(key), b_map.get(key)
            if same(a, b):
                continue
            state = "added" if a is None else "removed" if b is None else "changed"
            where = getattr(b, "loc", None) or getattr(a, "loc", None) or new.info.loc
            yield Change(
                "schema",
                f"{what.replace(' ', '-')}:{key}",
                f"{what} {key!r} {state}",
                where,
                old=plain(a),
                new=plain(b),
            )


def text_fields(game: Game, card: Card) -> list[str]:
    """The rules-text fields of a card (front and back), whose wording errata are about."""
    card_type = game.card_types.get(card.type)
    if card_type is None:
        return []
    specs = {**card_type.fields, **card_type.back_fields}
    return [name for name, spec in specs.items() if spec.type == "text" and name != "note"]


def _content(game: Game, card: Card) -> list[str]:
    """The words a rename by similarity compares: the card's texts, else all its fields."""
    texts = [card.fields.get(f) for f in text_fields(game, card)]
    words = [w for t in texts if isinstance(t, str) for w in t.split()]
    if words:
        return words
    return [card.name, *(f"{k}={_same_key(v)}" for k, v in sorted(card.fields.items()))]


def _similarity(a: list[str], b: list[str]) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def rename_pairs(old: Game, new: Game, similarity: float) -> list[tuple[Card, Card]]:
    """(old card, new card) for each new id that takes the place of a removed card."""
    old_ids, new_ids = {c.id for c in old.cards}, {c.id for c in new.cards}
    removed = [c for c in old.cards if c.id not in new_ids]
    added = [c for c in new.cards if c.id not in old_ids]
    scored = []
    for i, a in enumerate(removed):
        for j, b in enumerate(added):
            if a.type != b.type:
                continue
            score = _similarity(_content(old, a), _content(new, b))
            if score >= similarity:
                scored.append((-score, i, j))
    pairs, used_old, used_new = [], set(), set()
    for _, i, j in sorted(scored):  # best match first; ties in file order
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((removed[i], added[j]))
    return pairs


def _card_changes(old: Game, new: Game, similarity: float) -> list[Change]:
    out: list[Change] = []
    renamed = {b.id: a for a, b in rename_pairs(old, new, similarity)}
    taken = {a.id for a in renamed.values()}
    for card in new.cards:
        before = old.card(card.id) or renamed.get(card.id)
        if before is None:
            out.append(
                Change(
                    "card-added",
                    f"card:{card.id}",
                    f"{card_label(card)} ({card.type}, {card.id}) added, count {show(card.count)}",
                    card.loc,
                    card=card.id,
                    new=_card_plain(card),
                )
            )
            continue
        out += _one_card(old, new, before, card)
    for card in old.cards:
        if new.card(card.id) is None and card.id not in taken:
            out.append(
                Change(
                    "card-removed",
                    f"card:{card.id}",
                    f"{card_label(card)} ({card.type}, {card.id}) removed (count was {show(card.count)})",
                    card.loc,
                    old_card=card.id,
                    old=_card_plain(card),
                )
            )
    return out


def _card_plain(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "type": card.type,
        "name": card.name,
        "count": plain(card.count),
        "number": plain(card.number),
        "fields": plain(card.fields),
    }


def _one_card(old: Game, new: Game, a: Card, b: Card) -> Iterator[Change]:
    label = card_label(b)
    if sum(c.name == b.name for c in new.cards) > 1:
        label += f" [{b.id}]"  # cards that share a name (seven "Basic Anointing") by their id
    ids = {"card": b.id, "old_card": a.id}
    if a.id != b.id:
        yield Change(
            "card-renamed",
            f"card:{b.id}",
            f"{card_label(a)} ({a.id}) is now {label} ({b.id}): a new id with the same text",
            b.key_loc("id"),
            field="id",
            old=a.id,
            new=b.id,
            **ids,
        )
    if a.name != b.name:
        yield Change(
            "card-renamed",
            f"card:{b.id}.name",
            f"{b.id}: renamed {show(a.name)} → {show(b.name)}",
            b.loc_of("name"),
            field="name",
            old=a.name,
            new=b.name,
            words=word_diff(a.name, b.name),
            **ids,
        )
    if not same(a.count, b.count):
        yield Change(
            "count",
            f"card:{b.id}.count",
            f"{label}: count {show(a.count)} → {show(b.count)}",
            b.loc_of("count"),
            field="count",
            old=plain(a.count),
            new=plain(b.count),
            **ids,
        )
    for name in ("type", "number"):
        x, y = getattr(a, name), getattr(b, name)
        if not same(x, y):
            yield Change(
                "field",
                f"card:{b.id}.{name}",
                f"{label}: {name} {show(x)} → {show(y)}",
                b.loc_of(name),
                field=name,
                old=plain(x),
                new=plain(y),
                **ids,
            )
    fields = list(dict.fromkeys([*b.fields, *a.fields]))
    for name in fields:
        x, y = a.fields.get(name), b.fields.get(name)
        if same(x, y):
            continue
        yield Change(
            "field",
            f"card:{b.id}.{name}",
            f"{label}: {name}: {describe_values(x, y)}",
            b.loc_of(name) if name in b.fields else b.loc,
            field=name,
            old=plain(x),
            new=plain(y),
            words=_text_change(x, y),
            **ids,
        )


def _row_id(table: Table, row: Row, index: int) -> str:
    if table.key is not None and row.get(table.key) is not None:
        return str(row.get(table.key))
    return str(index + 1)


def _table_changes(old: Game, new: Game) -> Iterator[Change]:
    for table_id in sorted(set(old.tables) | set(new.tables), key=lambda t: _table_order(old, new, t)):
        a, b = old.tables.get(table_id), new.tables.get(table_id)
        if a is None:
            yield Change(
                "table-added",
                f"table:{table_id}",
                f"table {b.title!r} ({table_id}) added, {len(b.rows)} rows",
                b.loc,
                new=plain(b.rows),
            )
            continue
        if b is None:
            yield Change(
                "table-removed",
                f"table:{table_id}",
                f"table {a.title!r} ({table_id}) removed",
                a.loc,
                old=plain(a.rows),
            )
            continue
        for name in ("title", "key", "columns"):
            x, y = getattr(a, name), getattr(b, name)
            if not same(x, y):
                what = describe_values(x, y) if name != "columns" else _columns_change(a, b)
                yield Change(
                    "table",
                    f"table:{table_id}.{name}",
                    f"{b.title}: {name}: {what}",
                    b.loc,
                    field=name,
                    old=plain(x),
                    new=plain(y),
                )
        yield from _row_changes(a, b)


def _table_order(old: Game, new: Game, table_id: str) -> tuple:
    table = new.tables.get(table_id) or old.tables[table_id]
    return (table.loc.path, table.loc.line)


def _columns_change(a: Table, b: Table) -> str:
    added = [c for c in b.columns if c not in a.columns]
    removed = [c for c in a.columns if c not in b.columns]
    changed = [c for c in b.columns if c in a.columns and not same(a.columns[c], b.columns[c])]
    parts = [
        f"{what} {', '.join(cols)}"
        for what, cols in (("added", added), ("removed", removed), ("changed", changed))
        if cols
    ]
    return "; ".join(parts) or "reordered"


def _row_changes(a: Table, b: Table) -> Iterator[Change]:
    keyed = a.key is not None and a.key == b.key
    if keyed:
        old_rows = {_row_id(a, r, i): r for i, r in enumerate(a.rows)}
        new_rows = {_row_id(b, r, i): r for i, r in enumerate(b.rows)}
        pairs = [(old_rows.get(k), r, k) for k, r in new_rows.items()]
        pairs += [(r, None, k) for k, r in old_rows.items() if k not in new_rows]
    else:
        pairs = []
        ka = [_same_key(r.values) for r in a.rows]
        kb = [_same_key(r.values) for r in b.rows]
        matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            olds, news = list(a.rows[i1:i2]), list(b.rows[j1:j2])
            common = min(len(olds), len(news)) if tag == "replace" else 0
            for n in range(common):
                pairs.append((olds[n], news[n], str(j1 + n + 1)))
            for n, row in enumerate(news[common:], j1 + common):
                pairs.append((None, row, str(n + 1)))
            for n, row in enumerate(olds[common:], i1 + common):
                pairs.append((row, None, str(n + 1)))
    for x, y, key in pairs:
        label = (
            f"{b.title} #{key}" if not keyed or isinstance((y or x).get(b.key), int) else f"{b.title}, {key}"
        )
        subject = f"table:{b.id}/{key}"
        if x is None:
            yield Change(
                "row-added",
                subject,
                f"{label}: row added: {_row_text(b, y)}",
                y.loc,
                field=None,
                new=plain(y.values),
            )
        elif y is None:
            yield Change(
                "row-removed", subject, f"{label}: row removed: {_row_text(a, x)}", x.loc, old=plain(x.values)
            )
        else:
            for column in dict.fromkeys([*b.columns, *y.values, *x.values]):
                p, q = x.get(column), y.get(column)
                if same(p, q):
                    continue
                yield Change(
                    "row",
                    f"{subject}.{column}",
                    f"{label}: {column}: {describe_values(p, q)}",
                    y.loc_of(column),
                    field=column,
                    old=plain(p),
                    new=plain(q),
                    words=_text_change(p, q),
                )


def _row_text(table: Table, row: Row, limit: int = 120) -> str:
    text = ", ".join(f"{k}={show(v)}" for k, v in row.values.items())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check_changes(old: Game, new: Game) -> Iterator[Change]:
    a_map = {c.id: c for c in old.checks}
    b_map = {c.id: c for c in new.checks}
    for check in new.checks:
        before = a_map.get(check.id)
        if before is None:
            yield Change(
                "check-added",
                f"check:{check.id}",
                f"check {check.id!r} added: {check.expect}",
                check.loc,
                new=check.expect,
            )
            continue
        for name in ("iterate", "expect", "message", "severity"):
            x, y = getattr(before, name), getattr(check, name)
            if x != y:
                yield Change(
                    "check",
                    f"check:{check.id}.{name}",
                    f"check {check.id!r}: {name}: {describe_values(x, y)}",
                    check.expect_loc if name == "expect" and check.expect_loc else check.loc,
                    field=name,
                    old=x,
                    new=y,
                    words=_text_change(x, y),
                )
    for check in old.checks:
        if check.id not in b_map:
            yield Change(
                "check-removed",
                f"check:{check.id}",
                f"check {check.id!r} removed: {check.expect}",
                check.loc,
                old=check.expect,
            )


# -- rulebook ----------------------------------------------------------------------------------


def paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line, paragraph) of a Markdown text: runs of non-blank lines."""
    out: list[tuple[int, str]] = []
    current: list[str] = []
    start = 1
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            if not current:
                start = n
            current.append(line)
        elif current:
            out.append((start, "\n".join(current)))
            current = []
    if current:
        out.append((start, "\n".join(current)))
    return out


def _rulebook_changes(old: Game, new: Game) -> Iterator[Change]:
    a_files: dict[str, RulebookFile] = {f.name: f for f in old.rulebook}
    b_files: dict[str, RulebookFile] = {f.name: f for f in new.rulebook}
    for name in sorted(set(a_files) | set(b_files)):
        a, b = a_files.get(name), b_files.get(name)
        if a is None:
            yield Change(
                "chapter-added", f"rulebook:{name}", f"chapter {name} added", Loc(b.path), new=b.text
            )
        elif b is None:
            yield Change(
                "chapter-removed", f"rulebook:{name}", f"chapter {name} removed", Loc(a.path), old=a.text
            )
        elif a.text != b.text:
            yield from _paragraph_changes(a, b)


def _paragraph_changes(a: RulebookFile, b: RulebookFile) -> Iterator[Change]:
    pa, pb = paragraphs(a.text), paragraphs(b.text)
    matcher = difflib.SequenceMatcher(None, [p for _, p in pa], [p for _, p in pb], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = pa[i1:i2], pb[j1:j2]
        common = min(len(olds), len(news)) if tag == "replace" else 0
        for n in range(common):
            (_, x), (line, y) = olds[n], news[n]
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#{j1 + n + 1}",
                f"{b.name}, paragraph {j1 + n + 1} changed: {describe_values(x, y)}",
                Loc(b.path, line),
                old=x,
                new=y,
                words=word_diff(x, y),
            )
        for n, (line, y) in enumerate(news[common:], j1 + common):
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#{n + 1}",
                f"{b.name}, paragraph {n + 1} added: {_short(y)}",
                Loc(b.path, line),
                new=y,
            )
        anchor = pb[j1][0] if j1 < len(pb) else (pb[-1][0] if pb else 1)
        for n, (_, x) in enumerate(olds[common:], i1 + common):
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#old{n + 1}",
                f"{b.name}, paragraph {n + 1} of the old version removed: {_short(x)}",
                Loc(b.path, anchor),
                old=x,
            )


def _short(text: str, limit: int = 100) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def changed_cards(changes: list[Change]) -> dict[str, list[Change]]:
    """The changes of each card, by its new id (removed cards by their old id)."""
    out: dict[str, list[Change]] = {}
    for change in changes:
        card = change.card or change.old_card
        if card is not None:
            out.setdefault(card, []).append(change)
    return out
