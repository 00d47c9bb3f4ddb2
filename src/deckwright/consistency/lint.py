"""Text lint: sentences cut off, unmatched quotes and brackets, doubled spaces.

- Cut off: the last line of a text (not a list item) ends without closing punctuation, and
  either an earlier sentence in it is closed ("… their choice. They must announce that they
  have looked, but what they") or its last word cannot end a sentence ("… and the").
- Unmatched: ( ) [ ] { } and “ ” that do not pair up in order, or an odd number of straight
  double quotes. Single quotes are left alone: ’ is also the apostrophe.
- Doubled spaces: two or more spaces between words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import Game
from .finding import Finding
from .references import reference_findings
from .spelling import spelling_findings
from .texts import Text, game_texts

CLOSING = tuple('.!?:;…)]}”"’')
BULLETS = ("•", "-", "*", "–", "—", "·")
# Words that cannot end an English sentence.
_DANGLING_WORDS = """
    a an the and or but nor of to in on at by for from with into onto than that which who whose
    whom what if when while whether because their your my our its his her as
"""
DANGLING = frozenset(_DANGLING_WORDS.split())
_CLOSED_SENTENCE = re.compile(r"[a-z]{2}[.!?][\"”’)]?\s+[“\"(]?[A-Z]")
_DOUBLE_SPACE = re.compile(r"(?<=\S) {2,}(?=\S)")
PAIRS = {"(": ")", "[": "]", "{": "}", "“": "”"}
# Unmatched brackets reported one by one in a text; the first finding counts them all.
MAX_UNMATCHED = 10


def lint_findings(game: Game) -> list[Finding]:
    texts = list(game_texts(game))
    closed = _closing_habit(texts)
    found: list[Finding] = []
    for text in texts:
        if closed.get(_family(text), False):
            found.extend(_cut_off(text))
        found.extend(_unmatched(text))
        found.extend(_double_spaces(text))
    found.extend(spelling_findings(game, texts))
    found.extend(reference_findings(game, texts))
    return found


def _family(text: Text) -> tuple[str, str]:
    """Texts of the same kind: one field of one card type, or one column of one table."""
    return (text.card.type if text.card else f"table:{text.table.id}", text.field)


def _closing_habit(texts: list[Text]) -> dict[tuple[str, str], bool]:
    """For each family of texts: do most of them end with closing punctuation?"""
    ends: dict[tuple[str, str], list[bool]] = {}
    for text in texts:
        ends.setdefault(_family(text), []).append(text.text.rstrip().endswith(CLOSING))
    return {family: sum(flags) * 2 > len(flags) for family, flags in ends.items()}


def _cut_off(text: Text) -> Iterator[Finding]:
    """Only texts whose kind usually ends with closing punctuation are judged."""
    body = text.text.rstrip()
    last = body.split("\n")[-1].strip()
    if not last or last.startswith(BULLETS) or body.endswith(CLOSING):
        return
    word = last.split()[-1].strip("\"“”’'")
    closed_before = bool(_CLOSED_SENTENCE.search(last))
    if not (closed_before or (word.isalpha() and word.islower() and word in DANGLING)):
        return
    words = body.split(" ")
    tail = " ".join(words[-6:])
    shown = ("…" if len(words) > 6 else "") + tail
    yield Finding(
        kind="lint",
        key=f"cut-off {text.place}",
        message=f"{text.label} ends mid-sentence: “{shown}”",
        sides=(text.side(((len(body) - len(tail), len(body)),)),),
    )


def _unmatched(text: Text) -> Iterator[Finding]:
    stack: list[tuple[str, int]] = []
    bad: list[tuple[str, int]] = []
    closers = {v: k for k, v in PAIRS.items()}
    for i, ch in enumerate(text.text):
        if ch in PAIRS:
            stack.append((ch, i))
        elif ch in closers:
            if stack and stack[-1][0] == closers[ch]:
                stack.pop()
            else:
                bad.append((ch, i))
    bad.extend(stack)
    straight = [i for i, ch in enumerate(text.text) if ch == '"']
    if len(straight) % 2:
        bad.append(('"', straight[-1]))
    bad.sort(key=lambda b: b[1])
    for n, (ch, i) in enumerate(bad[:MAX_UNMATCHED]):
        many = n == 0 and len(bad) > MAX_UNMATCHED  # the first says how many; ten are shown
        yield Finding(
            kind="lint",
            key=f"unmatched {ch} {text.place}",
            message=f"{text.label}: unmatched {ch} at “{_around(text.text, i)}”"
            + (f" ({len(bad)} unmatched brackets or quotes in this text)" if many else ""),
            sides=(text.side(((i, i + 1),)),),
        )


def _double_spaces(text: Text) -> Iterator[Finding]:
    spans = [(m.start(), m.end()) for m in _DOUBLE_SPACE.finditer(text.text)]
    if spans:
        start = spans[0][0]
        yield Finding(
            kind="lint",
            key=f"double-space {text.place}",
            message=f"{text.label}: doubled space in “{_around(text.text, start)}”"
            + (f" and {len(spans) - 1} more" if len(spans) > 1 else ""),
            sides=(text.side(tuple(spans)),),
        )


def _around(text: str, at: int, width: int = 24) -> str:
    start, end = max(0, at - width), min(len(text), at + width)
    return ("…" if start else "") + text[start:end].replace("\n", " ") + ("…" if end < len(text) else "")
