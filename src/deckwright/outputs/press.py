"""Press PDFs: one PDF per deck for each print service with a `press:` block, as print shops
take them (build/<game>/press/<service>/<deck>.pdf).

One card side per page: the page is the trim plus the service's bleed on every side (TrimBox
and BleedBox set), the face drawn at 100 % with its own bleed, no marks, no footer, fonts
embedded (cairo embeds subsets), pages in the service's order (DriveThruCards: back of card 1,
face of card 1, back of card 2, ...). A deck is a print-and-play group: one deck's cards of
one card layout, a page pair per physical copy, made for each service that has a product for
that layout (layouts/services.yaml). Tokens and boards are left to the print services' own
products.

For a CMYK service the PDF is separated with the service's ICC profile, `--icc FILE`, or
deckwright's FOGRA39-based default with the service's ink limit (`colour.profile`), and gets
the profile as its output intent. Every press PDF is preflighted (`preflight`) with the
service's rules: an error there is a build error.

With `--press-images`, a CMYK service also gets each face of each deck as a CMYK TIFF with the
profile embedded (press/<service>/<deck>/<face>.tif), separated by littleCMS from the card PNG.

Not part of a plain build (`press` is opt-in: `--only press`, or game.yaml `build: outputs`):
the first CMYK build of a machine spends ~25 s making the default profile.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from ..colour.convert import Separator, pdf_to_cmyk
from ..colour.profile import CmykProfile, ProfileError, default_profile, load_profile
from ..context.base import BuildContext, Output
from ..context.card_images import faces
from ..fonts.registry import FontError
from ..geometry import Box, translate
from ..model import Layout, PressSpec, Service
from ..preflight import Rules, preflight
from ..render.pdf.painter import Page, PageDrawing, SheetFace, SheetFont, pages_to_pdf, pdf_date
from ..units import MM
from .pnp.book import groups
from .pnp.pdfs import CachedDrawings


def build(ctx: BuildContext) -> list[Output]:
    services = {s.id: s for s in ctx.catalog.services.values() if s.press is not None}
    if not services:
        ctx.diags.warning(
            ctx.game.info.loc, "press: no print service with a press: block in layouts/services.yaml"
        )
        return []
    face_set = faces(ctx)
    try:
        font = SheetFont.from_registry(ctx.fonts)
    except FontError as exc:
        ctx.diags.error(ctx.game.info.loc, f"press PDFs: {exc}")
        return []
    if ctx.diags.has_errors:
        return []
    date = pdf_date(os.environ.get("SOURCE_DATE_EPOCH"))
    decks = [g for g in groups(ctx.game, ctx.layouts) if g.layout.kind == "card"]
    outputs: list[Output] = []
    ctx.progress.start(f"{ctx.game.id}: press PDFs", len(services) * len(decks))
    for service in services.values():
        spec = service.press
        profile = _profile(ctx, service) if spec.colour == "cmyk" else None
        if spec.colour == "cmyk" and profile is None:
            continue
        rules = Rules(service.id, spec.colour, spec.ink_limit, spec.bleed)
        for deck in decks:
            if deck.layout.id not in service.products:
                ctx.diags.warning(
                    ctx.game.info.loc,
                    f"press: {deck.title}: {service.title} has no product for layout "
                    f"{deck.layout.id!r} (layouts/services.yaml); not made",
                )
                ctx.progress.advance()
                continue
            _check_bleed(ctx, service, deck.layout)
            pages = deck_pages(deck.cards, deck.layout, spec, face_set, font.family)
            info = {
                "Title": f"{ctx.game.info.name} — {deck.title} ({service.title})",
                "Subject": f"Press PDF for {service.title}: one card side per page, "
                f"{spec.page_order.replace('-', ', ')}; {spec.colour.upper()}",
                "Creator": "deckwright",
            }
            data = _pdf(ctx, pages, info, date, profile)
            name = f"press/{service.id}/{slug(deck.title)}.pdf"
            report = preflight(data, rules)
            for finding in report.findings:
                if finding.severity == "info":
                    continue
                message = f"preflight {name}: {finding.line('')[2:]}".replace(": : ", ": ")
                (ctx.diags.error if finding.severity == "error" else ctx.diags.warning)(
                    ctx.game.info.loc, message
                )
            outputs.append(Output(name, data))
            if profile is not None and ctx.options.press_images:
                outputs += _images(ctx, service, deck, face_set, profile)
            ctx.progress.advance()
    ctx.progress.finish(f"{len(outputs)} PDFs")
    return outputs


def _images(ctx: BuildContext, service: Service, deck, face_set, profile: CmykProfile) -> list[Output]:
    """`--press-images`: each face of the deck once, as a CMYK TIFF (LZW) with the profile
    embedded, at the card image's pixel size and the service's DPI, for presses that take files."""
    from ..context.card_images import face_pngs

    pngs = face_pngs(ctx)
    names = dict.fromkeys(n for c in deck.cards for n in (face_set.front_of[c.id], face_set.back_of[c.id]))
    separator = None
    out = []
    for name in names:
        key = ctx.cache.key("press-tiff", pngs[name], profile.digest, str(service.dpi))
        data = ctx.cache.get(key)
        if data is None:
            separator = separator or Separator(profile)
            data = cmyk_tiff(pngs[name], separator, service.dpi)
            ctx.cache.put(key, data)
        out.append(Output(f"press/{service.id}/{slug(deck.title)}/{slug(name)}.tif", data))
    return out


def cmyk_tiff(png: bytes, separator: Separator, dpi: int) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        cmyk = separator.image(image)
    out = io.BytesIO()
    cmyk.save(out, "TIFF", compression="tiff_lzw", dpi=(dpi, dpi), icc_profile=separator.profile.data)
    return out.getvalue()


def deck_pages(cards, layout: Layout, spec: PressSpec, face_set, family: str) -> list[Page]:
    """The pages of one deck: one side of one copy each, in the service's order."""
    sides = []
    for card in cards:
        front, back = face_set.front_of[card.id], face_set.back_of[card.id]
        sides.append((back, front) if spec.page_order == "back-front" else (front, back))
    if spec.page_order == "fronts-then-backs":
        order = [f for f, _ in sides] + [b for _, b in sides]
    else:
        order = [name for pair in sides for name in pair]
    b = spec.bleed
    width, height = layout.width + 2 * b, layout.height + 2 * b
    canvas = (layout.width + 2 * layout.bleed, layout.height + 2 * layout.bleed)
    place = translate(b - layout.bleed, b - layout.bleed)  # the card's trim on the page's trim
    page_box = Box(0, 0, width, height)
    faces_by_name: dict[str, SheetFace] = {}
    pages = []
    for name in order:
        face = faces_by_name.setdefault(name, SheetFace.of(face_set.faces[name].svg))
        d = PageDrawing(width, height, family)
        d.card(face, canvas, place, page_box)
        pages.append(d.page(Box(b, b, layout.width, layout.height), page_box))
    return pages


def _pdf(ctx: BuildContext, pages: list[Page], info, date, profile: CmykProfile | None) -> bytes:
    parts = [p.key() for p in pages] + [repr(info), date or "", profile.digest if profile else "rgb"]
    key = ctx.cache.key("press", *parts)
    cached = ctx.cache.get(key)
    if cached is not None:
        ctx.cache.stats.hits += 1
        return cached
    data = pages_to_pdf(pages, info, date, CachedDrawings(ctx.cache))
    if profile is not None:
        data = pdf_to_cmyk(data, profile)
    ctx.cache.put(key, data)
    return data


def _profile(ctx: BuildContext, service: Service) -> CmykProfile | None:
    """The service's profile: `--icc FILE`, else its `icc:` (layouts/), else the default."""
    spec = service.press
    try:
        icc = ctx.options.icc
        if icc:
            return load_profile(Path(icc))
        if spec.icc:
            return load_profile(ctx.project.layouts_dir / spec.icc)
        memo = f"press-profile-{spec.ink_limit}"
        if memo not in ctx.shared:
            ctx.progress.step(f"{ctx.game.id}: CMYK profile (FOGRA39, ink limit {spec.ink_limit} %)")
        return ctx.memo(memo, lambda: default_profile(spec.ink_limit))
    except ProfileError as exc:
        ctx.diags.error(service.loc, f"press PDFs for {service.title}: {exc}")
        return None


def _check_bleed(ctx: BuildContext, service: Service, layout: Layout) -> None:
    if layout.bleed + 1e-6 < service.press.bleed:
        ctx.diags.warning(
            service.loc,
            f"{service.title} wants {service.press.bleed / MM:.2f} mm of bleed; {layout.id} cards have "
            f"{layout.bleed / MM:.2f} mm: the art stops short of the BleedBox",
        )


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "deck"
