"""A face image moved onto a canvas of another pixel size, at the same scale.

A print service may ask for a few pixels more (or fewer) than a layout's own size with bleed:
The Game Crafter's euro poker card is 825 x 1125 px, a 63 x 88 mm card with 1/8 in bleed is
819 x 1114 px at 300 DPI. Stretching the face would change the trim size and enlarge the art, so
the face keeps its scale, centred: a larger canvas is filled by repeating the outermost pixels
(extending the bleed, as prepress tools do), a smaller one is cropped evenly from the bleed.
"""

from __future__ import annotations

import io

from PIL import Image

from .png import encode_rgb


def fit_canvas(png: bytes, size: tuple[int, int]) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = size
    image = _crop_to(image, min(width, image.width), min(height, image.height))
    if image.size != size:
        image = _extend_to(image, width, height)
    return encode_rgb(image)


def _crop_to(image: Image.Image, width: int, height: int) -> Image.Image:
    left, top = (image.width - width) // 2, (image.height - height) // 2
    return image.crop((left, top, left + width, top + height))


def _extend_to(image: Image.Image, width: int, height: int) -> Image.Image:
    w, h = image.size
    left, top = (width - w) // 2, (height - h) // 2
    right, bottom = width - w - left, height - h - top
    out = Image.new("RGB", (width, height))
    out.paste(image, (left, top))
    # Edges: the outermost column or row, repeated; corners: the corner pixel.
    bands = (
        ((0, 0, 1, h), (left, h), (0, top)),
        ((w - 1, 0, w, h), (right, h), (left + w, top)),
        ((0, 0, w, 1), (w, top), (left, 0)),
        ((0, h - 1, w, h), (w, bottom), (left, top + h)),
        ((0, 0, 1, 1), (left, top), (0, 0)),
        ((w - 1, 0, w, 1), (right, top), (left + w, 0)),
        ((0, h - 1, 1, h), (left, bottom), (0, top + h)),
        ((w - 1, h - 1, w, h), (right, bottom), (left + w, top + h)),
    )
    for box, band, at in bands:
        if band[0] > 0 and band[1] > 0:
            out.paste(image.crop(box).resize(band, Image.NEAREST), at)
    return out
