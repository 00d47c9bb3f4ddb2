"""What cairo's toy text API uses of a font file — advances and extents — read once per process
with fontTools, and the glyphs a face lacks (they would print as empty boxes)."""

from __future__ import annotations

import functools
import io
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..model import frozen_map
from ..safety.containment import read_contained
from ..safety.limits import MAX_FONT_BYTES


@dataclass(frozen=True, slots=True)
class FontMetrics:
    """What cairo's toy text API uses of a font: advances (in em) and vertical extents.

    cairo (with hint metrics off, see deckwright.render.text) advances each character by the
    font's design advance, without kerning: `advances` holds exactly that, per character.
    A character without a glyph draws .notdef, whose advance is `notdef`.
    """

    path: Path
    advances: Mapping[str, float]
    notdef: float
    ascent: float
    descent: float
    cap_height: float

    def width_em(self, text: str) -> float:
        get, notdef = self.advances.get, self.notdef
        return sum(get(char, notdef) for char in text)

    def overhang_em(self, char: str) -> float:
        """How far the ink of `char` reaches past its advance (the hook of an f), else 0."""
        return _overhang_em(self.path, char)


@functools.lru_cache(maxsize=64)
def font_metrics(path: Path) -> FontMetrics:
    """Read advances and extents from a font file once per process."""
    font = _open(path)
    upem = font["head"].unitsPerEm
    hmtx = font["hmtx"].metrics
    advances = {chr(code): hmtx[glyph][0] / upem for code, glyph in font.getBestCmap().items()}
    if " " in advances:
        advances.setdefault("\t", advances[" "])  # CairoSVG draws a tab as a space
    hhea = font["hhea"]
    cap = getattr(font.get("OS/2"), "sCapHeight", 0) or 0.7 * upem
    notdef = hmtx[font.getGlyphOrder()[0]][0] / upem
    return FontMetrics(
        path=path,
        advances=frozen_map(advances),
        notdef=notdef,
        ascent=hhea.ascent / upem,
        descent=-hhea.descent / upem,
        cap_height=cap / upem,
    )


@functools.lru_cache(maxsize=4096)
def _overhang_em(path: Path, char: str) -> float:
    from fontTools.pens.boundsPen import BoundsPen  # imported late: keeps fontTools out of start-up

    font = _open(path)
    glyph = font.getBestCmap().get(ord(char), font.getGlyphOrder()[0])
    glyphs = font.getGlyphSet()
    pen = BoundsPen(glyphs)
    glyphs[glyph].draw(pen)
    if pen.bounds is None:  # a space
        return 0.0
    return max(0.0, (pen.bounds[2] - font["hmtx"][glyph][0]) / font["head"].unitsPerEm)


@functools.lru_cache(maxsize=64)
def _open(path: Path):
    """A parsed font, read into memory (no file handle stays open)."""
    from fontTools.ttLib import TTFont  # imported late: keeps fontTools out of start-up

    # a regular file at most MAX_FONT_BYTES, counted as read (the registry checked the rest)
    return TTFont(io.BytesIO(read_contained(path, [path.parent], MAX_FONT_BYTES, str(path))), lazy=True)


def describe_chars(chars: tuple[str, ...] | str) -> str:
    """'’' (U+2019 RIGHT SINGLE QUOTATION MARK), ... for messages."""
    return ", ".join(
        f"{char!r} (U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')})" for char in chars
    )
