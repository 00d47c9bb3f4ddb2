"""Text measured, wrapped, shrunk to fit and positioned exactly as CairoSVG will draw it.

A line measured narrower than it is drawn runs out of its box on the printed card, so widths here
come from what draws. CairoSVG draws text letter by letter through cairo's toy API: each
character advances by its glyph's advance, with no kerning, ligatures or shaping. In a PDF those
advances are the font's design advances; `fonts.activate` makes PNGs use them too (cairo would
otherwise round each one to whole device pixels, up to 2 % wider at 300 dpi). So a width is
exactly sum(advance(char)) * size, at any DPI, and `measure` computes just that from per-character
advances read from the font file (`FontMetrics`).

Pillow's BASIC layout is not used: it reproduces cairo's *pixel-rounded* advances only at the
device pixel size (and applies a legacy 'kern' table, which cairo does not); at a point size used
as pixels it is off by several percent. Templates must not set text-rendering="geometricPrecision"
(it garbles glyphs in CairoSVG 2.9); any other text-rendering value turns the rounding back on.

Layout rules, chosen so that nothing is invented and nothing disappears:
- paragraphs are split on "\\n"; lines break only at spaces (U+0020), never inside a word (no
  hyphenation), so `{R}+2` or `{R},` stays together; a no-break space does not break;
- spaces at a line break are not drawn; spaces starting a paragraph indent it;
- `{NAME}` is an icon when NAME is in the caller's icon set, else it stays text;
- the size shrinks from the spec's size in STEP_PT steps down to its minimum (never below
  MIN_SIZE_PT); if the text still does not fit, the result carries an `Overflow` and all its
  lines (top-aligned, running past the box): the caller reports it, nothing is clipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Protocol

from ...fonts.metrics import FontMetrics
from ...fonts.registry import Face

MIN_SIZE_PT = 6.0
STEP_PT = 0.25
ALIGNS = ("start", "middle", "end")
VALIGNS = ("top", "middle", "bottom")
ICON_HEIGHT_EM = 1.0  # an icon box is this tall, centred on the middle of the capitals
TOKEN = re.compile(r"\{([^{}\s]+)\}")
_SPACES = re.compile(r"( +)")
_EPS = 1e-6  # pt: float noise allowed when comparing with a box


class Box(Protocol):
    """A rectangle in points in the SVG's user space, y growing downwards (geometry.Box)."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class TextSpec:
    """How a field is set: face, size (shrinking down to min_size_pt), line height in em."""

    face: Face
    size_pt: float
    min_size_pt: float | None = None  # None: do not shrink
    line_height: float = 1.2
    align: str = "start"
    valign: str = "top"
    paragraph_gap: float = 0.0  # extra space between paragraphs, in em

    def __post_init__(self) -> None:
        low = self.smallest_pt
        if not MIN_SIZE_PT <= low <= self.size_pt:
            raise ValueError(
                f"text sizes must satisfy {MIN_SIZE_PT} pt <= minimum ({low}) <= size ({self.size_pt})"
            )
        if self.align not in ALIGNS or self.valign not in VALIGNS:
            raise ValueError(f"align must be one of {ALIGNS}, valign one of {VALIGNS}")
        if self.line_height <= 0 or self.paragraph_gap < 0:
            raise ValueError("line_height must be > 0 and paragraph_gap >= 0")

    @property
    def smallest_pt(self) -> float:
        return self.size_pt if self.min_size_pt is None else self.min_size_pt


@dataclass(frozen=True, slots=True)
class TextRun:
    """Text drawn from x on the line's baseline; never starts or ends with a space."""

    text: str
    x: float
    width: float
    kind: ClassVar[str] = "text"


@dataclass(frozen=True, slots=True)
class IconRun:
    """Room for the icon `name`: draw it inside (x, y, width, height)."""

    name: str
    x: float
    y: float
    width: float
    height: float
    kind: ClassVar[str] = "icon"


@dataclass(frozen=True, slots=True)
class Line:
    """One line: its runs left to right, where it starts, its baseline and its advance width."""

    runs: tuple[TextRun | IconRun, ...]
    x: float  # left edge after alignment
    y: float  # baseline
    width: float

    @property
    def icon_runs(self) -> tuple[IconRun, ...]:
        return tuple(r for r in self.runs if isinstance(r, IconRun))


@dataclass(frozen=True, slots=True)
class Overflow:
    """How far text set at its minimum size exceeds its box."""

    lines: int  # lines whose line box ends below the box
    height_pt: float  # text block taller than the box by
    width_pt: float  # widest line (in fit_text, an unbreakable word) wider than the box by

    def __str__(self) -> str:
        parts = []
        if self.height_pt > _EPS:
            n = "line" if self.lines == 1 else "lines"
            parts.append(f"{self.lines} {n} below the box ({self.height_pt:.2f} pt too tall)")
        if self.width_pt > _EPS:
            parts.append(f"a line {self.width_pt:.2f} pt wider than the box")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class FittedText:
    """Lines with absolute positions, ready for a template to emit <tspan>s and icons."""

    face: Face
    size_pt: float
    line_height_pt: float
    box: Box
    lines: tuple[Line, ...]
    overflow: Overflow | None  # None when everything fits
    missing_glyphs: tuple[str, ...]  # characters the face cannot draw

    @property
    def fits(self) -> bool:
        return self.overflow is None

    @property
    def icons(self) -> tuple[IconRun, ...]:
        return tuple(r for line in self.lines for r in line.icon_runs)


def measure(text: str, face: Face, size_pt: float) -> float:
    """Width in points of `text` on one line, as cairo advances it (icon tokens are text)."""
    return face.metrics.width_em(text) * size_pt


def fit_text(text: str, spec: TextSpec, box: Box, icons: Mapping[str, float] | None = None) -> FittedText:
    """Wrap `text` into `box` at the largest size (on the STEP_PT grid) at which it fits.

    `icons` maps icon token names to their width as a fraction of the font size.
    """
    return _fit(text, spec, box, icons or {}, wrap=True)


def fit_line(text: str, spec: TextSpec, box: Box, icons: Mapping[str, float] | None = None) -> FittedText:
    """Like `fit_text` without wrapping: shrink until the text fits on one line (a title).

    An explicit "\\n" still starts a new line.
    """
    return _fit(text, spec, box, icons or {}, wrap=False)


# ---- internals ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str  # the token itself for an icon
    icon: str | None
    em: float


@dataclass(frozen=True, slots=True)
class _Word:
    space: str  # the spaces before the word in the source
    space_em: float
    pieces: tuple[_Piece, ...]
    em: float
    over_em: float  # ink past the advance of its last glyph, counted when it ends a line


_Paragraph = tuple[_Word, ...]
_Span = tuple[int, int, int, float, float]  # paragraph, first word, end word, advance, ink extent (em)


def _fit(text: str, spec: TextSpec, box: Box, icons: Mapping[str, float], wrap: bool) -> FittedText:
    for name, width in icons.items():
        if width <= 0:
            raise ValueError(f"icon {name!r} must have a positive width")
    metrics = spec.face.metrics
    paragraphs = tuple(_words(p, metrics, icons) for p in text.split("\n"))
    sizes = _sizes(spec)
    for size in sizes:
        spans = _wrap_all(paragraphs, box.w / size, wrap)
        if _overflow(spans, spec, box, size) is None:
            return _build(paragraphs, spans, spec, box, size, None)
    size = sizes[-1]
    spans = _wrap_all(paragraphs, box.w / size, wrap)
    return _build(paragraphs, spans, spec, box, size, _overflow(spans, spec, box, size))


def _sizes(spec: TextSpec) -> list[float]:
    """Candidate sizes, largest first: size, size - STEP_PT, ..., the minimum."""
    sizes, size = [], spec.size_pt
    while size > spec.smallest_pt + _EPS:
        sizes.append(round(size, 4))
        size -= STEP_PT
    sizes.append(spec.smallest_pt)
    return sizes


def _words(paragraph: str, metrics: FontMetrics, icons: Mapping[str, float]) -> _Paragraph:
    parts = _SPACES.split(paragraph)  # word, spaces, word, ..., word ("" at either end)
    words, space = [], ""
    for i, part in enumerate(parts):
        if i % 2:
            space = part
        elif part:
            pieces = _pieces(part, metrics, icons)
            last = pieces[-1]
            over = 0.0 if last.icon else metrics.overhang_em(last.text[-1])
            words.append(_Word(space, metrics.width_em(space), pieces, sum(p.em for p in pieces), over))
    return tuple(words)


def _pieces(word: str, metrics: FontMetrics, icons: Mapping[str, float]) -> tuple[_Piece, ...]:
    pieces, start = [], 0
    for match in TOKEN.finditer(word):
        name = match.group(1)
        if name not in icons:
            continue
        if match.start() > start:
            chunk = word[start : match.start()]
            pieces.append(_Piece(chunk, None, metrics.width_em(chunk)))
        pieces.append(_Piece(match.group(0), name, icons[name]))
        start = match.end()
    if start < len(word):
        pieces.append(_Piece(word[start:], None, metrics.width_em(word[start:])))
    return tuple(pieces)


def _wrap_all(paragraphs: tuple[_Paragraph, ...], capacity: float, wrap: bool) -> list[_Span]:
    """Greedy line breaking in em units; an empty paragraph is one empty line.

    A line fits when its advance plus the ink overhang of its last glyph does: so the ink of
    an "of" at the end of a line stays inside the box too.
    """
    spans: list[_Span] = []
    for p, words in enumerate(paragraphs):
        if not words:
            spans.append((p, 0, 0, 0.0, 0.0))
            continue
        first, width = 0, words[0].space_em + words[0].em  # a paragraph's leading spaces indent
        for i in range(1, len(words)):
            word = words[i]
            wider = width + word.space_em + word.em
            if wrap and wider + word.over_em > capacity + 1e-9:
                spans.append((p, first, i, width, width + words[i - 1].over_em))
                first, width = i, word.em
            else:
                width = wider
        spans.append((p, first, len(words), width, width + words[-1].over_em))
    return spans


def _block_height(spans: list[_Span], spec: TextSpec, size: float) -> float:
    gaps = spans[-1][0] if spans else 0  # paragraph breaks
    return (len(spans) * spec.line_height + gaps * spec.paragraph_gap) * size


def _overflow(spans: list[_Span], spec: TextSpec, box: Box, size: float) -> Overflow | None:
    height = _block_height(spans, spec, size)
    widest = max((span[4] for span in spans), default=0.0) * size
    if height <= box.h + _EPS and widest <= box.w + _EPS:
        return None
    lines_over, top = 0, 0.0
    for i, span in enumerate(spans):
        if i and span[0] != spans[i - 1][0]:
            top += spec.paragraph_gap * size
        top += spec.line_height * size
        if top > box.h + _EPS:
            lines_over += 1
    return Overflow(lines_over, max(0.0, height - box.h), max(0.0, widest - box.w))


def _build(
    paragraphs: tuple[_Paragraph, ...],
    spans: list[_Span],
    spec: TextSpec,
    box: Box,
    size: float,
    overflow: Overflow | None,
) -> FittedText:
    metrics = spec.face.metrics
    line_height = spec.line_height * size
    height = _block_height(spans, spec, size)
    free = box.h - height
    top = box.y  # overflowing text starts at the top and runs past the bottom
    if overflow is None:
        top += {"top": 0.0, "middle": free / 2, "bottom": free}[spec.valign]
    half_leading = (line_height - (metrics.ascent + metrics.descent) * size) / 2
    icon_height = ICON_HEIGHT_EM * size
    icon_drop = metrics.cap_height * size / 2 + icon_height / 2  # baseline to icon top
    lines, drawn = [], []
    for i, (p, first, end, width_em, extent_em) in enumerate(spans):
        if i and p != spans[i - 1][0]:
            top += spec.paragraph_gap * size
        baseline = top + half_leading + metrics.ascent * size
        width = width_em * size
        slack = box.w - extent_em * size  # align the ink, overhang included
        x = box.x + {"start": 0.0, "middle": slack / 2, "end": slack}[spec.align]
        runs = _runs(paragraphs[p][first:end], first == 0, x, size, baseline - icon_drop)
        drawn.extend(r.text for r in runs if isinstance(r, TextRun))
        lines.append(Line(runs, _r(x), _r(baseline), _r(width)))
        top += line_height
    return FittedText(
        face=spec.face,
        size_pt=size,
        line_height_pt=_r(line_height),
        box=box,
        lines=tuple(lines),
        overflow=overflow,
        missing_glyphs=spec.face.missing_glyphs("".join(drawn)),
    )


def _runs(
    words: tuple[_Word, ...], indent: bool, x: float, size: float, icon_y: float
) -> tuple[TextRun | IconRun, ...]:
    """Text and icon runs of one line; spaces next to an icon or at the start only move the pen."""
    runs: list[TextRun | IconRun] = []
    text, text_x, text_end, cursor = "", 0.0, 0.0, 0.0  # positions in em from the line start

    def flush() -> None:
        nonlocal text
        if text:
            runs.append(TextRun(text, _r(x + text_x * size), _r((text_end - text_x) * size)))
        text = ""

    for n, word in enumerate(words):
        space = ""
        if n or indent:
            cursor += word.space_em
            space = word.space
        for piece in word.pieces:
            if piece.icon is None:
                if text:
                    text += space
                else:
                    text_x = cursor
                text += piece.text
                cursor += piece.em
                text_end = cursor
            else:
                flush()
                width, height = piece.em * size, ICON_HEIGHT_EM * size
                runs.append(IconRun(piece.icon, _r(x + cursor * size), _r(icon_y), _r(width), _r(height)))
                cursor += piece.em
            space = ""
    flush()
    return tuple(runs)


def _r(value: float) -> float:
    """Positions to a thousandth of a point: exact enough, and stable text in golden SVGs."""
    return round(value, 3)
