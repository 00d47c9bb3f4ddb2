"""`fonts/fonts.yaml`: each shipped family with one file per face, its licence and source,
checked against the files (a face file must be the weight and style it is listed as, and every
font file fontconfig would scan must be listed)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..fonts.registry import BOLD_FROM, FONTS_FILE, GENERIC_FAMILIES, SLOTS, Font, FontRegistry, family_key
from ..model import frozen_map
from ..safety.limits import MAX_FONT_BYTES
from ..source import SourceError, YMap, load
from .common import check_keys, check_slug, describe, expect_map, get_str

FONT_KEYS = ("family", "use", "faces", "licence", "source", "note")
FONT_SUFFIXES = (".otf", ".ttf")
# Anything fontconfig would load from the folder; each must be listed in fonts.yaml.
SCANNED_SUFFIXES = (*FONT_SUFFIXES, ".ttc", ".otc", ".pfa", ".pfb", ".pcf", ".woff", ".woff2")


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
        key = family_key(font.family)
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
    if family_key(family) not in {family_key(n) for n in names}:
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
