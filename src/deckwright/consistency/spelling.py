"""A term spelled two ways within one game, and a component called by a name it does not have.

Two spellings are two different words that agree once the usual variant endings are folded:
judgement/judgment, colour/color, -ise/-ize and -isation/-ization, cancelled/canceled,
centre/center, defence/defense, and a hyphen dropped (co-op/coop). Case never counts.

A component name: games name tokens, markers and boards "<Head> <Kind>" (Jail Marker, Chaos
Token); a text that writes "<Head> <other kind>" ("the jail token") where no such component
exists names one the game does not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..model import Game
from .finding import Finding, Side
from .texts import Text, card_label
from .words import singular

_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_FOLDS = (
    (re.compile(r"gement(s?)$"), r"gment\1"),
    (re.compile(r"(?<=[a-z]{2})our(s|ed|ing|ite|ites|able)?$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
    (re.compile(r"(?<=[aeiou])ll(ed|ing|er|ers)$"), r"l\1"),
    (re.compile(r"(?<=[a-z]{3})tre(s?)$"), r"ter\1"),
    (re.compile(r"(?<=[a-z]{2})ence$"), r"ense"),
)
COMPONENT_KINDS = frozenset({"token", "marker", "board", "tile", "chit", "pawn", "cube", "die"})


def fold(word: str) -> str:
    w = word.lower()
    for pattern, repl in _FOLDS:
        w = pattern.sub(repl, w)
    return w.replace("-", "")


def spelling_findings(game: Game, texts: Iterable[Text]) -> list[Finding]:
    texts = list(texts)
    return [*_two_spellings(texts), *_component_names(game, texts)]


def _two_spellings(texts: list[Text]) -> Iterator[Finding]:
    seen: dict[str, dict[str, list[tuple[Text, int, int]]]] = {}
    for text in texts:
        for m in _WORD.finditer(text.text):
            word = m.group().lower()
            seen.setdefault(fold(word), {}).setdefault(word, []).append((text, m.start(), m.end()))
    for variants in seen.values():
        if len(variants) < 2:
            continue
        ordered = sorted(variants.items(), key=lambda kv: len(kv[1]))  # the rarer spelling first
        words = [w for w, _ in ordered]
        counts = ", ".join(f"“{_as_written(places)}” ({len(places)}×)" for _, places in ordered)
        sides = []
        for _, places in ordered:
            text = places[0][0]
            marks = tuple((s, e) for t, s, e in places if t is text)
            sides.append(text.side(marks))
        yield Finding(
            kind="lint",
            key="spelling " + "/".join(sorted(words)),
            message=f"A term spelled {len(words)} ways: {counts}",
            sides=tuple(sides),
        )


def _as_written(places: list[tuple[Text, int, int]]) -> str:
    text, start, end = places[0]
    return text.text[start:end]


def _component_names(game: Game, texts: list[Text]) -> Iterator[Finding]:
    named: dict[str, dict[str, object]] = {}  # head -> kind -> card
    for card in game.cards:
        words = card.name.split()
        if len(words) >= 2 and singular(words[-1]) in COMPONENT_KINDS:
            head = " ".join(words[:-1]).lower()
            named.setdefault(head, {})[singular(words[-1])] = card
    if not named:
        return
    kinds = "|".join(sorted(COMPONENT_KINDS))
    heads = "|".join(re.escape(h) for h in sorted(named, key=len, reverse=True))
    pattern = re.compile(rf"\b({heads})\s+({kinds})s?\b", re.I)
    wrong: dict[str, list[tuple[Text, int, int]]] = {}
    for text in texts:
        if text.field == "name":
            continue
        for m in pattern.finditer(text.text):
            head, kind = m.group(1).lower(), singular(m.group(2))
            if kind not in named[head]:
                wrong.setdefault(f"{head} {kind}", []).append((text, m.start(), m.end()))
    for term, places in wrong.items():
        head = term.rsplit(" ", 1)[0]
        cards = list(named[head].values())
        actual = " or ".join(f"the {card_label(c)}" for c in cards)
        text, start, end = places[0]
        where = "; ".join(dict.fromkeys(t.label for t, _, _ in places))
        yield Finding(
            kind="lint",
            key=f"component-name {term}",
            message=f"“{text.text[start:end]}” names no component of the game (it has {actual}): {where}",
            sides=(
                *(t.side(((s, e),)) for t, s, e in places),
                *(Side(card_label(c), c.loc_of("name"), c.name) for c in cards),
            ),
        )
