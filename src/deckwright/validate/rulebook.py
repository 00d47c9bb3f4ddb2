"""Rulebook references against the data: every card, table, card type and column must exist
(`references.selection.resolve`, which the renderer calls too), and no table is typed into the
prose.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics, Loc
from ..model import Game
from ..references.selection import resolve, resolve_card

_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$")


def check_rulebook(game: Game, diags: Diagnostics) -> None:
    for file in game.rulebook:
        for ref in file.refs:
            problems = resolve_card(game, ref)[2] if ref.kind == "card" else resolve(game, ref)[1]
            for problem in problems:
                diags.error(ref.loc, problem, code="rulebook-ref")
        _typed_tables(file.text, file.path, diags)


def _typed_tables(text: str, path: str, diags: Diagnostics) -> None:
    """A Markdown pipe table typed into the prose drifts from the data: say so."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if _TABLE_DELIMITER.match(lines[i]) and "|" in lines[i - 1]:
            diags.warning(
                Loc(path, i, 1),
                "a table typed into the rulebook prose; generate it from the data "
                "with {table:...} or {cards:...} so it cannot drift",
                code="rulebook-typed-table",
            )
