"""SVG -> PNG: CairoSVG draws once onto a cairo recording surface, cairo replays it, render.png encodes.

CairoSVG's walk of the SVG tree is Python, and most of a face's drawing time besides cairo's own
filling. It runs once per image, onto a recording surface at the image's exact pixel size; cairo
replays the recording (C speed) onto the pixels: a card whole, a board one strip at a time (a
board used to be walked again for each of its six strips). A replay at the recording's own
scale gives the pixels drawing straight onto the image would, text included (see
`_ImageTextContext`); replays scaled down do not (cairo 1.16 misplaces edges by up to 2 px),
so a thumbnail is an image of its own.

render.png encodes, because cairo's own PNG writer spends most of a card's time in zlib at a high
level (DESIGN.md: ~25 of ~37 ms). Faces are drawn on white and stored as RGB: print has no
transparency. Only `data:` URLs are ever fetched: a card never reaches the network or disk.
"""

from __future__ import annotations

import functools

from PIL import Image

from .png import encode_rgb, encode_rgb_strips


class RasterError(Exception):
    pass


# A board at 300 DPI (5475 x 5475 px) replayed whole would need its 120 MB of pixels twice
# (cairo replays into a copy of the area it paints); in 1024-row strips streamed into the PNG
# encoder it peaks near 170 MB. Cards are replayed whole.
STRIPS_ABOVE_PIXELS = 8_000_000
STRIP_ROWS = 1024


def _only_data_urls(url: str, resource_type: str) -> bytes:
    import cairosvg.url

    if url.startswith("data:"):
        return cairosvg.url.fetch(url, resource_type)
    raise RasterError(f"refused to fetch {url[:60]!r}: cards may only embed data")


def svg_to_png(svg: str, width_px: int, height_px: int) -> bytes:
    """The PNG of an SVG drawn at an exact pixel size on white: whole, or in strips when large."""
    recording = _record(svg, width_px, height_px)
    if width_px * height_px <= STRIPS_ABOVE_PIXELS:
        return encode_rgb(_replay(recording, width_px, height_px))
    strips = (
        _replay(recording, width_px, min(STRIP_ROWS, height_px - top), top)
        for top in range(0, height_px, STRIP_ROWS)
    )
    return encode_rgb_strips(width_px, height_px, strips)


def _record(svg: str, width_px: int, height_px: int):
    """The SVG drawn by CairoSVG at an exact pixel size on white, as a cairo recording surface."""
    from cairosvg.parser import Tree

    tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=_only_data_urls)
    surface = _recording_surface_class()(
        tree, None, 72, output_width=width_px, output_height=height_px, background_color="white"
    )
    if (surface.width, surface.height) != (width_px, height_px):
        raise RasterError(f"drew {surface.width} x {surface.height} px, expected {width_px} x {height_px}")
    return surface.cairo


def _replay(recording, width_px: int, height_px: int, top: int = 0) -> Image.Image:
    """The rows [top, top + height_px) of a recording as an RGB image."""
    import cairocffi

    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width_px, height_px)
    context = cairocffi.Context(surface)
    context.set_source_surface(recording, 0, -top)
    context.paint()
    surface.flush()
    # cairo stores BGRA in native order (little-endian here); the page is opaque, so "BGRX".
    # Pillow decodes cairo's buffer in place into its own copy, then cairo's is freed.
    pixels = surface.get_data()
    image = Image.frombuffer("RGB", (width_px, height_px), pixels, "raw", "BGRX", surface.get_stride(), 1)
    image = image.copy()
    del pixels, context
    surface.finish()
    return image


@functools.cache
def _recording_surface_class():
    """A CairoSVG surface that draws onto a recording surface, with image-surface text."""
    import cairocffi
    from cairosvg.surface import PNGSurface

    class _ImageTextContext(cairocffi.Context):
        """A context whose font options left at DEFAULT take an image surface's values.

        cairo lays glyphs out with the target surface's font options under the context's. A
        recording surface's are a vector surface's, so a replayed line of text could land up
        to a pixel away from where drawing straight onto the image puts it.
        """

        image_options = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1).get_font_options()

        def set_font_options(self, options) -> None:
            merged = self.image_options.copy()
            merged.merge(options)
            super().set_font_options(merged)

    class RecordingSVGSurface(PNGSurface):
        def _create_surface(self, width: float, height: float):
            width, height = round(width), round(height)
            recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, width, height))
            return recording, width, height

        def draw(self, node) -> None:
            if not isinstance(self.context, _ImageTextContext):  # the root: same cairo_t, new class
                self.context = _ImageTextContext._from_pointer(self.context._pointer, incref=True)
                self.context.set_font_options(self.context.get_font_options())
            super().draw(node)

        def finish(self) -> None:  # the recording is replayed later; nothing to write
            pass

    return RecordingSVGSurface
