"""The editor's check: every place where the texts of a game disagree.

One module per kind of finding — `errata` (errata against the official wording), `numbers`
(numbers in notes and prose against cards and data), `limits` (what combinations of cards can
reach against a bound), `lint` (cut-off sentences, unmatched quotes, two spellings, doubled
spaces, references to nothing). It reads the model only; `deckwright check` prints the
findings and `outputs/check.py` lays them out side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..diagnostics import Diagnostics
from ..model import Acknowledgement, Game
from ..readers.acknowledged import ACKNOWLEDGED_FILE, read_acknowledged
from ..safety.budget import work_budget
from .errata import errata_findings
from .finding import KINDS, Finding, Report, Side
from .limits import limit_findings
from .lint import lint_findings
from .numbers import number_findings

__all__ = ["KINDS", "Finding", "Report", "Side", "check", "run"]


def check(
    game: Game, acknowledgements: tuple[Acknowledgement, ...] = (), diags: Diagnostics | None = None
) -> Report:
    """Every finding about the game; acknowledged ones set aside, stale acknowledgements reported."""
    diags = diags if diags is not None else Diagnostics()
    errata, agreed = errata_findings(game)
    found = [*errata, *number_findings(game), *limit_findings(game, diags), *lint_findings(game)]
    unique: dict[tuple[str, str], Finding] = {}
    for finding in found:
        unique.setdefault((finding.kind, finding.key), finding)
    by_name = {(a.kind, a.key): a for a in acknowledgements}
    open_findings, accepted = [], []
    for name, finding in unique.items():
        if name in by_name:
            accepted.append((finding, by_name[name]))
        else:
            open_findings.append(finding)
    for ack in acknowledgements:
        if (ack.kind, ack.key) not in unique:
            open_findings.append(_stale(ack))
    return Report(
        game_id=game.id,
        game_name=game.info.name,
        findings=tuple(sorted(open_findings, key=Finding.sort_key)),
        acknowledged=tuple(sorted(accepted, key=lambda fa: fa[0].sort_key())),
        facts=tuple(agreed),
    )


def _stale(ack: Acknowledgement) -> Finding:
    known = (
        "" if ack.kind in KINDS[:-1] else f" ({ack.kind!r} is no kind of finding: {', '.join(KINDS[:-1])})"
    )
    return Finding(
        kind="acknowledgement",
        key=f"{ack.kind} {ack.key}",
        message=f"acknowledges {ack.kind} [{ack.key}], which matches no finding{known}",
        sides=(Side(f"{ACKNOWLEDGED_FILE}: {ack.reason}", ack.loc, ack.reason),),
    )


def run(game: Game, diags: Diagnostics, display: Callable[[Path], str] = str) -> Report:
    """Read the game's acknowledged.yaml, then check the game."""
    acknowledgements = read_acknowledged(game.folder, diags, display)
    with work_budget():  # one budget for every expression the check evaluates
        return check(game, acknowledgements, diags)
