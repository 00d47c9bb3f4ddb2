"""The fast PNG encoder writes standard PNGs that decode to the same pixels."""

from __future__ import annotations

import io

from PIL import Image

from deckwright.render.png import encode_rgb


def test_round_trip_and_dpi() -> None:
    image = Image.new("RGB", (37, 23))
    image.putdata([(x * 7 % 256, y * 11 % 256, (x + y) % 256) for y in range(23) for x in range(37)])
    data = encode_rgb(image, dpi=300)
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.format == "PNG"
        assert decoded.mode == "RGB"
        assert decoded.tobytes() == image.tobytes()
        assert round(decoded.info["dpi"][0]) == 300
    assert encode_rgb(image) == data  # deterministic


def test_strips_make_the_same_png_as_one_image() -> None:
    from deckwright.render.png import encode_rgb_strips

    image = Image.new("RGB", (40, 30))
    image.putdata([(x * 5 % 256, y * 9 % 256, 7) for y in range(30) for x in range(40)])
    strips = [image.crop((0, top, 40, min(top + 8, 30))) for top in range(0, 30, 8)]
    assert encode_rgb_strips(40, 30, strips) == encode_rgb(image)


def test_a_large_image_is_drawn_in_strips_like_it_would_be_whole(monkeypatch) -> None:
    from deckwright.render import raster

    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="300" viewBox="0 0 100 300">'
        '<rect x="10" y="10" width="80" height="280" fill="#336699"/>'
        '<circle cx="50" cy="150" r="40" fill="#cc3300"/></svg>'
    )
    whole = raster.svg_to_png(svg, 200, 600)
    monkeypatch.setattr(raster, "STRIPS_ABOVE_PIXELS", 1000)
    monkeypatch.setattr(raster, "STRIP_ROWS", 128)
    striped = raster.svg_to_png(svg, 200, 600)
    with Image.open(io.BytesIO(whole)) as a, Image.open(io.BytesIO(striped)) as b:
        assert a.size == b.size == (200, 600)
        diff = [abs(p - q) for p, q in zip(a.tobytes(), b.tobytes(), strict=True)]
        assert max(diff) <= 2  # antialiasing only
