"""The fonts shipped in fonts/, and a fontconfig setup that lets cairo see those and no others.

CairoSVG asks fontconfig for a family by name and, when the name is unknown, fontconfig quietly
hands back whatever the machine has: the same card then prints differently on two computers, and
every measurement made for it is wrong. So:

- `fonts/fonts.yaml` lists each family with one file per face; `FontRegistry.face` resolves a
  (family, weight, style) to a file and refuses anything not listed (no fallback);
- `activate` writes a fontconfig configuration naming only the shipped folder and points
  FONTCONFIG_FILE at it, before cairo first loads a font;
- `Face.missing_glyphs` reports characters a face cannot draw (they would print as boxes).

Weights are "regular"/"bold" and styles "normal"/"italic" because that is all CairoSVG passes
on to cairo (numeric weights >= 550 become bold; "oblique" draws the italic face).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import io
import os
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from ..diagnostics import Diagnostics, Loc
from ..model import frozen_map
from ..readers.common import check_keys, check_slug, describe, expect_map, get_str
from ..safety.containment import read_contained
from ..safety.limits import MAX_FONT_BYTES
from ..source import SourceError, YMap, load
from ..writer import Writer
from . import cairotext

FONTS_FILE = "fonts.yaml"
FONTCONFIG_ENV = "FONTCONFIG_FILE"
FONTCONFIG_NAME = "fonts.conf"

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
FONT_KEYS = ("family", "use", "faces", "licence", "source", "note")
FONT_SUFFIXES = (".otf", ".ttf")
# Anything fontconfig would load from the folder; each must be listed in fonts.yaml.
SCANNED_SUFFIXES = (*FONT_SUFFIXES, ".ttc", ".otc", ".pfa", ".pfb", ".pcf", ".woff", ".woff2")
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
        key = _family_key(name)
        for font in self.fonts.values():
            if key in (_family_key(font.id), _family_key(font.family)):
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
        if face is None:
            label = next(k for k, v in SLOTS.items() if v == (w, s)).replace("-", " ")
            have = ", ".join(slot.replace("-", " ") for slot in font.faces)
            raise FontError(f"font {font.family!r} has no {label} face (shipped faces: {have})")
        return face

    def check_face(
        self,
        family: str,
        weight: str | int,
        style: str,
        loc: Loc,
        diags: Diagnostics,
        what: str = "",
    ) -> Face | None:
        """`face`, reporting a problem as an error at `loc` instead of raising."""
        try:
            return self.face(family, weight, style)
        except FontError as exc:
            diags.error(loc, f"{what}: {exc}" if what else str(exc), code="font")
            return None


# ---- font files -------------------------------------------------------------------------------


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


def check_glyphs(text: str, face: Face, loc: Loc, what: str, diags: Diagnostics) -> bool:
    """Warn at `loc` about characters `face` cannot draw; `what` names the card and field."""
    missing = face.missing_glyphs(text)
    if missing:
        diags.warning(
            loc,
            f"{what}: font {face} has no glyph for {describe_chars(missing)}; it would print as an empty box",
            code="font-glyph",
        )
    return not missing


# ---- reading fonts.yaml -----------------------------------------------------------------------


def load_registry(folder: Path, diags: Diagnostics, display: Callable[[Path], str] = str) -> FontRegistry:
    """Read `folder/fonts.yaml` and check every file it names; problems go to `diags`."""
    path = folder / FONTS_FILE
    shown = display(path)
    try:
        doc = load(path, shown)
    except SourceError as exc:
        diags.error(exc.loc, exc.message, code="fonts")
        return FontRegistry(folder, frozen_map(), frozen_map())
    top = expect_map(doc, Loc(shown), "fonts.yaml", diags)
    if top is None:
        return FontRegistry(folder, frozen_map(), frozen_map())
    check_keys(top, "fonts.yaml", ("fonts", "generic", "note"), diags, required=("fonts",))
    fonts: dict[str, Font] = {}
    entries = YMap(top.loc)
    if "fonts" in top:
        entries = expect_map(top["fonts"], top.loc_of("fonts"), "fonts", diags) or entries
    families: dict[str, str] = {}
    named: set[Path] = set()
    for font_id, spec in entries.items():
        if not check_slug(font_id, entries.key_loc(font_id), "font id", diags):
            continue
        font = _read_font(font_id, spec, entries.loc_of(font_id), folder, diags, named)
        if font is None:
            continue
        key = _family_key(font.family)
        if key in families:
            diags.error(font.loc, f"font {font_id!r}: family {font.family!r} is already {families[key]!r}")
            continue
        families[key] = font_id
        fonts[font_id] = font
    generic = _read_generic(top, fonts, diags)
    _check_unlisted(folder, named, Loc(shown), diags)
    return FontRegistry(folder, frozen_map(fonts), frozen_map(generic))


def _read_font(
    font_id: str, spec: Any, loc: Loc, folder: Path, diags: Diagnostics, named: set[Path]
) -> Font | None:
    """One entry of fonts.yaml; every face file it names is added to `named`, valid or not."""
    what = f"font {font_id!r}"
    m = expect_map(spec, loc, what, diags)
    if m is None:
        return None
    ok = check_keys(m, what, FONT_KEYS, diags, ("family", "faces", "licence"))
    if not all(key in m for key in ("family", "faces", "licence")):
        return None
    family = get_str(m, "family", what, diags)
    faces_map = expect_map(m["faces"], m.loc_of("faces"), f"{what} faces", diags)
    licence = expect_map(m["licence"], m.loc_of("licence"), f"{what} licence", diags)
    source = expect_map(m.get("source", YMap(m.loc)), m.loc_of("source"), f"{what} source", diags)
    if None in (family, faces_map, licence, source):
        return None
    ok &= check_keys(licence, f"{what} licence", ("name", "file"), diags, ("name", "file"))
    ok &= check_keys(source, f"{what} source", ("package", "version", "upstream"), diags)
    licence_name = get_str(licence, "name", f"{what} licence", diags)
    licence_file = _file(folder, licence, "file", f"{what} licence", diags)
    faces: dict[str, Path] = {}
    for slot in faces_map:
        if slot not in SLOTS:
            accepted = ", ".join(SLOTS)
            diags.error(faces_map.key_loc(slot), f"{what}: unknown face {slot!r} ({accepted})")
            ok = False
        if isinstance(faces_map[slot], str):
            named.add((folder / faces_map[slot]).resolve())
        if slot not in SLOTS:
            continue
        label = f"{what} face {slot!r}"
        path = _file(folder, faces_map, slot, label, diags, FONT_SUFFIXES)
        if path is None or not _check_face_file(path, family, slot, faces_map.loc_of(slot), diags, label):
            ok = False
            continue
        faces[slot] = path
    if not faces_map:
        diags.error(faces_map.loc, f"{what} lists no faces")
        ok = False
    if not ok or licence_name is None or licence_file is None:
        return None
    return Font(
        id=font_id,
        family=family,
        faces=frozen_map(faces),
        licence=licence_name,
        licence_file=licence_file,
        source=frozen_map({k: str(v) for k, v in source.items()}),
        loc=loc,
        use=str(m.get("use", "")),
        note=str(m.get("note", "")),
    )


def _file(
    folder: Path, m: YMap, key: str, what: str, diags: Diagnostics, suffixes: tuple = ()
) -> Path | None:
    """A file named relative to the fonts folder, which must exist and stay inside it."""
    value = m.get(key)
    if not isinstance(value, str) or not value.strip():
        diags.error(m.loc_of(key), f"{what} must be a file path, not {describe(value)}")
        return None
    path = (folder / value).resolve()
    if folder.resolve() not in path.parents:
        diags.error(m.loc_of(key), f"{what}: {value!r} is outside the fonts folder")
        return None
    if suffixes and path.suffix.lower() not in suffixes:
        diags.error(m.loc_of(key), f"{what}: {value!r} must be one of {', '.join(suffixes)}")
        return None
    if not path.is_file():
        diags.error(m.loc_of(key), f"{what}: file {value!r} not found")
        return None
    if path.stat().st_size > MAX_FONT_BYTES:
        diags.error(m.loc_of(key), f"{what}: {value!r} is larger than {MAX_FONT_BYTES} bytes (the limit)")
        return None
    return path


def _check_face_file(path: Path, family: str, slot: str, loc: Loc, diags: Diagnostics, what: str) -> bool:
    """The file must be what fontconfig will pick for (family, slot): else we measure one
    font while cairo draws another."""
    from fontTools.ttLib import TTFont  # imported late: keeps fontTools out of start-up

    try:
        font = TTFont(str(path), lazy=True)
        names = {r.toUnicode() for r in font["name"].names if r.nameID in (1, 16, 21)}
        weight = font["OS/2"].usWeightClass
        italic = bool(font["OS/2"].fsSelection & 0b10_0000_0001) or font["post"].italicAngle != 0
        variable = "fvar" in font
    except Exception as exc:  # a broken file can fail anywhere inside fontTools
        diags.error(loc, f"cannot read font file {path.name}: {exc}")
        return False
    want_weight, want_style = SLOTS[slot]
    problems = []
    if _family_key(family) not in {_family_key(n) for n in names}:
        problems.append(f"its family is {', '.join(sorted(names))!s}, not {family!r}")
    if variable:
        problems.append("it is a variable font; ship static faces")
    if (weight >= BOLD_FROM) != (want_weight == "bold"):
        problems.append(f"its weight class is {weight}, not a {want_weight} face")
    if italic != (want_style == "italic"):
        problems.append("it is italic" if italic else "it is not italic")
    for problem in problems:
        diags.error(loc, f"{what} ({path.name}): {problem}")
    return not problems


def _read_generic(top: YMap, fonts: Mapping[str, Font], diags: Diagnostics) -> dict[str, str]:
    generic: dict[str, str] = {}
    if "generic" not in top:
        return generic
    m = expect_map(top["generic"], top.loc_of("generic"), "generic", diags)
    for name, font_id in (m or {}).items():
        if name not in GENERIC_FAMILIES:
            accepted = ", ".join(GENERIC_FAMILIES)
            diags.error(m.key_loc(name), f"unknown generic family {name!r} (accepted: {accepted})")
        elif font_id not in fonts:
            diags.error(m.loc_of(name), f"generic {name!r}: no shipped font {font_id!r}")
        else:
            generic[name] = font_id
    return generic


def _check_unlisted(folder: Path, named: set[Path], loc: Loc, diags: Diagnostics) -> None:
    """fontconfig scans the whole folder: a font file not in fonts.yaml would be drawable."""
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() in SCANNED_SUFFIXES and path.resolve() not in named:
            diags.error(
                loc,
                f"font file {path.relative_to(folder)} is not listed in {FONTS_FILE}; "
                "cairo could draw with it: list it or remove it",
            )


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


def _family_key(name: str) -> str:
    return "".join(str(name).split()).casefold()


# ---- fontconfig -------------------------------------------------------------------------------


def fontconfig_xml(registry: FontRegistry, cache_dir: Path) -> str:
    """A fontconfig configuration with the shipped folder as its only font directory.

    Nothing from the system is included (no conf.d, no system or user font dirs), and the
    generic names map to shipped families. The text depends only on the registry and paths.
    """
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
        "<!-- Written by deckwright from fonts/fonts.yaml: the shipped fonts and no others. -->",
        "<fontconfig>",
        f"  <dir>{escape(str(registry.folder.resolve()))}</dir>",
        f"  <cachedir>{escape(str(cache_dir.resolve()))}</cachedir>",
    ]
    for generic, font_id in sorted(registry.generic.items()):
        family = escape(registry.fonts[font_id].family)
        lines.append(
            f'  <alias binding="same"><family>{generic}</family>'
            f"<prefer><family>{family}</family></prefer></alias>"
        )
    lines.append("</fontconfig>")
    return "\n".join(lines) + "\n"


def write_fontconfig(registry: FontRegistry, cache_dir: Path) -> Path:
    """Write `cache_dir/fonts.conf` (left untouched when unchanged) and return its path."""
    return Writer(cache_dir).write_text(FONTCONFIG_NAME, fontconfig_xml(registry, cache_dir))


def activate(registry: FontRegistry, cache_dir: Path) -> Path:
    """Make CairoSVG draw with the shipped fonts only, at the advances `text.measure` gives.

    fontconfig reads FONTCONFIG_FILE once, when a library first asks it for a font, so this
    must run before cairosvg/weasyprint are imported; it refuses to run later with a
    different configuration rather than leave the system fonts in play. Then it imports
    CairoSVG, sets its text to unrounded advances (`_unrounded_advances`) and has it draw plain
    text runs in one call (`cairotext.install`).
    """
    path = write_fontconfig(registry, cache_dir)
    current = os.environ.get(FONTCONFIG_ENV)
    if current != str(path):
        loaded = [name for name in ("cairocffi", "cairo", "weasyprint") if name in sys.modules]
        if loaded:
            raise FontError(
                f"fonts must be activated before {', '.join(loaded)} is imported; "
                f"{FONTCONFIG_ENV} is {current or 'unset'}"
            )
        os.environ[FONTCONFIG_ENV] = str(path)
    _unrounded_advances()
    cairotext.install()
    return path


def _unrounded_advances() -> None:
    """Lay out PNG text with the font's design advances, as PDF text is.

    CairoSVG turns an element's text-rendering into cairo font options. With none given, cairo's
    image surfaces round every glyph advance to whole device pixels (lines up to 2 % wider at
    300 dpi than in the PDF, and the difference depends on the DPI); vector surfaces do not. The
    one SVG value that turns the rounding off, text-rendering="geometricPrecision", also asks for
    ANTIALIAS_BEST, which garbles glyph outlines in CairoSVG 2.9 with cairo 1.16. So "no
    text-rendering" is made to mean "hint metrics off" in CairoSVG's own lookup table: one
    process-wide, idempotent setting, like FONTCONFIG_FILE.
    """
    import cairocffi
    from cairosvg import surface

    table = getattr(surface, "TEXT_HINT_METRICS", None)
    if not isinstance(table, dict):
        raise FontError("this CairoSVG has no TEXT_HINT_METRICS table; text would not match its measure")
    table[None] = cairocffi.HINT_METRICS_OFF


def fontconfig_files() -> tuple[str, ...]:
    """The font files this process's fontconfig offers (to cairo and pango), sorted.

    Asks the fontconfig library already loaded in the process, so it shows what cairo really
    sees; initialises fontconfig if nothing has yet.
    """
    name = ctypes.util.find_library("fontconfig") or "libfontconfig.so.1"
    lib = ctypes.CDLL(name)
    lib.FcConfigGetCurrent.restype = ctypes.c_void_p
    lib.FcConfigGetFonts.restype = ctypes.POINTER(_FcFontSet)
    lib.FcConfigGetFonts.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.FcPatternGetString.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_char_p),
    ]
    fonts = lib.FcConfigGetFonts(lib.FcConfigGetCurrent(), 0)  # FcSetSystem
    files = []
    if fonts:
        for i in range(fonts.contents.nfont):
            value = ctypes.c_char_p()
            if lib.FcPatternGetString(fonts.contents.fonts[i], b"file", 0, ctypes.byref(value)) == 0:
                files.append(os.fsdecode(value.value))
    return tuple(sorted(files))


def isolation_problems(registry: FontRegistry) -> list[str]:
    """Font files fontconfig offers in this process that are not shipped ones (empty: isolated)."""
    shipped = {str(p) for font in registry.fonts.values() for p in font.faces.values()}
    return [f for f in fontconfig_files() if str(Path(f).resolve()) not in shipped]


class _FcFontSet(ctypes.Structure):
    _fields_ = (
        ("nfont", ctypes.c_int),
        ("sfont", ctypes.c_int),
        ("fonts", ctypes.POINTER(ctypes.c_void_p)),
    )
