"""Rulebook prose: `cards/<game>/rulebook/NN-name.md`, with the place of every data reference.

The prose is Markdown a designer edits. Data enters it only through references, which the
validator resolves and the renderer fills in:

    {card:fear}                          the card's current name (`field=text`: another field)
    {table:role-setup columns=players,watchers,deceivers,as_written:"Recommended roles"}
    {cards:stronghold columns=name,stats_as_written:ATK/HP,mp,text where="mp > 6"}

A reference is `{kind:target}` followed by `option=value` pairs (shell-like quoting). Code
spans, fenced code blocks and `\\{` are left alone. This module only reads and parses; whether a
card, table or column exists is the validator's business (`validate/rulebook.py`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import RulebookFile, RulebookRef, frozen_map
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_PROSE_BYTES
from .common import SLUG

RULEBOOK_DIR = "rulebook"
MAX_FILE_BYTES = MAX_PROSE_BYTES
FILE_NAME = re.compile(r"^\d+-[a-z0-9]+(-[a-z0-9]+)*\.md$")

# The options each kind of reference takes.
REF_OPTIONS: dict[str, tuple[str, ...]] = {
    "card": ("field",),
    "table": ("columns", "where", "as", "term", "group", "caption", "indent"),
    "cards": ("columns", "where", "as", "term", "group", "caption", "indent"),
}
BLOCK_KINDS = ("table", "cards")  # references that stand for a block (a table, a list)
LAYOUTS = ("table", "list", "numbered", "terms")

# `{kind:...}`; `\{` is an escaped brace. The body may not hold braces or line breaks.
REF_PATTERN = re.compile(r"(?<!\\)\{([a-z][a-z-]*):([^{}\n]*)\}")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


class RefSyntaxError(ValueError):
    """A reference that cannot be read; the message is for the designer."""


def parse_ref(kind: str, body: str, source: str, loc: Loc) -> RulebookRef:
    """`{kind:body}` -> RulebookRef. Raises RefSyntaxError."""
    if kind not in REF_OPTIONS:
        known = ", ".join(REF_OPTIONS)
        raise RefSyntaxError(f"unknown reference kind {kind!r} in {source} (kinds: {known})")
    try:
        words = shlex.split(body, posix=True)
    except ValueError as exc:
        raise RefSyntaxError(f"cannot read {source}: {exc}") from None
    if not words:
        raise RefSyntaxError(f"{source} names no {'card type' if kind == 'cards' else kind}")
    target, *rest = words
    targets = target.split(",") if kind == "cards" else [target]
    for t in targets:
        if not SLUG.match(t):
            raise RefSyntaxError(f"{source}: {t!r} is not an id (lower-case letters, digits and '-')")
    options: dict[str, str] = {}
    for word in rest:
        name, eq, value = word.partition("=")
        if not eq or not name:
            raise RefSyntaxError(f"{source}: {word!r} is not an option=value pair")
        if name not in REF_OPTIONS[kind]:
            accepted = ", ".join(REF_OPTIONS[kind])
            raise RefSyntaxError(f"{source}: unknown option {name!r} (accepted: {accepted})")
        if name in options:
            raise RefSyntaxError(f"{source}: option {name!r} is given twice")
        options[name] = value
    layout = options.get("as")
    if layout is not None and layout not in LAYOUTS:
        raise RefSyntaxError(f"{source}: as={layout!r} is not one of {', '.join(LAYOUTS)}")
    return RulebookRef(kind, target, frozen_map(options), source, loc)


def parse_columns(value: str) -> list[tuple[str, str | None]]:
    """`a,b:Heading,c` -> [(a, None), (b, "Heading"), (c, None)]."""
    out = []
    for item in value.split(","):
        name, colon, title = item.strip().partition(":")
        out.append((name.strip(), title.strip() if colon else None))
    return out


def _code_mask(line: str) -> list[tuple[int, int]]:
    """Spans of a line inside inline code (`...`, ``...``), as (start, end) indexes."""
    spans = []
    runs = list(_BACKTICKS.finditer(line))
    i = 0
    while i < len(runs):
        opening = runs[i]
        closing = next(
            (j for j in range(i + 1, len(runs)) if len(runs[j].group()) == len(opening.group())),
            None,
        )
        if closing is None:
            i += 1
            continue
        spans.append((opening.start(), runs[closing].end()))
        i = closing + 1
    return spans


def blank_comments(text: str) -> str:
    """`<!-- ... -->` comments (notes for designers, never printed) replaced by blanks that
    keep every line and column where it was."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def scan_refs(text: str) -> Iterator[tuple[int, int, re.Match]]:
    """Every reference outside code and comments, as (line, col, match); both count from 1."""
    fence: str | None = None
    for number, line in enumerate(blank_comments(text).split("\n"), start=1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        masked = _code_mask(line)
        for match in REF_PATTERN.finditer(line):
            if any(start <= match.start() < end for start, end in masked):
                continue
            yield number, match.start() + 1, match


def read_rulebook_text(text: str, path: str, diags: Diagnostics) -> tuple[RulebookRef, ...]:
    refs = []
    for line, col, match in scan_refs(text):
        loc = Loc(path, line, col)
        try:
            refs.append(parse_ref(match.group(1), match.group(2), match.group(0), loc))
        except RefSyntaxError as exc:
            diags.error(loc, str(exc))
    return tuple(refs)


def _decode(raw: bytes, shown: str, diags: Diagnostics) -> str | None:
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        diags.error(Loc(shown, line, col), f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})")
        return None


def read_rulebook(
    folder: Path, diags: Diagnostics, display: Callable[[Path], str] = str
) -> tuple[RulebookFile, ...]:
    """Read every `*.md` file of a game's rulebook folder, in file-name order."""
    if not folder.is_dir():
        return ()
    files = []
    for path in sorted(folder.glob("*.md")):
        shown = display(path)
        if not FILE_NAME.match(path.name):
            diags.warning(
                Loc(shown),
                f"rulebook file {path.name!r}: name it NN-name.md (a number first: it sets the order)",
            )
        try:
            # inside the game folder, a regular file, the limit counted on the bytes read
            raw = read_contained(path, [folder.parent], MAX_FILE_BYTES, shown)
        except ContainmentError as exc:
            diags.error(exc.loc, exc.message.removeprefix(f"{shown}: "))
            continue
        text = _decode(raw, shown, diags)
        if text is None:
            continue
        if not text.strip():
            diags.warning(Loc(shown), "rulebook file is empty")
        files.append(RulebookFile(path.name, shown, text, read_rulebook_text(text, shown, diags)))
    return tuple(files)
