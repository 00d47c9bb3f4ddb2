"""`build/<game>/tgc/`: The Game Crafter upload images and a manifest.

One PNG per distinct face at the product's exact pixel size (bleed included), the backs the
deck's cards use, and `manifest.csv` (deck, product, face, back, quantity) whose quantities add
up to the physical cards of the database.
"""

from __future__ import annotations

import csv
import io

from ..context.base import BuildContext, Output
from ..context.card_images import face_pngs, faces

MANIFEST_COLUMNS = ("deck", "product", "face", "back", "quantity")


def build(ctx: BuildContext) -> list[Output]:
    game = ctx.game
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    pngs = face_pngs(ctx)
    outputs: list[Output] = []
    rows: list[tuple[str, str, str, str, int]] = []
    for deck in game.decks.values():
        cards = [c for c in game.cards if c.type in deck.types]
        if not cards:
            continue
        layouts = {game.card_types[c.type].layout for c in cards}
        if len(layouts) > 1:
            ctx.diags.error(
                deck.loc,
                f"deck {deck.id!r} mixes layouts ({', '.join(sorted(layouts))}); TGC decks have one product",
            )
            continue
        layout = ctx.layouts[layouts.pop()]
        if layout.tgc_product is None:
            ctx.diags.warning(
                deck.loc, f"deck {deck.id!r}: layout {layout.id!r} has no Game Crafter product; not exported"
            )
            continue
        images: set[str] = set()
        for card in cards:
            front, back = face_set.front_of.get(card.id), face_set.back_of.get(card.id)
            if front is None or back is None:
                continue
            images.update((front, back))
            rows.append(
                (deck.id, layout.tgc_product, f"{deck.id}/{front}.png", f"{deck.id}/{back}.png", card.copies)
            )
        for name in sorted(images):
            outputs.append(Output(f"tgc/{deck.id}/{name}.png", pngs[name]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows(rows)
    outputs.append(Output("tgc/manifest.csv", out.getvalue().encode("utf-8")))
    return outputs
