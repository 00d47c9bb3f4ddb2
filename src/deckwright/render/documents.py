"""HTML documents -> PDF bytes with WeasyPrint; fonts for print and for a single-file web page;
booklet imposition.

WeasyPrint fetches only through `LocalFetcher`, which serves files from the folders it is given
(the project's fonts/ and templates/) and refuses everything else: no network, no file outside
the project. Renderers return bytes; nothing here writes a file.
"""

from __future__ import annotations

import base64
import hashlib
import io
import logging
import mimetypes
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from math import ceil
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .fonts import SLOTS, FontRegistry

FONT_EPOCH = "315532800"  # 1980-01-01, the date subset fonts carry when SOURCE_DATE_EPOCH is unset
FONT_MIME = {".otf": "font/otf", ".ttf": "font/ttf", ".woff": "font/woff", ".woff2": "font/woff2"}
# `font-family: ...` and custom properties that hold a font list (`--body-font: ...`)
_FAMILY = re.compile(r"(?:font-family|--[a-z-]*font[a-z-]*)\s*:\s*([^;}]+)", re.I)


# WeasyPrint warnings about the machine, not about the document.
_NOISE = ("HarfBuzz-Subset",)


class LocalFetcher(URLFetcher):
    """Serves `file:` URLs inside the allowed folders; refuses (and records) any other URL."""

    def __init__(self, roots: Iterable[Path]) -> None:
        super().__init__(allowed_protocols=("file",))
        self.roots = tuple(root.resolve() for root in roots)
        self.refused: list[str] = []

    def allows(self, path: Path) -> bool:
        return any(root in path.parents for root in self.roots) and path.is_file()

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        path = Path(url2pathname(unquote(parts.path))).resolve() if parts.scheme == "file" else None
        if path is None or parts.netloc not in ("", "localhost") or not self.allows(path):
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}: only files under fonts/ and templates/ are served")
        mime = FONT_MIME.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
        return URLFetcherResponse(
            url, path.read_bytes(), {"Content-Type": mime or "application/octet-stream"}
        )


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _weasyprint_warnings():
    """WeasyPrint's warnings (a CSS rule it ignores, a refused URL) for the build report."""
    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)


def source_date() -> str | None:
    """SOURCE_DATE_EPOCH as an ISO date for a document's creation and modification dates;
    None when it is not set, and the document then carries no date (reproducible)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@contextmanager
def _fixed_font_clock():
    """fontTools stamps the fonts it subsets (for WeasyPrint) with the current time unless
    SOURCE_DATE_EPOCH is set: without a fixed clock, two builds differ in their fonts."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


def render_pdf(html: str, base_dir: Path, roots: Sequence[Path], identifier: str) -> tuple[bytes, list[str]]:
    """One HTML document -> (PDF bytes, warnings). `identifier` makes the PDF /ID stable."""
    fetcher = LocalFetcher(roots)
    with _weasyprint_warnings() as warnings, _fixed_font_clock():
        document = HTML(string=html, base_url=base_dir.resolve().as_uri() + "/", url_fetcher=fetcher)
        pdf = document.write_pdf(pdf_identifier=hashlib.md5(identifier.encode()).hexdigest().encode())
    seen = dict.fromkeys([*(f"refused to fetch {u}" for u in fetcher.refused), *warnings])
    seen = {m: None for m in seen if not any(noise in m for noise in _NOISE)}
    return pdf, list(seen)


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


def woff2_data_url(path: Path, text: str) -> str:
    """The face subset to the characters of `text`, as a WOFF2 data: URL (deterministic)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["FFTM"]
    font = TTFont(str(path), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in text} | set(range(0x20, 0x7F)))
    subsetter.subset(font)
    buffer = io.BytesIO()
    subset.save_font(font, buffer, options)
    return "data:font/woff2;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


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
