"""A game's look: `templates/<game>/style.yaml` — text styles, colours and inline icons.

```yaml
colors: {frame: "#2b2b2b", paper: "#f7f2e6"}
text:
  title: {font: serif, weight: bold, size: 12pt, min_size: 8pt, fill: "#222", align: middle, lines: 1}
  body: {font: serif, size: 9pt, min_size: 6.5pt, line_height: 1.2}
icons:
  R: {shape: circle, fill: "#b3261e", label: R, label_fill: "#fff"}
```
Icons pair a shape with a letter, so colours are told apart without hue (colour-blind players).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import escape

from ...diagnostics import Diagnostics, Loc
from ...readers.common import check_keys, expect_map
from ...source import ParseCache, SourceError, YMap, load
from ...units import UnitError, to_points

STYLE_FILE = "style.yaml"
TEXT_KEYS = (
    "font",
    "weight",
    "style",
    "size",
    "min_size",
    "line_height",
    "fill",
    "align",
    "valign",
    "lines",
    "letter_spacing",
)
ICON_KEYS = ("shape", "fill", "stroke", "label", "label_fill", "width", "title")
SHAPES = (
    "circle",
    "square",
    "diamond",
    "triangle",
    "hexagon",
    "pentagon",
    "star",
    "drop",
    "shield",
    "octagon",
)
MIN_TEXT_PT = 6.0


@dataclass(frozen=True)
class TextStyle:
    name: str
    font: str
    size: float
    min_size: float
    weight: str = "normal"
    style: str = "normal"
    line_height: float = 1.2
    fill: str = "#000000"
    align: str = "start"  # start | middle | end
    valign: str = "top"  # top | middle | bottom
    lines: int | None = None  # at most this many lines (1: a title)


@dataclass(frozen=True)
class Icon:
    token: str
    shape: str
    fill: str
    stroke: str
    label: str
    label_fill: str
    width: float  # advance as a fraction of the font size
    title: str


class Style:
    def __init__(
        self,
        colors: Mapping[str, str],
        text: Mapping[str, TextStyle],
        icons: Mapping[str, Icon],
        icon_font: TextStyle | None,
    ) -> None:
        self.colors = dict(colors)
        self.text = dict(text)
        self.icons = dict(icons)
        self.icon_font = icon_font

    def text_style(self, name: str) -> TextStyle:
        if name not in self.text:
            raise KeyError(f"style.yaml has no text style {name!r} (has: {', '.join(self.text)})")
        return self.text[name]

    def icon_svg(self, token: str, x: float, y: float, size: float, family: str) -> str:
        """An icon in a size x size box at (x, y), its label drawn in `family` (the shipped
        family of `icon_font`, resolved by the caller); unknown tokens raise KeyError."""
        icon = self.icons[token]
        w = size * icon.width
        parts = [f'<g class="icon icon-{escape(token)}">']
        parts.append(shape_svg(icon.shape, x, y, w, size, icon.fill, icon.stroke))
        if icon.label and self.icon_font is not None:
            f = self.icon_font
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


def load_style(folder: Path, diags: Diagnostics, display, cache: ParseCache | None = None) -> Style | None:
    """Read `style.yaml` of a game's template folder; None (with diagnostics) if unusable.
    `cache` keeps the parsed file between builds."""
    path = folder / STYLE_FILE
    shown = display(path)
    try:
        doc = load(path, shown, cache)
    except SourceError as exc:
        diags.error(exc.loc, exc.message)
        return None
    m = expect_map(doc, Loc(shown), STYLE_FILE, diags)
    if m is None:
        return None
    check_keys(m, STYLE_FILE, ("colors", "text", "icons", "icon_font", "note"), diags, required=("text",))
    colors = {str(k): str(v) for k, v in (m.get("colors") or {}).items()}
    text = {}
    for name, raw in (expect_map(m["text"], m.loc_of("text"), "text", diags) or {}).items():
        style = _text_style(name, raw, m["text"].loc_of(name), diags)
        if style is not None:
            text[name] = style
    icons = {}
    raw_icons = m.get("icons") or YMap(m.loc)
    for token, raw in (expect_map(raw_icons, m.loc_of("icons"), "icons", diags) or {}).items():
        icon = _icon(str(token), raw, raw_icons.loc_of(token), diags)
        if icon is not None:
            icons[str(token)] = icon
    icon_font = None
    if "icon_font" in m:
        icon_font = text.get(m["icon_font"])
        if icon_font is None:
            diags.error(m.loc_of("icon_font"), f"icon_font names no text style {m['icon_font']!r}")
    if icons and icon_font is None and "icon_font" not in m:
        diags.error(
            m.loc,
            "style.yaml declares icons, so it needs 'icon_font: <text style>' for their labels",
        )
    return Style(colors, text, icons, icon_font)


def _text_style(name: str, raw: Any, loc: Loc, diags: Diagnostics) -> TextStyle | None:
    m = expect_map(raw, loc, f"text style {name!r}", diags)
    if m is None:
        return None
    what = f"text style {name!r}"
    check_keys(m, what, TEXT_KEYS, diags, required=("font", "size"))
    try:
        size = to_points(m.get("size"))
        min_size = to_points(m.get("min_size", m.get("size")))
    except UnitError as exc:
        diags.error(m.loc, f"{what}: {exc}")
        return None
    if min_size < MIN_TEXT_PT:
        diags.error(m.loc_of("min_size"), f"{what}: min_size {min_size:g}pt is below {MIN_TEXT_PT:g}pt")
        return None
    if min_size > size:
        diags.error(m.loc_of("min_size"), f"{what}: min_size is larger than size")
        return None
    for key, allowed in (
        ("align", ("start", "middle", "end")),
        ("valign", ("top", "middle", "bottom")),
        ("style", ("normal", "italic")),
        ("weight", ("normal", "bold")),
    ):
        if key in m and m[key] not in allowed:
            diags.error(m.loc_of(key), f"{what}: {key} must be one of {', '.join(allowed)}")
            return None
    return TextStyle(
        name=name,
        font=str(m["font"]),
        size=size,
        min_size=min_size,
        weight=m.get("weight", "normal"),
        style=m.get("style", "normal"),
        line_height=float(m.get("line_height", 1.2)),
        fill=str(m.get("fill", "#000000")),
        align=m.get("align", "start"),
        valign=m.get("valign", "top"),
        lines=m.get("lines"),
    )


def _icon(token: str, raw: Any, loc: Loc, diags: Diagnostics) -> Icon | None:
    m = expect_map(raw, loc, f"icon {token!r}", diags)
    if m is None:
        return None
    check_keys(m, f"icon {token!r}", ICON_KEYS, diags, required=("shape", "fill"))
    if m.get("shape") not in SHAPES:
        diags.error(m.loc_of("shape"), f"icon {token!r}: shape must be one of {', '.join(SHAPES)}")
        return None
    return Icon(
        token=token,
        shape=m["shape"],
        fill=str(m["fill"]),
        stroke=str(m.get("stroke", "#1a1a1a")),
        label=str(m.get("label", "")),
        label_fill=str(m.get("label_fill", "#ffffff")),
        width=float(m.get("width", 1.0)),
        title=str(m.get("title", token)),
    )
