"""SVG -> PNG: CairoSVG draws, render.png encodes.

CairoSVG draws; render.png encodes, because cairo's own PNG writer spends most of a card's time
in zlib at a high level (DESIGN.md: ~25 of ~37 ms). Faces are drawn on white and stored as RGB:
print has no transparency. Only `data:` URLs are ever fetched: a card never reaches the network or disk.
"""

from __future__ import annotations

from PIL import Image

from .png import encode_rgb


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
    return encode_rgb(svg_to_image(svg, width_px, height_px))
