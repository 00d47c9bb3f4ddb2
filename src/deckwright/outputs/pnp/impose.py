"""Print-and-play sheet geometry: where every card, crop mark, fold line and board tile goes.

Pure arithmetic in points with y pointing down (the SVG convention); nothing here draws.

The rules, and why:

- **Printable area.** A home printer leaves a band along each paper edge blank (the paper's
  `margin`, layouts/papers.yaml, 5 mm; `--margin` on the command line). Everything a sheet
  needs to be cut right (the bleed of every cut edge and every crop mark) lies inside the
  printable area: a mark or a bleed in the band that does not print is no mark and no bleed.
- **Every cut line has a crop mark** of at least MARK_MIN (3 mm) at both ends, beyond the
  cards, starting MARK_GAP past the printed bleed; the gutterfold's cuts across the fold are
  marked in the gutter beside the fold line instead, where the folded sheet shows them.
  Marks are drawn wherever a cut line runs free of every card: on a partial sheet also in the
  empty slots, right beside the last cards.
- **Every cut edge has the full bleed** (the layout's, 1/8 in): cards sit apart, each with its
  full bleed (a gap of twice the bleed between two trims), when the same count fits that way;
  otherwise neighbours butt and share one cut line (one cut instead of two), each printing
  SEAM_OVERLAP past it. An edge with no neighbour, at the block's border or beside an empty
  slot of a partial sheet, keeps the full bleed.
- **Count first**, under those rules: the grid (upright, or sideways when more fit) with the
  most cards per page. Poker cards therefore lie sideways, 2 x 4, on A4 and on US Letter:
  three upright columns with their bleed and marks need 203.9 mm across, more than A4's 200 mm
  and only just within Letter's 205.9 mm, whose height then holds two rows, not three.
- **Duplex.** A back is placed by `back_slot`: the page flips over its long edge (columns
  mirror) or its short edge (rows mirror), and the card itself turns over its vertical axis, so
  each back prints exactly behind its front and reads upright when the card is turned over
  like a book page. A short-edge flip therefore also turns the back image by 180 degrees.
- **Gutterfold** puts fronts on the left half and backs on the right (mirrored across the fold
  line in the middle, at least FOLD_CLEARANCE from any bleed); cards lie sideways when more fit
  that way, which turns each back 180 degrees against its front.
- **Boards** larger than the printable area are tiled with TILE_OVERLAP of overlap; every seam
  carries crosses at the same board positions on both tiles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...context.base import DUPLEX
from ...geometry import EPS, Affine, Box, Segment, mirror_x, mirror_y, quarter_turn, translate, union
from ...model import Paper
from ...units import MM

MARK_GAP = 0.5 * MM  # between a card's printed bleed (or the fold line) and a crop mark
MARK_MIN = 3 * MM  # every crop mark is at least this long, all of it in the printable area
MARK_MAX = 6 * MM
MARK_ROOM = MARK_GAP + MARK_MIN  # beyond the bleed, for the marks of a block's edge
MARK_STROKE_ROOM = 0.1 * MM  # half a crop mark's stroke: a box this close to a cut line blocks it
FOOTER_BAND = 3.5 * MM  # height of the footer line
FOOTER_SIDE_MIN = 40 * MM  # shortest stretch of a side margin that takes half a footer
# gutterfold: fold line to the nearest bleed; the gutter holds the marks of the cuts across it
FOLD_CLEARANCE = 2 * MARK_GAP + MARK_MIN + 0.5 * MM
# Butted cards each print this far past their shared cut line, into the neighbour: without it
# viewers (and some RIPs) show a hairline of paper between two cards' anti-aliased edges.
SEAM_OVERLAP = 0.1 * MM
TILE_OVERLAP = 12 * MM
TILE_BAND = 4 * MM  # around a tile: room for the board's crop marks
ALIGN_STEPS = (-2, -1, 0, 1, 2)  # mm, the duplex alignment sheet's offsets
ALIGN_CELL = 30 * MM


# ---- cards on a sheet ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Item:
    """A card (or token, or board) as the sheet sees it: trim size and bleed, in points."""

    width: float
    height: float
    bleed: float
    radius: float = 0.0

    @property
    def canvas(self) -> tuple[float, float]:
        return (self.width + 2 * self.bleed, self.height + 2 * self.bleed)


@dataclass(frozen=True, slots=True)
class Slot:
    """One card placed on a page."""

    index: int  # order on the sheet (row-major for fronts)
    trim: Box  # page coordinates
    clip: Box  # what is printed: the trim plus the bleed kept on each side
    transform: Affine  # card canvas (trim + full bleed, points) -> page
    radius: float = 0.0  # corner radius of the trim (tokens' cut lines)


def place(item: Item, trim: Box, turns: int = 0) -> Affine:
    """The transform that puts the item's canvas, turned `turns` quarters, onto `trim`."""
    rotation = quarter_turn(turns)
    mapped = rotation.map_rect(Box(item.bleed, item.bleed, item.width, item.height))
    return translate(trim.x - mapped.x, trim.y - mapped.y) @ rotation


@dataclass(frozen=True, slots=True)
class Axis:
    """One direction of a grid: `count` trims of `size`, `gap` apart, starting at `start`."""

    count: int
    size: float
    gap: float  # 0: neighbours share the cut line; else 2 x inner bleed
    inner: float  # bleed kept between neighbours (SEAM_OVERLAP when they share the cut)
    outer: float  # bleed kept at the two ends of the block
    start: float

    @property
    def span(self) -> float:
        return self.count * self.size + (self.count - 1) * self.gap

    def trim_start(self, i: int) -> float:
        return self.start + i * (self.size + self.gap)

    def bleeds(self, i: int, last: int) -> tuple[float, float]:
        before = self.outer if i == 0 else self.inner
        after = self.outer if i == last else self.inner
        return before, after


def plan_axis(
    size: float,
    bleed: float,
    low: float,
    high: float,
    *,
    marks: tuple[bool, bool] | bool = True,
    limit: int = 1_000_000,
) -> Axis | None:
    """Lay `size` trims along [low, high]: the bounds of everything printed (the printable
    area, less any reserved band), bleed and crop marks included.

    `marks` says at which ends (low, high) the cut lines across this axis get their crop marks
    (MARK_ROOM beyond the bleed); False for punch-out tokens, whose cards always sit apart with
    their full bleed and cut lines of their own.
    """
    usable = high - low
    if marks is False:
        count = min(limit, math.floor((usable + EPS) / (size + 2 * bleed)))
        if count < 1:
            return None
        gap = 2 * bleed
        span = count * size + (count - 1) * gap
        return Axis(count, size, gap, bleed, bleed, low + (usable - span) / 2)
    at_low, at_high = (True, True) if marks is True else marks
    need_low = bleed + (MARK_ROOM if at_low else 0.0)
    need_high = bleed + (MARK_ROOM if at_high else 0.0)
    room = usable - need_low - need_high
    count = min(limit, math.floor((room + EPS) / size))
    if count < 1:
        return None
    apart = bleed > 0 and count * size + (count - 1) * 2 * bleed <= room + EPS
    gap = 2 * bleed if apart else 0.0
    span = count * size + (count - 1) * gap
    start = low + need_low + (room - span) / 2
    inner = gap / 2 if apart else min(bleed, SEAM_OVERLAP)
    return Axis(count, size, gap, inner, bleed, start)


@dataclass(frozen=True)
class Grid:
    """Cards of one layout on one paper: `cols` x `rows`, each turned `turns` quarters."""

    paper: Paper
    item: Item
    cols: Axis
    rows: Axis
    turns: int = 0
    marks: bool = True  # crop marks (cards, boards) or cut lines (tokens)

    @property
    def per_page(self) -> int:
        return self.cols.count * self.rows.count

    def slots(self, n: int | None = None) -> list[Slot]:
        """The first `n` positions, row by row, left to right."""
        n = self.per_page if n is None else min(n, self.per_page)
        last_col, last_row = self.cols.count - 1, self.rows.count - 1
        out = []
        for index in range(n):
            row, col = divmod(index, self.cols.count)
            trim = Box(self.cols.trim_start(col), self.rows.trim_start(row), self.cols.size, self.rows.size)
            # an edge beside an empty slot (a partial sheet's last row) is cut: full bleed
            left, right = self.cols.bleeds(col, last_col if index + 1 < n else col)
            top, bottom = self.rows.bleeds(row, last_row if index + self.cols.count < n else row)
            clip = trim.expand(left, top, right, bottom)
            out.append(Slot(index, trim, clip, place(self.item, trim, self.turns), self.item.radius))
        return out


def plan_grid(
    paper: Paper,
    item: Item,
    *,
    marks: bool = True,
    reserve: float = 0.0,
    turns: int | None = None,
    single: bool = False,
) -> Grid | None:
    """The grid with the most cards per page (upright first, sideways if more fit).

    `reserve` keeps a band of that height free above and below the block (for the footer);
    `single` plans one item, centred (a board on its own page).
    """
    options = (0, 1) if turns is None else (turns,)
    best: Grid | None = None
    m = paper.margin
    for t in options:
        w, h = (item.width, item.height) if t % 2 == 0 else (item.height, item.width)
        limit = 1 if single else 1_000_000
        cols = plan_axis(w, item.bleed, m, paper.width - m, marks=marks, limit=limit)
        rows = plan_axis(h, item.bleed, m + reserve, paper.height - m - reserve, marks=marks, limit=limit)
        if cols is None or rows is None:
            continue
        grid = Grid(paper, item, cols, rows, t, marks)
        if best is None or grid.per_page > best.per_page:
            best = grid
    return best


def crop_marks(slots: Sequence[Slot], paper: Paper, obstacles: Sequence[Box] = ()) -> list[Segment]:
    """Marks for every cut line of the placed cards: on each stretch of the line that runs
    free of every card (MARK_GAP clear of its printed bleed) and of the `obstacles` (the fold
    line), inside the printable area, beside a card, and at least MARK_MIN long."""
    if not slots:
        return []
    clips = [s.clip for s in slots]
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.bottom)})
    m = paper.margin
    marks = []
    for x in xs:
        for low, high in _free_stretches(x, clips, obstacles, m, paper.height - m, vertical=True):
            marks.append(Segment(x, low, x, high))
    for y in ys:
        for low, high in _free_stretches(y, clips, obstacles, m, paper.width - m, vertical=False):
            marks.append(Segment(low, y, high, y))
    return marks


def _free_stretches(
    at: float, clips: Sequence[Box], obstacles: Sequence[Box], low: float, high: float, *, vertical: bool
) -> list[tuple[float, float]]:
    """Where a mark goes on the cut line at `at` (x of a vertical line, y of a horizontal one):
    (start, end) of each stretch of [low, high] clear of the boxes that touches a card, the
    mark running from the card's side for at most MARK_MAX."""
    half = MARK_STROKE_ROOM
    blocked: list[tuple[float, float, bool]] = []  # (from, to, is a card)
    for boxes, card in ((clips, True), (obstacles, False)):
        for b in boxes:
            across = (b.x, b.right) if vertical else (b.y, b.bottom)
            if across[0] - half < at < across[1] + half:
                along = (b.y, b.bottom) if vertical else (b.x, b.right)
                blocked.append((along[0] - MARK_GAP, along[1] + MARK_GAP, card))
    blocked.sort()
    out = []
    cursor, card_before = low, False  # end of what is blocked so far, and whether by a card
    for start, end, card in [*blocked, (high, high, False)]:
        start = min(start, high)
        if start - cursor >= MARK_MIN - EPS:
            if card_before:  # from the card before, towards the next
                out.append((cursor, min(start, cursor + MARK_MAX)))
            elif card:  # towards the card after
                out.append((max(cursor, start - MARK_MAX), start))
        if end > cursor:
            cursor, card_before = end, card
    return out


def mark_pair(at: float, low: float, high: float, paper: Paper, *, vertical: bool) -> list[Segment]:
    """A board tile's marks: beyond [low, high] at both ends, inside the printable area."""
    length = paper.height if vertical else paper.width
    out = []
    for start, end in (
        (low - MARK_GAP, max(low - MARK_GAP - MARK_MAX, paper.margin)),
        (high + MARK_GAP, min(high + MARK_GAP + MARK_MAX, length - paper.margin)),
    ):
        if abs(end - start) < 0.5 * MM:
            continue
        out.append(Segment(at, start, at, end) if vertical else Segment(start, at, end, at))
    return out


# ---- duplex ----------------------------------------------------------------------------------


def sheet_flip(paper: Paper, edge: str) -> Affine:
    """Front page -> back page position of the same spot of paper, for a duplex flip."""
    if edge == "long-edge":
        return mirror_x(paper.width)
    if edge == "short-edge":
        return mirror_y(paper.height)
    raise ValueError(f"duplex edge must be one of {', '.join(DUPLEX)}, not {edge!r}")


def back_slot(front: Slot, item: Item, flip: Affine, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
    """The back of a front slot: behind it on the paper, turned over like a book page."""
    shift = translate(*offset)
    card_over = mirror_x(item.canvas[0])
    move = shift @ flip
    return Slot(
        front.index,
        move.map_rect(front.trim),
        move.map_rect(front.clip),
        move @ front.transform @ card_over,
        front.radius,
    )


# ---- gutterfold ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gutterfold:
    """Fronts on the left half, their backs mirrored on the right, a fold line between."""

    paper: Paper
    item: Item
    cols: Axis  # the left half's columns
    rows: Axis
    turns: int

    @property
    def fold_x(self) -> float:
        return self.paper.width / 2

    @property
    def per_page(self) -> int:
        return self.cols.count * self.rows.count

    def slots(self, n: int | None = None) -> tuple[list[Slot], list[Slot]]:
        grid = Grid(self.paper, self.item, self.cols, self.rows, self.turns)
        fronts = grid.slots(n)
        # The fold-side bleed is always the full bleed (there is room by construction).
        last = self.cols.count - 1
        fronts = [
            Slot(s.index, s.trim, _fold_side(s, self.item.bleed), s.transform, s.radius)
            if round((s.trim.x - self.cols.start) / (self.cols.size + self.cols.gap)) == last
            else s
            for s in fronts
        ]
        flip = mirror_x(self.paper.width)
        return fronts, [back_slot(s, self.item, flip) for s in fronts]

    def fold_line(self, slots: Sequence[Slot]) -> Segment:
        drawn = union(s.clip for s in slots) or Box(0, 0, 0, self.paper.height)
        top = max(drawn.y - MARK_GAP - MARK_MAX, self.paper.margin)
        bottom = min(drawn.bottom + MARK_GAP + MARK_MAX, self.paper.height - self.paper.margin)
        return Segment(self.fold_x, top, self.fold_x, bottom)

    @property
    def fold_strip(self) -> Box:
        """Where no crop mark goes: the fold line and MARK_GAP either side."""
        return Box(self.fold_x - MARK_GAP, 0, 2 * MARK_GAP, self.paper.height)


def _fold_side(slot: Slot, bleed: float) -> Box:
    clip = slot.clip
    return Box(clip.x, clip.y, slot.trim.right + bleed - clip.x, clip.h)


def plan_gutterfold(
    paper: Paper, item: Item, *, marks: bool = True, reserve: float = 0.0
) -> Gutterfold | None:
    """The gutterfold layout with the most cards per page; `reserve` as for `plan_grid`."""
    half = paper.width / 2
    best: Gutterfold | None = None
    for turns in (0, 1):
        w, h = (item.width, item.height) if turns == 0 else (item.height, item.width)
        # The cuts across the fold are marked in the gutter; at the outer edge too if that
        # costs no column.
        high = half - FOLD_CLEARANCE
        cols = plan_axis(w, item.bleed, paper.margin, high, marks=(False, False) if marks else False)
        if marks and cols is not None:
            outer = plan_axis(w, item.bleed, paper.margin, high, marks=(True, False))
            if outer is not None and outer.count == cols.count:
                cols = outer
        low, high = paper.margin + reserve, paper.height - paper.margin - reserve
        rows = plan_axis(h, item.bleed, low, high, marks=marks)
        if cols is None or rows is None:
            continue
        plan = Gutterfold(paper, item, cols, rows, turns)
        if best is None or plan.per_page > best.per_page:
            best = plan
    return best


# ---- footers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FooterPlace:
    """Where a page's footer goes: one line along the bottom (`boxes` has one box), or two
    halves up the side margins (left, right), each reading bottom to top."""

    side: bool
    boxes: tuple[Box, ...]


def bottom_footer(paper: Paper) -> FooterPlace:
    m = paper.margin
    return FooterPlace(False, (Box(m, paper.height - m - FOOTER_BAND, paper.width - 2 * m, FOOTER_BAND),))


def place_footer(
    paper: Paper,
    drawn: Sequence[Box],
    marks: Sequence[Segment],
    *,
    force: bool = False,
    fold_x: float | None = None,
) -> tuple[FooterPlace, list[Segment]] | None:
    """A footer place clear of every card and mark (marks below the block may be shortened),
    with the marks as they must then be drawn; None when neither the bottom nor the sides fit
    (nor, on a gutterfold sheet with its fold at `fold_x`, the gutter either side of the fold).

    With `force`, the bottom line always: marks that would cross it are cut short or left out.
    """
    bottom = bottom_footer(paper)
    band = bottom.boxes[0]
    if force or not any(r.overlaps(band) for r in drawn):
        limit = band.y - MARK_GAP
        shortened, ok = [], True
        for s in marks:
            if s.x1 == s.x2 and max(s.y1, s.y2) > limit:  # a vertical mark reaching down into the band
                top = min(s.y1, s.y2)
                if limit - top < (0.5 * MM if force else MARK_MIN - EPS):
                    ok = force
                    continue
                shortened.append(Segment(s.x1, top, s.x2, limit))
            elif s.bounds().overlaps(band):
                ok = force
            else:
                shortened.append(s)
        if ok:
            return bottom, shortened
    m = paper.margin
    places = [(m, paper.width - m - FOOTER_BAND)]
    if fold_x is not None:
        places.append((fold_x - MARK_GAP - FOOTER_BAND, fold_x + MARK_GAP))
    for xs in places:
        found = _side_footer(paper, drawn, marks, xs)
        if found is not None:
            return found, list(marks)
    return None


def _side_footer(
    paper: Paper, drawn: Sequence[Box], marks: Sequence[Segment], xs: tuple[float, float]
) -> FooterPlace | None:
    """Two strips at `xs`, each reading bottom to top, clear of the cards and the marks."""
    m = paper.margin
    boxes = []
    for x in xs:
        strip = Box(x, m, FOOTER_BAND, paper.height - 2 * m)
        if any(r.overlaps(strip) for r in drawn):
            return None
        stops = sorted(
            y
            for s in marks
            if s.bounds(0.5 * MM).overlaps(strip)
            for y in (min(s.y1, s.y2) - MARK_GAP, max(s.y1, s.y2) + MARK_GAP)
        )
        edges = [strip.y, *stops, strip.bottom]
        gaps = [(edges[i], edges[i + 1]) for i in range(0, len(edges) - 1, 2)]
        longest = max(g[1] - g[0] for g in gaps)
        # of the longest stretches (within 1 mm), the one nearest the middle of the page
        low, high = min(
            (g for g in gaps if g[1] - g[0] >= longest - MM),
            key=lambda g: abs((g[0] + g[1]) / 2 - paper.height / 2),
        )
        if high - low < FOOTER_SIDE_MIN:
            return None
        boxes.append(Box(x, low, FOOTER_BAND, high - low))
    return FooterPlace(True, tuple(boxes))
