"""A table's `editor:` declaration: what the editor's check (`deckwright check`) reads it as.

    editor:
      errata: {printed: printed_text, current: draft5_text, kind: change_kind}   # the errata table
      about: subject            # each row's texts speak about the cards in this column
      limit: {...}              # a quantity cards add to, and what bounds it

Column roles default to columns of the same name, so a table whose columns are already called
`card`, `cards`, `numbers`, `printed`, `current` and `kind` declares just `errata: {}`. Columns
are checked here; card types and fields are checked when the check runs (cards come later).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import EditorSpec, ErrataSpec, FieldSpec, LimitBound, LimitSpec, frozen_map
from ..source import YList, YMap
from .common import check_keys, describe, expect_list, expect_map, get_str

EDITOR_KEYS = ("errata", "about", "limit", "note")
ERRATA_ROLES = ("card", "cards", "numbers", "printed", "current", "kind")
ERRATA_KEYS = (*ERRATA_ROLES, "reference", "markers", "remark_kinds", "note")
LIMIT_KEYS = ("quantity", "cards", "contributions", "at_most", "exclusive", "bounds", "note")
BOUND_KEYS = ("what", "type", "card", "field", "note")


def read_editor(
    raw: Any, loc: Loc, columns: Mapping[str, FieldSpec], what: str, diags: Diagnostics
) -> EditorSpec | None:
    m = expect_map(raw, loc, f"{what}: editor", diags)
    if m is None:
        return None
    label = f"{what}: editor"
    check_keys(m, label, EDITOR_KEYS, diags)
    errata = _errata(m["errata"], m.loc_of("errata"), columns, label, diags) if "errata" in m else None
    about = None
    if "about" in m:
        about = get_str(m, "about", label, diags)
        spec = columns.get(about) if about else None
        if about is not None and not _is_ref_column(spec):
            diags.error(m.loc_of("about"), f"{label}: about names {about!r}, which is no ref column")
            about = None
    limit = _limit(m["limit"], m.loc_of("limit"), columns, label, diags) if "limit" in m else None
    return EditorSpec(loc=m.loc, errata=errata, about=about, limit=limit)


def _is_ref_column(spec: FieldSpec | None) -> bool:
    if spec is None:
        return False
    return spec.type == "ref" or (spec.type == "list" and spec.of is not None and spec.of.type == "ref")


def _strings(m: YMap, key: str, label: str, diags: Diagnostics) -> tuple[str, ...]:
    if key not in m:
        return ()
    value = m[key]
    if isinstance(value, str):
        return (value,)
    if isinstance(value, YList) and all(isinstance(v, str) for v in value):
        return tuple(value)
    diags.error(m.loc_of(key), f"{label}: {key!r} must be text or a list of texts, not {describe(value)}")
    return ()


def _errata(
    raw: Any, loc: Loc, columns: Mapping[str, FieldSpec], label: str, diags: Diagnostics
) -> ErrataSpec | None:
    label = f"{label}.errata"
    m = expect_map(raw, loc, label, diags)
    if m is None:
        return None
    check_keys(m, label, ERRATA_KEYS, diags)
    roles: dict[str, str] = {}
    for role in ERRATA_ROLES:
        if role in m:
            column = m[role]
            if not isinstance(column, str) or column not in columns:
                known = ", ".join(columns)
                diags.error(m.loc_of(role), f"{label}: {role} names no column {column!r} (columns: {known})")
                continue
            roles[role] = column
        elif role in columns:
            roles[role] = role
    ok = True
    for role in ("printed", "current"):
        if role not in roles:
            diags.error(m.loc, f"{label}: no {role!r} column (name it: {role}: <column>)")
            ok = False
    if "card" not in roles and "cards" not in roles:
        diags.error(m.loc, f"{label}: no 'card' or 'cards' column says which card a row is about")
        ok = False
    reference = m.get("reference", "text")
    if not isinstance(reference, str):
        diags.error(m.loc_of("reference"), f"{label}: reference must be a card field name")
        ok = False
    if not ok:
        return None
    return ErrataSpec(
        columns=frozen_map(roles),
        reference=reference,
        markers=_strings(m, "markers", label, diags),
        remark_kinds=_strings(m, "remark_kinds", label, diags),
        loc=m.loc,
    )


def _limit(
    raw: Any, loc: Loc, columns: Mapping[str, FieldSpec], label: str, diags: Diagnostics
) -> LimitSpec | None:
    label = f"{label}.limit"
    m = expect_map(raw, loc, label, diags)
    if m is None:
        return None
    check_keys(m, label, LIMIT_KEYS, diags, required=("quantity", "contributions", "bounds"))
    quantity = get_str(m, "quantity", label, diags)
    cards = m.get("cards", "cards")
    ok = quantity is not None
    if not _is_ref_column(columns.get(cards) if isinstance(cards, str) else None):
        diags.error(m.loc_of("cards"), f"{label}: cards names {cards!r}, which is no ref column")
        ok = False
    contributions = _strings(m, "contributions", label, diags)
    for column in contributions:
        spec = columns.get(column)
        if spec is None or spec.type != "int":
            diags.error(m.loc_of("contributions"), f"{label}: contribution {column!r} is no int column")
            ok = False
    if not contributions:
        ok = False
    at_most: dict[str, int | str] = {}
    if "at_most" in m:
        limits = expect_map(m["at_most"], m.loc_of("at_most"), f"{label}: at_most", diags)
        for type_id, value in (limits or {}).items():
            if isinstance(value, bool) or not isinstance(value, int | str):
                diags.error(
                    limits.loc_of(type_id),
                    f"{label}: at_most.{type_id} must be a number or an expression, not {describe(value)}",
                )
                ok = False
            else:
                at_most[type_id] = value
    exclusive = m.get("exclusive")
    if exclusive is not None and not isinstance(exclusive, str):
        diags.error(m.loc_of("exclusive"), f"{label}: exclusive must be a card field name")
        ok = False
    bounds = _bounds(m, label, diags)
    if not ok or bounds is None:
        return None
    return LimitSpec(
        quantity=quantity,
        cards=cards,
        contributions=contributions,
        at_most=frozen_map(at_most),
        exclusive=exclusive,
        bounds=bounds,
        loc=m.loc,
    )


def _bounds(m: YMap, label: str, diags: Diagnostics) -> tuple[LimitBound, ...] | None:
    items = expect_list(m.get("bounds"), m.loc_of("bounds"), f"{label}: bounds", diags)
    if not items:
        if items is not None:
            diags.error(m.loc_of("bounds"), f"{label}: bounds needs at least one bound")
        return None
    bounds = []
    for i, raw in enumerate(items):
        what = f"{label}: bound {i + 1}"
        b = expect_map(raw, items.loc_of(i), what, diags)
        if b is None:
            return None
        check_keys(b, what, BOUND_KEYS, diags, required=("what", "field"))
        name = get_str(b, "what", what, diags)
        field = get_str(b, "field", what, diags)
        type_id = b.get("type")
        card_id = b.get("card")
        if (type_id is None) == (card_id is None):
            diags.error(b.loc, f"{what} names exactly one of 'type' (its cards' smallest value) or 'card'")
            return None
        if name is None or field is None:
            return None
        bounds.append(LimitBound(what=name, field=field, loc=b.loc, type=type_id, card=card_id))
    return tuple(bounds)
