"""A game's build folder holds what the last good build made: a file an earlier build made and
this one no longer does (the card was deleted, a deck renamed) is removed, so uploading the
folder never uploads a deleted card.

Only files an earlier build recorded as its own are candidates, and only inside the game's
build folder: what the designer or another command put there (`deckwright check`'s page, a
diff) is left alone, and so is everything outside it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path


def stale(previous: Mapping[str, Sequence[str]], now: Mapping[str, Sequence[str]]) -> list[str]:
    """Paths an earlier build's kinds made that the same kinds, built now, did not."""
    gone: set[str] = set()
    for kind, paths in now.items():
        gone.update(set(previous.get(kind, ())) - set(paths))
    still = {p for paths in now.values() for p in paths}
    return sorted(gone - still)


def remove_stale(out_dir: Path, paths: Sequence[str]) -> list[Path]:
    """Delete `paths` (relative to `out_dir`) that lie inside it, then the folders they emptied."""
    root = out_dir.resolve()
    removed = []
    for name in paths:
        target = out_dir / name
        real = target.parent.resolve() / target.name
        if root not in real.parents or target.is_symlink() or not target.is_file():
            continue  # never anything outside the build folder, nor a link or a folder
        with contextlib.suppress(OSError):
            target.unlink()
            removed.append(target)
            folder = target.parent
            while folder.resolve() != root and not any(folder.iterdir()):
                folder.rmdir()
                folder = folder.parent
    return removed


def merged(previous: Mapping[str, Sequence[str]], now: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """What the build folder now holds, by kind: the kinds built now, and the others as before."""
    result = {kind: list(paths) for kind, paths in previous.items() if kind not in now}
    result.update({kind: list(paths) for kind, paths in now.items()})
    return dict(sorted(result.items()))
