"""The fast PNG encoder writes standard PNGs that decode to the same pixels."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from PIL import Image

from conftest import REPO
from deckwright.render.image.png import encode_rgb


def test_round_trip_and_dpi() -> None:
    image = Image.new("RGB", (37, 23))
    image.putdata([(x * 7 % 256, y * 11 % 256, (x + y) % 256) for y in range(23) for x in range(37)])
    data = encode_rgb(image, dpi=300)
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.format == "PNG"
        assert decoded.mode == "RGB"
        assert decoded.tobytes() == image.tobytes()
        assert round(decoded.info["dpi"][0]) == 300
        assert decoded.info["srgb"] == 0  # tagged sRGB (perceptual), with the gAMA fallback
        assert decoded.info["gamma"] == pytest.approx(0.45455)
    assert encode_rgb(image) == data  # deterministic


def test_strips_make_the_same_png_as_one_image() -> None:
    from deckwright.render.image.png import encode_rgb_strips

    image = Image.new("RGB", (40, 30))
    image.putdata([(x * 5 % 256, y * 9 % 256, 7) for y in range(30) for x in range(40)])
    strips = [image.crop((0, top, 40, min(top + 8, 30))) for top in range(0, 30, 8)]
    assert encode_rgb_strips(40, 30, strips) == encode_rgb(image)


# Shapes, a gradient, a group with opacity, and text with a stroked halo as the templates draw
# it: a replay that placed glyphs even a fraction of a pixel off would differ by far more than 2.
SVG_WITH_TEXT = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="300" viewBox="0 0 100 300">'
    '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff"/>'
    '<stop offset="1" stop-color="#000"/></linearGradient></defs>'
    '<rect x="10" y="10" width="80" height="280" fill="url(#g)"/>'
    '<g opacity="0.7"><circle cx="50" cy="150" r="40" fill="#cc3300"/></g>'
    '<g stroke="#15101c" stroke-width="1" stroke-linejoin="round">'
    '<text x="8.49" y="84.78" font-family="EB Garamond" font-size="9" font-style="italic" fill="#ecd49a">'
    '"Tonight we summon"</text></g>'
    '<text x="8.49" y="84.78" font-family="EB Garamond" font-size="9" font-style="italic" fill="#ecd49a">'
    '"Tonight we summon"</text>'
    '<text x="12.3" y="197.37" font-family="Inter" font-size="9.5" fill="#123456">Dusk falls.</text></svg>'
)


def pixels(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def test_a_replayed_recording_has_the_pixels_of_drawing_straight_onto_the_image(monkeypatch) -> None:
    from deckwright.render.image import raster

    straight = raster.svg_to_png(SVG_WITH_TEXT, 200, 600)
    monkeypatch.setattr(raster, "STRIPS_ABOVE_PIXELS", 1000)
    monkeypatch.setattr(raster, "STRIP_ROWS", 600)  # recorded, then replayed in one strip
    assert pixels(raster.svg_to_png(SVG_WITH_TEXT, 200, 600)).tobytes() == pixels(straight).tobytes()


def test_a_large_image_is_drawn_in_strips_like_it_would_be_whole(monkeypatch) -> None:
    from deckwright.render.image import raster

    whole = raster.svg_to_png(SVG_WITH_TEXT, 200, 600)
    monkeypatch.setattr(raster, "STRIPS_ABOVE_PIXELS", 1000)
    monkeypatch.setattr(raster, "STRIP_ROWS", 128)
    striped = raster.svg_to_png(SVG_WITH_TEXT, 200, 600)
    a, b = pixels(whole), pixels(striped)
    assert a.size == b.size == (200, 600)
    diff = [abs(p - q) for p, q in zip(a.tobytes(), b.tobytes(), strict=True)]
    assert max(diff) <= 2  # antialiasing only


@pytest.mark.parametrize("strips", [False, True])
def test_a_thumbnail_shows_the_image_small(monkeypatch, strips: bool) -> None:
    from deckwright.render.image import raster

    if strips:  # an image drawn in strips has its thumbnail drawn small
        monkeypatch.setattr(raster, "STRIPS_ABOVE_PIXELS", 1000)
        monkeypatch.setattr(raster, "STRIP_ROWS", 128)
    png, thumb = raster.svg_to_png_and_thumbnail(SVG_WITH_TEXT, (200, 600), (50, 150))
    assert pixels(png).tobytes() == pixels(raster.svg_to_png(SVG_WITH_TEXT, 200, 600)).tobytes()
    small, drawn_small = pixels(thumb), pixels(raster.svg_to_png(SVG_WITH_TEXT, 50, 150))
    assert small.size == (50, 150)
    diff = [abs(p - q) for p, q in zip(small.tobytes(), drawn_small.tobytes(), strict=True)]
    assert sum(diff) / len(diff) < 4  # the same picture; edges and glyphs differ a little
    alone = raster.svg_to_png_and_thumbnail(SVG_WITH_TEXT, (200, 600), (50, 150), with_png=False)
    assert alone == (None, thumb)


def test_a_board_is_drawn_in_bounded_memory() -> None:
    # A board at 300 DPI drawn whole peaks near 320 MB (120 MB of pixels, the RGB copy, layers);
    # in strips near 140 MB with Python and the libraries. Measured in a process of its own.
    board = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1314pt" height="1314pt" viewBox="0 0 1314 1314">'
        '<rect width="1314" height="1314" fill="#15101c"/>'
        '<g opacity="0.5"><circle cx="657" cy="657" r="600" fill="#ffb347"/></g></svg>'
    )
    # The shipped fonts, as a build sets them up: not whatever fonts an earlier test pointed
    # fontconfig at (scanning a folder of fonts for the first time is a peak of its own).
    code = (
        "from pathlib import Path\n"
        "from deckwright.diagnostics import Diagnostics\n"
        "from deckwright.pipeline.load import prepare_fonts\n"
        "from deckwright.project import Project\n"
        f"prepare_fonts(Project(Path({str(REPO)!r})), Diagnostics())\n"
        "from deckwright.render.image.raster import svg_to_png\n"
        f"assert svg_to_png({board!r}, 5475, 5475).startswith(b'\\x89PNG')\n"
        # VmHWM, not ru_maxrss: the latter keeps the peak of the forked test process before exec
        "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert int(done.stdout) < 200 * 1024, f"peak {int(done.stdout) // 1024} MB"
