"""An edition's changelog: the changes since the previous edition, grouped by kind, as Markdown.

The previous edition is a git tag. By default it is the newest tag named `<game-id>/*` (e.g.
`light-vs-darkness/set-1`) that the new edition's commit comes after: for a revision, the
newest such tag among its ancestors, not counting a tag on the revision itself (that tag is the
new edition); for the working tree, the newest one HEAD contains. `--since` names it instead.

`build/<game>/changelog.md` always gets the changelog. A game asks for it in its rulebook with
a chapter holding the two marker comments below; `deckwright changelog` then fills the lines
between them (the rest of the chapter is the designer's), so the rulebook prints it like any
other prose. Only the lines between the markers are ever rewritten.
"""

from __future__ import annotations

from .change import GROUPS, Change

START = "<!-- deckwright:changelog -->"
END = "<!-- /deckwright:changelog -->"

TITLES = {
    "game": "The game",
    "cards": "Cards",
    "tables": "Rules tables",
    "checks": "Checks",
    "rulebook": "Rulebook",
}
KIND_TITLES = {
    "game": "Identity",
    "schema": "Card types, decks and enumerations",
    "card-added": "New cards",
    "card-removed": "Cards removed",
    "card-renamed": "Cards renamed",
    "count": "Counts",
    "field": "Card texts and values",
    "table-added": "New tables",
    "table-removed": "Tables removed",
    "table": "Table layout",
    "row-added": "Rows added",
    "row-removed": "Rows removed",
    "row": "Rows changed",
    "check-added": "New checks",
    "check-removed": "Checks removed",
    "check": "Checks changed",
    "chapter-added": "New chapters",
    "chapter-removed": "Chapters removed",
    "paragraph": "Paragraphs",
}


def _md(text: str) -> str:
    """Game text inside Markdown: one line, its Markdown and rulebook-reference characters
    escaped so that it prints as written."""
    one = " ".join(str(text).split())
    for ch in "\\`*_[]{}<>#|~":
        one = one.replace(ch, "\\" + ch)
    return one


def _words(change: Change) -> str:
    parts = []
    for op, words in change.words:
        if op == "delete":
            parts.append(f"~~{_md(words)}~~")
        elif op == "insert":
            parts.append(f"**{_md(words)}**")
        else:
            parts.append(_md(words))
    return " ".join(parts)


def _item(change: Change) -> str:
    if change.words and change.kind in ("field", "row", "paragraph", "game"):
        head = (
            change.message.split(": ", 1)[0]
            if change.kind != "field"
            else change.subject.removeprefix("card:")
        )
        where = (
            _md(head)
            if change.kind != "field"
            else f"{_md(change.message.split(':', 1)[0])} ({_md(change.field or '')})"
        )
        return f"- {where}: {_words(change)}"
    return f"- {_md(change.message)}"


def changelog_body(changes: list[Change], level: int = 2) -> list[str]:
    """The changes as Markdown: a heading per group, a sub-heading per kind, a bullet each."""
    lines: list[str] = []
    if not changes:
        return ["No changes."]
    for group, kinds in GROUPS.items():
        mine = [c for c in changes if c.group == group]
        if not mine:
            continue
        lines += ["#" * level + f" {TITLES[group]}", ""]
        for kind in kinds:
            found = [c for c in mine if c.kind == kind]
            if not found:
                continue
            lines += ["#" * (level + 1) + f" {KIND_TITLES[kind]}", ""]
            lines += [_item(c) for c in found]
            lines.append("")
    return lines


def changelog_markdown(title: str, since: str, to: str, changes: list[Change]) -> str:
    lines = [f"# {_md(title)} — changes since {_md(since)}", "", f"From {_md(since)} to {_md(to)}.", ""]
    lines += changelog_body(changes)
    return "\n".join(lines).rstrip("\n") + "\n"


def fill_chapter(text: str, since: str, changes: list[Change]) -> str | None:
    """The chapter with the lines between its markers replaced by the changelog; None when it
    has no markers (the game does not ask for a changelog there)."""
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines) if line.strip() == START]
    ends = [n for n, line in enumerate(lines) if line.strip() == END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        return None
    body = [f"Changes since {_md(since)}.", "", *changelog_body(changes, level=3)]
    while body and not body[-1]:
        body.pop()
    new = [*lines[: starts[0] + 1], "", *body, "", *lines[ends[0] :]]
    return "\n".join(new) + ("\n" if text.endswith("\n") else "")
