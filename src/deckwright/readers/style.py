"""A game's look, read in the load phase: `templates/<game>/style.yaml` — text styles, colours
and inline icons.

```yaml
colors: {frame: "#2b2b2b", paper: "#f7f2e6"}
text:
  title: {font: serif, weight: bold, size: 12pt, min_size: 8pt, fill: "#222", align: middle, lines: 1}
  body: {font: serif, size: 9pt, min_size: 6.5pt, line_height: 1.2}
icons:
  R: {shape: circle, fill: "#b3261e", label: R, label_fill: "#fff"}
theme: starter   # optional: templates the game's folder lacks come from this built-in theme
```
Icons pair a shape with a letter, so colours are told apart without hue (colour-blind players).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import MIN_TEXT_PT, SHAPES, Icon, Style, TextStyle
from ..project import THEMES
from ..source import ParseCache, SourceError, YMap, load
from ..units import UnitError, to_points
from .common import check_keys, expect_map

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
    check_keys(
        m, STYLE_FILE, ("colors", "text", "icons", "icon_font", "theme", "note"), diags, required=("text",)
    )
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
    theme = m.get("theme", "")
    if theme and (not isinstance(theme, str) or not (THEMES / theme).is_dir() or "/" in theme):
        known = ", ".join(sorted(p.name for p in THEMES.iterdir() if p.is_dir() and p.name != "_shared"))
        diags.error(m.loc_of("theme"), f"no built-in theme {theme!r} (themes: {known})")
        theme = ""
    return Style(colors, text, icons, icon_font, theme)


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
        loc=loc,
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
