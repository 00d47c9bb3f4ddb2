"""`build/<game>/tgc/`: The Game Crafter upload images and a manifest.

One PNG per distinct face at the product's exact pixel size (bleed included), the backs the
deck's cards use, and `manifest.csv` (deck, product, face, back, quantity, note) whose
quantities add up to the physical cards of the database. A component The Game Crafter has no
product for is listed too, with no image and a note saying why; a card whose count is unknown is
listed as one copy, flagged in the note; a card of count 0 is not printed and not listed. The
products and their pixel sizes are the `tgc` service's in layouts/services.yaml; a face whose
layout is drawn at another size is moved onto the product's canvas at the same scale
(`render.image.canvas`), never stretched.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from functools import partial

from ..context.base import BuildContext, Output
from ..context.card_images import PRINT_DPI, face_pngs, faces, pixel_size
from ..render.image.canvas import fit_canvas

SERVICE = "tgc"
MANIFEST_COLUMNS = ("deck", "product", "face", "back", "quantity", "note")


def build(ctx: BuildContext) -> list[Output]:
    game = ctx.game
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    service = ctx.catalog.services.get(SERVICE)
    if service is None:
        ctx.diags.error(ctx.game.info.loc, f"no print service {SERVICE!r} in layouts/services.yaml")
        return []
    if service.dpi != PRINT_DPI:  # the faces are drawn once, at PRINT_DPI, for every output
        ctx.diags.error(service.loc, f"service {SERVICE!r}: dpi must be {PRINT_DPI}, as the card images are")
        return []
    pngs = face_pngs(ctx)
    outputs: list[Output] = []
    rows: list[tuple[str, str, str, str, int, str]] = []
    unknown_counts: list[str] = []
    for deck in game.decks.values():
        cards = [c for c in game.cards if c.type in deck.types and c.copies > 0]  # count 0: not printed
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
        product = service.products.get(layout.id)
        if product is None:
            # listed all the same, so that the manifest accounts for every physical component
            reason = f"not exported: {service.title} has no product for layout {layout.id!r} ({layout.title})"
            ctx.diags.warning(deck.loc, f"deck {deck.id!r}: {reason}")
            rows.extend((deck.id, "", "", "", card.copies, f"{card.id}: {reason}") for card in cards)
            continue
        images: set[str] = set()
        for card in cards:
            front, back = face_set.front_of.get(card.id), face_set.back_of.get(card.id)
            if front is None or back is None:
                continue
            images.update((front, back))
            note = ""
            if not isinstance(card.count, int):
                note = f"count unknown ({card.count.note or 'not given'}): 1 copy until it is known"
                unknown_counts.append(card.id)
            face, back_image = f"{deck.id}/{front}.png", f"{deck.id}/{back}.png"
            rows.append((deck.id, product.product, face, back_image, card.copies, note))
        own_size = pixel_size(layout, service.dpi)
        canvas = product.pixels if product.pixels not in (None, own_size) else None
        for name in sorted(images):
            outputs.append(Output(f"tgc/{deck.id}/{name}.png", load=partial(_image, pngs, name, canvas)))
    if unknown_counts:
        shown = ", ".join(unknown_counts[:8]) + (
            f" and {len(unknown_counts) - 8} more" if len(unknown_counts) > 8 else ""
        )
        ctx.diags.warning(
            game.info.loc,
            f"tgc/manifest.csv: {len(unknown_counts)} cards have an unknown count and are listed as 1 copy, "
            f"flagged in the note column: {shown}",
        )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows(rows)
    outputs.append(Output("tgc/manifest.csv", out.getvalue().encode("utf-8")))
    return outputs


def _image(pngs: Mapping[str, bytes], name: str, canvas: tuple[int, int] | None) -> bytes:
    """A face's PNG as the product takes it: the card image, or moved onto the product's canvas."""
    png = pngs[name]
    return png if canvas is None else fit_canvas(png, canvas)
