"""Drawing a game's inline icons (style.yaml `icons:`): a shape with a letter, so colours are
told apart without hue (colour-blind players). The style itself is read by `readers.style`.
"""

from __future__ import annotations

import math

from markupsafe import escape

from ...model import Style


def icon_svg(style: Style, token: str, x: float, y: float, size: float, family: str) -> str:
    """An icon in a size x size box at (x, y), its label drawn in `family` (the shipped
    family of `icon_font`, resolved by the caller); unknown tokens raise KeyError."""
    icon = style.icons[token]
    w = size * icon.width
    parts = [f'<g class="icon icon-{escape(token)}">']
    parts.append(shape_svg(icon.shape, x, y, w, size, icon.fill, icon.stroke))
    if icon.label and style.icon_font is not None:
        f = style.icon_font
        label_size = size * (0.62 if len(icon.label) == 1 else 0.48)
        parts.append(
            f'<text x="{x + w / 2:.3f}" y="{y + size / 2 + label_size * 0.36:.3f}" '
            f'font-family="{escape(family)}" font-weight="{f.weight}" '
            f'font-size="{label_size:.3f}" fill="{escape(icon.label_fill)}" '
            f'text-anchor="middle">{escape(icon.label)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def shape_svg(shape: str, x: float, y: float, w: float, h: float, fill: str, stroke: str) -> str:
    """A filled, outlined shape centred in the (x, y, w, h) box."""
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
    paint = f'fill="{escape(fill)}" stroke="{escape(stroke)}" stroke-width="{r * 0.12:.3f}"'
    if shape == "circle":
        return f'<circle cx="{cx:.3f}" cy="{cy:.3f}" r="{r * 0.94:.3f}" {paint}/>'
    if shape == "square":
        s = r * 0.86
        return (
            f'<rect x="{cx - s:.3f}" y="{cy - s:.3f}" width="{2 * s:.3f}" height="{2 * s:.3f}" '
            f'rx="{s * 0.15:.3f}" {paint}/>'
        )
    corners = {"diamond": 4, "triangle": 3, "pentagon": 5, "hexagon": 6, "octagon": 8}
    if shape in corners:
        n = corners[shape]
        turn = -math.pi / 2 + (math.pi / 8 if shape == "octagon" else 0)
        radius = r * (1.08 if shape == "triangle" else 0.98)
        drop = r * 0.14 if shape == "triangle" else 0  # optical centre of a triangle
        angles = [turn + 2 * math.pi * i / n for i in range(n)]
        pts = [(cx + radius * math.cos(a), cy + drop + radius * math.sin(a)) for a in angles]
        return f'<polygon points="{_points(pts)}" {paint}/>'
    if shape == "star":
        pts = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.5
            a = -math.pi / 2 + math.pi * i / 5
            pts.append((cx + radius * math.cos(a), cy + 0.05 * r + radius * math.sin(a)))
        return f'<polygon points="{_points(pts)}" {paint}/>'
    p = _PathPoints(cx, cy, r)
    if shape == "drop":
        d = (
            f"M{p(0, -1)}C{p(0.2, -0.4)} {p(0.85, 0)} {p(0.85, 0.3)}"
            f"A{r * 0.85:.3f} {r * 0.7:.3f} 0 0 1 {p(-0.85, 0.3)}"
            f"C{p(-0.85, 0)} {p(-0.2, -0.4)} {p(0, -1)}Z"
        )
    else:  # shield
        d = (
            f"M{p(-0.85, -0.85)}L{p(0.85, -0.85)}L{p(0.85, -0.1)}"
            f"Q{p(0.85, 0.7)} {p(0, 1)}Q{p(-0.85, 0.7)} {p(-0.85, -0.1)}Z"
        )
    return f'<path d="{d}" {paint}/>'


class _PathPoints:
    """Path coordinates given in radii from the centre, formatted for SVG."""

    def __init__(self, cx: float, cy: float, r: float) -> None:
        self.cx, self.cy, self.r = cx, cy, r

    def __call__(self, dx: float, dy: float) -> str:
        return f"{self.cx + dx * self.r:.3f} {self.cy + dy * self.r:.3f}"


def _points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{px:.3f},{py:.3f}" for px, py in pts)
