"""The duplex alignment sheet: targets on the front and their twins on the back at -2..+2 mm, so
the user reads off the `--back-offset` their printer needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...geometry import Box
from ...model import Paper
from ...units import MM
from .impose import ALIGN_CELL, ALIGN_STEPS, sheet_flip


@dataclass(frozen=True)
class AlignCell:
    """One pair of the duplex alignment sheet: a target on the front and, behind it, the same
    target on the back moved by `offset` (mm, on the back page, as --back-offset moves backs)."""

    offset: tuple[float, float]
    front: tuple[float, float]  # target centre on the front page
    back: tuple[float, float]  # target centre on the back page
    cell: Box  # the cell on the front page


@dataclass(frozen=True)
class AlignSheet:
    cells: tuple[AlignCell, ...]
    area: Box  # the grid on the front page
    back_cells: tuple[Box, ...] = field(default=())  # each cell as it lies on the back page


def plan_alignment(
    paper: Paper, edge: str, base: tuple[float, float] = (0.0, 0.0), top: float = 60 * MM
) -> AlignSheet:
    """A grid of targets, one per offset in ALIGN_STEPS x ALIGN_STEPS around `base` (mm)."""
    n = len(ALIGN_STEPS)
    size = min(ALIGN_CELL, (paper.width - 2 * paper.margin - 20 * MM) / n)
    area = Box((paper.width - n * size) / 2, top, n * size, n * size)
    flip = sheet_flip(paper, edge)
    cells, backs = [], []
    for r, dy in enumerate(ALIGN_STEPS):
        for c, dx in enumerate(ALIGN_STEPS):
            cell = Box(area.x + c * size, area.y + r * size, size, size)
            offset = (round(base[0] + dx, 2), round(base[1] + dy, 2))
            bx, by = flip.apply(cell.cx, cell.cy)
            cells.append(
                AlignCell(offset, (cell.cx, cell.cy), (bx + offset[0] * MM, by + offset[1] * MM), cell)
            )
            backs.append(flip.map_rect(cell))
    return AlignSheet(tuple(cells), area, tuple(backs))
