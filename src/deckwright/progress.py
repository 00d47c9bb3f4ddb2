"""Progress of a build, reported through a callback so that the library never prints.

The CLI passes a reporter: a bar per stage on a terminal, one line per stage otherwise.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, stage: str, total: int) -> None: ...
    def advance(self, n: int = 1) -> None: ...
    def finish(self, summary: str = "") -> None: ...
    def step(self, message: str) -> None: ...


class NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def step(self, message: str) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def finish(self, summary: str = "") -> None:
        pass
