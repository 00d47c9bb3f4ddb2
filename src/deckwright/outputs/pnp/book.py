"""The pages of one print-and-play PDF: planned first (to number them), then drawn.

`SheetBook` lays out, for one paper and one variant, the calibration page, the checklist, the
duplex alignment sheet, every deck's fronts and backs (or gutterfold pairs), tokens, and boards
(whole, or an assembly map and its tiles). Geometry comes from `deckwright.impose`; the info
pages from `special_pages`; `pdfs` turns the pages into PDFs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...geometry import Box, Segment
from ...model import Card, Game, Layout, Paper, Unknown
from ...render.pdf.painter import (
    MARK_STROKE,
    Page,
    PageDrawing,
)
from ...units import MM
from . import special_pages
from .impose import (
    FOOTER_BAND,
    MARK_GAP,
    FooterPlace,
    Grid,
    Gutterfold,
    Item,
    Slot,
    back_slot,
    bottom_footer,
    crop_marks,
    place_footer,
    plan_grid,
    plan_gutterfold,
    sheet_flip,
    union,
)
from .tiles import plan_tiles

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


FOOTER_SIZE = 6.5  # pt
FOOTER_MIN = 5.0
SEAM_DASH = "4 2"
FOLD_DASH = "6 3"


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
        checklist = special_pages.checklist_pages(self.game, self.layouts, paper, self.font)
        for i, draw in enumerate(checklist):
            what = "Component checklist" + (
                f", page {i + 1} of {len(checklist)}" if len(checklist) > 1 else ""
            )
            self.add(what, draw, "Component checklist")
        if self.duplex:
            if len(self.planned) % 2:
                self.blank("Blank (back of the checklist)", "Component checklist")
            sheet = special_pages.AlignmentSheet(paper, self.edge, self.back_offset_mm, self.font)
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
        """The densest grid, with the footer along the bottom where that costs no card, else
        up the sides of a full sheet, else in a band kept free below the cards."""
        grid = plan_grid(self.paper, item, marks=marks, single=single)
        reserved = plan_grid(self.paper, item, marks=marks, reserve=FOOTER_BAND + MARK_GAP, single=single)
        if grid is None or not marks:
            return reserved
        slots = grid.slots()
        return self._with_footer(grid, reserved, [s.clip for s in slots], crop_marks(slots, self.paper))

    def _fold(self, item: Item, marks: bool) -> Gutterfold | None:
        """As `_grid`, for gutterfold sheets."""
        fold = plan_gutterfold(self.paper, item, marks=marks)
        reserved = plan_gutterfold(self.paper, item, marks=marks, reserve=FOOTER_BAND + MARK_GAP)
        if fold is None or not marks:
            return reserved
        fronts, backs = fold.slots()
        both = fronts + backs
        segments = [*crop_marks(both, self.paper, [fold.fold_strip]), fold.fold_line(both)]
        return self._with_footer(fold, reserved, [s.clip for s in both], segments, fold.fold_x)

    def _with_footer(
        self, plan, reserved, drawn: Sequence[Box], marks: Sequence[Segment], fold_x: float | None = None
    ):
        """`plan` if its full sheet takes the footer along the bottom; else `reserved` (the plan
        with a band kept free for it) if that holds as many cards; else `plan` with the footer up
        the sides if it fits there; else `reserved`. A bottom footer is read at a glance and
        keeps the side margins for the marks; it may cost cards sitting apart (they butt).
        A gutterfold sheet may take its footer in the gutter, beside the fold line."""
        placed = place_footer(self.paper, drawn, marks, fold_x=fold_x)
        if placed is not None and not placed[0].side:
            return plan
        if reserved is not None and reserved.per_page >= plan.per_page:
            return reserved
        return plan if placed is not None else reserved

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
            marks = [] if token else crop_marks(both, self.paper, [fold.fold_strip])
            line = fold.fold_line(both)
            footer, segments = self._footer([s.clip for s in both], [*marks, line], fold.fold_x)
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

    def _footer(
        self, drawn: Sequence[Box], marks: list[Segment], fold_x: float | None = None
    ) -> tuple[FooterPlace, list[Segment]]:
        placed = place_footer(self.paper, drawn, marks, fold_x=fold_x)
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
            return special_pages.draw_board_map(d, self.paper, self.font, title, face, item, tiles)

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
        unfit = [p for p in self.problems if "does not fit" in p]
        special_pages.draw_calibration(
            d, self.game, self.paper, self.font, self.subject, self.duplex, sections, unfit
        )
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
            right, size = _fit_keeping_tail(font, right, size, box.w * 0.75, FOOTER_MIN)
            left, size = font.fit(left, size, box.w - font.width(right, size) - gap, FOOTER_MIN)
            baseline = box.bottom - 0.9 * MM
            d.text(box.x, baseline, left, size)
            d.text(box.right, baseline, right, size, anchor="end")
            return
        for box, text in zip(place.boxes, (left, right), strict=True):
            fitted, size = _fit_keeping_tail(font, text, FOOTER_SIZE, box.h, FOOTER_MIN)
            x = box.cx + 0.35 * size
            d.text(x, box.cy, fitted, size, anchor="middle", rotate=-90)


def _fit_keeping_tail(font, text: str, size: float, width: float, min_size: float) -> tuple[str, float]:
    """As `font.fit`, but a text too long even at `min_size` loses the end of its title (before
    the first ": "), not its end: "fronts, sheet 2 of 3 · page 7 of 32" is what a reader needs."""
    fitted, size = font.fit(text, size, width, min_size)
    head, sep, tail = text.partition(": ")
    if fitted == text or not sep:
        return fitted, size
    while head and font.width(f"{head}…{sep}{tail}", size) > width:
        head = head[:-1].rstrip()
    return (f"{head}…{sep}{tail}", size) if head else font.fit(tail, size, width, min_size)


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
