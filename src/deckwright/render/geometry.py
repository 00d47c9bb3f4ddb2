"""Boxes in points on a card's canvas, which includes the bleed on every side."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Layout


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


@dataclass(frozen=True, slots=True)
class CardGeometry:
    """Canvas = trim + bleed all round; trim and safe boxes in canvas coordinates (pt)."""

    layout: Layout

    @property
    def width(self) -> float:
        return self.layout.width + 2 * self.layout.bleed

    @property
    def height(self) -> float:
        return self.layout.height + 2 * self.layout.bleed

    @property
    def bleed(self) -> float:
        return self.layout.bleed

    @property
    def canvas(self) -> Box:
        return Box(0, 0, self.width, self.height)

    @property
    def trim(self) -> Box:
        b = self.layout.bleed
        return Box(b, b, self.layout.width, self.layout.height)

    @property
    def safe(self) -> Box:
        return self.trim.inset(self.layout.safe)

    @property
    def radius(self) -> float:
        return self.layout.corner_radius
