"""SVG -> PNG: CairoSVG draws, render.png encodes.

A card is drawn straight onto its image. A very large image (a board at 300 DPI) is drawn in
strips to keep memory low: CairoSVG draws it once onto a cairo recording surface, and cairo
replays the recording (C speed) onto one strip of pixels at a time, rather than CairoSVG walking
the whole SVG tree again (Python) for each of a board's six strips. A replay at the recording's
own scale gives the pixels drawing straight onto the image would, text included (see
`_ImageTextContext`). For a card, recording then replaying costs more than drawing (cairo
replays into a copy of the area and composites it), so cards are drawn straight.

render.png encodes, because cairo's own PNG writer spends most of a card's time in zlib at a high
level (DESIGN.md: ~25 of ~37 ms). Faces are drawn on white and stored as RGB: print has no
transparency. Only `data:` URLs are ever fetched: a card never reaches the network or disk.
"""

from __future__ import annotations

import functools

from PIL import Image

from ...safety.images import data_url_fetcher
from .png import encode_rgb, encode_rgb_strips


class RasterError(Exception):
    pass


_only_data_urls = data_url_fetcher(RasterError, "cards may only embed data")


# A board at 300 DPI (5475 x 5475 px) drawn whole peaks near 400 MB (a 120 MB cairo surface,
# CairoSVG's group layers, copies); replayed in 1024-row strips streamed into the PNG encoder,
# near 160 MB. Smaller strips take the same time (a replay skips what lies outside its strip)
# and less memory, but cut more lines of text: at 256 rows some glyphs cut by a strip edge came
# out a pixel off. Cards are drawn whole.
STRIPS_ABOVE_PIXELS = 8_000_000
STRIP_ROWS = 1024


def svg_to_png(svg: str, width_px: int, height_px: int) -> bytes:
    """The PNG of an SVG drawn at an exact pixel size on white: whole, or in strips when large."""
    if width_px * height_px <= STRIPS_ABOVE_PIXELS:
        return encode_rgb(_pixels(_draw(svg, width_px, height_px, recording=False)))
    recording = _draw(svg, width_px, height_px, recording=True)
    strips = (
        _replay(recording, width_px, min(STRIP_ROWS, height_px - top), top)
        for top in range(0, height_px, STRIP_ROWS)
    )
    return encode_rgb_strips(width_px, height_px, strips)


def svg_to_png_and_thumbnail(
    svg: str, size: tuple[int, int], thumb_size: tuple[int, int], with_png: bool = True
) -> tuple[bytes | None, bytes]:
    """The PNG of an SVG at `size` (None without `with_png`) and a thumbnail PNG at `thumb_size`.

    A card's thumbnail is its image shrunk (a whole-factor box reduction, then Lanczos): ~2 ms,
    and sharper small text than CairoSVG drawing at 180 px wide (5-15 ms, glyphs placed on whole
    pixels). An image drawn in strips is never whole in memory: its thumbnail is drawn small.
    """
    width, height = size
    if width * height > STRIPS_ABOVE_PIXELS:
        return svg_to_png(svg, width, height) if with_png else None, svg_to_png(svg, *thumb_size)
    image = _pixels(_draw(svg, width, height, recording=False))
    factor = min(width // thumb_size[0], height // thumb_size[1])
    thumb = image.reduce(factor) if factor > 1 else image
    return encode_rgb(image) if with_png else None, encode_rgb(thumb.resize(thumb_size, Image.LANCZOS))


def _draw(svg: str, width_px: int, height_px: int, recording: bool):
    """The SVG drawn by CairoSVG at an exact pixel size on white: a cairo image surface, or a
    recording surface to replay."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=_only_data_urls)
    surface_class = _recording_surface_class() if recording else PNGSurface
    surface = surface_class(
        tree, None, 72, output_width=width_px, output_height=height_px, background_color="white"
    )
    if (surface.width, surface.height) != (width_px, height_px):
        raise RasterError(f"drew {surface.width} x {surface.height} px, expected {width_px} x {height_px}")
    return surface.cairo


def _replay(recording, width_px: int, height_px: int, top: int) -> Image.Image:
    """The rows [top, top + height_px) of a recording as an RGB image."""
    import cairocffi

    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width_px, height_px)
    context = cairocffi.Context(surface)
    context.set_source_surface(recording, 0, -top)
    context.paint()
    del context
    return _pixels(surface)


def _pixels(surface) -> Image.Image:
    """An opaque cairo image surface as an RGB image; the surface is finished (its memory freed)."""
    surface.flush()
    # cairo stores BGRA in native order (little-endian here); the page is opaque, so "BGRX".
    # Decoding makes Pillow's own RGB copy, so cairo's buffer is read in place (no bytes()
    # copy) and released straight after: a strip of a board is ~22 MB of pixels.
    pixels = surface.get_data()
    size = (surface.get_width(), surface.get_height())
    image = Image.frombuffer("RGB", size, pixels, "raw", "BGRX", surface.get_stride(), 1)
    if image.readonly:  # shared with cairo's memory: take a copy before it is freed
        image = image.copy()
    del pixels
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
