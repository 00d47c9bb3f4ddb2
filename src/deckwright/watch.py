"""Waiting for a designer's next save: polls the files a build reads.

Polling the modification times of a few hundred files twice a second costs nothing measurable
and needs no platform notification API, so it works the same everywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

Snapshot = dict[Path, tuple[int, int]]


def snapshot(roots: Iterable[Path], ignored: Iterable[Path] = ()) -> Snapshot:
    """Size and modification time of every file under `roots`, except under `ignored`."""
    state: Snapshot = {}
    skip = tuple(ignored)
    for root in roots:
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in paths:
            if any(path.is_relative_to(s) for s in skip):
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            state[path] = (st.st_mtime_ns, st.st_size)
    return state


def changed(before: Snapshot, after: Snapshot) -> list[Path]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def wait_for_change(
    roots: list[Path],
    before: Snapshot,
    interval: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
    ignored: Iterable[Path] = (),
) -> tuple[list[Path], Snapshot]:
    """Block until a file under `roots` is added, removed or modified; returns what changed."""
    while True:
        sleep(interval)
        after = snapshot(roots, ignored)
        paths = changed(before, after)
        if paths:
            # let an editor finish writing (save = truncate + write, or temp + rename)
            sleep(interval / 2)
            return paths, snapshot(roots, ignored)
