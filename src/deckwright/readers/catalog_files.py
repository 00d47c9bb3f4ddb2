"""The files of `layouts/`: each may hold any of the catalogue's blocks — `layouts:`, `papers:`,
`services:` — and their entries are read the same way whichever block they are in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..source import SourceError, YMap, load
from .common import check_keys, check_slug, expect_map

CATALOG_FILE_KEYS = ("layouts", "papers", "services", "note")


def catalog_documents(folder: Path, diags: Diagnostics, display) -> Iterator[YMap]:
    """Each file of `folder` that parses to a mapping; a broken file is reported here, once."""
    for path in sorted(folder.glob("*.yaml")):
        try:
            doc = load(path, display(path))
        except SourceError as exc:
            diags.error(exc.loc, exc.message)
            continue
        top = expect_map(doc, Loc(display(path)), "a layouts file", diags)
        if top is not None:
            check_keys(top, "layouts file", CATALOG_FILE_KEYS, diags)
            yield top


def catalog_entries(
    documents: list[YMap], block: str, what: str, diags: Diagnostics
) -> Iterator[tuple[str, Any, Loc]]:
    """Each entry of the `block:` blocks, in file then entry order, as (id, spec, where the spec
    is). An id that is not a slug, or that an earlier entry has, is reported and skipped."""
    seen: set[str] = set()
    for top in documents:
        if block not in top:
            continue
        entries = expect_map(top[block], top.loc_of(block), block, diags)
        for entry_id, spec in (entries or {}).items():
            loc = entries.key_loc(entry_id)
            if not check_slug(entry_id, loc, f"{what} id", diags):
                continue
            if entry_id in seen:
                diags.error(loc, f"{what} {entry_id!r} is defined twice")
                continue
            seen.add(entry_id)
            yield entry_id, spec, entries.loc_of(entry_id)
