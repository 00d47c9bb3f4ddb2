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
