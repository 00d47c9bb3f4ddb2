"""Which file cairo really draws for each shipped face.

CairoSVG asks cairo for (family, weight, slant); cairo asks fontconfig, which ranks the
language of the locale above the weight. A face whose file covers too few characters for that
language (EB Garamond 12's Bold covers ASCII only) loses to the family's regular face: the card
then prints regular where the style asked for bold, silently. This module asks fontconfig the
same question cairo asks, with the same configuration, so such a face is an error naming the
faces that do draw, instead of a surprise on paper.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Mapping
from pathlib import Path

from .fontconfig import write_fontconfig
from .registry import SLOTS, FontRegistry

# cairo's toy font API -> fontconfig: a normal weight is FC_WEIGHT_MEDIUM, bold FC_WEIGHT_BOLD;
# roman and italic slants (cairo-ft-font.c, _cairo_ft_font_face_create_for_toy).
_FC_WEIGHT = {"regular": 100, "bold": 200}
_FC_SLANT = {"normal": 0, "italic": 100}
_FC_MATCH_PATTERN = 0


def _lib():
    lib = ctypes.CDLL(ctypes.util.find_library("fontconfig") or "libfontconfig.so.1")
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    for name, res, args in (
        ("FcConfigCreate", vp, []),
        ("FcConfigParseAndLoad", ctypes.c_int, [vp, cp, ctypes.c_int]),
        ("FcConfigBuildFonts", ctypes.c_int, [vp]),
        ("FcConfigDestroy", None, [vp]),
        ("FcPatternCreate", vp, []),
        ("FcPatternDestroy", None, [vp]),
        ("FcPatternAddString", ctypes.c_int, [vp, cp, cp]),
        ("FcPatternAddInteger", ctypes.c_int, [vp, cp, ctypes.c_int]),
        ("FcConfigSubstitute", ctypes.c_int, [vp, vp, ctypes.c_int]),
        ("FcDefaultSubstitute", None, [vp]),
        ("FcFontMatch", vp, [vp, vp, ctypes.POINTER(ctypes.c_int)]),
        ("FcPatternGetString", ctypes.c_int, [vp, cp, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]),
    ):
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


def drawn_files(registry: FontRegistry, cache_dir: Path) -> Mapping[tuple[str, str], Path | None]:
    """(font id, face slot) -> the file fontconfig gives cairo for it, with the configuration
    `fontconfig.activate` uses (written to `cache_dir`); None when nothing matches."""
    conf = write_fontconfig(registry, cache_dir)
    try:
        lib = _lib()
    except OSError:  # no fontconfig library: nothing to compare (nothing could draw either)
        return {}
    config = lib.FcConfigCreate()
    found: dict[tuple[str, str], Path | None] = {}
    try:
        if not lib.FcConfigParseAndLoad(config, os.fsencode(conf), 1) or not lib.FcConfigBuildFonts(config):
            return {}
        for font in registry.fonts.values():
            for slot in font.faces:
                weight, style = SLOTS[slot]
                pattern = lib.FcPatternCreate()
                lib.FcPatternAddString(pattern, b"family", font.family.encode())
                lib.FcPatternAddInteger(pattern, b"weight", _FC_WEIGHT[weight])
                lib.FcPatternAddInteger(pattern, b"slant", _FC_SLANT[style])
                lib.FcConfigSubstitute(config, pattern, _FC_MATCH_PATTERN)
                lib.FcDefaultSubstitute(pattern)
                result = ctypes.c_int()
                match = lib.FcFontMatch(config, pattern, ctypes.byref(result))
                lib.FcPatternDestroy(pattern)
                value = ctypes.c_char_p()
                path = None
                if match and lib.FcPatternGetString(match, b"file", 0, ctypes.byref(value)) == 0:
                    path = Path(os.fsdecode(value.value))
                if match:
                    lib.FcPatternDestroy(match)
                found[(font.id, slot)] = path
    finally:
        lib.FcConfigDestroy(config)
    return found


def undrawable(registry: FontRegistry, cache_dir: Path) -> dict[tuple[str, str], str]:
    """Faces cairo would draw with another file: (font id, slot) -> the file it draws instead."""
    problems = {}
    for (font_id, slot), path in drawn_files(registry, cache_dir).items():
        wanted = registry.fonts[font_id].faces[slot]
        if path is None or path.resolve() != wanted.resolve():
            problems[(font_id, slot)] = path.name if path is not None else "no file"
    return problems
