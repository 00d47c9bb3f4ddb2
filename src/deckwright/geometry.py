"""Rectangles in points, y growing downwards: the one box type every stage measures with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

EPS = 1e-6  # pt: float noise allowed when comparing positions


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(
        self,
        left: float,
        top: float | None = None,
        right: float | None = None,
        bottom: float | None = None,
    ) -> Box:
        """Shrink by margins given CSS-style (one value, or left/top/right/bottom)."""
        top = left if top is None else top
        right = left if right is None else right
        bottom = top if bottom is None else bottom
        return Box(self.x + left, self.y + top, self.w - left - right, self.h - top - bottom)

    def slice_top(self, height: float) -> Box:
        return Box(self.x, self.y, self.w, height)

    def slice_bottom(self, height: float) -> Box:
        return Box(self.x, self.bottom - height, self.w, height)

    def below(self, gap: float, height: float | None = None) -> Box:
        """The box under this one, `gap` apart, to the bottom of `height` (default: same)."""
        return Box(self.x, self.bottom + gap, self.w, self.h if height is None else height)

    def at(self, x: float, y: float, w: float, h: float) -> Box:
        """A box placed relative to this one's top-left corner."""
        return Box(self.x + x, self.y + y, w, h)

    def expand(self, left: float, top: float, right: float, bottom: float) -> Box:
        return Box(self.x - left, self.y - top, self.w + left + right, self.h + top + bottom)

    def overlaps(self, other: Box, tolerance: float = EPS) -> bool:
        """True when the interiors share area (touching edges do not count)."""
        return (
            self.x < other.right - tolerance
            and other.x < self.right - tolerance
            and self.y < other.bottom - tolerance
            and other.y < self.bottom - tolerance
        )

    def contains(self, other: Box, tolerance: float = EPS) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)


def union(rects: Iterable[Box]) -> Box | None:
    rects = list(rects)
    if not rects:
        return None
    x, y = min(r.x for r in rects), min(r.y for r in rects)
    return Box(x, y, max(r.right for r in rects) - x, max(r.bottom for r in rects) - y)
