"""`build/<game>/pnp-<paper>.pdf`: print-and-play sheets, one PDF per paper of layouts/papers.yaml.

Every physical card prints at its count. The pages, in order:

1. a calibration page (squares of 50 mm and 2 in, how to print, the contents), and on its
   back the component checklist (padded with a blank page to keep fronts on odd pages);
2. the duplex alignment sheet: targets on the front, their twins on the back at -2..+2 mm;
3. for every deck (in the order of game.yaml) and layout: a fronts page, then its backs page
   laid out for the duplex flip (`--duplex`), moved by `--back-offset`; tokens likewise, apart
   on punch-out sheets with cut lines; boards on one page when they fit, else tiled, each page
   with a blank back.

Variants, each its own file beside the plain one: `--gutterfold` adds
`pnp-<paper>-gutterfold.pdf` (single-sided: no alignment sheet, no blank backs, fronts and
backs side by side); `--ink-saver` adds `pnp-<paper>-ink-saver.pdf` (and
`-gutterfold-ink-saver`) with every face's `<g id="background">` hidden. Geometry is in
`deckwright.impose`, drawing in `deckwright.render.sheets`, the info pages in `pnp_pages`.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..cache import RenderCache
from ..geometry import Box
from ..impose import (
    FOOTER_BAND,
    MARK_GAP,
    MM,
    FooterPlace,
    Grid,
    Gutterfold,
    Item,
    Segment,
    Slot,
    back_slot,
    bottom_footer,
    crop_marks,
    place_footer,
    plan_grid,
    plan_gutterfold,
    plan_tiles,
    sheet_flip,
    union,
)
from ..model import Card, Game, Layout, Unknown
from ..readers.papers import Paper, read_papers
from ..render.faces import FaceSet
from ..render.fonts import FontError
from ..render.sheetfaces import FaceDrawings, record, worth_recording
from ..render.sheets import (
    MARK_STROKE,
    Page,
    PageDrawing,
    SheetFace,
    SheetFont,
    drop_background,
    pages_to_pdf,
    pdf_date,
)
from . import pnp_pages
from .base import BuildContext, Output
from .card_images import faces

FOOTER_SIZE = 6.5  # pt
FOOTER_MIN = 5.0
SEAM_DASH = "4 2"
FOLD_DASH = "6 3"
Draw = Callable[[PageDrawing], tuple[Box | None, Box | None]]


@dataclass(frozen=True)
class Variant:
    suffix: str
    gutterfold: bool = False
    ink_saver: bool = False


def variants(gutterfold: bool, ink_saver: bool) -> list[Variant]:
    out = [Variant("")]
    if gutterfold:
        out.append(Variant("-gutterfold", gutterfold=True))
    if ink_saver:
        out += [Variant(f"{v.suffix}-ink-saver", v.gutterfold, True) for v in list(out)]
    return out


def build(ctx: BuildContext) -> list[Output]:
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    papers = read_papers(ctx.project.layouts_dir, ctx.diags, ctx.project.display)
    if not papers and not ctx.diags.has_errors:
        ctx.diags.error(ctx.game.info.loc, "no paper sizes: add layouts/papers.yaml (papers: a4, letter)")
    papers = _chosen_papers(ctx, papers)
    try:
        font = SheetFont.from_registry(ctx.fonts)
    except FontError as exc:
        ctx.diags.error(ctx.game.info.loc, f"print-and-play sheets: {exc}")
        return []
    if ctx.diags.has_errors:
        return []
    options = ctx.options
    sheet_faces = SheetFaces(face_set, ctx)
    date = pdf_date(os.environ.get("SOURCE_DATE_EPOCH"))
    books: list[tuple[str, list[Page], dict[str, str]]] = []
    reported: set[str] = set()
    for paper in papers.values():
        for variant in variants(options.gutterfold, options.ink_saver):
            book = SheetBook(ctx.game, ctx.layouts, face_set, paper, variant, font, sheet_faces, options)
            pages = book.render()
            for problem in book.problems:
                if problem not in reported:
                    reported.add(problem)
                    ctx.diags.warning(ctx.game.info.loc, problem)
            info = {
                "Title": f"{ctx.game.info.name} — print and play ({paper.title})",
                "Subject": book.subject,
                "Creator": "deckwright",
            }
            books.append((f"pnp-{paper.id}{variant.suffix}.pdf", pages, info))
    return [Output(label, data) for label, data in _render(ctx, books, date)]


def _chosen_papers(ctx: BuildContext, papers: dict[str, Paper]) -> dict[str, Paper]:
    """The papers game.yaml's `build: papers` names (all of layouts/papers.yaml without it)."""
    settings = ctx.game.build
    if settings.papers is None:
        return papers
    unknown = [p for p in settings.papers if p not in papers]
    if unknown:
        ctx.diags.error(
            settings.loc,
            f"build: papers: no paper {', '.join(map(repr, unknown))} in layouts/papers.yaml "
            f"(papers: {', '.join(papers)})",
        )
    return {key: paper for key, paper in papers.items() if key in settings.papers}


def _render(
    ctx: BuildContext, books: list[tuple[str, list[Page], dict[str, str]]], date: str | None
) -> list[tuple[str, bytes]]:
    """Each book as PDF bytes: from the cache, else drawn (in worker processes with --jobs)."""
    done: dict[str, bytes] = {}
    todo = []
    for label, pages, info in books:
        parts = [p.key() for p in pages] + [repr(info), date or ""]
        key = ctx.cache.key("pnp", *parts)
        cached = ctx.cache.get(key)
        if cached is not None:
            ctx.cache.stats.hits += 1
            done[label] = cached
        else:
            todo.append((label, key, (pages, info, date)))
    ctx.progress.start(f"{ctx.game.id}: print-and-play PDFs", len(todo))
    lists, drawn = _face_lists(ctx, [job[0] for _, _, job in todo])
    jobs = [(*job, CachedDrawings(ctx.cache, lists)) for _, _, job in todo]
    rendered, replayed = [], 0
    for data, faces_replayed, faces_drawn in _map(_pdf, jobs, ctx.options.jobs):
        rendered.append(data)
        replayed, drawn = replayed + faces_replayed, drawn + faces_drawn
        ctx.progress.advance()
    ctx.progress.finish(
        f"{len(jobs)} drawn, {len(done)} from cache; faces: {drawn} drawn, {replayed} replayed"
    )
    for (label, key, _), data in zip(todo, rendered, strict=True):
        ctx.cache.put(key, data)
        ctx.cache.record_render(label)
        done[label] = data
    return [(label, done[label]) for label, _, _ in books]


def _face_lists(ctx: BuildContext, books: list[list[Page]]) -> tuple[dict[bytes, bytes], int]:
    """The display lists of the faces these books print, by face SVG, and how many were drawn.

    Those not in the cache are drawn now, once for all books and spread over the workers,
    rather than once by every book. A lone book without workers draws its own: recording and
    replaying costs ~15 % more CPU than drawing, which two workers more than win back in wall
    time (peer deck, idle 2-core machine: 0.55-0.6 s instead of 0.7 s).
    """
    if len(books) < 2 and ctx.options.jobs < 2:
        return {}, 0
    drawings = CachedDrawings(ctx.cache)
    faces = {key: svg for pages in books for page in pages for key, svg in page.faces.items()}
    lists: dict[bytes, bytes] = {}
    missing: list[bytes] = []
    for svg in (svg.encode("utf-8") for svg in faces.values()):
        stored = drawings.get(svg)
        if stored is not None:
            lists[svg] = stored
        elif worth_recording(svg):
            missing.append(svg)
    for svg, data in zip(missing, _map(record, missing, ctx.options.jobs), strict=True):
        if data is not None:
            lists[svg] = data
            drawings.put(svg, data)
    return lists, len(missing)


def _map(function: Callable, items: list, workers: int) -> Iterator:
    """`function` of each item, in order: in worker processes with --jobs, else here."""
    if workers <= 1 or len(items) < 2:
        yield from map(function, items)
        return
    # fork: workers inherit the fontconfig set-up made before cairo was first imported
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=fork) as pool:
        yield from pool.map(function, items)


def _pdf(job: tuple[list[Page], dict[str, str], str | None, FaceDrawings]) -> tuple[bytes, int, int]:
    """The PDF, and how many faces were replayed from display lists and drawn by CairoSVG."""
    pages, info, date, drawings = job
    data = pages_to_pdf(pages, info, date, drawings)
    return data, drawings.replayed, drawings.drawn


class CachedDrawings(FaceDrawings):
    """The faces' display lists: those handed over (`lists`, by face SVG), else those in the
    render cache, keyed by the face SVG, the fonts, and the CairoSVG and cairo that made the
    calls (a new version may draw differently)."""

    def __init__(self, cache: RenderCache, lists: dict[bytes, bytes] | None = None) -> None:
        super().__init__()
        self.cache = cache
        self.lists = lists or {}

    def _key(self, svg: bytes) -> str:
        import cairocffi
        import cairosvg

        return self.cache.key("pnp-face", cairosvg.__version__, cairocffi.cairo_version_string(), svg)

    def get(self, svg: bytes) -> bytes | None:
        found = self.lists.get(svg)
        return found if found is not None else self.cache.get(self._key(svg))

    def put(self, svg: bytes, drawing: bytes) -> None:
        self.cache.put(self._key(svg), drawing)


class SheetFaces:
    """Each face as a `SheetFace`, once per build (and once more without backgrounds)."""

    def __init__(self, face_set: FaceSet, ctx: BuildContext) -> None:
        self.face_set = face_set
        self.ctx = ctx
        self._faces: dict[tuple[str, bool], SheetFace] = {}
        self._warned: set[str] = set()

    def __call__(self, name: str, ink_saver: bool) -> SheetFace:
        key = (name, ink_saver)
        if key not in self._faces:
            face = self.face_set.faces[name]
            svg = face.svg
            if ink_saver:
                svg, found = drop_background(svg)
                if not found and face.template not in self._warned:
                    self._warned.add(face.template)
                    self.ctx.diags.warning(
                        self.ctx.game.info.loc,
                        f'ink saver: template {face.template} has no <g id="background">; '
                        "its faces print with their background",
                    )
            self._faces[key] = SheetFace.of(svg)
        return self._faces[key]


@dataclass
class Group:
    """Physical pieces printed together: one deck's cards of one layout, a copy per entry."""

    title: str
    layout: Layout
    cards: list[Card] = field(default_factory=list)


def groups(game: Game, layouts) -> list[Group]:
    """Decks in game.yaml order, split by layout; card types in no deck come last."""
    found: dict[tuple[str, str], Group] = {}
    in_deck = {t for deck in game.decks.values() for t in deck.types}
    keyed: list[tuple[str, str, str]] = [
        (deck.id, deck.title, t) for deck in game.decks.values() for t in deck.types
    ] + [(f"type:{t}", ct.title, t) for t, ct in game.card_types.items() if t not in in_deck]
    for key, title, type_id in keyed:
        layout = layouts[game.card_types[type_id].layout]
        group = found.setdefault((key, layout.id), Group(title, layout))
        for card in game.cards_of(type_id):
            group.cards.extend([card] * card.copies)
    result = [g for g in found.values() if g.cards]
    titles = [g.title for g in result]
    for g in result:
        if titles.count(g.title) > 1:
            g.title = f"{g.title} — {g.layout.title}"
    return result


def item_of(layout: Layout) -> Item:
    return Item(layout.width, layout.height, layout.bleed, layout.corner_radius)


@dataclass
class Planned:
    what: str
    draw: Draw
    footer: FooterPlace
    section: str


class SheetBook:
    """All pages of one PDF: planned first (to number them), then drawn."""

    def __init__(
        self, game, layouts, face_set, paper: Paper, variant: Variant, font, sheet_faces, options
    ) -> None:
        self.game, self.layouts, self.face_set = game, layouts, face_set
        self.paper, self.variant, self.font, self.sheet_faces = paper, variant, font, sheet_faces
        self.duplex = not variant.gutterfold
        self.edge = options.duplex
        self.offset = (options.back_offset[0] * MM, options.back_offset[1] * MM)
        self.back_offset_mm = options.back_offset
        self.flip = sheet_flip(paper, self.edge)
        self.planned: list[Planned] = []
        self.problems: list[str] = []  # pieces that cannot be printed on this paper

    @property
    def subject(self) -> str:
        if self.variant.gutterfold:
            how = "single-sided gutterfold"
        else:
            how = f"double-sided, flip on the {self.edge.replace('-', ' ')}"
        saver = ", ink saver" if self.variant.ink_saver else ""
        return f"Print-and-play sheets, {self.paper.title}, {how}{saver}; print at actual size (100 %)"

    # ---- planning ----------------------------------------------------------------------------

    def add(self, what: str, draw: Draw, section: str, footer: FooterPlace | None = None) -> None:
        self.planned.append(Planned(what, draw, footer or bottom_footer(self.paper), section))

    def blank(self, what: str, section: str) -> None:
        self.add(what, lambda d: (None, None), section)

    def plan(self) -> None:
        paper = self.paper
        self.add("Calibration: print at actual size", self.draw_calibration, "Calibration and how to print")
        checklist = pnp_pages.checklist_pages(self.game, self.layouts, paper, self.font)
        for i, draw in enumerate(checklist):
            what = "Component checklist" + (
                f", page {i + 1} of {len(checklist)}" if len(checklist) > 1 else ""
            )
            self.add(what, draw, "Component checklist")
        if self.duplex:
            if len(self.planned) % 2:
                self.blank("Blank (back of the checklist)", "Component checklist")
            sheet = pnp_pages.AlignmentSheet(paper, self.edge, self.back_offset_mm, self.font)
            flip_name = self.edge.replace("-", " ")
            self.add("Duplex alignment: front", sheet.draw_front, "Duplex alignment sheet")
            self.add(f"Duplex alignment: back ({flip_name} flip)", sheet.draw_back, "Duplex alignment sheet")
        for group in groups(self.game, self.layouts):
            kind = group.layout.kind
            if kind == "board":
                self.plan_boards(group)
            elif self.variant.gutterfold:
                self.plan_gutterfold(group)
            else:
                self.plan_duplex(group)

    def _grid(self, item: Item, marks: bool, single: bool = False) -> Grid | None:
        """The densest grid whose full sheet leaves room for the footer; else one that keeps
        the footer band free."""
        grid = plan_grid(self.paper, item, marks=marks, single=single)
        if grid is not None and marks:
            slots = grid.slots()
            if place_footer(self.paper, [s.clip for s in slots], crop_marks(slots, self.paper)):
                return grid
        return plan_grid(self.paper, item, marks=marks, reserve=FOOTER_BAND + MARK_GAP, single=single)

    def _fold(self, item: Item, marks: bool) -> Gutterfold | None:
        fold = plan_gutterfold(self.paper, item, marks=marks)
        if fold is not None and marks:
            fronts, backs = fold.slots()
            both = fronts + backs
            if place_footer(
                self.paper, [s.clip for s in both], [*crop_marks(both, self.paper), fold.fold_line(both)]
            ):
                return fold
        return plan_gutterfold(self.paper, item, marks=marks, reserve=FOOTER_BAND + MARK_GAP)

    def _unfit(self, group: Group) -> None:
        self.problems.append(
            f"{group.title}: a {group.layout.title} ({group.layout.id}) does not fit on {self.paper.title} "
            "inside its margins; it is left out of the print-and-play sheets"
        )

    def plan_duplex(self, group: Group) -> None:
        item = item_of(group.layout)
        token = group.layout.kind == "token"
        grid = self._grid(item, marks=not token)
        if grid is None:
            self._unfit(group)
            return
        chunks = _chunks(group.cards, grid.per_page)
        flip_name = self.edge.replace("-", " ")
        for n, chunk in enumerate(chunks, 1):
            fronts = grid.slots(len(chunk))
            marks = [] if token else crop_marks(fronts, self.paper)
            footer, marks = self._footer([s.clip for s in fronts], marks)
            backs = [back_slot(s, item, self.flip, self.offset) for s in fronts]
            sheet = f"sheet {n} of {len(chunks)}"
            front_names = self._faces([self.face_set.front_of[c.id] for c in chunk], group.layout)
            back_names = self._faces([self.face_set.back_of[c.id] for c in chunk], group.layout)
            self.add(
                f"{group.title}: fronts, {sheet}",
                self._cards_draw(item, fronts, front_names, marks, cut_lines=token),
                group.title,
                footer,
            )
            self.add(
                f"{group.title}: backs, {sheet} ({flip_name} flip)",
                self._cards_draw(item, backs, back_names, [], cut_lines=False),
                group.title,
                footer,
            )

    def plan_gutterfold(self, group: Group) -> None:
        item = item_of(group.layout)
        token = group.layout.kind == "token"
        fold = self._fold(item, marks=not token)
        if fold is None:
            self._unfit(group)
            return
        chunks = _chunks(group.cards, fold.per_page)
        for n, chunk in enumerate(chunks, 1):
            fronts, backs = fold.slots(len(chunk))
            both = fronts + backs
            marks = [] if token else crop_marks(both, self.paper)
            line = fold.fold_line(both)
            footer, segments = self._footer([s.clip for s in both], [*marks, line])
            marks = [m for m in segments if m.x1 != line.x1]  # the fold line is not a crop mark
            line = next((m for m in segments if m.x1 == line.x1), line)
            names = self._faces(
                [self.face_set.front_of[c.id] for c in chunk] + [self.face_set.back_of[c.id] for c in chunk],
                group.layout,
            )
            draw_cards = self._cards_draw(item, both, names, marks, cut_lines=False)
            cut = fronts if token else []

            def draw(d: PageDrawing, draw_cards=draw_cards, line=line, cut=cut):
                boxes = draw_cards(d)
                d.line(line, MARK_STROKE, dash=FOLD_DASH)
                for s in cut:
                    d.rect(s.trim, radius=s.radius)
                return boxes

            self.add(
                f"{group.title}: gutterfold, sheet {n} of {len(chunks)} (fold on the dashed line)",
                draw,
                group.title,
                footer,
            )

    def plan_boards(self, group: Group) -> None:
        item = item_of(group.layout)
        grid = self._grid(item, marks=True, single=True)
        for copy, card in enumerate(group.cards, 1):
            name = self._faces([self.face_set.front_of[card.id]], group.layout)[0]
            title = f"{group.title}: {card.name}"
            if group.cards.count(card) > 1:
                title += f" (copy {group.cards[:copy].count(card)})"
            if grid is not None and grid.per_page >= 1:
                slots = grid.slots(1)
                marks = crop_marks(slots, self.paper)
                footer, marks = self._footer([s.clip for s in slots], marks)
                self.add(
                    f"{title}: whole board",
                    self._cards_draw(item, slots, [name], marks, False),
                    group.title,
                    footer,
                )
                if self.duplex:
                    self.blank(f"{title}: back of the board page (blank)", group.title)
                continue
            tiles = plan_tiles(self.paper, item)
            self.add(
                f"{title}: assembly map of {len(tiles)} tiles",
                self._map_draw(title, item, tiles, name),
                group.title,
            )
            if self.duplex:
                self.blank(f"{title}: back of the assembly map (blank)", group.title)
            for tile in tiles:
                # how the tiles go together is on the assembly map, just before them
                what = f"{title}: tile {tile.label} of {tile.cols} x {tile.rows}; cut the dashed seams"
                self.add(what, self._tile_draw(item, tile, name), group.title)
                if self.duplex:
                    self.blank(f"{title}: back of tile {tile.label} (blank)", group.title)

    def _faces(self, names: Sequence[str], layout: Layout) -> list[str]:
        """The faces, checked to be drawn for the layout they print at."""
        for name in names:
            face = self.face_set.faces[name]
            if face.layout.id != layout.id and (face.layout.width, face.layout.height) != (
                layout.width,
                layout.height,
            ):
                self.problems.append(
                    f"face {name!r} ({face.template}) was drawn for {face.layout.id} but prints on "
                    f"{layout.id} cards: it would be squeezed to fit"
                )
        return list(names)

    def _footer(self, drawn: Sequence[Box], marks: list[Segment]) -> tuple[FooterPlace, list[Segment]]:
        placed = place_footer(self.paper, drawn, marks)
        return placed if placed is not None else place_footer(self.paper, drawn, marks, force=True)

    # ---- drawing -----------------------------------------------------------------------------

    def _cards_draw(
        self,
        item: Item,
        slots: Sequence[Slot],
        names: Sequence[str],
        marks: Sequence[Segment],
        cut_lines: bool,
    ) -> Draw:
        def draw(d: PageDrawing) -> tuple[Box | None, Box | None]:
            for slot, name in zip(slots, names, strict=True):
                d.card(self.sheet_faces(name, self.variant.ink_saver), item.canvas, slot.transform, slot.clip)
            for mark in marks:
                d.line(mark)
            if cut_lines:
                for slot in slots:
                    d.rect(slot.trim, radius=slot.radius)
            return union(s.trim for s in slots), union(s.clip for s in slots)

        return draw

    def _map_draw(self, title: str, item: Item, tiles, name: str) -> Draw:
        def draw(d: PageDrawing) -> tuple[None, None]:
            face = self.sheet_faces(name, self.variant.ink_saver)
            return pnp_pages.draw_board_map(d, self.paper, self.font, title, face, item, tiles)

        return draw

    def _tile_draw(self, item: Item, tile, name: str) -> Draw:
        def draw(d: PageDrawing) -> tuple[Box | None, Box | None]:
            d.card(self.sheet_faces(name, self.variant.ink_saver), item.canvas, tile.transform, tile.clip)
            for mark in tile.marks:
                d.line(mark)
            for seam in tile.cut_seams:
                d.line(seam, MARK_STROKE, color="#ffffff", dash=None)
                d.line(seam, MARK_STROKE, dash=SEAM_DASH)
            for x, y in tile.crosses:
                d.circle(x, y, 1.5 * MM, stroke="#ffffff", width=3 * MARK_STROKE)
                d.circle(x, y, 1.5 * MM)
                d.cross(x, y, 3 * MM, halo=True)
            board = tile.transform.map_rect(Box(item.bleed, item.bleed, item.width, item.height))
            trim = _intersection(board, tile.clip)
            return trim, tile.clip

        return draw

    def draw_calibration(self, d: PageDrawing) -> tuple[None, None]:
        sections: list[tuple[str, int, int]] = []
        for i, p in enumerate(self.planned, 1):
            if sections and sections[-1][0] == p.section:
                sections[-1] = (p.section, sections[-1][1], i)
            else:
                sections.append((p.section, i, i))
        pnp_pages.draw_calibration(d, self.game, self.paper, self.font, self.subject, self.duplex, sections)
        return None, None

    def render(self) -> list[Page]:
        self.plan()
        total = len(self.planned)
        pages = []
        for n, p in enumerate(self.planned, 1):
            d = PageDrawing(self.paper.width, self.paper.height, self.font.family)
            trim, bleed = p.draw(d)
            self.draw_footer(d, p.footer, edition_line(self.game), f"{p.what} · page {n} of {total}")
            pages.append(d.page(trim, bleed))
        return pages

    def draw_footer(self, d: PageDrawing, place: FooterPlace, left: str, right: str) -> None:
        font = self.font
        if not place.side:
            box = place.boxes[0]
            gap = 6 * MM
            size = FOOTER_SIZE
            total = font.width(left, size) + font.width(right, size) + gap
            if total > box.w:
                size = max(FOOTER_MIN, size * box.w / total)
            right, size = font.fit(right, size, box.w * 0.75, FOOTER_MIN)
            left, size = font.fit(left, size, box.w - font.width(right, size) - gap, FOOTER_MIN)
            baseline = box.bottom - 0.9 * MM
            d.text(box.x, baseline, left, size)
            d.text(box.right, baseline, right, size, anchor="end")
            return
        for box, text in zip(place.boxes, (left, right), strict=True):
            fitted, size = font.fit(text, FOOTER_SIZE, box.h, FOOTER_MIN)
            x = box.cx + 0.35 * size
            d.text(x, box.cy, fitted, size, anchor="middle", rotate=-90)


def edition_line(game: Game) -> str:
    edition = game.info.edition
    text = "edition unknown" if isinstance(edition, Unknown) else str(edition)
    return f"{game.info.name} — {text}"


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _intersection(a: Box, b: Box) -> Box | None:
    x, y = max(a.x, b.x), max(a.y, b.y)
    right, bottom = min(a.right, b.right), min(a.bottom, b.bottom)
    if right <= x or bottom <= y:
        return None
    return Box(x, y, right - x, bottom - y)
