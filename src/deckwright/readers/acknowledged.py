"""`acknowledged.yaml`: editor's-check findings an editor has accepted, each with a reason.

    acknowledged:
      - kind: lint
        key: "cut-off card:j6-the-merciful.text"
        reason: "The seed is cut off here; the designer supplies the sentence before the reprint."

A finding is named by its kind and its key (shown in brackets after every finding), never by a
line number, so an acknowledgement survives edits elsewhere in the file.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import Acknowledgement
from ..source import SourceError, load
from .common import check_keys, expect_list, expect_map, get_str

ACKNOWLEDGED_FILE = "acknowledged.yaml"
ENTRY_KEYS = ("kind", "key", "reason", "note")


def read_acknowledged(folder: Path, diags: Diagnostics, display) -> tuple[Acknowledgement, ...]:
    """The acknowledgements of a game folder; none when it has no acknowledged.yaml."""
    path = folder / ACKNOWLEDGED_FILE
    if not path.is_file():
        return ()
    shown = display(path)
    try:
        doc = load(path, shown)
    except SourceError as exc:
        diags.error(exc.loc, exc.message)
        return ()
    top = expect_map(doc, Loc(shown), "acknowledged.yaml's top level", diags)
    if top is None:
        return ()
    check_keys(top, ACKNOWLEDGED_FILE, ("acknowledged", "note"), diags, required=("acknowledged",))
    items = expect_list(top.get("acknowledged"), top.loc_of("acknowledged"), "acknowledged", diags)
    entries = []
    seen: dict[tuple[str, str], Loc] = {}
    for i, raw in enumerate(items or []):
        what = f"acknowledgement #{i + 1}"
        m = expect_map(raw, items.loc_of(i), what, diags)
        if m is None:
            continue
        check_keys(m, what, ENTRY_KEYS, diags)
        kind = get_str(m, "kind", what, diags)
        key = get_str(m, "key", what, diags)
        reason = get_str(m, "reason", what, diags)
        if kind is None or key is None or reason is None:
            continue
        if (kind, key) in seen:
            diags.error(m.loc, f"{what}: {kind} {key!r} is acknowledged twice (first at {seen[kind, key]})")
            continue
        seen[kind, key] = m.loc
        entries.append(Acknowledgement(kind=kind, key=key, reason=reason, loc=m.loc))
    return tuple(entries)
