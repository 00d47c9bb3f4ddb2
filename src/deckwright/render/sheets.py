"""Print-and-play pages as SVG, and a list of pages as one multi-page vector PDF.

A page is an SVG document in points that nests the card SVGs as `<image>` elements with
`data:image/svg+xml` URLs, each placed by a transform and clipped to the trim plus the bleed
kept on the sheet. Every page is drawn onto ONE cairo PDF surface (one `show_page` per page), so
each font is embedded once for the whole file, as a subset, and text stays text. Each distinct
card SVG is drawn once per file, by CairoSVG onto a cairo recording surface (in its own document:
its ids cannot clash with a neighbour's), and painted wherever it is placed: the PDF holds it
once, as a Form XObject, however many copies print. Drawing a face leaves its display list
(`displaylist`: the cairo calls CairoSVG made), kept in the build's cache: the next build
replays it instead of drawing the SVG again, with the same bytes. Then each page's TrimBox and BleedBox,
which cairo cannot write, the document information, and a /ID derived from the content are
patched into cairo's bytes (`pdffinish`): two builds give the same bytes.
"""

from __future__ import annotations

import base64
import functools
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from xml.sax.saxutils import escape, quoteattr

from ..geometry import Box
from ..impose import MM, Affine, Segment
from . import pdffinish
from .displaylist import Drawing, recording_class, replay
from .fonts import FontMetrics, FontRegistry

INK = "#000000"
MARK_STROKE = 0.2 * MM  # crop marks, cut lines: thin, as print shops draw them
# cairo stamps a creation date on every PDF; this fixed one is replaced (or removed) afterwards.
_CAIRO_DATE = "2000-01-01T00:00:00Z"
_BACKGROUND = re.compile(r"""<g(?=\s)([^>]*?\sid\s*=\s*["']background["'][^>]*?)(/?)>""")


class SheetError(Exception):
    pass


def _fmt(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def drop_background(svg: str) -> tuple[str, bool]:
    """The card with its `<g id="background">` hidden (ink saver), and whether it had one."""
    found = False

    def hide(match: re.Match) -> str:
        nonlocal found
        found = True
        attributes = re.sub(r"""\sdisplay\s*=\s*["'][^"']*["']""", "", match.group(1))
        return f'<g{attributes} display="none"{match.group(2)}>'

    return _BACKGROUND.sub(hide, svg), found


def face_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


@dataclass(frozen=True)
class Page:
    """One finished page: its SVG and the boxes a print shop reads (page coordinates, y down)."""

    width: float
    height: float
    svg: str
    trim: Box | None = None  # the cards' trim (their union); None: the whole page
    bleed: Box | None = None  # the printed bleed around them


@dataclass
class PageDrawing:
    """Builds one page's SVG; coordinates in points, y down."""

    width: float
    height: float
    font: str  # the family sheet text is set in (a shipped font)
    parts: list[str] = field(default_factory=list)
    defs: list[str] = field(default_factory=list)

    def card(self, uri: str, canvas: tuple[float, float], transform: Affine, clip: Box) -> None:
        """A card canvas (trim + full bleed) placed by `transform`, printed inside `clip`."""
        clip_id = f"clip{len(self.defs)}"
        self.defs.append(f'<clipPath id="{clip_id}">{self._rect_tag(clip)}</clipPath>')
        t = transform
        matrix = " ".join(_fmt(v) for v in (t.a, t.b, t.c, t.d, t.e, t.f))
        self.parts.append(
            f'<g clip-path="url(#{clip_id})"><g transform="matrix({matrix})">'
            f'<image x="0" y="0" width="{_fmt(canvas[0])}" height="{_fmt(canvas[1])}" href="{uri}"/>'
            "</g></g>"
        )

    def line(self, s: Segment, width: float = MARK_STROKE, color: str = INK, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<line x1="{_fmt(s.x1)}" y1="{_fmt(s.y1)}" x2="{_fmt(s.x2)}" y2="{_fmt(s.y2)}" '
            f'stroke="{color}" stroke-width="{_fmt(width)}"{extra}/>'
        )

    def rect(
        self,
        r: Box,
        stroke: str | None = INK,
        width: float = MARK_STROKE,
        fill: str = "none",
        radius: float = 0.0,
        dash: str | None = None,
    ) -> None:
        attrs = f' fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{_fmt(width)}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(self._rect_tag(r, radius, attrs))

    def circle(self, cx: float, cy: float, r: float, stroke: str = INK, width: float = MARK_STROKE) -> None:
        self.parts.append(
            f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}" fill="none" '
            f'stroke="{stroke}" stroke-width="{_fmt(width)}"/>'
        )

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
        """One line of text with its baseline at y."""
        attrs = (
            f'x="{_fmt(x)}" y="{_fmt(y)}" font-family={quoteattr(self.font)} font-size="{_fmt(size)}" '
            f'fill="{fill}" text-anchor="{anchor}"'
        )
        if bold:
            attrs += ' font-weight="bold"'
        if rotate:
            attrs += f' transform="rotate({_fmt(rotate)} {_fmt(x)} {_fmt(y)})"'
        self.parts.append(f"<text {attrs}>{escape(text)}</text>")

    def page(self, trim: Box | None = None, bleed: Box | None = None) -> Page:
        w, h = _fmt(self.width), _fmt(self.height)
        svg = "\n".join(
            [
                '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
                f'width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}">',
                f"<defs>{''.join(self.defs)}</defs>",
                *self.parts,
                "</svg>",
            ]
        )
        return Page(self.width, self.height, svg, trim, bleed)

    @staticmethod
    def _rect_tag(r: Box, radius: float = 0.0, attrs: str = "") -> str:
        rounded = f' rx="{_fmt(radius)}" ry="{_fmt(radius)}"' if radius > 0 else ""
        return (
            f'<rect x="{_fmt(r.x)}" y="{_fmt(r.y)}" width="{_fmt(r.w)}" height="{_fmt(r.h)}"'
            f"{rounded}{attrs}/>"
        )


# ---- PDF -------------------------------------------------------------------------------------


def pdf_date(epoch: str | None) -> str | None:
    """SOURCE_DATE_EPOCH as a PDF date string; None when it is not a number."""
    if not epoch or not epoch.strip().isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("D:%Y%m%d%H%M%SZ")


class FaceDrawings:
    """Where the faces' display lists are kept between builds; this one keeps none.

    `replayed` and `drawn` count the faces replayed from a display list and drawn by CairoSVG.
    """

    def __init__(self) -> None:
        self.replayed = 0
        self.drawn = 0

    def get(self, svg: bytes) -> bytes | None:
        return None

    def put(self, svg: bytes, drawing: bytes) -> None:
        pass


def pages_to_pdf(
    pages: Sequence[Page],
    info: Mapping[str, str],
    date: str | None = None,
    drawings: FaceDrawings | None = None,
) -> bytes:
    """Draw every page onto one cairo PDF surface; then set the page boxes, /Info and /ID.

    `info` holds the document information (/Title, /Subject, ...); `date` (a PDF date, from
    SOURCE_DATE_EPOCH) becomes /CreationDate and /ModDate, and without it the file has none.
    Faces are replayed from their display lists in `drawings` where it has them (the same
    bytes as drawing them), and those drawn are stored there.
    """
    drawings = drawings if drawings is not None else FaceDrawings()
    if not pages:
        raise SheetError("a print-and-play PDF needs at least one page")
    import cairocffi
    from cairosvg.parser import Tree

    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, pages[0].width, pages[0].height)
    surface.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, _CAIRO_DATE)
    page_surface = _page_surface_class()
    faces: dict[str, Face | None] = {}  # each distinct card SVG, recorded once for the file
    for page in pages:
        tree = Tree(bytestring=page.svg.encode("utf-8"), unsafe=False, url_fetcher=_data_only)
        page_surface(surface, tree, page.width, page.height, faces, drawings)
        surface.show_page()
    surface.finish()
    return _finish(out.getvalue(), pages, info, date)


@dataclass
class Face:
    """A card SVG drawn once onto a cairo recording surface, in points from its top-left corner.

    Painted as a source, a recording replays as vectors. cairo's PDF backend writes what a page
    paints from it (a snapshot, shared until the recording is flushed) once, as a Form XObject
    that every placement reuses, at the end of the first page that paints it, and leaves out
    whatever lay off that page there. A board tile shows a corner of its board and leaves the
    rest off the page: unless the face was first placed whole, the recording is flushed after
    such a placement, so that the next placement gets a snapshot (and an XObject) of its own.
    """

    recording: object  # cairocffi.RecordingSurface
    width: float  # the card SVG's own size (its width and height attributes), in points
    height: float
    placed_whole: bool = False  # its current snapshot was painted whole on a page


_SVG_DATA = "data:image/svg+xml"
# Attributes of an <image> that the fast path does not apply: such images go through CairoSVG.
_UNHANDLED = ("clip", "clip-path", "display", "filter", "mask", "opacity", "visibility")


@functools.cache
def _page_surface_class():
    """A CairoSVG surface that draws onto an existing cairo surface (one page of many).

    CairoSVG draws an `<image>` of SVG by parsing it and drawing it again at every placement.
    This surface instead draws each distinct card SVG (keyed by its data URL) once per file,
    onto a recording surface, and paints that recording wherever the card is placed, with the
    transform and clip CairoSVG would have used (`cairosvg.image.image`).
    """
    import cairocffi
    from cairosvg.helpers import node_format, preserve_ratio, size, transform
    from cairosvg.parser import Tree
    from cairosvg.surface import Surface
    from cairosvg.url import parse_url

    class FaceContext(cairocffi.Context):
        """A context whose font options left at DEFAULT take the PDF surface's values.

        Drawn straight onto the PDF surface, text is laid out with its options (unhinted
        metrics: the advances the templates measure with); a recording surface has none.
        """

        page_options: cairocffi.FontOptions

        def set_font_options(self, options) -> None:
            merged = self.page_options.copy()
            merged.merge(options)
            super().set_font_options(merged)

    RecordingFaceContext = recording_class(FaceContext)

    class FaceSurface(Surface):
        """Draws one card SVG onto a recording surface of its own size (user units = points),
        logging the cairo calls it makes (`displaylist`)."""

        def __init__(self, tree, page_options, map_rgba, map_image) -> None:
            self._page_options = page_options
            super().__init__(tree, None, 72, map_rgba=map_rgba, map_image=map_image)

        @property
        def context(self):
            return self._context

        @context.setter
        def context(self, context) -> None:
            """CairoSVG's context, made in Surface.__init__ before anything is drawn: replaced by
            one on the same recording surface that logs its calls."""
            self._context = face_context(context.get_target(), self._page_options, RecordingFaceContext)
            self._context.ops = []
            self._context.set_font_options(self._context.get_font_options())

        def _create_surface(self, width: float, height: float):
            recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, width, height))
            return recording, width, height

        def finish(self) -> None:  # the recording is painted later, and never finished
            pass

    def face_context(recording, page_options, cls=FaceContext):
        context = cls(recording)
        context.page_options = page_options
        return context

    class PageSurface(Surface):
        def __init__(
            self, shared, tree, width: float, height: float, faces: dict[str, Face | None], drawings
        ):
            self._shared, self._size, self._faces, self._drawings = shared, (width, height), faces, drawings
            super().__init__(tree, None, 72)

        def _create_surface(self, width: float, height: float):
            if abs(width - self._size[0]) > 0.01 or abs(height - self._size[1]) > 0.01:
                raise SheetError(f"page SVG is {width} x {height} pt, expected {self._size}")
            self._shared.set_size(width, height)
            return self._shared, width, height

        def finish(self) -> None:  # the shared surface is finished once, after the last page
            pass

        def draw(self, node) -> None:
            if not (node.tag == "image" and self._place_face(node)):
                super().draw(node)

        def _face(self, node, href: str) -> Face | None:
            """The recorded face for an `<image>`'s SVG data URL; None for another image."""
            if href in self._faces:
                return self._faces[href]
            data = node.fetch_url(parse_url(href), "image/*")
            options = self._shared.get_font_options()
            stored = self._drawings.get(data)
            if stored is not None:
                face = self._replayed(Drawing.loads(stored), options)
            else:
                face = self._drawn(node, href, data, options)
            self._faces[href] = face
            return face

        def _replayed(self, drawing: Drawing, options) -> Face:
            recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, tuple(drawing.extents))
            replay(face_context(recording, options), drawing.ops)
            self._drawings.replayed += 1
            return Face(recording, drawing.width, drawing.height)

        def _drawn(self, node, href: str, data: bytes, options) -> Face | None:
            """The face drawn by CairoSVG, its display list stored when it has one."""
            tree = Tree(url=href, bytestring=data, url_fetcher=node.url_fetcher, unsafe=node.unsafe)
            width, height, viewbox = node_format(self, tree, reference=False)
            if not (viewbox and width and height):  # sized by its placement: CairoSVG draws it
                return None
            drawn = FaceSurface(tree, options, self.map_rgba, self.map_image)
            self._drawings.drawn += 1
            ops = drawn.context.display_list()
            if ops is not None:
                extents = list(drawn.cairo.get_extents())
                self._drawings.put(data, Drawing(width, height, extents, ops).dumps())
            return Face(drawn.cairo, width, height)

        def _place_face(self, node) -> bool:
            """Paint a recorded card for an `<image>` of SVG; False to let CairoSVG draw it."""
            href = node.get_href() or ""
            if not href.startswith(_SVG_DATA) or any(key in node for key in _UNHANDLED):
                return False
            x, y = size(self, node.get("x"), "x"), size(self, node.get("y"), "y")
            width, height = size(self, node.get("width"), "x"), size(self, node.get("height"), "y")
            if not (width > 0 and height > 0):
                return False
            face = self._face(node, href)
            if face is None:
                return False
            context = self.context
            context.save()
            transform(self, node.get("transform"), transform_origin=node.get("transform-origin"))
            whole = self._on_page(x, y, width, height)
            # as cairosvg.image.image: clipped to the image's box, the SVG fitted into it
            node.image_width, node.image_height = face.width, face.height
            scale_x, scale_y, translate_x, translate_y = preserve_ratio(self, node, width, height)
            context.rectangle(x, y, width, height)
            context.clip()
            context.translate(x, y)
            context.scale(scale_x, scale_y)
            context.translate(translate_x, translate_y)
            context.set_source_surface(face.recording, 0, 0)
            context.paint()
            context.restore()
            if whole:
                face.placed_whole = True
            elif not face.placed_whole:
                face.recording.flush()  # this page keeps its snapshot; see Face
            return True

        def _on_page(self, x: float, y: float, width: float, height: float) -> bool:
            """Whether the box, in the current user space, lies wholly on the page."""
            corners = [(x, y), (x + width, y), (x, y + height), (x + width, y + height)]
            xs, ys = zip(*(self.context.user_to_device(*corner) for corner in corners), strict=True)
            slack = 0.01
            return (
                min(xs) >= -slack
                and min(ys) >= -slack
                and max(xs) <= self.width + slack
                and max(ys) <= self.height + slack
            )

    return PageSurface


def _data_only(url: str, resource_type: str) -> bytes:
    import cairosvg.url

    if url.startswith("data:"):
        return cairosvg.url.fetch(url, resource_type)
    raise SheetError(f"refused to fetch {url[:60]!r}: sheets embed their cards as data")


def _finish(data: bytes, pages: Sequence[Page], info: Mapping[str, str], date: str | None) -> bytes:
    boxes = []
    for page in pages:
        media = Box(0, 0, page.width, page.height)
        trim = page.trim or media
        boxes.append((page.height, trim, _within(page.bleed or trim, media)))
    meta = {**info, "Producer": _producer(data)}
    if date:
        meta["CreationDate"] = meta["ModDate"] = date
    try:
        return pdffinish.finish(data, boxes, meta)
    except pdffinish.PdfLayoutError as exc:
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
