"""A change between two versions of a game, as a record, and the values it compares."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..consistency.words import compare, word_diff
from ..diagnostics import Loc
from ..model import Unknown

# Kinds of change, grouped as the changelog groups them.
GROUPS: dict[str, tuple[str, ...]] = {
    "game": ("game", "schema"),
    "cards": ("card-added", "card-removed", "card-renamed", "count", "field"),
    "tables": ("table-added", "table-removed", "table", "row-added", "row-removed", "row"),
    "checks": ("check-added", "check-removed", "check"),
    "rulebook": ("chapter-added", "chapter-removed", "paragraph"),
}
KINDS = tuple(kind for kinds in GROUPS.values() for kind in kinds)


@dataclass(frozen=True)
class Change:
    """One difference between the two versions, where it is (the new version's place, else the
    old one's), and the values on both sides as plain data."""

    kind: str
    subject: str  # stable: "card:ann", "card:ann.text", "table:setup/4.light", "rulebook:01-x.md#3"
    message: str
    loc: Loc
    card: str | None = None  # the card it is about (its new id)
    old_card: str | None = None  # its id in the old version
    field: str | None = None
    old: Any = None
    new: Any = None
    words: tuple[tuple[str, str], ...] = ()  # word diff of old -> new text

    @property
    def group(self) -> str:
        return next(group for group, kinds in GROUPS.items() if self.kind in kinds)

    def line(self) -> str:
        return f"{self.loc.path}:{self.loc.line}: {self.kind}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "path": self.loc.path,
            "line": self.loc.line,
            "message": self.message,
            "card": self.card,
            "old_card": self.old_card,
            "field": self.field,
            "old": self.old,
            "new": self.new,
            "words": [list(op) for op in self.words],
        }


# -- plain values ------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A model value as JSON-able data: unknowns as {"unknown": note}, tuples as lists."""
    if isinstance(value, Unknown):
        return {"unknown": value.note}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not f.name.endswith(("loc", "locs")) and not f.name.startswith("_")
        }
    return value


def same_key(value: Any) -> Any:
    """What equality compares: plain data, with every unknown alike (its note is not printed)."""
    if isinstance(value, Unknown):
        return ("unknown",)
    if isinstance(value, tuple | list):
        return tuple(same_key(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), same_key(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(
            (f.name, same_key(getattr(value, f.name)))
            for f in dataclasses.fields(value)
            if not f.name.endswith(("loc", "locs")) and not f.name.startswith("_")
        )
    return value


def same(a: Any, b: Any) -> bool:
    return same_key(a) == same_key(b)


def show(value: Any) -> str:
    """A value as a message shows it."""
    if isinstance(value, Unknown):
        return "unknown"
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def text_change(old: Any, new: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(old, str) and isinstance(new, str):
        return word_diff(old, new)
    return ()


def describe_values(old: Any, new: Any) -> str:
    """ "old → new", or for texts the word diff ([-deleted-] {+inserted+})."""
    if isinstance(old, str) and isinstance(new, str) and (" " in old or " " in new):
        from ..consistency.words import diff_text

        how = " (punctuation or spacing only)" if compare(old, new) == "punctuation" else ""
        return diff_text(word_diff(old, new)) + how
    return f"{show(old)} → {show(new)}"


# -- the comparison ----------------------------------------------------------------------------


def short(text: str, limit: int = 100) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"
