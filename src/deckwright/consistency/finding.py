"""What the editor's check reports: a finding with the places (sides) that disagree."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Loc
from ..model import Acknowledgement

# The kinds of finding, in report order. "acknowledgement" reports an acknowledgement in
# acknowledged.yaml that matches no finding (it may be stale).
KINDS = ("errata", "numbers", "limits", "lint", "acknowledgement")


@dataclass(frozen=True, slots=True)
class Side:
    """One of the places a finding compares: what it is, where, and its text as written."""

    label: str
    loc: Loc
    text: str
    marks: tuple[tuple[int, int], ...] = ()  # character spans of `text` the finding is about

    @property
    def where(self) -> str:
        return f"{self.loc.path}:{self.loc.line}"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    key: str  # stable name for acknowledgements: no line numbers
    message: str
    sides: tuple[Side, ...]
    diff: tuple[tuple[str, str], ...] = ()  # word diff of the first two sides: (op, words)

    @property
    def loc(self) -> Loc:
        return self.sides[0].loc

    def line(self) -> str:
        """`path:line: kind: message`, naming the other sides' places, then the key."""
        others = [s.where for s in self.sides[1:] if s.where != self.sides[0].where]
        also = f" (see {', '.join(dict.fromkeys(others))})" if others else ""
        return f"{self.sides[0].where}: {self.kind}: {self.message}{also} [{self.key}]"

    def sort_key(self) -> tuple:
        return (KINDS.index(self.kind), self.loc, self.key)


@dataclass(frozen=True)
class Report:
    """The editor's check of one game."""

    game_id: str
    game_name: str
    findings: tuple[Finding, ...]
    acknowledged: tuple[tuple[Finding, Acknowledgement], ...] = ()
    facts: tuple[str, ...] = ()  # what agreed, for the page (e.g. errata rows identical)

    def by_kind(self) -> dict[str, list[Finding]]:
        groups: dict[str, list[Finding]] = {k: [] for k in KINDS}
        for f in self.findings:
            groups[f.kind].append(f)
        return groups
