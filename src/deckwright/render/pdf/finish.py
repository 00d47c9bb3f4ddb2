"""What cairo cannot write into a PDF, patched into its bytes: page boxes, /Info and /ID.

cairo writes each page's MediaBox only, stamps its own creation date into /Info and writes no
file identifier. Re-reading and re-writing the whole document (pypdf) to add a few keys cost as
much as a quarter of drawing it. cairo's output has one plain layout, written by the same code
for every file: uncompressed object headers (`N 0 obj\\n<< /Type /Page % k\\n` for page k), one
classic cross-reference table and trailer at the end. So the keys are inserted in place, the
/Info object is replaced, and the offsets in the table are moved by what was inserted before
them; resource dictionaries that name an entry more than once (as cairo's do) name it once.
Anything else in that layout is refused (SheetError) rather than guessed at.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Mapping, Sequence

from ...geometry import Box

_PAGE = re.compile(rb"\n(\d+) 0 obj\n<< /Type /Page % (\d+)\n")
_TAIL = re.compile(rb"startxref\n(\d+)\n%%EOF\n?\Z")
_XREF = re.compile(rb"xref\n0 (\d+)\n")
_ENTRY = 20  # "0000012345 00000 n \n"
# cairo names a resource once per use (`/x24 24 0 R /x24 24 0 R`): a key PDF allows once.
_RESOURCES = re.compile(rb"/(?:XObject|Pattern|Shading|Font) <<((?: /[\w.-]+ \d+ 0 R)+) >>")
_RESOURCE = re.compile(rb" /[\w.-]+ \d+ 0 R")


class PdfLayoutError(Exception):
    pass


def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _rect(r: Box, page_height: float) -> bytes:
    """A page rectangle (y down) as a PDF rectangle [x0 y0 x1 y1] (y up)."""
    values = (r.x, page_height - r.bottom, r.right, page_height - r.y)
    return ("[ " + " ".join(_number(v) for v in values) + " ]").encode("ascii")


def text_string(text: str) -> bytes:
    """A PDF text string: a literal for printable ASCII, else UTF-16BE with its byte order mark."""
    if all(32 <= ord(c) < 127 for c in text):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return b"(" + escaped.encode("ascii") + b")"
    return b"<feff" + text.encode("utf-16-be").hex().encode("ascii") + b">"


def finish(
    data: bytes,
    boxes: Sequence[tuple[float, Box, Box]],
    info: Mapping[str, str],
    catalog: bytes = b"",
) -> bytes:
    """cairo's PDF with, per page, (page height, TrimBox, BleedBox) in page coordinates (y down),
    the document information `info` (keys without the slash) instead of cairo's, a /ID
    derived from cairo's bytes, and `catalog` (entries such as `/ViewerPreferences << ... >>`)
    added to the document catalog."""
    tail = _TAIL.search(data)
    if tail is None:
        raise PdfLayoutError("no startxref at the end of cairo's PDF")
    xref_at = int(tail.group(1))
    head = _XREF.match(data, xref_at)
    if head is None:
        raise PdfLayoutError("cairo's PDF has no classic cross-reference table")
    size = int(head.group(1))
    table_end = head.end() + size * _ENTRY
    offsets = [int(data[head.end() + i * _ENTRY : head.end() + i * _ENTRY + 10]) for i in range(size)]
    trailer = data[table_end : tail.start()]
    info_ref = re.search(rb"/Info (\d+) 0 R", trailer)
    root_ref = re.search(rb"/Root (\d+) 0 R", trailer)
    if info_ref is None or root_ref is None:
        raise PdfLayoutError("cairo's trailer names no /Info or /Root")

    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement), in file order
    pages = list(_PAGE.finditer(data, 0, xref_at))
    if [int(m.group(2)) for m in pages] != list(range(1, len(boxes) + 1)):
        raise PdfLayoutError(f"expected {len(boxes)} page objects in cairo's PDF, found {len(pages)}")
    for match, (height, trim, bleed) in zip(pages, boxes, strict=True):
        keys = b"   /TrimBox " + _rect(trim, height) + b"\n   /BleedBox " + _rect(bleed, height) + b"\n"
        edits.append((match.end(), match.end(), keys))
    info_num = int(info_ref.group(1))
    info_at = offsets[info_num]
    info_end = data.index(b"endobj\n", info_at) + len(b"endobj\n")
    edits.append((info_at, info_end, _info_object(info_num, info)))
    if catalog:
        root_at = offsets[int(root_ref.group(1))]
        head_end = data.index(b"<< /Type /Catalog\n", root_at) + len(b"<< /Type /Catalog\n")
        edits.append((head_end, head_end, b"   " + catalog + b"\n"))
    edits += _unique_resources(data, xref_at)
    edits.sort()

    body, starts, shifts = _apply(data[:xref_at], edits)
    moved = [offset + shifts[bisect.bisect_left(starts, offset)] for offset in offsets]
    digest = hashlib.md5(data, usedforsecurity=False).hexdigest().encode("ascii")
    table = b"".join(
        b"0000000000 65535 f \n" if i == 0 else b"%010d 00000 n \n" % offset for i, offset in enumerate(moved)
    )
    return b"".join(
        [
            body,
            b"xref\n0 %d\n" % size,
            table,
            b"trailer\n<< /Size %d\n   /Root %s 0 R\n   /Info %d 0 R\n" % (size, root_ref.group(1), info_num),
            b"   /ID [ <" + digest + b"> <" + digest + b"> ]\n>>\n",
            b"startxref\n%d\n%%%%EOF\n" % len(body),
        ]
    )


def _apply(data: bytes, edits: list[tuple[int, int, bytes]]) -> tuple[bytes, list[int], list[int]]:
    """The bytes with the edits made, and how far a position is moved: a position p before
    `starts[i]` (and at or after the previous start) moves by `shifts[i]`."""
    parts, starts, shifts = [], [], [0]
    last, shift = 0, 0
    for start, end, replacement in edits:
        parts += [data[last:start], replacement]
        starts.append(start)
        shift += len(replacement) - (end - start)
        shifts.append(shift)
        last = end
    parts.append(data[last:])
    return b"".join(parts), starts, shifts


def _unique_resources(data: bytes, end: int) -> list[tuple[int, int, bytes]]:
    """Edits that write each entry of cairo's one-line resource dictionaries once."""
    edits = []
    for match in _RESOURCES.finditer(data, 0, end):
        entries = _RESOURCE.findall(match.group(1))
        unique = list(dict.fromkeys(entries))
        if len(unique) < len(entries):
            edits.append((match.start(1), match.end(1), b"".join(unique)))
    return edits


def _info_object(number: int, info: Mapping[str, str]) -> bytes:
    entries = b"".join(
        b"   /" + key.encode("ascii") + b" " + text_string(value) + b"\n" for key, value in info.items()
    )
    return b"%d 0 obj\n<<\n" % number + entries + b">>\nendobj\n"
