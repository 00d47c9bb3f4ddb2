"""Boxes in points on a card's canvas, which includes the bleed on every side."""

from __future__ import annotations

from dataclasses import dataclass

from ...geometry import Box
from ...model import Layout

__all__ = ["Box", "CardGeometry"]


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
