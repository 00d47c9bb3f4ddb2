"""`checks:` — the count and table rules a game declares for the validator."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Check
from ..source import YMap
from .common import check_keys, check_slug, expect_list, expect_map, get_str

CHECK_KEYS = ("id", "expect", "message", "for", "severity", "note")


def read_checks(doc: YMap, diags: Diagnostics) -> list[Check]:
    check_keys(doc, "checks file", ("checks", "note"), diags, required=("checks",))
    items = expect_list(doc.get("checks"), doc.loc_of("checks"), "checks", diags)
    checks = []
    for i, raw in enumerate(items or []):
        m = expect_map(raw, items.loc_of(i), f"check #{i + 1}", diags)
        if m is None:
            continue
        what = f"check #{i + 1}"
        check_keys(m, what, CHECK_KEYS, diags, required=("id", "expect", "message"))
        check_id = get_str(m, "id", what, diags)
        expect = get_str(m, "expect", what, diags)
        message = get_str(m, "message", what, diags)
        iterate = get_str(m, "for", what, diags, required=False)
        severity = m.get("severity", "error")
        if severity not in ("error", "warning"):
            diags.error(m.loc_of("severity"), f"{what}: severity must be 'error' or 'warning'")
            severity = "error"
        if check_id is None or expect is None or message is None:
            continue
        check_slug(check_id, m.loc_of("id"), "check id", diags)
        checks.append(
            Check(
                id=check_id,
                expect=expect,
                message=message,
                loc=m.loc,
                iterate=iterate,
                severity=severity,
                expect_loc=m.loc_of("expect"),
            )
        )
    return checks
