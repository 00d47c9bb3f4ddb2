"""A comparison for the terminal (`path:line: kind: message`, one change a line) and as JSON."""

from __future__ import annotations

import json
from collections import Counter

from .change import GROUPS
from .compare import Comparison


def lines(comparison: Comparison) -> list[str]:
    """Every change, then what it means for print (kind `print`, at the game's game.yaml)."""
    out = [change.line() for change in comparison.changes]
    info = comparison.new.game.info.loc
    out += [f"{info.path}:{info.line}: print: {line}" for line in comparison.impact.lines()]
    return out


def summary(comparison: Comparison, page: str | None) -> str:
    counts = Counter(change.group for change in comparison.changes)
    parts = ", ".join(f"{group} {counts[group]}" for group in GROUPS if counts[group])
    faces = f", {len(comparison.pairs)} faces look different" if comparison.pairs else ""
    where = f"; see {page}" if page else ""
    unseen = [v.label for v in (comparison.old, comparison.new) if v.faces is None]
    if unseen:
        faces += f", faces not compared ({' and '.join(unseen)}: errors, see deckwright validate)"
    old, new = comparison.labels
    changes = f"{len(comparison.changes)} changes ({parts or 'none'})"
    return f"{comparison.game_id}: {old} → {new}: {changes}{faces}{where}"


def as_json(comparison: Comparison, page: str | None) -> str:
    old, new = comparison.labels
    payload = {
        "game": comparison.game_id,
        "from": old,
        "to": new,
        "changed": comparison.changed,
        "changes": [change.as_dict() for change in comparison.changes],
        "faces": [
            {"name": p.name, "old_name": p.old_name, "state": p.state, "cards": list(p.cards)}
            for p in comparison.pairs
        ],
        "print": comparison.impact.as_dict(),
        "page": page,
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)
