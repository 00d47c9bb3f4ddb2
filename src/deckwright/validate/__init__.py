"""The validator: schema, references, structure, then the game's own declared checks."""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Diagnostics
from ..model import Game, Layout
from .references import check_references
from .rulebook import check_rulebook
from .rules import run_checks
from .schema import check_schema
from .structure import check_structure


def validate_game(game: Game, layouts: Mapping[str, Layout], diags: Diagnostics) -> None:
    before = len(diags.errors)
    check_schema(game, diags)
    check_references(game, diags)
    check_structure(game, layouts, diags)
    if len(diags.errors) > before:
        if game.checks:
            diags.warning(
                game.info.loc,
                f"{len(game.checks)} declared checks were not run: fix the errors above first",
            )
    else:
        run_checks(game, diags)
    check_rulebook(game, diags)
