"""TEMPORARY (issue 16): the press part of the print-services model, until the lead's
`model.Service`/`model.PressSpec` and `ctx.services` (read from layouts/services.yaml) land.

The dataclass is the one the lead specified; `read_press_services` reads only what the press
PDFs need from layouts/services.yaml (each service's `title`, `dpi` and `press:` block) and
ignores the rest of the file (the lead's `products:`). On merge: delete this module and use
`ctx.services` (services whose `press` is not None) in outputs/press.py and the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostics, Loc
from .readers.common import expect_map
from .source import SourceError, load
from .units import UnitError, to_points

PAGE_ORDERS = ("back-front", "front-back", "fronts-then-backs")
COLOURS = ("rgb", "cmyk")
PRESS_KEYS = ("page_order", "bleed", "colour", "ink_limit", "icc", "note")


@dataclass(frozen=True, slots=True)
class PressSpec:  # a service's press-PDF rules, from services.yaml `press:`
    page_order: str  # "back-front" | "front-back" | "fronts-then-backs"
    bleed: float  # points (1/8 in = 9.0)
    colour: str  # "rgb" | "cmyk"
    ink_limit: int | None  # total area coverage in percent, e.g. 240
    icc: str | None  # profile file name, None = deckwright's default


@dataclass(frozen=True, slots=True)
class PressService:
    id: str
    title: str
    dpi: int
    press: PressSpec | None
    loc: Loc


def read_press_services(folder: Path, diags: Diagnostics, display) -> Mapping[str, PressService]:
    path = folder / "services.yaml"
    if not path.is_file():
        return {}
    try:
        doc = load(path, display(path))
    except SourceError as exc:
        diags.error(Loc(display(path)), str(exc))
        return {}
    top = expect_map(doc, Loc(display(path)), "services file", diags)
    if top is None or "services" not in top:
        return {}
    entries = expect_map(top["services"], top.loc_of("services"), "services", diags) or {}
    found = {}
    for service_id, spec in entries.items():
        loc = entries.loc_of(service_id)
        m = expect_map(spec, loc, f"service {service_id!r}", diags)
        if m is None:
            continue
        press = _press(service_id, m["press"], m.loc_of("press"), diags) if "press" in m else None
        title = str(m["title"]) if "title" in m else service_id
        dpi = m["dpi"] if isinstance(m.get("dpi"), int) else 300
        found[str(service_id)] = PressService(str(service_id), title, dpi, press, loc)
    return found


def _press(service_id: str, spec, loc: Loc, diags: Diagnostics) -> PressSpec | None:
    what = f"service {service_id!r}: press"
    m = expect_map(spec, loc, what, diags)
    if m is None:
        return None
    unknown = [k for k in m if k not in PRESS_KEYS]
    if unknown:
        diags.error(m.key_loc(unknown[0]), f"{what}: unknown key {unknown[0]!r} ({', '.join(PRESS_KEYS)})")
        return None
    order = str(m.get("page_order", "front-back"))
    colour = str(m.get("colour", "rgb"))
    if order not in PAGE_ORDERS:
        diags.error(m.loc_of("page_order"), f"{what}: page_order must be one of {', '.join(PAGE_ORDERS)}")
        return None
    if colour not in COLOURS:
        diags.error(m.loc_of("colour"), f"{what}: colour must be rgb or cmyk")
        return None
    try:
        bleed = to_points(m.get("bleed", "1/8in"))
    except UnitError as exc:
        diags.error(m.loc_of("bleed"), f"{what}: bleed: {exc}")
        return None
    limit = m.get("ink_limit")
    if limit is not None and (not isinstance(limit, int) or not 100 <= limit <= 400):
        diags.error(m.loc_of("ink_limit"), f"{what}: ink_limit is a total ink coverage in percent (100-400)")
        return None
    icc = m.get("icc")
    return PressSpec(order, bleed, colour, limit, str(icc) if icc is not None else None)
