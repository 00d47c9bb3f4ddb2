"""Field specifications: the schema of card fields and table columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import FIELD_TYPES, FieldSpec
from ..source import YList, YMap
from .common import check_keys, describe, expect_map, get_bool, to_value

SPEC_KEYS = (
    "type",
    "title",
    "required",
    "default",
    "enum",
    "values",
    "to",
    "of",
    "min",
    "max",
    "min_items",
    "max_items",
    "symmetric",
)


def _names(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, YList) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _optional_int(m: YMap, key: str, what: str, diags: Diagnostics) -> int | None:
    if key not in m:
        return None
    value = m[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    diags.error(m.loc_of(key), f"{what}: {key!r} must be a whole number, not {describe(value)}")
    return None


def read_field_spec(
    name: str,
    raw: Any,
    enums: Mapping[str, tuple[str, ...]],
    diags: Diagnostics,
    what: str,
    loc: Loc,
    allow_expr: bool = False,
) -> FieldSpec | None:
    """Parse `{type: ..., ...}`; a bare string is shorthand for `{type: <string>}`."""
    if isinstance(raw, str):
        shorthand = YMap(loc)
        shorthand["type"] = raw
        shorthand.value_locs["type"] = loc
        raw = shorthand
    m = expect_map(raw, loc, f"{what} {name!r}", diags)
    if m is None:
        return None
    label = f"{what} {name!r}"
    allowed = (*SPEC_KEYS, "expr") if allow_expr else SPEC_KEYS
    check_keys(m, label, allowed, diags, required=("type",))
    ftype = m.get("type")
    if ftype not in FIELD_TYPES:
        diags.error(
            m.loc_of("type"),
            f"{label}: type {ftype!r} is not one of {', '.join(FIELD_TYPES)}",
        )
        return None

    values: tuple[str, ...] = ()
    if ftype == "enum":
        if "enum" in m:
            enum_name = m["enum"]
            if enum_name not in enums:
                known = ", ".join(sorted(enums)) or "none declared"
                diags.error(m.loc_of("enum"), f"{label}: no enum {enum_name!r} ({known})")
            else:
                values = enums[enum_name]
        elif "values" in m:
            values = _names(m["values"]) or ()
            if not values:
                diags.error(m.loc_of("values"), f"{label}: 'values' must be a list of names")
        else:
            diags.error(m.loc, f"{label}: an enum field needs 'enum' or 'values'")

    to: tuple[str, ...] = ()
    if ftype == "ref":
        to = _names(m.get("to")) or ()
        if not to:
            diags.error(m.loc_of("to"), f"{label}: a ref field needs 'to: <card type>'")

    of = None
    if ftype == "list":
        if "of" in m:
            of = read_field_spec(f"{name}[]", m["of"], enums, diags, what, m.loc_of("of"))
        else:
            diags.error(m.loc, f"{label}: a list field needs 'of: <item spec>'")

    expr = m.get("expr") if allow_expr else None
    if expr is not None and not isinstance(expr, str):
        diags.error(m.loc_of("expr"), f"{label}: 'expr' must be an expression in text")
        expr = None

    has_default = "default" in m
    return FieldSpec(
        name=name,
        type=ftype,
        loc=m.loc,
        required=get_bool(m, "required", label, diags, default=not has_default and expr is None),
        default=to_value(m.get("default"), m.loc_of("default"), diags),
        has_default=has_default,
        values=values,
        to=to,
        of=of,
        min=_optional_int(m, "min", label, diags),
        max=_optional_int(m, "max", label, diags),
        min_items=_optional_int(m, "min_items", label, diags),
        max_items=_optional_int(m, "max_items", label, diags),
        symmetric=get_bool(m, "symmetric", label, diags),
        expr=expr,
        title=m.get("title") if isinstance(m.get("title"), str) else None,
    )


def read_field_specs(
    raw: Any,
    enums: Mapping[str, tuple[str, ...]],
    diags: Diagnostics,
    what: str,
    loc: Loc,
    allow_expr: bool = False,
    reserved: tuple[str, ...] = (),
) -> dict[str, FieldSpec]:
    m = expect_map(raw, loc, what, diags)
    if m is None:
        return {}
    specs: dict[str, FieldSpec] = {}
    for name, spec_raw in m.items():
        if name in reserved:
            diags.error(m.key_loc(name), f"{what}: {name!r} is a standard key; do not declare it")
            continue
        spec = read_field_spec(name, spec_raw, enums, diags, what, m.loc_of(name), allow_expr)
        if spec is not None:
            specs[name] = spec
    return specs
