"""Cards kept in a spreadsheet: a card file may name a CSV file instead of listing `cards:`.

```yaml
type: card
csv: cards.csv            # relative to this YAML file
id: number                # the column whose value (as a slug) is each card's id (default: id)
columns:                  # CSV column -> card key (name, count, number, or a field)
  title: name
  type: type_line
```
Columns not listed map to the key of the same name. Cells are text; a field declared `int`
or `bool` is converted, a `list` is split on ";". An empty cell leaves the key out.
Each value keeps the CSV file, line and column it came from.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import CardType
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_CSV_ROWS, MAX_FILE_BYTES
from ..source import YList, YMap
from .common import expect_map

_SLUG_RUN = re.compile(r"[^a-z0-9]+")
_INT = re.compile(r"^-?\d+$")
_BOOLS = {"true": True, "yes": True, "false": False, "no": False}


def slugify(text: str) -> str:
    return _SLUG_RUN.sub("-", text.lower()).strip("-")


def read_csv_rows(doc: YMap, card_type: CardType, folder: Path, diags: Diagnostics, display) -> list[YMap]:
    """CSV rows as card mappings (like YAML `cards:` items), with their CSV locations."""
    path = folder / str(doc["csv"])
    shown = display(path)
    # Only the game folder: a CSV named `../../secret.env` or `/etc/shadow`, or a link leading
    # out of the folder, is refused before a byte of it is read (safety/containment.py).
    try:
        raw = read_contained(path, [folder], MAX_FILE_BYTES, shown, doc.loc_of("csv"))
    except ContainmentError as exc:  # named as the card file names it
        diags.error(exc.loc, f"CSV file {str(doc['csv'])!r}: {exc.message.removeprefix(f'{shown}: ')}")
        return []
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        diags.error(Loc(shown), f"cannot read CSV file as UTF-8: {exc}")
        return []
    mapping = expect_map(doc.get("columns", YMap(doc.loc)), doc.loc_of("columns"), "columns", diags) or {}
    id_column = doc.get("id", "id")
    lines = text.splitlines()
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        diags.error(Loc(shown), "CSV file is empty")
        return []
    except csv.Error as exc:
        diags.error(Loc(shown), f"CSV error: {exc}")
        return []
    for column in (*mapping, id_column):
        if column not in header:
            diags.error(doc.loc, f"{shown} has no column {column!r} (columns: {', '.join(header)})")
            return []
    specs = {**card_type.fields, **card_type.back_fields}
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
        columns = _columns(lines[line - 1] if line <= len(lines) else "", cells)
        row = YMap(Loc(shown, line))
        for index, (column, cell) in enumerate(zip(header, cells, strict=True)):
            loc = Loc(shown, line, columns[index])
            if column == id_column:
                row["id"] = slugify(cell)
                row.value_locs["id"] = row.key_locs["id"] = loc
            key = mapping.get(column, column)
            if key == "id" or cell.strip() == "":
                continue
            row[key] = _convert(cell, specs.get(key), key)
            row.value_locs[key] = row.key_locs[key] = loc
        rows.append(row)
    return rows


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


def _columns(raw_line: str, cells: list[str]) -> list[int]:
    """1-based column of each cell in its line (exact for unquoted cells)."""
    starts, position = [], 0
    for cell in cells:
        starts.append(position + 1)
        if raw_line[position : position + 1] == '"':
            end = raw_line.find('",', position + 1)
            position = (end + 2) if end >= 0 else len(raw_line)
        else:
            position += len(cell) + 1
    return starts
