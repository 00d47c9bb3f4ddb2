"""The shipped fonts as a model: families, their faces by weight and style, and the one rule
that resolves a (family, weight, style) to a file — never falling back to another font.

Weights are "regular"/"bold" and styles "normal"/"italic" because that is all CairoSVG passes
on to cairo (numeric weights >= 550 become bold; "oblique" draws the italic face). fonts.yaml is
read by `deckwright.readers.fonts`; metrics are in `metrics`, fontconfig isolation in `fontconfig`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Loc
from ..model import frozen_map
from .metrics import FontMetrics, font_metrics

FONTS_FILE = "fonts.yaml"  # in the fonts folder: what the registry is read from

# face key in fonts.yaml -> (weight, style)
SLOTS: Mapping[str, tuple[str, str]] = frozen_map(
    {
        "regular": ("regular", "normal"),
        "italic": ("regular", "italic"),
        "bold": ("bold", "normal"),
        "bold-italic": ("bold", "italic"),
    }
)
GENERIC_FAMILIES = ("serif", "sans-serif", "monospace", "cursive", "fantasy")
BOLD_FROM = 550  # CairoSVG: a numeric font-weight >= 550 is drawn bold
_WEIGHTS = {"regular": "regular", "normal": "regular", "400": "regular", "bold": "bold", "700": "bold"}
_STYLES = {"normal": "normal", "italic": "italic", "oblique": "italic"}
_NOT_DRAWN = frozenset("\n\r")


class FontError(Exception):
    """A font request that the shipped fonts cannot satisfy, or fonts set up too late."""


@dataclass(frozen=True, slots=True)
class Face:
    """One font file: what a template writes in font-family/-weight/-style, and what it draws."""

    font_id: str
    family: str
    weight: str  # "regular" | "bold"
    style: str  # "normal" | "italic"
    path: Path

    @property
    def svg_weight(self) -> str:
        return "bold" if self.weight == "bold" else "normal"

    @property
    def svg_style(self) -> str:
        return self.style

    @property
    def metrics(self) -> FontMetrics:
        return font_metrics(self.path)

    def missing_glyphs(self, text: str) -> tuple[str, ...]:
        """Characters of `text` the face has no glyph for, each once, in order of appearance."""
        advances = self.metrics.advances
        seen: dict[str, None] = {}
        for char in text:
            if char not in advances and char not in _NOT_DRAWN:
                seen.setdefault(char)
        return tuple(seen)

    def __str__(self) -> str:
        parts = [self.family]
        if self.weight == "bold":
            parts.append("bold")
        if self.style == "italic":
            parts.append("italic")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Font:
    """One shipped family: its faces by slot (regular, italic, bold, bold-italic)."""

    id: str
    family: str
    faces: Mapping[str, Path]
    licence: str
    licence_file: Path
    source: Mapping[str, str]
    loc: Loc
    use: str = ""
    note: str = ""

    def face(self, weight: str, style: str) -> Face | None:
        for slot, (w, s) in SLOTS.items():
            if (w, s) == (weight, style) and slot in self.faces:
                return Face(self.id, self.family, weight, style, self.faces[slot])
        return None


@dataclass(frozen=True, slots=True)
class FontRegistry:
    """The fonts in fonts.yaml, checked against their files."""

    folder: Path
    fonts: Mapping[str, Font]
    generic: Mapping[str, str]  # CSS generic family -> font id
    # (font id, slot) -> the file cairo draws instead of the face's own (fonts.matching)
    undrawable: Mapping[tuple[str, str], str] = field(default_factory=frozen_map)

    @property
    def families(self) -> tuple[str, ...]:
        return tuple(font.family for font in self.fonts.values())

    def font(self, name: str) -> Font:
        """A font by id ("eb-garamond"), family ("EB Garamond") or generic name ("serif").

        Family names compare like fontconfig compares them: ignoring case and spaces.
        """
        if "," in name:
            raise FontError(
                f"font family {name!r} is a list; CairoSVG draws with the first name only, "
                "so name one shipped family"
            )
        key = family_key(name)
        for font in self.fonts.values():
            if key in (family_key(font.id), family_key(font.family)):
                return font
        for generic, font_id in self.generic.items():
            if key == generic and font_id in self.fonts:
                return self.fonts[font_id]
        shipped = ", ".join(self.families) or "none"
        generic = ", ".join(self.generic) or "none"
        raise FontError(
            f"font family {name!r} is not shipped (shipped: {shipped}; generic: {generic}); "
            "add it to fonts/fonts.yaml"
        )

    def face(self, family: str, weight: str | int = "regular", style: str = "normal") -> Face:
        """The file that draws (family, weight, style). Raises FontError; never falls back."""
        font = self.font(family)
        w, s = _weight(weight), _style(style)
        face = font.face(w, s)
        slot = next(k for k, v in SLOTS.items() if v == (w, s))
        drawn = [k.replace("-", " ") for k in font.faces if (font.id, k) not in self.undrawable]
        if face is None:
            have = ", ".join(drawn) or "none"
            raise FontError(f"font {font.family!r} has no {slot.replace('-', ' ')} face (faces: {have})")
        if (font.id, slot) in self.undrawable:
            instead = self.undrawable[(font.id, slot)]
            raise FontError(
                f"font {font.family!r}: its {slot.replace('-', ' ')} face ({face.path.name}) cannot be "
                f"drawn: the font matching cairo uses picks {instead} instead (the file covers too few "
                f"characters); faces that draw: {', '.join(drawn) or 'none'}"
            )
        return face


def _weight(value: str | int) -> str:
    weight = _WEIGHTS.get(str(value).strip().lower())
    if weight is None:
        raise FontError(f"font weight {value!r}: use normal (400) or bold (700)")
    return weight


def _style(value: str) -> str:
    style = _STYLES.get(str(value).strip().lower())
    if style is None:
        raise FontError(f"font style {value!r}: use normal or italic")
    return style


def family_key(name: str) -> str:
    return "".join(str(name).split()).casefold()
