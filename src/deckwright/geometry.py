"""Rectangles, segments and affine transforms in points, y growing downwards: the one set of
shapes every stage measures with."""

from __future__ import annotations

import math
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


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    def bounds(self, half_width: float = 0.0) -> Box:
        x, y = min(self.x1, self.x2), min(self.y1, self.y2)
        return Box(x, y, abs(self.x2 - self.x1), abs(self.y2 - self.y1)).expand(
            half_width, half_width, half_width, half_width
        )

    def moved(self, dx: float, dy: float) -> Segment:
        return Segment(self.x1 + dx, self.y1 + dy, self.x2 + dx, self.y2 + dy)


@dataclass(frozen=True, slots=True)
class Affine:
    """x' = a x + c y + e, y' = b x + d y + f: SVG's matrix(a b c d e f)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __matmul__(self, other: Affine) -> Affine:
        """`self @ other` applies `other` first."""
        return Affine(
            self.a * other.a + self.c * other.b,
            self.b * other.a + self.d * other.b,
            self.a * other.c + self.c * other.d,
            self.b * other.c + self.d * other.d,
            self.a * other.e + self.c * other.f + self.e,
            self.b * other.e + self.d * other.f + self.f,
        )

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def map_rect(self, r: Box) -> Box:
        points = [self.apply(x, y) for x in (r.x, r.right) for y in (r.y, r.bottom)]
        x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
        return Box(x0, y0, max(p[0] for p in points) - x0, max(p[1] for p in points) - y0)

    @property
    def quarter_turns(self) -> int:
        """Clockwise quarter turns (0-3) of a rotation, ignoring mirroring."""
        return round(math.degrees(math.atan2(self.b, self.a)) / 90) % 4

    @property
    def mirrored(self) -> bool:
        return self.a * self.d - self.b * self.c < 0


def translate(dx: float, dy: float) -> Affine:
    return Affine(e=dx, f=dy)


def quarter_turn(turns: int) -> Affine:
    """A clockwise rotation (as seen on the page) by `turns` x 90 degrees about the origin."""
    cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[turns % 4]
    return Affine(cos, sin, -sin, cos)


def mirror_x(axis_x2: float) -> Affine:
    """x -> axis_x2 - x (a mirror about the vertical line x = axis_x2 / 2)."""
    return Affine(a=-1.0, e=axis_x2)


def mirror_y(axis_y2: float) -> Affine:
    return Affine(d=-1.0, f=axis_y2)
