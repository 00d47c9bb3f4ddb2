"""Findings about the input, with the place in a file they are about.

Nothing below the CLI prints or exits: every stage appends to a `Diagnostics` collector and the
CLI decides what to show and which exit code follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True, order=True)
class Loc:
    """A position in a source file; line and column count from 1."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    loc: Loc
    severity: Severity
    message: str
    code: str = ""

    def __str__(self) -> str:
        return f"{self.loc}: {self.severity.value}: {self.message}"

    def as_dict(self) -> dict:
        return {
            "path": self.loc.path,
            "line": self.loc.line,
            "col": self.loc.col,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }


class Diagnostics:
    """An ordered collector of findings."""

    def __init__(self) -> None:
        self._items: list[Diagnostic] = []

    def error(self, loc: Loc, message: str, code: str = "") -> None:
        self._items.append(Diagnostic(loc, Severity.ERROR, message, code))

    def warning(self, loc: Loc, message: str, code: str = "") -> None:
        self._items.append(Diagnostic(loc, Severity.WARNING, message, code))

    def add(self, diagnostic: Diagnostic) -> None:
        self._items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self._items.extend(diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self._items if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self._items if d.severity is Severity.WARNING]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self._items)

    def sorted(self) -> list[Diagnostic]:
        """Findings in file order, so a designer can walk a file top to bottom."""
        return sorted(self._items, key=lambda d: (d.loc, d.severity.value, d.message))
