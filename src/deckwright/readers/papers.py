"""`layouts/papers.yaml`: the paper sizes the print-and-play sheets are imposed on.

```yaml
papers:
  a4: {title: A4, size: [210mm, 297mm], margin: 5mm}
```
Any `layouts/*.yaml` file may hold a `papers:` block (the layouts reader skips files without
`layouts:`). Sizes are lengths with units, as in layouts; the result is in points.
"""

from __future__ import annotations

from ..diagnostics import Diagnostics, Loc
from ..model import Paper
from ..source import YList, YMap
from ..units import UnitError, to_points
from .catalog_files import catalog_entries
from .common import check_keys, expect_map

PAPER_KEYS = ("title", "size", "margin", "note")


def read_papers(documents: list[YMap], diags: Diagnostics) -> dict[str, Paper]:
    """Every paper declared under `papers:` in the layouts/ files, in file then entry order."""
    papers: dict[str, Paper] = {}
    for paper_id, spec, loc in catalog_entries(documents, "papers", "paper", diags):
        paper = _paper(paper_id, spec, loc, diags)
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
