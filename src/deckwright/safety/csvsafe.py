"""Spreadsheet formula neutralisation for the CSV files deckwright writes (the OWASP rule).

A spreadsheet that opens a CSV evaluates a cell beginning with `=`, `+`, `-` or `@` as a
formula (`=HYPERLINK(...)`, `+cmd|' /C calc'!A0`), and some also after a leading tab or
carriage return. Card data comes from anyone, so such a cell is written with a leading
apostrophe, which spreadsheets show as text and do not evaluate; the csv module then quotes it
as it would any cell. A plain number (`-2`, `+1.5`) is left as it is: a spreadsheet reads it
as the number it is, and nothing in it can run.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def neutralise(cell: object) -> object:
    """`cell` as a spreadsheet will not evaluate it: text that would start a formula gets a
    leading apostrophe; anything else is returned unchanged."""
    if isinstance(cell, str) and cell.startswith(FORMULA_START) and not _NUMBER.match(cell):
        return "'" + cell
    return cell


def csv_bytes(rows: Iterable[Iterable[object]]) -> bytes:
    """Rows as UTF-8 CSV (`\\n` line ends), every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return out.getvalue().encode("utf-8")
