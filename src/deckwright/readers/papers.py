"""`layouts/papers.yaml`: the paper sizes the print-and-play sheets are imposed on.

```yaml
papers:
  a4: {title: A4, size: [210mm, 297mm], margin: 5mm}
```
Any `layouts/*.yaml` file may hold a `papers:` block (the layouts reader skips files without
`layouts:`). Sizes are lengths with units, as in layouts; the result is in points.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import Paper
from ..source import SourceError, YList, YMap, load
from ..units import UnitError, to_points
from .common import check_keys, check_slug, expect_map

PAPER_KEYS = ("title", "size", "margin", "note")
FILE_KEYS = ("papers", "layouts", "note")


def read_papers(folder: Path, diags: Diagnostics, display) -> dict[str, Paper]:
    """Every paper declared under `papers:` in `folder/*.yaml`, in file then entry order."""
    papers: dict[str, Paper] = {}
    for path in sorted(folder.glob("*.yaml")):
        try:
            doc = load(path, display(path))
        except SourceError:
            continue  # the layouts reader reports a broken file in layouts/
        top = doc if isinstance(doc, YMap) else None
        if top is None or "papers" not in top:
            continue
        check_keys(top, "papers file", FILE_KEYS, diags)
        entries = expect_map(top["papers"], top.loc_of("papers"), "papers", diags)
        for paper_id, spec in (entries or {}).items():
            loc = entries.key_loc(paper_id)
            if not check_slug(paper_id, loc, "paper id", diags):
                continue
            if paper_id in papers:
                diags.error(loc, f"paper {paper_id!r} is defined twice")
                continue
            paper = _paper(paper_id, spec, entries.loc_of(paper_id), diags)
            if paper is not None:
                papers[paper_id] = paper
    return papers


def _paper(paper_id: str, spec, loc: Loc, diags: Diagnostics) -> Paper | None:
    what = f"paper {paper_id!r}"
    m = expect_map(spec, loc, what, diags)
    if m is None or not check_keys(m, what, PAPER_KEYS, diags, required=("title", "size", "margin")):
        return None
    size = m["size"]
    if not (isinstance(size, YList) and len(size) == 2):
        diags.error(m.loc_of("size"), f"{what}: size must be [width, height]")
        return None
    try:
        width, height = (to_points(v) for v in size)
        margin = to_points(m["margin"])
    except UnitError as exc:
        diags.error(m.loc_of("size"), f"{what}: {exc}")
        return None
    if width <= 0 or height <= 0 or margin < 0 or 2 * margin >= min(width, height):
        diags.error(m.loc, f"{what}: the size must be positive and larger than twice the margin")
        return None
    return Paper(paper_id, str(m["title"]), min(width, height), max(width, height), margin, m.loc)
