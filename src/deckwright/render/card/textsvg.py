"""Card text as SVG: a field value fitted into a box (render.text) and emitted as <text> lines
with inline icons, or as a visible placeholder when the value is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import escape

from ...fonts.metrics import describe_chars
from ...fonts.registry import FontError, FontRegistry
from ...model import Style, TextStyle, Unknown
from .geometry import Box
from .style import icon_svg
from .textfit import TOKEN, FittedText, IconRun, TextRun, TextSpec, fit_line, fit_text

PLACEHOLDER_FILL = "#c2185b"  # a magenta no card design uses: unknown text must stand out
OVERFLOW_MARK = "#e00000"  # preview only: the box and the lines of text that does not fit


@dataclass(frozen=True)
class Issue:
    severity: str  # error | warning
    message: str


@dataclass
class Painted:
    svg: str
    issues: list[Issue] = field(default_factory=list)


def _fmt(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class TextPainter:
    """Turns field values into SVG text for one game's style."""

    def __init__(self, registry: FontRegistry, style: Style, preview: bool = False) -> None:
        """`preview` (`deckwright serve`): text that does not fit is drawn with its box and
        its overflowing lines marked, so the designer sees the problem. Never for print."""
        self.registry = registry
        self.style = style
        self.preview = preview
        self.icon_widths: Mapping[str, float] = {t: i.width for t, i in style.icons.items()}
        f = style.icon_font
        # Raises FontError for an icon font that is not shipped: reported when the style loads.
        self.icon_family = registry.face(f.font, f.weight, f.style).family if f else ""

    def icon(self, token: str, x: float, y: float, size: float) -> str:
        return icon_svg(self.style, token, x, y, size, self.icon_family)

    def spec(self, text_style: TextStyle, size: float | None = None) -> TextSpec:
        face = self.registry.face(text_style.font, text_style.weight, text_style.style)
        return TextSpec(
            face=face,
            size_pt=size or text_style.size,
            min_size_pt=text_style.min_size,
            line_height=text_style.line_height,
            align=text_style.align,
            valign=text_style.valign,
        )

    def paint(self, value: Any, box: Box, text_style: TextStyle, **options: Any) -> Painted:
        """Fit `value` into `box`. Options: fill (colour), lines (1 = one line, a title)."""
        if isinstance(value, Unknown):
            return self._placeholder(value, box, text_style)
        if value is None or value == "":
            return Painted("")
        if isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value)
        text = str(value)
        try:
            spec = self.spec(text_style)
        except FontError as exc:
            return Painted("", [Issue("error", str(exc))])
        single = options.get("lines", text_style.lines) == 1
        fitted = (fit_line if single else fit_text)(text, spec, box, self.icon_widths)
        issues = self._unknown_icons(text)
        if fitted.overflow is not None:
            issues.append(
                Issue(
                    "error",
                    f"text does not fit its {_fmt(box.w)} x {_fmt(box.h)} pt box even at "
                    f"{_fmt(spec.smallest_pt)} pt: {fitted.overflow}",
                )
            )
        if fitted.missing_glyphs:
            issues.append(
                Issue(
                    "warning",
                    f"font {spec.face} has no glyph for {describe_chars(fitted.missing_glyphs)}",
                )
            )
        fill = options.get("fill", text_style.fill)
        if self.preview and fitted.overflow is not None:
            return Painted(self._marked(fitted, box, fill), issues)
        return Painted(self._svg(fitted, fill), issues)

    def _unknown_icons(self, text: str) -> list[Issue]:
        """`{GOLD}` with no icon GOLD in style.yaml would print literally: an error."""
        unknown = [t for t in dict.fromkeys(TOKEN.findall(text)) if t not in self.icon_widths]
        if not unknown:
            return []
        known = ", ".join("{" + t + "}" for t in self.icon_widths) or "none"
        tokens = ", ".join("{" + t + "}" for t in unknown)
        return [Issue("error", f"unknown icon {tokens} (icons in style.yaml: {known})")]

    def _marked(self, fitted: FittedText, box: Box, fill: str) -> str:
        """Preview of text that does not fit: its box outlined, and each line that runs out of
        it (below its bottom or past its right edge) on a red band, drawn in red."""
        metrics, size = fitted.face.metrics, fitted.size_pt
        ascent, descent = metrics.ascent * size, metrics.descent * size
        bottom, right = box.y + box.h, box.x + box.w
        parts = [
            f'<rect x="{_fmt(box.x)}" y="{_fmt(box.y)}" width="{_fmt(box.w)}" height="{_fmt(box.h)}" '
            f'fill="none" stroke="{OVERFLOW_MARK}" stroke-width="0.8" stroke-dasharray="3 2"/>'
        ]
        for line in fitted.lines:
            over = line.y + descent > bottom + 0.01 or line.x + line.width > right + 0.01
            if over:
                width = max(box.w, line.x + line.width - box.x)
                parts.append(
                    f'<rect class="overflow-line" x="{_fmt(box.x)}" y="{_fmt(line.y - ascent)}" '
                    f'width="{_fmt(width)}" height="{_fmt(ascent + descent)}" '
                    f'fill="{OVERFLOW_MARK}" fill-opacity="0.2"/>'
                )
            parts.append(self._svg(replace(fitted, lines=(line,)), OVERFLOW_MARK if over else fill))
        return f'<g class="overflow">{"".join(parts)}</g>'

    def _svg(self, fitted, fill: str) -> str:
        face = fitted.face
        attrs = (
            f'font-family="{escape(face.family)}" font-size="{_fmt(fitted.size_pt)}" '
            f'font-weight="{face.svg_weight}" font-style="{face.svg_style}" fill="{escape(fill)}"'
        )
        parts = []
        for line in fitted.lines:
            for run in line.runs:
                if isinstance(run, TextRun):
                    parts.append(
                        f'<text x="{_fmt(run.x)}" y="{_fmt(line.y)}" {attrs} '
                        f'xml:space="preserve">{escape(run.text)}</text>'
                    )
                elif isinstance(run, IconRun):
                    parts.append(self.icon(run.name, run.x, run.y, run.height))
        return "".join(parts)

    def _placeholder(self, value: Unknown, box: Box, text_style: TextStyle) -> Painted:
        """A dashed box saying what is missing, so an unknown never prints as blank."""
        note = value.note or "not given by the source"
        label_style = TextStyle(
            name="placeholder",
            font=text_style.font,
            size=max(min(text_style.size, 8.0), 6.0),
            min_size=6.0,
            line_height=1.15,
            fill=PLACEHOLDER_FILL,
            align="middle",
            valign="middle",
        )
        inner = box.inset(min(3.0, box.w / 10), min(2.0, box.h / 10))
        label = self.paint(f"UNKNOWN — {note}", inner, label_style)
        if label.issues:  # a long note: the word alone must still show
            label = self.paint("UNKNOWN", inner, label_style)
        frame = (
            f'<rect x="{_fmt(box.x)}" y="{_fmt(box.y)}" width="{_fmt(box.w)}" height="{_fmt(box.h)}" '
            f'fill="#fde7ef" fill-opacity="0.85" stroke="{PLACEHOLDER_FILL}" stroke-width="0.6" '
            'stroke-dasharray="2.5 1.5"/>'
        )
        return Painted(f'<g class="unknown">{frame}{label.svg}</g>', [])
