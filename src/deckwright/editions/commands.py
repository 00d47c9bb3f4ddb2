"""What `deckwright diff`, `errata` and `changelog` do, between parsing and printing: the command
line calls these, prints what they give back and picks the exit code."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostics
from ..outputs.base import Output
from ..pipeline import load_fonts, prepare_fonts
from ..project import Project
from .compare import CompareError, Comparison, Side, compare, open_version
from .diff import SIMILARITY


@dataclass
class Compared:
    """A comparison, the files to write for it (relative to build/<game>/), and the problems
    each version has (as (label, diagnostics))."""

    comparison: Comparison | None
    outputs: list[Output] = field(default_factory=list)
    problems: list[tuple[str, Diagnostics]] = field(default_factory=list)


def run_compare(
    project: Project,
    folder: Path,
    old_side: Side,
    new_side: Side,
    faces: bool = True,
    page: bool = True,
    similarity: float = SIMILARITY,
) -> Compared:
    """Load both versions, compare them; with `page`, draw the changed faces and make the page.
    Raises CompareError when the versions cannot be had."""
    shared = Diagnostics()
    fonts = None
    if faces:
        fonts = (prepare_fonts if page else load_fonts)(project, shared)
    with ExitStack() as stack:
        old = open_version(old_side, project, folder, stack, fonts)
        new = open_version(new_side, project, folder, stack, fonts)
        problems = [(label, d) for label, d in (("", shared), (old.label, old.diags), (new.label, new.diags)) if len(d)]
        if old.game is None or new.game is None:
            missing = old if old.game is None else new
            raise CompareError(f"the game cannot be read in {missing.label}: {_first_error(missing.diags)}")
        result = Compared(compare(old, new, fonts, similarity), problems=problems)
        if page:
            from .page import diff_page

            name = new.game.info.name
            page_diags = Diagnostics()
            result.outputs = diff_page(
                project,
                new.game.id,
                f"{name} — what changed",
                result.comparison.labels,
                result.comparison.changes,
                result.comparison.pairs,
                result.comparison.impact,
                page_diags,
            )
            if len(page_diags):
                result.problems.append(("", page_diags))
    return result


def _first_error(diags: Diagnostics) -> str:
    errors = diags.errors
    return str(errors[0]) if errors else "it has errors"
