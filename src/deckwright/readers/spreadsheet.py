"""What a spreadsheet saved as CSV looks like in practice: UTF-8 or not (Excel's plain "CSV"
is Windows-1252), separated by commas, semicolons (German Excel's default) or tabs, header
cells with stray spaces. Reading is lenient where the intent is clear and precise where it is
not: a file that is not UTF-8 is reported at its first bad line with the likely encoding and
the fix; a header cell that names nothing is reported once, at the header, with the closest
accepted name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from ..diagnostics import Diagnostics, Loc

SEPARATORS = (",", ";", "\t")
_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
# Encodings a spreadsheet is likely saved in, tried in this order to name the likely one.
LIKELY_ENCODINGS = (("cp1252", "Windows-1252 (Excel's plain 'CSV')"), ("mac_roman", "Mac Roman"))
FIX = "save it as 'CSV UTF-8' (Excel: File > Save As > CSV UTF-8; LibreOffice: character set UTF-8)"


def decode(data: bytes, shown: str, diags: Diagnostics) -> str | None:
    """The text of a CSV file (a UTF-8 byte order mark dropped); None, reported, when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
    line = data.count(b"\n", 0, start) + 1
    line_start = data.rfind(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    likely = "an unknown encoding"
    for codec, label in LIKELY_ENCODINGS:
        try:
            sample = data[line_start : data.find(b"\n", start) if b"\n" in data[start:] else len(data)]
            shown_line = sample.decode(codec).strip()
        except UnicodeDecodeError:
            continue
        likely = f"{label}; the line reads {shown_line[:60]!r} in it"
        break
    diags.error(
        Loc(shown, line, column),
        f"the file is not UTF-8 (byte 0x{data[start]:02x}; likely {likely}): {FIX}",
    )
    return None


def separator(first_line: str) -> str:
    """The separator of a CSV file, from its header line: the one of `,` `;` tab that occurs
    most often outside quotes (a comma when none does)."""
    counts = dict.fromkeys(SEPARATORS, 0)
    quoted = False
    for char in first_line:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in counts:
            counts[char] += 1
    best = max(SEPARATORS, key=lambda s: counts[s])
    return best if counts[best] else ","


def separator_name(sep: str) -> str:
    return _NAMES.get(sep, repr(sep))


def closest(name: str, accepted: Iterable[str]) -> str:
    """' (did you mean `cost`?)' for a near miss, else ''."""
    near = difflib.get_close_matches(name.lower(), [a.lower() for a in accepted], n=1, cutoff=0.6)
    if not near:
        return ""
    match = next(a for a in accepted if a.lower() == near[0])
    return f" (did you mean `{match}`?)"
