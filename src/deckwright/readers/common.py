"""Small helpers every reader uses to check the shape of raw YAML."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..model import SLUG, Unknown
from ..source import YList, YMap

COLUMN = re.compile(r"^[a-z][a-z0-9_]*$")


def describe(value: Any) -> str:
    if isinstance(value, YMap | dict):
        return "a mapping"
    if isinstance(value, YList | list):
        return "a list"
    if isinstance(value, bool):
        return f"the boolean {value}"
    if value is None:
        return "nothing (null)"
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"the text {str(value)[:40]!r}"


def check_keys(
    m: YMap,
    what: str,
    allowed: Iterable[str],
    diags: Diagnostics,
    required: Iterable[str] = (),
) -> bool:
    """Report unknown keys (listing the accepted ones) and missing required keys."""
    allowed = tuple(allowed)
    ok = True
    for key in m:
        if key not in allowed:
            accepted = ", ".join(allowed)
            diags.error(m.key_loc(key), f"unknown key {key!r} in {what} (accepted: {accepted})")
            ok = False
    for key in required:
        if key not in m:
            diags.error(m.loc, f"{what} is missing required key {key!r}")
            ok = False
    return ok


def expect_map(value: Any, loc: Loc, what: str, diags: Diagnostics) -> YMap | None:
    if isinstance(value, YMap):
        return value
    diags.error(loc, f"{what} must be a mapping, not {describe(value)}")
    return None


def expect_list(value: Any, loc: Loc, what: str, diags: Diagnostics) -> YList | None:
    if isinstance(value, YList):
        return value
    diags.error(loc, f"{what} must be a list, not {describe(value)}")
    return None


def get_str(m: YMap, key: str, what: str, diags: Diagnostics, required: bool = True) -> str | None:
    if key not in m:
        if required:
            diags.error(m.loc, f"{what} is missing required key {key!r}")
        return None
    value = m[key]
    if isinstance(value, str) and value.strip():
        return value
    diags.error(m.loc_of(key), f"{what}: {key!r} must be non-empty text, not {describe(value)}")
    return None


def get_int(m: YMap, key: str, what: str, diags: Diagnostics) -> int | None:
    value = m.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    diags.error(m.loc_of(key), f"{what}: {key!r} must be a whole number, not {describe(value)}")
    return None


def get_bool(m: YMap, key: str, what: str, diags: Diagnostics, default: bool = False) -> bool:
    if key not in m:
        return default
    value = m[key]
    if isinstance(value, bool):
        return value
    diags.error(m.loc_of(key), f"{what}: {key!r} must be true or false, not {describe(value)}")
    return default


def check_slug(value: Any, loc: Loc, what: str, diags: Diagnostics) -> bool:
    if isinstance(value, str) and SLUG.match(value):
        return True
    diags.error(loc, f"{what} {value!r} must be a slug: lower-case letters and digits joined by '-'")
    return False


def is_unknown_marker(raw: Any) -> bool:
    return isinstance(raw, YMap) and list(raw) == ["unknown"]


def to_value(raw: Any, loc: Loc, diags: Diagnostics) -> Any:
    """Raw YAML value -> model value: `{unknown: note}` becomes Unknown, lists are tuples."""
    if is_unknown_marker(raw):
        note = raw["unknown"]
        if not isinstance(note, str) or not note.strip():
            diags.error(raw.loc_of("unknown"), "an unknown value needs a note of what is missing")
            note = ""
        return Unknown(note, loc)
    if isinstance(raw, YMap) and "unknown" in raw:
        diags.error(raw.loc, 'an unknown value is written {unknown: "note"} with no other keys')
    if isinstance(raw, YList):
        return tuple(to_value(v, raw.loc_of(i), diags) for i, v in enumerate(raw))
    return raw
