"""Rulebook prose: `cards/<game>/rulebook/NN-name.md`, with the place of every data reference.

The prose is Markdown a designer edits. Data enters it only through references, which the
validator resolves and the renderer fills in:

    {card:fear}                          the card's current name (`field=text`: another field)
    {table:role-setup columns=players,watchers,deceivers,as_written:"Recommended roles"}
    {cards:stronghold columns=name,stats_as_written:ATK/HP,mp,text where="mp > 6"}

The reference syntax is `deckwright.references.syntax`; what a reference selects from the data,
`deckwright.references.selection`. This module reads the files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import RulebookFile
from ..references.syntax import read_rulebook_text
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_PROSE_BYTES

RULEBOOK_DIR = "rulebook"
MAX_FILE_BYTES = MAX_PROSE_BYTES
FILE_NAME = re.compile(r"^\d+-[a-z0-9]+(-[a-z0-9]+)*\.md$")


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
