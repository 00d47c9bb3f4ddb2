"""SVG -> PNG: CairoSVG draws, render.png encodes.

CairoSVG draws; render.png encodes, because cairo's own PNG writer spends most of a card's time
in zlib at a high level (DESIGN.md: ~25 of ~37 ms). Faces are drawn on white and stored as RGB:
print has no transparency. Only `data:` URLs are ever fetched: a card never reaches the network or disk.
"""

from __future__ import annotations

import functools

from PIL import Image

from .png import encode_rgb, encode_rgb_strips


class RasterError(Exception):
    pass


def _only_data_urls(url: str, resource_type: str) -> bytes:
    import cairosvg.url

    if url.startswith("data:"):
        return cairosvg.url.fetch(url, resource_type)
    raise RasterError(f"refused to fetch {url[:60]!r}: cards may only embed data")


def svg_to_image(svg: str, width_px: int, height_px: int) -> Image.Image:
    """Draw an SVG at an exact pixel size, on white (print has no transparency)."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=_only_data_urls)
    surface = PNGSurface(
        tree, None, 72, output_width=width_px, output_height=height_px, background_color="white"
    )
    cairo_surface = surface.cairo
    cairo_surface.flush()
    w, h = cairo_surface.get_width(), cairo_surface.get_height()
    if (w, h) != (width_px, height_px):
        raise RasterError(f"drew {w} x {h} px, expected {width_px} x {height_px}")
    # cairo stores BGRA in native order (little-endian here); the page is opaque, so "BGRX".
    # Decoding makes Pillow's own RGB copy, so cairo's buffer is read in place (no bytes()
    # copy) and released straight after: a board at 300 DPI is ~120 MB of pixels.
    pixels = cairo_surface.get_data()
    image = Image.frombuffer("RGB", (w, h), pixels, "raw", "BGRX", cairo_surface.get_stride(), 1)
    if image.readonly:  # shared with cairo's memory: take a copy before it is freed
        image = image.copy()
    del pixels
    surface.finish()
    return image


def svg_to_png(svg: str, width_px: int, height_px: int) -> bytes:
    if width_px * height_px <= STRIPS_ABOVE_PIXELS:
        return encode_rgb(svg_to_image(svg, width_px, height_px))
    strips = (_strip(svg, width_px, height_px, top) for top in range(0, height_px, STRIP_ROWS))
    return encode_rgb_strips(width_px, height_px, strips)


# A board at 300 DPI (5475 x 5475 px) drawn whole peaks near 400 MB (a 120 MB cairo surface,
# CairoSVG's group layers, copies); drawn in 1024-row strips, near 170 MB, for about twice the
# drawing time (each strip redraws the whole tree, clipped). Cards are drawn whole.
STRIPS_ABOVE_PIXELS = 8_000_000
STRIP_ROWS = 1024


def _strip(svg: str, width_px: int, height_px: int, top: int) -> Image.Image:
    from cairosvg.parser import Tree

    rows = min(STRIP_ROWS, height_px - top)
    tree = Tree(bytestring=svg.encode("utf-8"), unsafe=False, url_fetcher=_only_data_urls)
    surface = _strip_surface_class()(
        tree, top, rows, output_width=width_px, output_height=height_px, background_color="white"
    )
    cairo_surface = surface.cairo
    cairo_surface.flush()
    image = Image.frombuffer(
        "RGB", (width_px, rows), cairo_surface.get_data(), "raw", "BGRX", cairo_surface.get_stride(), 1
    ).copy()
    surface.finish()
    return image


@functools.cache
def _strip_surface_class():
    """A CairoSVG PNG surface that draws only the rows [top, top + rows) of the image."""
    import cairocffi
    from cairosvg.surface import PNGSurface

    class StripSurface(PNGSurface):
        def __init__(self, tree, top: int, rows: int, **options) -> None:
            self._top, self._rows, self._shifted = top, rows, False
            super().__init__(tree, None, 72, **options)

        def _create_surface(self, width: float, height: float):
            width, height = round(width), round(height)
            surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width, self._rows)
            return surface, width, height  # the full size, for the viewport's scale

        def draw(self, node) -> None:
            if not self._shifted:  # before the root: move the strip's rows to the surface's top
                self._shifted = True
                matrix = self.context.get_matrix()
                self.context.set_matrix(matrix.multiply(cairocffi.Matrix(1, 0, 0, 1, 0, -self._top)))
            super().draw(node)

    return StripSurface
