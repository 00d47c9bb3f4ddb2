"""Reading numbers and words out of game text: (number, noun) pairs, ranges, word diffs.

The heuristics are deliberately narrow; every finding they lead to must be one an editor wants:

- a *pair* is a number (digits, or a number word: "two" = 2) followed directly by up to three
  words that are not function words: "the top 4 cards from" -> (4, "cards"), head noun "card".
  Signed numbers (+2, −5), percentages, ordinals, parts of a code ("27-B/6") and ranges are no
  pairs, and a number followed by punctuation or a function word has no noun.
- a *range* is "A–B" between digits, with the words before it (up to the clause's start) and
  the noun after it: "the Devotion track (0–8)", "the ritual progress track (5–8 slots".
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
}

# Words that end a noun phrase: articles, pronouns, prepositions, conjunctions, auxiliaries and
# modals, and the adverbs that follow a count ("2 players immediately").
_STOP_WORDS = """
    a an the this that these those each every all any some no not none both either neither other
    another own such same more most less least fewer only also still even just again too very i
    you he she it we they me him her us them my your his its our their whoever who whom whose
    which what when where while whether if then than so as because though although unless until
    and or but nor yet of to in on at by for from with without within into onto over under above
    below across after before during between through toward towards against about around per via
    among up down out off instead is are was were be been being am do does did done has have had
    having get gets got can could may might must shall should will would immediately already
    always never ever now once twice here there
"""
STOP = frozenset(_STOP_WORDS.split())

_WORD = r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z][A-Za-z'’]*)*"
_TOKEN = re.compile(rf"(?P<num>\d+)|(?P<word>{_WORD})|(?P<space>\s+)|(?P<punct>.)", re.S)
_NUMBER_WORD_PREFIX = re.compile(r"^(" + "|".join(NUMBER_WORDS) + r")-(?=[a-z])", re.I)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # num | word | space | punct
    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        word = m.group()
        prefix = _NUMBER_WORD_PREFIX.match(word) if kind == "word" else None
        if prefix:  # "one-use" reads as "one use"
            cut = m.start() + len(prefix.group(1))
            out.append(Token("word", prefix.group(1), m.start(), cut))
            out.append(Token("space", "-", cut, cut + 1))
            out.append(Token("word", word[len(prefix.group(0)) :], cut + 1, m.end()))
            continue
        out.append(Token(kind, word, m.start(), m.end()))
    return out


_NOT_PLURAL = frozenset({"chaos", "always", "series", "species", "news", "lens", "canvas", "atlas"})


def singular(word: str) -> str:
    w = word.lower()
    if len(w) <= 3 or w in _NOT_PLURAL or w.endswith(("ss", "us", "is")):
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "xes", "sses")):
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    return w


@dataclass(frozen=True, slots=True)
class Pair:
    number: int
    words: tuple[str, ...]  # the noun phrase, lower case, as written
    start: int  # span of "number + phrase" in the text
    end: int

    @property
    def head(self) -> str:
        return singular(self.words[-1])

    @property
    def plural(self) -> str:
        return self.words[-1].lower()


_NO_PAIR_BEFORE = set("+−-–/.×#$£€")
_NO_PAIR_AFTER = set("%/–.-")


def pairs(text: str) -> Iterator[Pair]:
    """The (number, noun phrase) pairs a text states."""
    toks = tokens(text)
    for i, tok in enumerate(toks):
        if tok.kind == "num":
            number = int(tok.text)
            before = text[tok.start - 1] if tok.start > 0 else " "
            after = text[tok.end] if tok.end < len(text) else " "
            if before in _NO_PAIR_BEFORE or before.isalpha():
                continue
            if after.isalpha() or (after in _NO_PAIR_AFTER and not _hyphen_word(text, tok.end)):
                continue  # 6th, 2x, 48.0%, 27-B/6, 5–13
        elif tok.kind == "word" and tok.text.lower() in NUMBER_WORDS:
            number = NUMBER_WORDS[tok.text.lower()]
        else:
            continue
        words, end = _phrase(toks, i + 1)
        if words:
            yield Pair(number, words, tok.start, end)


def _hyphen_word(text: str, at: int) -> bool:
    """'36-card': a hyphen joining a number to a word (not to a digit or a code letter)."""
    return text[at : at + 1] == "-" and bool(re.match(r"-[a-z]{2,}", text[at : at + 4]))


def _phrase(toks: list[Token], j: int, limit: int = 3) -> tuple[tuple[str, ...], int]:
    words: list[str] = []
    end = toks[j - 1].end if j > 0 else 0
    while j < len(toks) and len(words) < limit:
        tok = toks[j]
        if tok.kind == "space" or (tok.kind == "punct" and tok.text == "-" and not words):
            j += 1
            continue
        if tok.kind != "word" or tok.text.lower() in STOP or len(tok.text) < 2:
            break
        words.append(tok.text.lower())
        end = tok.end
        j += 1
    return tuple(words), end


@dataclass(frozen=True, slots=True)
class Range:
    low: int
    high: int
    before: tuple[str, ...]  # the clause's words before the range, lower case, singular
    after: tuple[str, ...]  # the noun after it
    start: int
    end: int


_RANGE = re.compile(r"(?<![\w.+−/])(\d+)\s*[–-]\s*(\d+)(?![\w.%/])")
_CLAUSE_END = re.compile(r"[,;:.!?—•\n(]")


def ranges(text: str) -> Iterator[Range]:
    """The "A–B" ranges a text states, with the words that name what ranges."""
    for m in _RANGE.finditer(text):
        low, high = int(m.group(1)), int(m.group(2))
        if low >= high:
            continue
        head = text[: m.start()].rstrip()
        if head.endswith("("):
            head = head[:-1]
        parts = _CLAUSE_END.split(head)
        clause = parts[-1]
        if not clause.strip() and head.rstrip().endswith(":") and len(parts) > 1:
            clause = parts[-2]  # "Players: 5–13"
        before = tuple(singular(w) for w in re.findall(_WORD, clause) if w.lower() not in STOP)[-4:]
        after_words, _ = _phrase(tokens(text[m.end() :].lstrip(") ")), 0, limit=1)
        yield Range(low, high, before, tuple(singular(w) for w in after_words), m.start(), m.end())


_PUNCT = re.compile(r"[^\w+]+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "−": "-"})


def normalise(text: str) -> str:
    """The words of a text without punctuation or spacing: what "only punctuation" compares."""
    return " ".join(_PUNCT.sub(" ", text.translate(_QUOTES)).split())


def compare(a: str, b: str) -> str:
    """identical | punctuation (differs only in punctuation or spacing) | words."""
    if a == b:
        return "identical"
    if normalise(a) == normalise(b):
        return "punctuation"
    return "words"


def word_diff(a: str, b: str) -> tuple[tuple[str, str], ...]:
    """A word-level diff of two texts: ("equal" | "delete" | "insert", words), in order."""
    wa, wb = a.split(), b.split()
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(("equal", " ".join(wa[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            ops.append(("delete", " ".join(wa[i1:i2])))
        if tag in ("insert", "replace"):
            ops.append(("insert", " ".join(wb[j1:j2])))
    return tuple(ops)


def diff_text(ops: tuple[tuple[str, str], ...], context: int = 3) -> str:
    """A diff as one line: changes as [-old-] {+new+}, long equal runs shortened to their ends."""
    parts = []
    for n, (op, words) in enumerate(ops):
        if op == "delete":
            parts.append(f"[-{words}-]")
        elif op == "insert":
            parts.append(f"{{+{words}+}}")
        else:
            w = words.split()
            first, last = n == 0, n == len(ops) - 1
            if len(w) > 2 * context:
                head = [] if first else w[:context]
                tail = [] if last else w[-context:]
                words = " ".join([*head, "…", *tail])
            parts.append(words)
    return " ".join(parts)
