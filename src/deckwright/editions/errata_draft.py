"""Draft errata: for every card printed in an earlier edition whose rules text changed since,
a row in the game's errata table format, for the editor to review and commit.

"Printed in the edition at REV" means: the card is in the game's data at that revision (read by
the normal loader, so an unknown count still prints one copy), and its printed text is the text
that revision holds. A card that was renamed by id (see `diff.rename_pairs`) keeps its errata.
The rules text is every `text` field of the card's type (front and back); one row per field
whose words changed. A text that is unknown on either side has nothing to draft.

A row the errata table already holds is not drafted again: the same card with the same printed
and current text is covered; the same card and printed text with another current text is drafted
as an update of that row. The kind of change is proposed (`propose_kind`) and named in the row's
comment with its reason; the editor sets it.

The draft is YAML: rows to paste under the errata table's `rows:`, or, for a game without an
errata table, a whole `tables:` file declaring one (docs/data-format.md, "errata").
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..consistency.errata import errata, errata_tables
from ..consistency.texts import card_label
from ..consistency.words import NUMBER_WORDS, STOP, compare, diff_text, normalise, word_diff
from ..model import Card, FieldSpec, Game, Table, Unknown
from .diff_cards import rename_pairs, text_fields

KINDS = ("wording", "rules", "clarification")
# Added words that change what a rule allows, not only how it reads.
TURNING_WORDS = frozenset(
    ("not", "no", "never", "cannot", "can't", "only", "must", "may", "except", "unless", "instead")
)
# Words an enum value of the game's kinds must contain to stand for each proposed kind.
KIND_WORDS = {"wording": ("word",), "rules": ("rule",), "clarification": ("clar",)}


@dataclass(frozen=True)
class Entry:
    old: Card  # the card as printed
    card: Card  # the card now
    field: str
    printed: str
    current: str
    kind: str  # wording | rules | clarification
    reason: str
    status: str  # new | update | covered
    row_loc: str = ""  # the errata row it updates or that covers it (path:line)
    earlier: str = ""  # an errata row whose current text is this printed text (path:line)

    @property
    def diff(self) -> str:
        return diff_text(word_diff(self.printed, self.current))


def _numbers(text: str) -> Counter:
    words = normalise(text).lower().split()
    return Counter(
        w if w.isdigit() else str(NUMBER_WORDS[w]) for w in words if w.isdigit() or w in NUMBER_WORDS
    )


def propose_kind(printed: str, current: str) -> tuple[str, str]:
    """A proposed kind of change and why: wording (punctuation, spacing, case or function words
    only), clarification (words only added, no number changed), else rules (a number or a word
    that carries meaning changed). The editor decides; this is a first guess that errs to rules."""
    if compare(printed, current) == "punctuation" or normalise(printed).lower() == normalise(current).lower():
        return "wording", "only punctuation, spacing or capitals changed"
    before, after = _numbers(printed), _numbers(current)
    if before != after:
        gone = sorted((before - after).elements())
        new = sorted((after - before).elements())
        return "rules", f"a number changed: {', '.join(gone) or '(none)'} → {', '.join(new) or '(none)'}"
    ops = word_diff(normalise(printed).lower(), normalise(current).lower())
    deleted = [w for op, words in ops if op == "delete" for w in normalise(words).lower().split()]
    inserted = [w for op, words in ops if op == "insert" for w in normalise(words).lower().split()]
    turning = sorted(set(inserted) & TURNING_WORDS)
    if not deleted and turning:
        return "rules", f"a word that turns the rule was added: {', '.join(turning)}"
    if not deleted:
        return "clarification", f"words were only added: {', '.join(dict.fromkeys(inserted))}"
    if all(w in STOP for w in deleted + inserted):
        return "wording", "only function words changed"
    return (
        "rules",
        f"words that carry meaning changed: {', '.join(dict.fromkeys(deleted))} → "
        f"{', '.join(dict.fromkeys(inserted)) or '(none)'}",
    )


def draft_entries(printed: Game, current: Game, similarity: float = 0.9) -> list[Entry]:
    """The errata to draft (and those already covered), in the current game's card order."""
    renamed = {b.id: a for a, b in rename_pairs(printed, current, similarity)}
    rows = [e for e in errata(current) if not e.remark]
    entries = []
    for card in current.cards:
        old = printed.card(card.id) or renamed.get(card.id)
        if old is None:
            continue  # new since that edition: never printed
        for name in text_fields(current, card):
            was, now = old.fields.get(name), card.fields.get(name)
            if not isinstance(was, str) or not isinstance(now, str) or was == now:
                continue
            kind, reason = propose_kind(was, now)
            status, where = "new", ""
            earlier = next(
                (
                    f"{r.row.loc.path}:{r.row.loc.line}"
                    for r in rows
                    if card in r.cards
                    and isinstance(r.current, str)
                    and compare(r.current, was) == "identical"
                ),
                "",
            )
            for row in rows:
                if card not in row.cards or not isinstance(row.printed, str):
                    continue
                if compare(row.printed, was) == "identical":
                    loc = row.row.loc
                    where = f"{loc.path}:{loc.line}"
                    covered = isinstance(row.current, str) and compare(row.current, now) == "identical"
                    status = "covered" if covered else "update"
                    break
            entries.append(Entry(old, card, name, was, now, kind, reason, status, where, earlier))
    return entries


# -- YAML --------------------------------------------------------------------------------------


def _q(value: Any) -> str:
    """A YAML scalar or flow list (JSON's quoting is valid YAML)."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_q(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


def _kind_value(kind: str, spec: FieldSpec | None, game: Game) -> str:
    """The game's own name for a proposed kind: its kind column's enum value that contains the
    kind's word (rules-change for rules), else the kind itself."""
    values = _enum_values(spec, game) if spec is not None else ()
    for value in values:
        if any(word in value for word in KIND_WORDS[kind]):
            return value
    return kind


def _enum_values(spec: FieldSpec, game: Game) -> tuple[str, ...]:
    if spec.type != "enum":
        return ()
    return spec.values


def _marker(markers: tuple[str, ...], kind: str) -> str:
    """The marker a current cell ends with to name this kind, as the game's errata table
    declares them (`markers: ["(clarity only)"]` for clarity-only), with its space."""
    for marker in markers:
        if normalise(marker).lower() == normalise(kind).lower():
            return f" {marker}"
    return ""


def _cell(spec: FieldSpec, value: Any) -> Any:
    """A value in the shape the column takes: a list column gets a list, a scalar one an item."""
    items = list(value) if isinstance(value, list | tuple) else [value]
    if spec.type == "list":
        return items
    return items[0] if items else None


def _number(card: Card) -> Any:
    return None if card.number in (None, "") or isinstance(card.number, Unknown) else card.number


def _row(game: Game, table: Table, entry: Entry, label: str, taken: set) -> list[tuple[str, Any]]:
    """The row's cells, in the table's column order."""
    spec = table.editor.errata
    roles = {column: role for role, column in spec.columns.items()}
    number = _number(entry.card)
    cells: list[tuple[str, Any]] = []
    for column, col_spec in table.columns.items():
        if col_spec.expr is not None:
            continue  # computed
        role = roles.get(column)
        if role == "card" and entry.status == "update":
            value = _existing_cell(table, entry, column)
        elif role == "card":
            name = (
                entry.card.name
                if number is None or str(number) in entry.card.name
                else f"{entry.card.name} ({number})"
            )
            if table.key == column and name in taken:
                name = f"{name} (printed {label})"  # another printing of the card has a row already
            value = name
        elif role == "cards":
            value = _cell(col_spec, [entry.card.id])
        elif role == "numbers":
            value = _cell(col_spec, [number] if number is not None else [])
        elif role == "printed":
            value = entry.printed
        elif role == "current":
            kind_spec = table.columns.get(spec.columns.get("kind", ""))
            value = entry.current + _marker(spec.markers, _kind_value(entry.kind, kind_spec, game))
        elif role == "kind":
            value = _kind_value(entry.kind, col_spec, game)
        elif col_spec.has_default or not col_spec.required:
            continue
        else:
            value = {"unknown": "drafted by deckwright errata: fill in"}
        cells.append((column, value))
    return cells


def _yaml_cell(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_q(v)}" for k, v in value.items()) + "}"
    return _q(value)


def _comment(entry: Entry, kind_value: str) -> list[str]:
    lines = [
        f"# {card_label(entry.card)} ({entry.card.id}), {entry.field}: proposed kind {kind_value}"
        f" ({entry.reason}); the editor sets the kind.",
        f"#   {entry.diff}",
    ]
    if entry.old.id != entry.card.id:
        lines.append(f"#   printed as {entry.old.id!r}, now {entry.card.id!r}")
    if entry.status == "update":
        lines.append(f"#   replaces the row at {entry.row_loc} (same printed text, another current text)")
    elif entry.earlier:
        lines.append(
            f"#   the row at {entry.earlier} gives this printed text as its current text: "
            "update it, or keep both"
        )
    return lines


def draft_yaml(game: Game, entries: list[Entry], since: str, label: str) -> str:
    """The draft: rows for the game's errata table, or a whole errata table file."""
    todo = [e for e in entries if e.status != "covered"]
    covered = [e for e in entries if e.status == "covered"]
    tables = errata_tables(game)
    head = [
        f"# Draft errata for {game.info.name}: cards printed in the edition at {since} whose rules",
        "# text changed since, made by `deckwright errata`. Review every row and its kind of change;",
    ]
    for e in covered:
        head.append(f"# Already in the errata: {card_label(e.card)}, {e.field} ({e.row_loc}).")
    if not todo:
        return "\n".join([*head, "# Nothing to draft.", ""])
    if tables:
        table = tables[0]
        head += [
            f"# then paste the rows under `rows:` of table {table.id!r} ({table.loc.path}:{table.loc.line}).",
            "# deckwright never writes that file.",
            "rows:",
        ]
        body = _rows_yaml(game, table, todo, label, indent="  ")
        return "\n".join([*head, *body, ""])
    types = sorted({e.card.type for e in todo})
    head += [
        f"# then save it as {game.folder.name}/errata.yaml in the game's folder (see docs/data-format.md).",
        "tables:",
        "  errata:",
        '    title: "Errata"',
        "    editor:",
        "      errata: {}",
        "    columns:",
        "      card: {type: str}",
        f"      cards: {{type: list, of: {{type: ref, to: [{', '.join(types)}]}}}}",
        "      printed: {type: text}",
        "      current: {type: text}",
        "      kind: {type: enum, values: [wording, rules-change, clarification]}",
        "    rows:",
    ]
    table = _draft_table(game)
    body = _rows_yaml(game, table, todo, label, indent="      ")
    return "\n".join([*head, *body, ""])


def _draft_table(game: Game) -> Table:
    """The errata table a draft declares for a game without one, as the model reads it."""
    from ..diagnostics import Loc
    from ..model import EditorSpec, ErrataSpec

    loc = Loc("errata-draft.yaml")
    spec = lambda t, **kw: FieldSpec(name="", type=t, loc=loc, **kw)  # noqa: E731
    columns = {
        "card": spec("str"),
        "cards": spec("list", of=spec("ref")),
        "printed": spec("text"),
        "current": spec("text"),
        "kind": spec("enum", values=("wording", "rules-change", "clarification")),
    }
    roles = {role: role for role in ("card", "cards", "printed", "current", "kind")}
    errata_spec = ErrataSpec(roles, "text", (), (), loc)
    return Table("errata", "Errata", None, columns, (), loc, editor=EditorSpec(loc, errata=errata_spec))


def _rows_yaml(game: Game, table: Table, entries: list[Entry], label: str, indent: str) -> list[str]:
    key = table.key
    taken = {row.get(key) for row in table.rows} if key else set()
    out: list[str] = []
    for entry in entries:
        cells = _row(game, table, entry, label, taken)
        kind_value = next((v for c, v in cells if table.editor.errata.columns.get("kind") == c), entry.kind)
        out += [indent + line for line in _comment(entry, str(kind_value))]
        for n, (column, value) in enumerate(cells):
            lead = "- " if n == 0 else "  "
            out.append(f"{indent}{lead}{column}: {_yaml_cell(value)}")
        if key:
            taken.add(next((v for c, v in cells if c == key), None))
    return out


def _existing_cell(table: Table, entry: Entry, column: str) -> Any:
    """The cell of the row an update replaces (its key stays the same)."""
    for row in table.rows:
        if f"{row.loc.path}:{row.loc.line}" == entry.row_loc:
            return row.get(column)
    return entry.card.name
