"""What HTML documents share: fonts for print and for a single-file web page (the web fonts
themselves are made in `webfonts.py`), booklet imposition, the document date. The PDF itself is
drawn by `weasy.render_pdf`, a module of its own because importing WeasyPrint takes more than half
a second, which a game without documents should not pay. Renderers return bytes; nothing here
writes a file.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from math import ceil
from pathlib import Path

from ...fonts.registry import SLOTS, FontRegistry

FONT_MIME = {".otf": "font/otf", ".ttf": "font/ttf", ".woff": "font/woff", ".woff2": "font/woff2"}
# `font-family: ...` and custom properties that hold a font list (`--body-font: ...`)
_FAMILY = re.compile(r"(?:font-family|--[a-z-]*font[a-z-]*)\s*:\s*([^;}]+)", re.I)


def source_date() -> str | None:
    """SOURCE_DATE_EPOCH as an ISO date for a document's creation and modification dates;
    None when it is not set, and the document then carries no date (reproducible)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---- fonts ------------------------------------------------------------------------------------


def families_in(css: str) -> list[str]:
    """Every family named in `font-family` declarations (and `--*font*` custom properties),
    in order of first use."""
    names: dict[str, None] = {}
    for match in _FAMILY.finditer(css):
        for name in match.group(1).split(","):
            name = name.strip().strip("\"'").strip()
            if name and not name.startswith("var("):
                names.setdefault(name)
    return list(names)


def pdf_faces(pdf: bytes, registry: FontRegistry) -> set[Path]:
    """The shipped face files a PDF made by WeasyPrint embeds (its font names are Pango
    descriptions: "ABCDEF+EB-Garamond-Bold")."""
    from pypdf import PdfReader

    families = sorted(registry.fonts.values(), key=lambda f: -len(f.family))
    used = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            name = str(ref.get_object().get("/BaseFont", "")).lstrip("/").split("+", 1)[-1]
            font = next((f for f in families if name.startswith(f.family.replace(" ", "-"))), None)
            if font is None:
                continue
            words = name[len(font.family) :].split("-")
            slot = ("bold-" if "Bold" in words else "") + (
                "italic" if {"Italic", "Oblique"} & set(words) else ""
            )
            slot = slot.rstrip("-") or "regular"
            used.add(font.faces.get(slot) or next(iter(font.faces.values())))
    return used


def font_faces(
    registry: FontRegistry,
    families: Iterable[str],
    source: Callable[[Path], str],
    only: set[Path] | None = None,
) -> tuple[str, list[Path]]:
    """@font-face rules for the shipped families among `families`; `source(path)` gives the url.
    `only`: just these face files (the ones a document uses)."""
    wanted = {f.casefold().replace(" ", "") for f in families}
    rules, files = [], []
    for font in registry.fonts.values():
        if font.family.casefold().replace(" ", "") not in wanted:
            continue
        for slot, path in font.faces.items():
            if only is not None and path not in only:
                continue
            weight, style = SLOTS[slot]
            rules.append(
                "@font-face { "
                f'font-family: "{font.family}"; src: url("{source(path)}"); '
                f"font-weight: {700 if weight == 'bold' else 400}; font-style: {style}; }}"
            )
            files.append(path)
    return "\n".join(rules), files


# ---- booklet ----------------------------------------------------------------------------------


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """Saddle-stitch order for `pages` (a multiple of 4): (left, right) page indexes per side,
    front then back of each sheet, outermost sheet first."""
    order = []
    for sheet in range(pages // 4):
        order.append((pages - 1 - 2 * sheet, 2 * sheet))
        order.append((2 * sheet + 1, pages - 2 - 2 * sheet))
    return order


def impose_booklet(pdf: bytes, sheet_size: tuple[float, float], metadata: Mapping[str, str]) -> bytes:
    """Put the (half-sheet) pages of `pdf` two-up on landscape sheets for a folded booklet.
    Blank pages pad the count to a multiple of 4. Print duplex, flipping on the short edge."""
    from pypdf import PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    total = max(4, ceil(len(pages) / 4) * 4)
    width, height = (float(v) for v in pages[0].mediabox.upper_right)
    sheet_w, sheet_h = sheet_size
    scale = min(1.0, sheet_w / (2 * width), sheet_h / height)
    x0 = (sheet_w - 2 * width * scale) / 2
    y0 = (sheet_h - height * scale) / 2
    writer = PdfWriter()
    for left, right in booklet_order(total):
        side = writer.add_blank_page(sheet_w, sheet_h)
        for index, x in ((left, x0), (right, x0 + width * scale)):
            if index < len(pages):
                move = Transformation().scale(scale, scale).translate(x, y0)
                side.merge_transformed_page(pages[index], move)
        side.compress_content_streams()
    writer.add_metadata(dict(metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
