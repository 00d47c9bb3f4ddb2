"""The work budget of a game's expressions: one budget for every check, computed table column
and rulebook filter evaluated in a run (a whole `validate` of a game), not one per expression,
so that many individually cheap expressions (`for: i in range(100000)`) cannot add up to hours.

A step is one expression node evaluated, or one item a built-in function walks through. When
the budget runs out, `charge` raises `Spent`, once as the first (to be reported, located where
it happened) and then as repeats (which callers report no more).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .limits import MAX_CHECK_STEPS


class Spent(Exception):
    """The run's budget is spent; `repeated` is False the first time only."""

    def __init__(self, repeated: bool) -> None:
        super().__init__(
            f"the declared checks, computed columns and filters together need more than "
            f"{MAX_CHECK_STEPS} evaluation steps (the limit of check work per run); refused"
        )
        self.repeated = repeated


class Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps
        self.spent = False

    def charge(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            repeated, self.spent = self.spent, True
            raise Spent(repeated)


_BUDGET: ContextVar[Budget | None] = ContextVar("deckwright_check_budget", default=None)


@contextmanager
def work_budget(steps: int = MAX_CHECK_STEPS) -> Iterator[None]:
    """Every expression evaluated inside shares one budget of `steps`."""
    token = _BUDGET.set(Budget(steps))
    try:
        yield
    finally:
        _BUDGET.reset(token)


@contextmanager
def own_budget_unless_shared(steps: int = MAX_CHECK_STEPS) -> Iterator[None]:
    """A budget for one expression evaluated outside any `work_budget` (a library call)."""
    if _BUDGET.get() is not None:
        yield
        return
    with work_budget(steps):
        yield


def budget_spent() -> bool:
    """Whether the run's budget is spent: a caller looping over many items stops early."""
    budget = _BUDGET.get()
    return budget is not None and budget.spent


def charge(steps: int) -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.charge(steps)


def walks(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, charged one step per item of each argument it walks through."""

    def charged(*args: Any, **kwargs: Any) -> Any:
        charge(sum(len(a) for a in args if isinstance(a, Sized) and not isinstance(a, str)) + 1)
        return function(*args, **kwargs)

    return charged
