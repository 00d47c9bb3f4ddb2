"""Every text a game prints, with a stable name and its place in the files.

A text is a card's name or one of its `text`/`str` fields, or a `text`/`str` cell of a table
(items of a list of texts count one by one). Encoders' notes (`note:`, also a table column
named `note`) and the notes of unknown values are not game text and are never checked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Loc
from ..model import Card, FieldSpec, Game, Row, Table
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_FILE_BYTES
from .finding import Side

TEXT_TYPES = ("text", "str")


@dataclass(frozen=True, slots=True)
class Text:
    place: str  # stable: "card:<id>.<field>" or "table:<table>/<row key>.<column>"
    label: str  # for people: "J6 The Merciful, text"
    text: str
    loc: Loc  # where the value starts
    folder: Path  # the game folder, to find the line a part of the text stands on
    card: Card | None = None
    field: str = ""
    table: Table | None = None
    row: Row | None = None

    def loc_at(self, offset: int) -> Loc:
        """The line of a character of the text: a block scalar (`|-`) starts on the next line."""
        try:
            lines = _file_lines(self.folder / Path(self.loc.path).name)
            start = lines[self.loc.line - 1][self.loc.col - 1 :]
        except (OSError, UnicodeDecodeError, IndexError, ContainmentError):
            return self.loc
        if start[:1] in ("|", ">"):
            return Loc(self.loc.path, self.loc.line + 1 + self.text.count("\n", 0, offset), 1)
        return self.loc

    def side(self, marks: tuple[tuple[int, int], ...] = ()) -> Side:
        """This text as one side of a finding, at the line of its first mark."""
        return Side(self.label, self.loc_at(marks[0][0] if marks else 0), self.text, marks)


def _file_lines(path: Path) -> tuple[str, ...]:
    """The lines of a game file, read once however many findings ask (a text with 100 000
    findings must not read its file 100 000 times); a changed file (`watch`) is read again."""
    info = os.stat(path)
    return _lines_of(str(path), info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=16)
def _lines_of(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    raw = read_contained(Path(path), [Path(path).parent], MAX_FILE_BYTES, path)
    return tuple(raw.decode("utf-8").splitlines())


def card_label(card: Card) -> str:
    """How an editor names a card: its printed number, if any, and its name."""
    return f"{card.number} {card.name}" if card.number not in (None, "") else card.name


def row_key(table: Table, row: Row) -> str:
    if table.key is not None and row.get(table.key) is not None:
        return str(row.get(table.key))
    return str(table.rows.index(row) + 1)


def row_label(table: Table, row: Row) -> str:
    key = row.get(table.key) if table.key is not None else None
    if key is None or isinstance(key, int):
        return f"{table.title} #{row_key(table, row)}"
    return f"{table.title}, {key}"


def _is_text(spec: FieldSpec) -> bool:
    return spec.type in TEXT_TYPES or (
        spec.type == "list" and spec.of is not None and spec.of.type in TEXT_TYPES
    )


def _values(value: Any, place: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield place, value
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            if isinstance(item, str):
                yield f"{place}[{i + 1}]", item


def card_texts(game: Game, card: Card) -> Iterator[Text]:
    label = card_label(card)
    yield Text(
        f"card:{card.id}.name", f"{label}, name", card.name, card.loc_of("name"), game.folder, card, "name"
    )
    card_type = game.card_types.get(card.type)
    specs = {**card_type.fields, **card_type.back_fields} if card_type else {}
    for name, spec in specs.items():
        if not _is_text(spec) or name == "note":
            continue
        for place, text in _values(card.fields.get(name), f"card:{card.id}.{name}"):
            yield Text(place, f"{label}, {name}", text, card.loc_of(name), game.folder, card, name)


def row_texts(game: Game, table: Table, row: Row) -> Iterator[Text]:
    """A row's texts; a derived row's copies of the row it extends are that row's texts."""
    key = row_key(table, row)
    base = table.row(row.derived_from) if row.derived_from is not None else None
    for name, spec in table.columns.items():
        if not _is_text(spec) or spec.expr is not None or name == "note":
            continue
        if base is not None and base.get(name) == row.get(name):
            continue
        for place, text in _values(row.get(name), f"table:{table.id}/{key}.{name}"):
            label = f"{row_label(table, row)}, {name}"
            yield Text(place, label, text, row.loc_of(name), game.folder, None, name, table, row)


def game_texts(game: Game) -> Iterator[Text]:
    for card in game.cards:
        yield from card_texts(game, card)
    for table in game.tables.values():
        for row in table.rows:
            yield from row_texts(game, table, row)
