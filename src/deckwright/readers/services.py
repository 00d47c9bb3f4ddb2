"""`layouts/services.yaml`: print services as data — what each calls a layout, and what it takes.

```yaml
services:
  tgc:
    title: The Game Crafter
    dpi: 300
    products:
      poker: {product: PokerDeck, pixels: [825, 1125]}
  drivethrucards:
    title: DriveThruCards
    dpi: 300
    press: {page_order: back-front, bleed: 1/8in, colour: cmyk, ink_limit: 240}
    products:
      poker: {product: Poker card}
```
Any `layouts/*.yaml` file may hold a `services:` block. Products are checked against the layouts
(a product for a layout that does not exist is an error); pixels are whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import Layout, PressSpec, Service, ServiceProduct, frozen_map
from ..source import YList, YMap
from ..units import UnitError, to_points
from .catalog_files import catalog_entries
from .common import check_keys, expect_map

SERVICE_KEYS = ("title", "dpi", "products", "press", "note")
PRODUCT_KEYS = ("product", "pixels", "note")
PRESS_KEYS = ("page_order", "bleed", "colour", "ink_limit", "icc", "note")
PAGE_ORDERS = ("back-front", "front-back", "fronts-then-backs")
COLOURS = ("rgb", "cmyk")


def read_services(
    documents: list[YMap], layouts: Mapping[str, Layout], diags: Diagnostics
) -> dict[str, Service]:
    """Every print service declared under `services:` in the layouts/ files."""
    services: dict[str, Service] = {}
    for service_id, spec, loc in catalog_entries(documents, "services", "service", diags):
        service = _service(service_id, spec, loc, layouts, diags)
        if service is not None:
            services[service_id] = service
    return services


def _service(
    service_id: str, spec: Any, loc: Loc, layouts: Mapping[str, Layout], diags: Diagnostics
) -> Service | None:
    what = f"service {service_id!r}"
    m = expect_map(spec, loc, what, diags)
    if m is None or not check_keys(m, what, SERVICE_KEYS, diags, required=("title", "dpi", "products")):
        return None
    dpi = m["dpi"]
    if not (isinstance(dpi, int) and 72 <= dpi <= 2400):
        diags.error(m.loc_of("dpi"), f"{what}: dpi must be a whole number from 72 to 2400")
        return None
    products = expect_map(m["products"], m.loc_of("products"), f"{what}: products", diags)
    found: dict[str, ServiceProduct] = {}
    for layout_id, raw in (products or {}).items():
        where = products.loc_of(layout_id)
        product = _product(f"{what}: product for {layout_id!r}", layout_id, raw, where, diags)
        if product is None:
            continue
        if layout_id not in layouts:
            known = ", ".join(layouts) or "none"
            diags.error(products.key_loc(layout_id), f"{what}: no layout {layout_id!r} (layouts: {known})")
            continue
        found[layout_id] = product
    press = _press(what, m["press"], m.loc_of("press"), diags) if "press" in m else None
    if "press" in m and press is None:
        return None
    return Service(service_id, str(m["title"]), dpi, frozen_map(found), press, m.loc)


def _product(what: str, layout_id: str, raw: Any, loc: Loc, diags: Diagnostics) -> ServiceProduct | None:
    m = expect_map(raw, loc, what, diags)
    if m is None or not check_keys(m, what, PRODUCT_KEYS, diags, required=("product",)):
        return None
    pixels = None
    if "pixels" in m:
        value = m["pixels"]
        if not (isinstance(value, YList) and len(value) == 2 and all(_positive_int(v) for v in value)):
            diags.error(m.loc_of("pixels"), f"{what}: pixels must be [width, height] in whole pixels")
            return None
        pixels = (value[0], value[1])
    return ServiceProduct(layout_id, str(m["product"]), pixels, m.loc)


def _press(what: str, raw: Any, loc: Loc, diags: Diagnostics) -> PressSpec | None:
    what = f"{what}: press"
    m = expect_map(raw, loc, what, diags)
    if m is None or not check_keys(m, what, PRESS_KEYS, diags, required=("page_order", "bleed", "colour")):
        return None
    problems = len(diags.errors)
    if m["page_order"] not in PAGE_ORDERS:
        diags.error(m.loc_of("page_order"), f"{what}: page_order must be one of {', '.join(PAGE_ORDERS)}")
    if m["colour"] not in COLOURS:
        diags.error(m.loc_of("colour"), f"{what}: colour must be one of {', '.join(COLOURS)}")
    ink = m.get("ink_limit")
    if ink is not None and not (isinstance(ink, int) and 100 <= ink <= 400):
        diags.error(m.loc_of("ink_limit"), f"{what}: ink_limit is a percentage from 100 to 400")
    try:
        bleed = to_points(m["bleed"])
    except UnitError as exc:
        diags.error(m.loc_of("bleed"), f"{what}: bleed: {exc}")
        bleed = 0.0
    if len(diags.errors) > problems:
        return None
    icc = m.get("icc")
    return PressSpec(m["page_order"], bleed, m["colour"], ink, None if icc is None else str(icc), m.loc)


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
