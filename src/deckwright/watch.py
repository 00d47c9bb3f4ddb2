"""Saves, from the operating system's file notifications (inotify, FSEvents, ReadDirectoryChangesW)
through watchfiles, whose Rust core (notify) does the watching: nothing is polled. Both
`deckwright watch` and the studio (`deckwright serve`) wait for saves here.

An editor's save is often several events (truncate and write, or a temp file renamed over the
old one); watchfiles groups the events that come within `STEP_MS` of each other into one batch.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

STEP_MS = 25  # quiet time that ends a batch: short, as it adds to every save's latency
DEBOUNCE_MS = 800  # a batch is handed over after this long even if events keep coming
IGNORED_SUFFIXES = (".tmp", ".swp", ".swx", "~")  # editors' and the writer's temporary files


def _wanted(path: str, ignored: Sequence[Path]) -> bool:
    name = Path(path).name
    if name.startswith(".#") or name.endswith(IGNORED_SUFFIXES):
        return False
    return not any(Path(path).is_relative_to(folder) for folder in ignored)


def saves(roots: Sequence[Path], stop: threading.Event, ignored: Sequence[Path] = ()) -> Iterator[list[Path]]:
    """Each batch of changed paths under `roots` (and not under `ignored`), sorted, until `stop`
    is set."""
    from watchfiles import watch

    roots = [root for root in roots if root.exists()]  # a folder not made yet (art/) is not watched
    for changes in watch(
        *roots,
        watch_filter=lambda change, path: _wanted(path, ignored),
        step=STEP_MS,
        debounce=DEBOUNCE_MS,
        stop_event=stop,
        rust_timeout=500,
        yield_on_timeout=False,
        raise_interrupt=True,
    ):
        yield sorted({Path(path) for _, path in changes})
