"""Card faces for print-and-play PDFs: each drawn once per file onto a cairo recording surface.

A face is drawn by CairoSVG (in its own document: its ids cannot clash with a neighbour's), or
replayed from the display list an earlier drawing left (`displaylist`), and then painted
wherever the card is placed: the PDF holds it once, as a Form XObject, however many copies
print.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ...safety.images import data_url_fetcher
from .displaylist import DisplayListError, Drawing, recording_class, replay


class FaceError(Exception):
    pass


_data_only = data_url_fetcher(FaceError, "card faces embed their art as data")


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


@dataclass
class Face:
    """A card SVG on a cairo recording surface, in points from its top-left corner.

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


@functools.cache
def page_font_options():
    """A PDF surface's font options, which a face's text is laid out with: the same for a face
    drawn for a PDF and one drawn only to record its display list."""
    import io

    import cairocffi

    return cairocffi.PDFSurface(io.BytesIO(), 1, 1).get_font_options()


# Elements whose drawing a display list cannot hold (`displaylist`): a face using them is drawn
# afresh for every PDF, so recording it ahead (`record`) would be wasted.
_UNRECORDABLE = re.compile(rb"<(?:image|pattern|mask|filter)\b|\s(?:mask|filter)\s*=")


def worth_recording(svg: bytes) -> bool:
    return _UNRECORDABLE.search(svg) is None


def record(svg: bytes) -> bytes | None:
    """Draw the face only to get its display list (None: it has none), for PDFs to replay."""

    class Keep(FaceDrawings):
        kept: bytes | None = None

        def put(self, svg: bytes, drawing: bytes) -> None:
            self.kept = drawing

    keep = Keep()
    _drawn(svg, page_font_options(), keep)
    return keep.kept


def face(svg: str, drawings: FaceDrawings) -> Face:
    """The face of this SVG, replayed from `drawings` or drawn (and its display list stored)."""
    page_options = page_font_options()
    data = svg.encode("utf-8")
    stored = drawings.get(data)
    if stored is not None:
        try:
            replayed = _replayed(Drawing.loads(stored), page_options)
        except DisplayListError:
            pass  # a damaged cache entry only costs the drawing
        else:
            drawings.replayed += 1
            return replayed
    drawings.drawn += 1
    return _drawn(data, page_options, drawings)


def _replayed(drawing: Drawing, page_options) -> Face:
    import cairocffi

    recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, tuple(drawing.extents))
    context = _classes()[0](recording)
    context.page_options = page_options
    replay(context, drawing.ops)
    return Face(recording, drawing.width, drawing.height)


def _drawn(data: bytes, page_options, drawings: FaceDrawings) -> Face:
    from cairosvg.helpers import node_format
    from cairosvg.parser import Tree

    tree = Tree(bytestring=data, unsafe=False, url_fetcher=_data_only)
    surface_class = _classes()[1]
    width, height, _ = node_format(_Sizer(), tree, reference=False)
    if not (width > 0 and height > 0):
        raise FaceError("a card SVG needs its width and height")
    drawn = surface_class(tree, page_options)
    ops = drawn.context.display_list()
    if ops is not None:
        drawing = Drawing(width, height, list(drawn.cairo.get_extents()), ops)
        drawings.put(data, drawing.dumps())
    return Face(drawn.cairo, width, height)


class _Sizer:
    """What CairoSVG's `node_format` reads of a surface to size a root SVG in points."""

    context_width = context_height = None
    dpi = 72
    font_size = 12
    root_node = None


@functools.cache
def _classes():
    """The face context class (font options merged with the page's) and CairoSVG's face surface."""
    import cairocffi
    from cairosvg.surface import Surface

    class FaceContext(cairocffi.Context):
        """A context whose font options left at DEFAULT take the PDF surface's values.

        Drawn straight onto the PDF surface, text is laid out with its options (unhinted
        metrics: the advances the templates measure with); a recording surface has none.
        """

        page_options: cairocffi.FontOptions

        def effective_font_options(self, options):
            merged = self.page_options.copy()
            merged.merge(options)
            return merged

        def set_font_options(self, options) -> None:
            super().set_font_options(self.effective_font_options(options))

    recording_context = recording_class(FaceContext)

    class FaceSurface(Surface):
        """Draws one card SVG onto a recording surface of its own size (user units = points),
        logging the cairo calls it makes (`displaylist`)."""

        def __init__(self, tree, page_options) -> None:
            self._page_options = page_options
            super().__init__(tree, None, 72)

        @property
        def context(self):
            return self._context

        @context.setter
        def context(self, context) -> None:
            """CairoSVG's context, made in Surface.__init__ before anything is drawn: replaced by
            one on the same recording surface that logs its calls."""
            self._context = recording_context(context.get_target())
            self._context.page_options = self._page_options
            self._context.ops = []
            self._context.set_font_options(self._context.get_font_options())

        def _create_surface(self, width: float, height: float):
            recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, width, height))
            return recording, width, height

        def finish(self) -> None:  # the recording is painted later, and never finished
            pass

    return FaceContext, FaceSurface
