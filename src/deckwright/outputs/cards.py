"""`build/<game>/cards/`: every face as SVG and as a 300 DPI PNG with bleed."""

from __future__ import annotations

from functools import partial

from ..context.base import BuildContext, Output
from ..context.card_images import face_pngs, faces


def build(ctx: BuildContext) -> list[Output]:
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    pngs = face_pngs(ctx)
    outputs = []
    for name, face in sorted(face_set.faces.items()):
        outputs.append(Output(f"cards/{name}.svg", face.svg.encode("utf-8")))
        outputs.append(Output(f"cards/{name}.png", load=partial(pngs.__getitem__, name)))
    return outputs
