"""References in text to card numbers, cards, tables and card types that do not exist.

- A card number written the way the game numbers its cards ("Q3", "J10": a letter prefix its
  cards use) must be a card's number; written with the card type's word ("Quirk 9",
  "Judgement 2", spelling variants folded) likewise; a name written right after it
  ("Q4 (Brenda …", "Quirk 9 - Greldo") must be that card's name.
- "<card name> (<number>)" must give the card's own number, when the card has one.
- "table:<id>", "cards:<type>[,<type>…]" and "card:<id>" must name a table, type or card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..model import Card, Game, Unknown
from .finding import Finding, Side
from .spelling import fold
from .texts import Text, card_label

_CODE = re.compile(r"^([A-Za-z]+)(\d+)$")
_ID_REF = re.compile(r"\b(table|cards|card):([a-z0-9][a-z0-9,-]*[a-z0-9])")
_AFTER = re.compile(r"\s*[-–—(:]\s*")


def reference_findings(game: Game, texts: Iterable[Text]) -> list[Finding]:
    texts = [t for t in texts if t.field != "name"]
    found: list[Finding] = []
    numbered = _numbered(game)
    for text in texts:
        found.extend(_numbers(game, text, numbered))
        found.extend(_named_numbers(game, text, numbered))
        found.extend(_ids(game, text))
    return found


def _numbered(game: Game) -> dict[str, dict[str, Card]]:
    """Prefix -> number -> card, for cards numbered like "Q3"."""
    out: dict[str, dict[str, Card]] = {}
    for card in game.cards:
        m = _CODE.match(str(card.number)) if isinstance(card.number, str) else None
        if m:
            out.setdefault(m.group(1), {})[m.group(2).lstrip("0") or "0"] = card
    return out


def _type_words(game: Game, numbered: dict[str, dict[str, Card]]) -> dict[str, str]:
    """Folded type word ("quirk", "judgment") -> the number prefix of its cards."""
    words = {}
    for prefix, cards in numbered.items():
        types = {c.type for c in cards.values()}
        if len(types) != 1:
            continue
        (type_id,) = types
        title = game.card_types[type_id].title.split()[0]
        for word in (type_id, title):
            words[fold(word)] = prefix
    return words


def _finding(text: Text, start: int, end: int, key: str, message: str, other: Side | None = None) -> Finding:
    sides = (text.side(((start, end),)),)
    return Finding(
        "lint",
        f"reference {key} {text.place}",
        f"{text.label}: {message}",
        sides + ((other,) if other else ()),
    )


def _numbers(game: Game, text: Text, numbered: dict[str, dict[str, Card]]) -> Iterator[Finding]:
    if not numbered:
        return
    prefixes = "|".join(sorted(numbered, key=len, reverse=True))
    type_words = _type_words(game, numbered)
    patterns = [(re.compile(rf"\b({prefixes})(\d+)\b"), lambda m: m.group(1))]
    if type_words:
        patterns.append((re.compile(r"\b([A-Za-z]+) (\d+)\b"), lambda m: type_words.get(fold(m.group(1)))))
    for pattern, prefix_of in patterns:
        for m in pattern.finditer(text.text):
            prefix = prefix_of(m)
            if prefix is None:
                continue
            written = m.group()
            card = numbered[prefix].get(m.group(2).lstrip("0") or "0")
            if card is None:
                known = ", ".join(sorted((str(c.number) for c in numbered[prefix].values()), key=_natural))
                yield _finding(
                    text, m.start(), m.end(), written, f"“{written}” is no card of the game ({known})"
                )
                continue
            named = _name_after(text.text, m.end(), numbered[prefix].values())
            if named is not None and named is not card:
                yield _finding(
                    text,
                    m.start(),
                    m.end() + len(named.name) + 3,
                    written,
                    f"“{written}” is {card_label(card)}, but the text names {named.name} after it",
                    Side(card_label(card), card.loc_of("name"), card.name),
                )


def _natural(number: str) -> tuple:
    m = _CODE.match(number)
    return (m.group(1), int(m.group(2))) if m else (number, 0)


def _name_after(text: str, at: int, cards: Iterable[Card]) -> Card | None:
    sep = _AFTER.match(text, at)
    if not sep:
        return None
    rest = text[sep.end() :]
    for card in sorted(cards, key=lambda c: len(c.name), reverse=True):
        if rest.startswith(card.name) and not rest[len(card.name) : len(card.name) + 1].isalnum():
            return card
    return None


def _named_numbers(game: Game, text: Text, numbered: dict[str, dict[str, Card]]) -> Iterator[Finding]:
    """ "Name (N)": N must be the card's own number (a code no card has is reported above)."""
    codes = {str(c.number) for cards in numbered.values() for c in cards.values()}
    for card in game.cards:
        if card.number in (None, "") or isinstance(card.number, Unknown) or card.name not in text.text:
            continue
        for m in re.finditer(re.escape(card.name) + r" \((\w+)\)", text.text):
            written = m.group(1)
            if written != str(card.number) and (written.isdigit() or written in codes):
                yield _finding(
                    text,
                    m.start(),
                    m.end(),
                    f"{card.id}({m.group(1)})",
                    f"“{m.group()}” gives {card.name} the number {m.group(1)}; "
                    f"the card's number is {card.number}",
                    Side(card_label(card), card.loc_of("number"), str(card.number)),
                )


def _ids(game: Game, text: Text) -> Iterator[Finding]:
    for m in _ID_REF.finditer(text.text):
        kind, target = m.group(1), m.group(2)
        if kind == "table":
            missing = [] if target in game.tables else [target]
        elif kind == "card":
            missing = [] if game.card(target) else [target]
        else:
            missing = [t for t in target.split(",") if t not in game.card_types]
        if missing:
            what = {"table": "table", "card": "card", "cards": "card type"}[kind]
            yield _finding(
                text, m.start(), m.end(), m.group(), f"“{m.group()}” names no {what} {', '.join(missing)!r}"
            )
