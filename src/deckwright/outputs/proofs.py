"""`build/<game>/proofs/<deck>.png`: a contact sheet of every face of a deck with its id.

For a quick look before printing: faces in database order, backs after fronts, each labelled
with its face name, at a small scale. Thumbnails are drawn from the SVGs at their small size
(decoding a 300 DPI board PNG to shrink it would take ~90 MB a board).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from ..render.faces import Face
from ..render.raster import svg_to_image
from .base import BuildContext, Output
from .card_images import faces, pixel_size

THUMB_WIDTH = 180  # px per card image
COLUMNS = 8
GAP = 16
LABEL = 30
LABEL_FONT = ("inter", "regular", "normal")


def build(ctx: BuildContext) -> list[Output]:
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    label_face = ctx.fonts.face(*LABEL_FONT)
    outputs = []
    for deck in ctx.game.decks.values():
        names: list[str] = []
        for card in ctx.game.cards:
            if card.type in deck.types:
                for name in (face_set.front_of.get(card.id), face_set.back_of.get(card.id)):
                    if name is not None and name not in names:
                        names.append(name)
        if not names:
            continue
        parts = [n for name in names for n in (name, face_set.faces[name].svg)]

        def make(names: list[str] = names) -> bytes:
            font = ImageFont.truetype(str(label_face.path), 14, layout_engine=ImageFont.Layout.BASIC)
            return _sheet([(n, face_set.faces[n]) for n in names], font)

        sheet = ctx.cache.through("proof", f"proof:{deck.id}", parts, make)
        outputs.append(Output(f"proofs/{deck.id}.png", sheet))
    return outputs


def _sheet(faces: list[tuple[str, Face]], font: ImageFont.FreeTypeFont) -> bytes:
    thumbs = []
    for name, face in faces:
        width, height = pixel_size(face.layout)
        thumbs.append((name, svg_to_image(face.svg, THUMB_WIDTH, round(height * THUMB_WIDTH / width))))
    cell_h = max(t.height for _, t in thumbs) + LABEL
    columns = min(COLUMNS, len(thumbs))
    rows = -(-len(thumbs) // columns)
    sheet = Image.new("RGB", (GAP + columns * (THUMB_WIDTH + GAP), GAP + rows * (cell_h + GAP)), "#e9e9e9")
    draw = ImageDraw.Draw(sheet)
    for i, (name, thumb) in enumerate(thumbs):
        x = GAP + (i % columns) * (THUMB_WIDTH + GAP)
        y = GAP + (i // columns) * (cell_h + GAP)
        sheet.paste(thumb, (x, y))
        label = name if draw.textlength(name, font=font) <= THUMB_WIDTH else name[:24] + "…"
        draw.text((x, y + thumb.height + 6), label, fill="#222222", font=font)
    out = io.BytesIO()
    sheet.save(out, format="PNG", compress_level=6)
    return out.getvalue()
