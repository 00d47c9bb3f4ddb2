"""Cards kept in a spreadsheet: a card file may name a CSV file instead of listing `cards:`.

```yaml
type: card
csv: cards.csv            # relative to this YAML file
id: number                # the column whose value (as a slug) is each card's id (default: id;
                          # without an id column, ids are made from the name column)
columns:                  # CSV column -> card key (name, count, number, or a field)
  title: name
  type: type_line
```
Without `type:`, the CSV's `type` column gives each row's card type (its id or title), so one
spreadsheet can hold several card types. Header cells are trimmed; the separator (`,` `;` tab)
is read off the header line. Columns not listed map to the key of the same name. Cells are
text; a field declared `int` or `bool` is converted, a `list` is split on ";". An empty cell
leaves the key out.
Each value keeps the CSV file, line and column it came from.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import CardType
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_CSV_ROWS, MAX_FILE_BYTES
from ..slugs import make_slug
from ..source import YList, YMap
from . import spreadsheet
from .common import expect_map

# Columns every card may have besides its type's fields.
STANDARD_COLUMNS = ("id", "name", "count", "number", "note", "art")
# A row key (never a column name: it has a space) keeping the text an id was made from.
ID_SOURCE = "id made from"

_INT = re.compile(r"^-?\d+$")
_BOOLS = {"true": True, "yes": True, "false": False, "no": False}


def slugify(text: str) -> str:
    return make_slug(text)


def read_csv_rows(
    doc: YMap,
    card_type: CardType | None,
    folder: Path,
    diags: Diagnostics,
    display,
    card_types: Mapping[str, CardType] | None = None,
) -> list[YMap]:
    """CSV rows as card mappings (like YAML `cards:` items), with their CSV locations.
    Without `card_type` (a card file with no `type:`), each row's type is its `type` column,
    matched against `card_types`."""
    path = folder / str(doc["csv"])
    shown = display(path)
    # Only the game folder: a CSV named `../../secret.env` or `/etc/shadow`, or a link leading
    # out of the folder, is refused before a byte of it is read (safety/containment.py).
    try:
        data = read_contained(path, [folder], MAX_FILE_BYTES, shown, doc.loc_of("csv"))
    except ContainmentError as exc:  # named as the card file names it
        diags.error(exc.loc, f"CSV file {str(doc['csv'])!r}: {exc.message.removeprefix(f'{shown}: ')}")
        return []
    text = spreadsheet.decode(data, shown, diags)
    if text is None:
        return []
    return _rows(text, doc, card_type, card_types or {}, shown, diags)


def _rows(
    text: str,
    doc: YMap,
    card_type: CardType | None,
    card_types: Mapping[str, CardType],
    shown: str,
    diags: Diagnostics,
) -> list[YMap]:
    mapping = expect_map(doc.get("columns", YMap(doc.loc)), doc.loc_of("columns"), "columns", diags) or {}
    lines = text.splitlines()
    sep = spreadsheet.separator(lines[0] if lines else "")
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    try:
        raw_header = next(reader)
    except StopIteration:
        diags.error(Loc(shown), "CSV file is empty")
        return []
    except csv.Error as exc:
        diags.error(Loc(shown), f"CSV error: {exc}")
        return []
    header = [cell.strip() for cell in raw_header]  # "count " is the column count
    header_cols = _columns(lines[0] if lines else "", raw_header, sep)
    keys = [mapping.get(column, column) for column in header]
    id_column = doc.get("id", "id")
    names_as_ids = "id" not in doc and "id" not in header and "name" in keys
    if not _check_header(
        doc,
        mapping,
        header,
        keys,
        header_cols,
        id_column,
        names_as_ids,
        card_type,
        card_types,
        shown,
        sep,
        diags,
    ):
        return []
    specs = {**card_type.fields, **card_type.back_fields} if card_type is not None else {}
    rows = []
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            diags.error(Loc(shown, reader.line_num), f"CSV error: {exc}")
            break
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(rows) >= MAX_CSV_ROWS:
            limit = f"more than {MAX_CSV_ROWS} rows (the limit of rows per CSV file); refused"
            diags.error(Loc(shown, line), limit)
            return []
        if len(cells) != len(header):
            diags.error(Loc(shown, line), f"row has {len(cells)} cells, the header {len(header)}")
            continue
        columns = _columns(lines[line - 1] if line <= len(lines) else "", cells, sep)
        row = YMap(Loc(shown, line))
        row_specs = specs
        if card_type is None:
            type_cell = cells[keys.index("type")]
            row_type = _row_type(type_cell, card_types)
            row_specs = {**row_type.fields, **row_type.back_fields} if row_type is not None else {}
        for index, (column, key, cell) in enumerate(zip(header, keys, cells, strict=True)):
            loc = Loc(shown, line, columns[index])
            if column == id_column or (names_as_ids and key == "name"):
                row["id"] = slugify(cell)
                row.value_locs["id"] = row.key_locs["id"] = loc
                if names_as_ids or slugify(cell) != cell.strip():
                    row[ID_SOURCE] = cell.strip()
            if key == "id" or cell.strip() == "":
                continue
            if card_type is None and key == "type":
                row_type = _row_type(cell, card_types)
                row["type"] = row_type.id if row_type is not None else cell.strip()
            else:
                row[key] = _convert(cell, row_specs.get(key), key)
            row.value_locs[key] = row.key_locs[key] = loc
        rows.append(row)
    return rows


def _check_header(
    doc, mapping, header, keys, header_cols, id_column, names_as_ids, card_type, card_types, shown, sep, diags
) -> bool:
    """Header problems, each reported once at the header cell; False when rows cannot be read."""
    ok = True
    for column in mapping:
        if column not in header:
            diags.error(
                doc.loc_of("columns"),
                f"{shown} has no column {column!r}{spreadsheet.closest(column, header)} "
                f"(columns: {', '.join(header)})",
            )
            ok = False
    if id_column not in header and not names_as_ids:
        hint = spreadsheet.closest(id_column, header)
        if not hint and len(header) == 1 and sep == "," and any(s in header[0] for s in ";\t"):
            hint = " (the file looks separated by something other than , ; or tab)"
        where = doc.loc_of("id") if "id" in doc else Loc(shown, 1, 1)
        diags.error(
            where,
            f"{shown} has no column {id_column!r}{hint} (columns: {', '.join(header)}); "
            "add an id column, or a name column to make ids from",
        )
        return False
    types = [card_type] if card_type is not None else list(card_types.values())
    if card_type is None and "type" not in keys:
        diags.error(
            doc.loc,
            f"{shown}: a card file without 'type:' needs a 'type' column in its CSV "
            f"(card types: {', '.join(card_types)})",
        )
        return False
    accepted = [*STANDARD_COLUMNS, *(f for t in types for f in (*t.fields, *t.back_fields))]
    if card_type is None:
        accepted.append("type")
    accepted = list(dict.fromkeys(accepted))
    seen: dict[str, int] = {}
    unknown: list[str] = []
    for index, (column, key) in enumerate(zip(header, keys, strict=True)):
        loc = Loc(shown, 1, header_cols[index])
        if column == id_column:
            continue
        if not column:
            diags.error(loc, f"header cell {index + 1} is empty: name the column or delete it")
            ok = False
        elif key in seen:
            diags.error(loc, f"column {column!r} appears twice in the header (first at column {seen[key]})")
            ok = False
        elif key not in accepted:
            what = f"card type {card_type.id!r}" if card_type is not None else "any card type"
            diags.error(
                loc,
                f"unknown column {column!r}{spreadsheet.closest(key, accepted)}: not a field of {what} "
                f"(accepted: {', '.join(accepted)})",
            )
            unknown.append(key)
            ok = False
        seen.setdefault(key, header_cols[index])
    for t in types if card_type is not None else ():
        for name, spec in {**t.fields, **t.back_fields}.items():
            # a misspelt column was reported above, with this name as its closest match
            if spec.required and name not in keys and not spreadsheet.closest(name, unknown):
                diags.error(
                    Loc(shown, 1, 1),
                    f"no column {name!r}, which every {t.id} card needs (columns: {', '.join(header)})",
                )
                ok = False
    return ok


def _row_type(cell: str, card_types: Mapping[str, CardType]) -> CardType | None:
    """A type column's cell: a card type's id or title, in any case ("Spell", "spell")."""
    wanted = cell.strip()
    for card_type in card_types.values():
        if wanted in (card_type.id, card_type.title) or slugify(wanted) == card_type.id:
            return card_type
    return None


def _convert(cell: str, spec, key: str):
    kind = spec.type if spec is not None else ("int" if key == "count" else "str")
    if kind == "int" and _INT.match(cell.strip()):
        return int(cell)
    if kind == "bool" and cell.strip().lower() in _BOOLS:
        return _BOOLS[cell.strip().lower()]
    if kind == "list":
        items = YList(Loc("csv"))
        items.extend(part.strip() for part in cell.split(";") if part.strip())
        return items
    return cell  # left as text: the schema check reports a cell of the wrong type


def _columns(raw_line: str, cells: list[str], sep: str = ",") -> list[int]:
    """1-based column of each cell in its line (exact for unquoted cells)."""
    starts, position = [], 0
    for cell in cells:
        starts.append(position + 1)
        if raw_line[position : position + 1] == '"':
            end = raw_line.find('"' + sep, position + 1)
            position = (end + 2) if end >= 0 else len(raw_line)
        else:
            position += len(cell) + 1
    return starts
