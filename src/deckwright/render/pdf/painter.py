"""Print-and-play pages, and a list of pages as one multi-page vector PDF.

A page is a list of drawing items in points, y down (`PageDrawing`): card faces, each placed by
a transform and clipped to the trim plus the bleed kept on the sheet, and the marks and text
around them. Every page is drawn with cairo onto ONE cairo PDF surface (one `show_page` per
page), so each font is embedded once for the whole file, as a subset, and text stays text.
Each distinct card face is drawn once per file onto a recording surface (`facedrawings`) and
painted wherever it is placed: the PDF holds it once, as a Form XObject, however many copies
print. Drawing a face leaves its display list (`displaylist`: the cairo calls CairoSVG made),
kept in the build's cache: the next build replays it instead of drawing the SVG again, with
the same bytes. Then each page's TrimBox and BleedBox, which cairo cannot write, the document
information, and a /ID derived from the content are patched into cairo's bytes (`finish`):
two builds give the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...fonts.metrics import FontMetrics
from ...fonts.registry import FontRegistry
from ...geometry import Affine, Box, Segment
from ...units import MM
from . import finish
from .facedrawings import Face, FaceDrawings, FaceError, face

INK = "#000000"
MARK_STROKE = 0.2 * MM  # crop marks, cut lines: thin, as print shops draw them
# cairo stamps a creation date on every PDF; this fixed one is replaced afterwards.
_CAIRO_DATE = "2000-01-01T00:00:00Z"
_BACKGROUND = re.compile(r"""<g(?=\s)([^>]*?\sid\s*=\s*["']background["'][^>]*?)(/?)>""")
_SLACK = 0.01  # pt: a face this close to the page edge counts as on the page


class SheetError(Exception):
    pass


def drop_background(svg: str) -> tuple[str, bool]:
    """The card with its `<g id="background">` hidden (ink saver), and whether it had one."""
    found = False

    def hide(match: re.Match) -> str:
        nonlocal found
        found = True
        attributes = re.sub(r"""\sdisplay\s*=\s*["'][^"']*["']""", "", match.group(1))
        return f'<g{attributes} display="none"{match.group(2)}>'

    return _BACKGROUND.sub(hide, svg), found


@dataclass(frozen=True)
class SheetFace:
    """A card SVG to place on sheets, named by its digest (pages name it, the PDF draws it once)."""

    key: str
    svg: str

    @classmethod
    def of(cls, svg: str) -> SheetFace:
        return cls(hashlib.sha256(svg.encode("utf-8")).hexdigest()[:32], svg)


@dataclass(frozen=True)
class Page:
    """One finished page: what to draw, and the boxes a print shop reads (page coordinates,
    y down). `items` are plain tuples (see `PageDrawing`), card faces named by key in `faces`."""

    width: float
    height: float
    items: tuple[tuple, ...]
    faces: Mapping[str, str]  # key -> card SVG
    trim: Box | None = None  # the cards' trim (their union); None: the whole page
    bleed: Box | None = None  # the printed bleed around them

    def key(self) -> str:
        """Everything the page draws, for a cache key (faces by their digest)."""
        return repr((self.width, self.height, self.items, self.trim, self.bleed))


@dataclass
class PageDrawing:
    """Collects one page's drawing; coordinates in points, y down, colours as #rrggbb."""

    width: float
    height: float
    font: str  # the family sheet text is set in (a shipped font)
    items: list[tuple] = field(default_factory=list)
    faces: dict[str, str] = field(default_factory=dict)

    def card(self, face: SheetFace, canvas: tuple[float, float], transform: Affine, clip: Box) -> None:
        """A card canvas (trim + full bleed) placed by `transform`, printed inside `clip`."""
        self.faces[face.key] = face.svg
        t = transform
        self.items.append(("card", face.key, tuple(canvas), (t.a, t.b, t.c, t.d, t.e, t.f), _box(clip)))

    def line(self, s: Segment, width: float = MARK_STROKE, color: str = INK, dash: str | None = None) -> None:
        self.items.append(("line", (s.x1, s.y1, s.x2, s.y2), width, color, dash))

    def rect(
        self,
        r: Box,
        stroke: str | None = INK,
        width: float = MARK_STROKE,
        fill: str = "none",
        radius: float = 0.0,
        dash: str | None = None,
    ) -> None:
        self.items.append(("rect", _box(r), radius, stroke, width, fill, dash))

    def circle(self, cx: float, cy: float, r: float, stroke: str = INK, width: float = MARK_STROKE) -> None:
        self.items.append(("circle", (cx, cy, r), stroke, width))

    def cross(self, x: float, y: float, arm: float, width: float = MARK_STROKE, halo: bool = False) -> None:
        """A cross; with `halo`, on a white outline so that it shows on dark artwork too."""
        arms = (Segment(x - arm, y, x + arm, y), Segment(x, y - arm, x, y + arm))
        if halo:
            for s in arms:
                self.line(s, 3 * width, color="#ffffff")
        for s in arms:
            self.line(s, width)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        *,
        bold: bool = False,
        anchor: str = "start",
        fill: str = INK,
        rotate: float = 0.0,
    ) -> None:
        """One line of text with its baseline at y; `anchor` start, middle or end; `rotate` in
        degrees, clockwise, about (x, y)."""
        self.items.append(("text", (x, y), text, self.font, size, bold, anchor, fill, rotate))

    def page(self, trim: Box | None = None, bleed: Box | None = None) -> Page:
        return Page(self.width, self.height, tuple(self.items), dict(self.faces), trim, bleed)


def _box(r: Box) -> tuple[float, float, float, float]:
    return (r.x, r.y, r.w, r.h)


# ---- PDF -------------------------------------------------------------------------------------


def pdf_date(epoch: str | None) -> str | None:
    """SOURCE_DATE_EPOCH as a PDF date string; None when it is not a number."""
    if not epoch or not epoch.strip().isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("D:%Y%m%d%H%M%SZ")


def pages_to_pdf(
    pages: Sequence[Page],
    info: Mapping[str, str],
    date: str | None = None,
    drawings: FaceDrawings | None = None,
    duplex: str | None = None,
) -> bytes:
    """Draw every page onto one cairo PDF surface; then set the page boxes, /Info and /ID.

    The catalog's /ViewerPreferences ask for printing at actual size (/PrintScaling /None:
    Acrobat's default "Fit" shrinks cards by 3-5 %) and, with `duplex` ("long-edge",
    "short-edge" or "simplex"), preset the print dialog's duplex setting.

    `info` holds the document information (/Title, /Subject, ...); `date` (a PDF date, from
    SOURCE_DATE_EPOCH) becomes /CreationDate and /ModDate, and without it the file has none.
    Faces are replayed from their display lists in `drawings` where it has them (the same
    bytes as drawing them), and those drawn are stored there.
    """
    if not pages:
        raise SheetError("a print-and-play PDF needs at least one page")
    import cairocffi

    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, pages[0].width, pages[0].height)
    surface.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, _CAIRO_DATE)
    painter = _Painter(surface, drawings if drawings is not None else FaceDrawings())
    for page in pages:
        surface.set_size(page.width, page.height)
        painter.draw(page)
        surface.show_page()
    surface.finish()
    return _finish(out.getvalue(), pages, info, date, viewer_preferences(duplex))


_DUPLEX_NAMES = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "simplex": "Simplex"}


def viewer_preferences(duplex: str | None) -> bytes:
    """The catalog entry that makes viewers print at 100 % (and duplex as the sheets need)."""
    entries = b"/PrintScaling /None"
    if duplex is not None:
        entries += b" /Duplex /" + _DUPLEX_NAMES[duplex].encode("ascii")
    return b"/ViewerPreferences << " + entries + b" >>"


class _Painter:
    """Draws pages with cairo: the items of `PageDrawing`, each face recorded once per file."""

    def __init__(self, surface, drawings: FaceDrawings) -> None:
        import cairocffi

        self.cairo = cairocffi
        self.surface = surface
        self.drawings = drawings
        self.faces: dict[str, Face] = {}
        self.size = (0.0, 0.0)  # the page being drawn
        self.options = cairocffi.FontOptions()
        self.options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)  # the advances SheetFont measures

    def draw(self, page: Page) -> None:
        context = self.cairo.Context(self.surface)
        context.set_font_options(self.options)
        self.size = (page.width, page.height)
        for item in page.items:
            getattr(self, "_" + item[0])(context, page, *item[1:])

    def _face(self, key: str, svg: str) -> Face:
        found = self.faces.get(key)
        if found is None:
            try:
                found = face(svg, self.drawings)
            except FaceError as exc:
                raise SheetError(str(exc)) from exc
            self.faces[key] = found
        return found

    def _card(self, context, page: Page, key: str, canvas, matrix, clip) -> None:
        """The face fitted into its canvas (centred, its aspect kept, as an SVG `<image>`),
        placed by `matrix` and printed inside `clip`."""
        card = self._face(key, page.faces[key])
        width, height = canvas
        context.save()
        context.rectangle(*clip)
        context.clip()
        context.transform(self.cairo.Matrix(*matrix))
        whole = self._on_page(context, width, height)
        context.rectangle(0, 0, width, height)
        context.clip()
        scale = min(width / card.width, height / card.height)
        context.translate((width - card.width * scale) / 2, (height - card.height * scale) / 2)
        context.scale(scale, scale)
        context.set_source_surface(card.recording, 0, 0)
        context.paint()
        context.restore()
        if whole:
            card.placed_whole = True
        elif not card.placed_whole:
            card.recording.flush()  # this page keeps its snapshot; see Face

    def _on_page(self, context, width: float, height: float) -> bool:
        """Whether the box (0, 0, width, height), in the current user space, lies wholly on the page."""
        corners = [(0, 0), (width, 0), (0, height), (width, height)]
        xs, ys = zip(*(context.user_to_device(*corner) for corner in corners), strict=True)
        return (
            min(xs) >= -_SLACK
            and min(ys) >= -_SLACK
            and max(xs) <= self.size[0] + _SLACK
            and max(ys) <= self.size[1] + _SLACK
        )

    def _line(self, context, page: Page, points, width: float, color: str, dash: str | None) -> None:
        x1, y1, x2, y2 = points
        context.move_to(x1, y1)
        context.line_to(x2, y2)
        self._stroke(context, color, width, dash)

    def _rect(self, context, page: Page, box, radius: float, stroke, width: float, fill: str, dash) -> None:
        x, y, w, h = box
        if radius > 0:
            r = min(radius, w / 2, h / 2)
            context.new_sub_path()
            context.arc(x + w - r, y + r, r, -math.pi / 2, 0)
            context.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
            context.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
            context.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
            context.close_path()
        else:
            context.rectangle(x, y, w, h)
        if fill != "none":
            context.set_source_rgb(*_rgb(fill))
            context.fill_preserve()
        if stroke:
            self._stroke(context, stroke, width, dash)
        context.new_path()

    def _circle(self, context, page: Page, circle, stroke: str, width: float) -> None:
        context.new_sub_path()
        context.arc(*circle, 0, 2 * math.pi)
        self._stroke(context, stroke, width, None)

    def _stroke(self, context, color: str, width: float, dash: str | None) -> None:
        context.set_source_rgb(*_rgb(color))
        context.set_line_width(width)
        context.set_dash([float(v) for v in dash.split()] if dash else [])
        context.stroke()

    def _text(
        self, context, page: Page, at, text: str, family: str, size, bold, anchor, fill, rotate
    ) -> None:
        cairo = self.cairo
        x, y = at
        weight = cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
        context.save()
        context.select_font_face(family, cairo.FONT_SLANT_NORMAL, weight)
        context.set_font_size(size)
        context.set_source_rgb(*_rgb(fill))
        if rotate:
            context.translate(x, y)
            context.rotate(math.radians(rotate))
            context.translate(-x, -y)
        x_bearing, _, width, _, _, _ = context.text_extents(text)
        shift = {"middle": -(width / 2 + x_bearing), "end": -(width + x_bearing)}.get(anchor, 0.0)
        context.move_to(x + shift, y)
        context.show_text(text)
        context.restore()


def _rgb(color: str) -> tuple[float, float, float]:
    """#rrggbb as cairo's (r, g, b) in 0..1."""
    value = int(color.lstrip("#"), 16)
    return ((value >> 16) / 255, ((value >> 8) & 0xFF) / 255, (value & 0xFF) / 255)


def _finish(
    data: bytes, pages: Sequence[Page], info: Mapping[str, str], date: str | None, catalog: bytes = b""
) -> bytes:
    boxes = []
    for page in pages:
        media = Box(0, 0, page.width, page.height)
        trim = page.trim or media
        boxes.append((page.height, trim, _within(page.bleed or trim, media)))
    meta = {**info, "Producer": _producer(data)}
    if date:
        meta["CreationDate"] = meta["ModDate"] = date
    try:
        return finish.finish(data, boxes, meta, catalog)
    except finish.PdfLayoutError as exc:
        raise SheetError(f"cannot finish cairo's PDF: {exc}") from exc


def _producer(data: bytes) -> str:
    found = re.search(rb"/Producer \((cairo [0-9.]+)", data)
    return found.group(1).decode("ascii") if found else "cairo"


def _within(r: Box, outer: Box) -> Box:
    x, y = max(r.x, outer.x), max(r.y, outer.y)
    return Box(x, y, min(r.right, outer.right) - x, min(r.bottom, outer.bottom) - y)


# ---- text on sheets --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetFont:
    """The family sheet text is set in, measured as cairo draws it (design advances)."""

    family: str
    regular: FontMetrics
    bold: FontMetrics

    @classmethod
    def from_registry(cls, registry: FontRegistry, family: str = "sans-serif") -> SheetFont:
        """Raises FontError when the family (or its bold face) is not shipped."""
        regular = registry.face(family, "regular", "normal")
        bold = registry.face(family, "bold", "normal")
        return cls(regular.family, regular.metrics, bold.metrics)

    def width(self, text: str, size: float, bold: bool = False) -> float:
        return (self.bold if bold else self.regular).width_em(text) * size

    def fit(
        self, text: str, size: float, width: float, min_size: float, bold: bool = False
    ) -> tuple[str, float]:
        """`text` at the largest size down to `min_size` that fits `width`; shortened with an
        ellipsis if it does not fit even then."""
        natural = self.width(text, size, bold)
        if natural <= width:
            return text, size
        size = max(min_size, size * width / natural)
        while text and self.width(text, size, bold) > width:
            text = text[:-2].rstrip() + "…" if len(text) > 1 else ""
        return text, size

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """Greedy line breaking at spaces; a word longer than the line is left whole."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split():
                candidate = f"{line} {word}" if line else word
                if line and self.width(candidate, size, bold) > width:
                    lines.append(line)
                    line = word
                else:
                    line = candidate
            lines.append(line)
        return lines
