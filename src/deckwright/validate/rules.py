"""Evaluates the checks a game declares in its data (counts, tables, design rules)."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..expressions import (
    ExpressionError,
    UnknownTouched,
    evaluate,
    format_message,
    game_functions,
    parse_iteration,
    unwrap,
)
from ..model import Check, Game
from ..safety.budget import budget_spent


def run_checks(game: Game, diags: Diagnostics) -> None:
    functions = game_functions(game)
    for check in game.checks:
        _run(check, functions, diags)


def _run(check: Check, functions, diags: Diagnostics) -> None:
    where = check.expect_loc or check.loc
    if check.iterate is None:
        _judge(check, {}, check.loc, functions, diags)
        return
    try:
        name, source = parse_iteration(check.iterate)
        items = list(evaluate(source, {}, functions))
    except ExpressionError as exc:
        if not exc.repeated:  # a spent work budget is reported once
            diags.error(where, f"check {check.id!r}: 'for' failed: {exc}")
        return
    except UnknownTouched as exc:
        diags.warning(where, f"check {check.id!r} cannot be evaluated: {exc.what} is unknown")
        return
    except TypeError:
        diags.error(where, f"check {check.id!r}: 'for' must give a list to iterate over")
        return
    for item in items:
        if budget_spent():  # reported once already; the other items cannot be judged
            return
        target = unwrap(item)
        _judge(check, {name: item}, target.loc if target is not None else check.loc, functions, diags)


def _judge(check: Check, names: dict[str, Any], loc: Loc, functions, diags: Diagnostics) -> None:
    try:
        result = evaluate(check.expect, names, functions)
    except UnknownTouched as exc:
        diags.warning(loc, f"check {check.id!r} cannot be evaluated: {exc.what} is unknown", code="unknown")
        return
    except ExpressionError as exc:
        if not exc.repeated:  # a spent work budget is reported once
            diags.error(check.expect_loc or check.loc, f"check {check.id!r}: {exc}")
        return
    if not isinstance(result, bool):
        diags.error(
            check.expect_loc or check.loc,
            f"check {check.id!r}: 'expect' must give true or false, gave {result!r}",
        )
        return
    if not result:
        message = format_message(check.message, names, functions)
        text = f"{message} [check {check.id}]"
        if check.severity == "warning":
            diags.warning(loc, text, code=check.id)
        else:
            diags.error(loc, text, code=check.id)
