"""Rulebook chapters compared, paragraph by paragraph."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ..consistency.words import word_diff
from ..diagnostics import Loc
from ..model import Game, RulebookFile
from .change import Change, describe_values, short


def paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line, paragraph) of a Markdown text: runs of non-blank lines."""
    out: list[tuple[int, str]] = []
    current: list[str] = []
    start = 1
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            if not current:
                start = n
            current.append(line)
        elif current:
            out.append((start, "\n".join(current)))
            current = []
    if current:
        out.append((start, "\n".join(current)))
    return out


def rulebook_changes(old: Game, new: Game) -> Iterator[Change]:
    a_files: dict[str, RulebookFile] = {f.name: f for f in old.rulebook}
    b_files: dict[str, RulebookFile] = {f.name: f for f in new.rulebook}
    for name in sorted(set(a_files) | set(b_files)):
        a, b = a_files.get(name), b_files.get(name)
        if a is None:
            yield Change(
                "chapter-added", f"rulebook:{name}", f"chapter {name} added", Loc(b.path), new=b.text
            )
        elif b is None:
            yield Change(
                "chapter-removed", f"rulebook:{name}", f"chapter {name} removed", Loc(a.path), old=a.text
            )
        elif a.text != b.text:
            yield from _paragraph_changes(a, b)


def _paragraph_changes(a: RulebookFile, b: RulebookFile) -> Iterator[Change]:
    pa, pb = paragraphs(a.text), paragraphs(b.text)
    matcher = difflib.SequenceMatcher(None, [p for _, p in pa], [p for _, p in pb], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = pa[i1:i2], pb[j1:j2]
        common = min(len(olds), len(news)) if tag == "replace" else 0
        for n in range(common):
            (_, x), (line, y) = olds[n], news[n]
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#{j1 + n + 1}",
                f"{b.name}, paragraph {j1 + n + 1} changed: {describe_values(x, y)}",
                Loc(b.path, line),
                old=x,
                new=y,
                words=word_diff(x, y),
            )
        for n, (line, y) in enumerate(news[common:], j1 + common):
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#{n + 1}",
                f"{b.name}, paragraph {n + 1} added: {short(y)}",
                Loc(b.path, line),
                new=y,
            )
        anchor = pb[j1][0] if j1 < len(pb) else (pb[-1][0] if pb else 1)
        for n, (_, x) in enumerate(olds[common:], i1 + common):
            yield Change(
                "paragraph",
                f"rulebook:{b.name}#old{n + 1}",
                f"{b.name}, paragraph {n + 1} of the old version removed: {short(x)}",
                Loc(b.path, anchor),
                old=x,
            )
