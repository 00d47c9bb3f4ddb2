"""A fontconfig setup that lets cairo see the shipped fonts and no others.

CairoSVG asks fontconfig for a family by name and, when the name is unknown, fontconfig quietly
hands back whatever the machine has: the same card then prints differently on two computers, and
every measurement made for it is wrong. So `activate` writes a fontconfig configuration naming
only the shipped folder and points FONTCONFIG_FILE at it, before cairo first loads a font.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from ..writer import Writer
from . import cairotext
from .registry import FontError, FontRegistry

FONTCONFIG_ENV = "FONTCONFIG_FILE"
FONTCONFIG_NAME = "fonts.conf"


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
