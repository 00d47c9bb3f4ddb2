"""Two versions of a game's model -> typed change records.

Cards are matched by id. A card whose id is new but whose text is the text of a card that went
away (same card type, word similarity of their texts at least `similarity`, 0.9 by default) is
a rename, like a card that kept its id and changed its name. Tables' rows are matched by the
table's key, else by position (a sequence match of whole rows). Derived rows and computed columns
are compared expanded, as the validator and the outputs see them. Rulebook chapters are compared
paragraph by paragraph (paragraphs are separated by blank lines).

Encoders' notes (`note:`) are not printed and not compared; neither is the note of an unknown
value (an unknown prints as a placeholder, whatever its note says).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Game
from .change import Change, describe_values, plain, same, text_change
from .diff_cards import card_changes
from .diff_rulebook import rulebook_changes
from .diff_tables import check_changes, table_changes

SIMILARITY = 0.9


def diff_games(old: Game, new: Game, similarity: float = SIMILARITY) -> list[Change]:
    """Every change from `old` to `new`, in report order: game, cards, tables, checks, rulebook."""
    changes: list[Change] = []
    changes += _game_changes(old, new)
    changes += card_changes(old, new, similarity)
    changes += table_changes(old, new)
    changes += check_changes(old, new)
    changes += rulebook_changes(old, new)
    return changes


def _game_changes(old: Game, new: Game) -> Iterator[Change]:
    for name in ("name", "edition", "version", "date", "tagline", "players_min", "players_max"):
        a, b = getattr(old.info, name), getattr(new.info, name)
        if not same(a, b):
            yield Change(
                "game",
                f"game.{name}",
                f"{name}: {describe_values(a, b)}",
                new.info.loc,
                field=name,
                old=plain(a),
                new=plain(b),
                words=text_change(a, b),
            )
    for what, a_map, b_map in (
        ("enum", old.enums, new.enums),
        ("card type", old.card_types, new.card_types),
        ("deck", old.decks, new.decks),
    ):
        for key in sorted(set(a_map) | set(b_map)):
            a, b = a_map.get(key), b_map.get(key)
            if same(a, b):
                continue
            state = "added" if a is None else "removed" if b is None else "changed"
            where = getattr(b, "loc", None) or getattr(a, "loc", None) or new.info.loc
            yield Change(
                "schema",
                f"{what.replace(' ', '-')}:{key}",
                f"{what} {key!r} {state}",
                where,
                old=plain(a),
                new=plain(b),
            )


def changed_cards(changes: list[Change]) -> dict[str, list[Change]]:
    """The changes of each card, by its new id (removed cards by their old id)."""
    out: dict[str, list[Change]] = {}
    for change in changes:
        card = change.card or change.old_card
        if card is not None:
            out.setdefault(card, []).append(change)
    return out
