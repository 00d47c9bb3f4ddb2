"""Cards compared: matched by id, renames found by name or by text, counts and fields."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from ..consistency.texts import card_label
from ..consistency.words import word_diff
from ..model import Card, Game
from .change import Change, describe_values, plain, same, same_key, show, text_change


def text_fields(game: Game, card: Card) -> list[str]:
    """The rules-text fields of a card (front and back), whose wording errata are about."""
    card_type = game.card_types.get(card.type)
    if card_type is None:
        return []
    specs = {**card_type.fields, **card_type.back_fields}
    return [name for name, spec in specs.items() if spec.type == "text" and name != "note"]


def _content(game: Game, card: Card) -> list[str]:
    """The words a rename by similarity compares: the card's texts, else all its fields."""
    texts = [card.fields.get(f) for f in text_fields(game, card)]
    words = [w for t in texts if isinstance(t, str) for w in t.split()]
    if words:
        return words
    return [card.name, *(f"{k}={same_key(v)}" for k, v in sorted(card.fields.items()))]


def _similarity(a: list[str], b: list[str]) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def rename_pairs(old: Game, new: Game, similarity: float) -> list[tuple[Card, Card]]:
    """(old card, new card) for each new id that takes the place of a removed card."""
    old_ids, new_ids = {c.id for c in old.cards}, {c.id for c in new.cards}
    removed = [c for c in old.cards if c.id not in new_ids]
    added = [c for c in new.cards if c.id not in old_ids]
    scored = []
    for i, a in enumerate(removed):
        for j, b in enumerate(added):
            if a.type != b.type:
                continue
            score = _similarity(_content(old, a), _content(new, b))
            if score >= similarity:
                scored.append((-score, i, j))
    pairs, used_old, used_new = [], set(), set()
    for _, i, j in sorted(scored):  # best match first; ties in file order
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((removed[i], added[j]))
    return pairs


def card_changes(old: Game, new: Game, similarity: float) -> list[Change]:
    out: list[Change] = []
    renamed = {b.id: a for a, b in rename_pairs(old, new, similarity)}
    taken = {a.id for a in renamed.values()}
    for card in new.cards:
        before = old.card(card.id) or renamed.get(card.id)
        if before is None:
            out.append(
                Change(
                    "card-added",
                    f"card:{card.id}",
                    f"{card_label(card)} ({card.type}, {card.id}) added, count {show(card.count)}",
                    card.loc,
                    card=card.id,
                    new=_card_plain(card),
                )
            )
            continue
        out += _one_card(old, new, before, card)
    for card in old.cards:
        if new.card(card.id) is None and card.id not in taken:
            out.append(
                Change(
                    "card-removed",
                    f"card:{card.id}",
                    f"{card_label(card)} ({card.type}, {card.id}) removed (count was {show(card.count)})",
                    card.loc,
                    old_card=card.id,
                    old=_card_plain(card),
                )
            )
    return out


def _card_plain(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "type": card.type,
        "name": card.name,
        "count": plain(card.count),
        "number": plain(card.number),
        "fields": plain(card.fields),
    }


def _one_card(old: Game, new: Game, a: Card, b: Card) -> Iterator[Change]:
    label = card_label(b)
    if sum(c.name == b.name for c in new.cards) > 1:
        label += f" [{b.id}]"  # cards that share a name (seven "Basic Anointing") by their id
    ids = {"card": b.id, "old_card": a.id}
    if a.id != b.id:
        yield Change(
            "card-renamed",
            f"card:{b.id}",
            f"{card_label(a)} ({a.id}) is now {label} ({b.id}): a new id with the same text",
            b.key_loc("id"),
            field="id",
            old=a.id,
            new=b.id,
            **ids,
        )
    if a.name != b.name:
        yield Change(
            "card-renamed",
            f"card:{b.id}.name",
            f"{b.id}: renamed {show(a.name)} → {show(b.name)}",
            b.loc_of("name"),
            field="name",
            old=a.name,
            new=b.name,
            words=word_diff(a.name, b.name),
            **ids,
        )
    if not same(a.count, b.count):
        yield Change(
            "count",
            f"card:{b.id}.count",
            f"{label}: count {show(a.count)} → {show(b.count)}",
            b.loc_of("count"),
            field="count",
            old=plain(a.count),
            new=plain(b.count),
            **ids,
        )
    for name in ("type", "number"):
        x, y = getattr(a, name), getattr(b, name)
        if not same(x, y):
            yield Change(
                "field",
                f"card:{b.id}.{name}",
                f"{label}: {name} {show(x)} → {show(y)}",
                b.loc_of(name),
                field=name,
                old=plain(x),
                new=plain(y),
                **ids,
            )
    fields = list(dict.fromkeys([*b.fields, *a.fields]))
    for name in fields:
        x, y = a.fields.get(name), b.fields.get(name)
        if same(x, y):
            continue
        yield Change(
            "field",
            f"card:{b.id}.{name}",
            f"{label}: {name}: {describe_values(x, y)}",
            b.loc_of(name) if name in b.fields else b.loc,
            field=name,
            old=plain(x),
            new=plain(y),
            words=text_change(x, y),
            **ids,
        )
