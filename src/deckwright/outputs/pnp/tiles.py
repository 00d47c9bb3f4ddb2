"""Boards larger than the printable area, tiled with TILE_OVERLAP of overlap; every seam carries
crosses at the same board positions on both tiles, and each tile is marked where it is cut.

Pure arithmetic in points with y pointing down, like `impose`; nothing here draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...geometry import EPS, Affine, Box, Segment, translate
from ...model import Paper
from .impose import FOOTER_BAND, MARK_GAP, TILE_BAND, TILE_OVERLAP, Item, mark_pair, place


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board."""

    row: int
    col: int
    rows: int
    cols: int
    source: Box  # the part of the board canvas shown (board canvas coordinates, unturned)
    transform: Affine  # board canvas -> page
    clip: Box  # page area printed
    marks: tuple[Segment, ...]  # crop marks of the board's trim edges met on this tile
    cut_seams: tuple[Segment, ...]  # seams this tile is cut along (its left and top overlaps)
    crosses: tuple[tuple[float, float], ...]  # alignment crosses on every seam of the tile

    @property
    def label(self) -> str:
        return f"{_column_letters(self.col)}{self.row + 1}"


def _column_letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _tile_starts(total: float, window: float) -> list[float]:
    if total <= window + EPS:
        return [0.0]
    n = math.ceil((total - TILE_OVERLAP) / (window - TILE_OVERLAP) - EPS)
    step = (total - window) / (n - 1)
    return [i * step for i in range(n)]


def plan_tiles(paper: Paper, item: Item, reserve: float = FOOTER_BAND + MARK_GAP) -> list[Tile]:
    """Tiles covering a board canvas (trim + bleed), fewest pages first, upright on a tie.

    Each tile shows as much of the board as the page holds inside the margin, a band for the
    crop marks and the footer band; neighbours overlap by at least TILE_OVERLAP.
    """
    m = paper.margin
    area = Box(
        m + TILE_BAND,
        m + TILE_BAND + reserve,
        paper.width - 2 * (m + TILE_BAND),
        paper.height - 2 * (m + TILE_BAND + reserve),
    )
    cw, ch = item.canvas
    best: list[Tile] = []
    for turns in (0, 1):
        bw, bh = (cw, ch) if turns == 0 else (ch, cw)  # the board as it lies on the page
        xs, ys = _tile_starts(bw, area.w), _tile_starts(bh, area.h)
        if best and len(xs) * len(ys) >= len(best):
            continue
        turn = place(Item(cw, ch, 0.0), Box(0, 0, bw, bh), turns)  # board canvas -> turned board
        trim = turn.map_rect(Box(item.bleed, item.bleed, item.width, item.height))
        tiles = []
        for r, ty in enumerate(ys):
            for c, tx in enumerate(xs):
                window = Box(tx, ty, min(area.w, bw), min(area.h, bh))
                origin = (area.x + (area.w - window.w) / 2, area.y + (area.h - window.h) / 2)
                to_page = translate(origin[0] - tx, origin[1] - ty)
                clip = to_page.map_rect(window)
                seams_x = _seams(xs, min(area.w, bw))
                seams_y = _seams(ys, min(area.h, bh))
                tiles.append(
                    Tile(
                        r,
                        c,
                        len(ys),
                        len(xs),
                        _inverse_rect(turn, window),
                        to_page @ turn,
                        clip,
                        tuple(_tile_marks(trim, window, to_page, clip, paper)),
                        tuple(_cut_seams(c, r, seams_x, seams_y, window, to_page)),
                        tuple(_crosses(c, r, seams_x, seams_y, window, to_page)),
                    )
                )
        best = tiles
    return best


def _inverse_rect(turn: Affine, r: Box) -> Box:
    # turn is a rotation plus translation: its inverse maps rects the same way
    det = turn.a * turn.d - turn.b * turn.c
    inv = Affine(
        turn.d / det,
        -turn.b / det,
        -turn.c / det,
        turn.a / det,
        (turn.c * turn.f - turn.d * turn.e) / det,
        (turn.b * turn.e - turn.a * turn.f) / det,
    )
    return inv.map_rect(r)


def _seams(starts: Sequence[float], window: float) -> list[float]:
    """Board positions of the seams: the middle of each overlap."""
    return [(starts[i + 1] + starts[i] + window) / 2 for i in range(len(starts) - 1)]


def _cut_seams(
    col: int, row: int, seams_x: Sequence[float], seams_y: Sequence[float], window: Box, to_page: Affine
) -> list[Segment]:
    out = []
    if col > 0:
        x = seams_x[col - 1]
        out.append(_seg(to_page, x, window.y, x, window.bottom))
    if row > 0:
        y = seams_y[row - 1]
        out.append(_seg(to_page, window.x, y, window.right, y))
    return out


def _crosses(
    col: int, row: int, seams_x: Sequence[float], seams_y: Sequence[float], window: Box, to_page: Affine
) -> list[tuple[float, float]]:
    points = []
    for x in seams_x:
        if window.x < x < window.right:
            points += [(x, window.y + window.h * k / 4) for k in (1, 2, 3)]
    for y in seams_y:
        if window.y < y < window.bottom:
            points += [(window.x + window.w * k / 4, y) for k in (1, 2, 3)]
    return [to_page.apply(x, y) for x, y in points]


def _seg(t: Affine, x1: float, y1: float, x2: float, y2: float) -> Segment:
    return Segment(*t.apply(x1, y1), *t.apply(x2, y2))


def _tile_marks(trim: Box, window: Box, to_page: Affine, clip: Box, paper: Paper) -> list[Segment]:
    """Crop marks for the board's trim lines that cross this tile, just outside the tile."""
    marks = []
    for x in (trim.x, trim.right):
        if window.x - EPS <= x <= window.right + EPS:
            px, _ = to_page.apply(x, 0)
            marks += mark_pair(px, clip.y, clip.bottom, paper, vertical=True)
    for y in (trim.y, trim.bottom):
        if window.y - EPS <= y <= window.bottom + EPS:
            _, py = to_page.apply(0, y)
            marks += mark_pair(py, clip.x, clip.right, paper, vertical=False)
    limit_low, limit_high = paper.margin, paper.height - paper.margin - FOOTER_BAND - MARK_GAP
    return [_clamp(s, clip, limit_low, limit_high, paper) for s in marks]


def _clamp(s: Segment, clip: Box, low: float, high: float, paper: Paper) -> Segment:
    """Keep a tile's marks inside the tile band (between the margin and the tile)."""
    if s.x1 == s.x2:
        y1, y2 = (max(s.y1, low), max(s.y2, low)) if s.y1 < clip.y else (min(s.y1, high), min(s.y2, high))
        return Segment(s.x1, y1, s.x2, y2)
    left, right = paper.margin, paper.width - paper.margin
    x1, x2 = (max(s.x1, left), max(s.x2, left)) if s.x1 < clip.x else (min(s.x1, right), min(s.x2, right))
    return Segment(x1, s.y1, x2, s.y2)
