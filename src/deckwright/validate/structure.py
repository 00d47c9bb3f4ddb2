"""What ties a game to the rest of the project: layouts exist, every card type is in a deck."""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Diagnostics
from ..model import Game, Layout


def check_structure(game: Game, layouts: Mapping[str, Layout], diags: Diagnostics) -> None:
    decked = {t for deck in game.decks.values() for t in deck.types}
    used = {card.type for card in game.cards}
    for type_id, card_type in game.card_types.items():
        if card_type.layout not in layouts:
            known = ", ".join(sorted(layouts))
            diags.error(
                card_type.loc,
                f"card type {type_id!r}: no layout {card_type.layout!r} in layouts/ ({known})",
            )
        if type_id not in decked:
            diags.error(card_type.loc, f"card type {type_id!r} is in no deck; add it to one under 'decks'")
        if type_id not in used:
            diags.warning(card_type.loc, f"card type {type_id!r} has no cards")
    if game.info.players_min > game.info.players_max:
        diags.error(game.info.loc, "players: min is larger than max")
