"""`layouts/*.yaml`: product sizes shared by every game, with `extends` for variants."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import Layout
from ..source import YList, YMap
from ..units import UnitError, to_points
from .catalog_files import catalog_entries
from .common import check_keys, expect_map

LAYOUT_KEYS = ("title", "kind", "trim", "bleed", "safe", "corner_radius", "extends", "note")
KINDS = ("card", "token", "board")


def read_layouts(documents: list[YMap], diags: Diagnostics) -> dict[str, Layout]:
    """Every layout declared under `layouts:` in the layouts/ files, `extends` resolved."""
    raw: dict[str, YMap] = {}
    for layout_id, spec, loc in catalog_entries(documents, "layouts", "layout", diags):
        spec_map = expect_map(spec, loc, f"layout {layout_id!r}", diags)
        if spec_map is not None:
            check_keys(spec_map, f"layout {layout_id!r}", LAYOUT_KEYS, diags)
            raw[layout_id] = spec_map
    layouts = {}
    for layout_id in raw:
        merged = _merged(layout_id, raw, diags, ())
        if merged is not None:
            layout = _build(layout_id, merged, raw[layout_id].loc, diags)
            if layout is not None:
                layouts[layout_id] = layout
    return layouts


def _merged(layout_id: str, raw: dict[str, YMap], diags: Diagnostics, chain: tuple) -> dict | None:
    spec = raw[layout_id]
    parent = spec.get("extends")
    if parent is None:
        return {k: (v, spec.loc_of(k)) for k, v in spec.items()}
    if parent not in raw:
        diags.error(spec.loc_of("extends"), f"layout {layout_id!r} extends unknown layout {parent!r}")
        return None
    if parent in chain or parent == layout_id:
        diags.error(spec.loc_of("extends"), f"layout {layout_id!r}: extends forms a cycle")
        return None
    base = _merged(parent, raw, diags, (*chain, layout_id))
    if base is None:
        return None
    base.update({k: (v, spec.loc_of(k)) for k, v in spec.items() if k != "extends"})
    return base


def _length(entry: tuple[Any, Loc] | None, what: str, diags: Diagnostics) -> float | None:
    if entry is None:
        return None
    value, loc = entry
    try:
        return to_points(value)
    except UnitError as exc:
        diags.error(loc, f"{what}: {exc}")
        return None


def _build(layout_id: str, m: dict, loc: Loc, diags: Diagnostics) -> Layout | None:
    what = f"layout {layout_id!r}"
    for key in ("title", "kind", "trim", "bleed", "safe"):
        if key not in m:
            diags.error(loc, f"{what} is missing {key!r}")
            return None
    kind, kind_loc = m["kind"]
    if kind not in KINDS:
        diags.error(kind_loc, f"{what}: kind must be one of {', '.join(KINDS)}")
        return None
    trim, trim_loc = m["trim"]
    if not (isinstance(trim, YList) and len(trim) == 2):
        diags.error(trim_loc, f"{what}: trim must be [width, height]")
        return None
    width = _length((trim[0], trim_loc), what, diags)
    height = _length((trim[1], trim_loc), what, diags)
    bleed = _length(m["bleed"], what, diags)
    safe = _length(m["safe"], what, diags)
    radius = _length(m.get("corner_radius", (0, loc)), what, diags)
    if None in (width, height, bleed, safe, radius):
        return None
    if width <= 0 or height <= 0 or bleed < 0 or safe < 0:
        diags.error(trim_loc, f"{what}: sizes must be positive")
        return None
    return Layout(
        id=layout_id,
        title=m["title"][0],
        kind=kind,
        width=width,
        height=height,
        bleed=bleed,
        safe=safe,
        corner_radius=radius,
        loc=loc,
    )
