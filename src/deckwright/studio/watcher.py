"""Saves, from the operating system's file notifications (inotify, FSEvents, ReadDirectoryChangesW)
through watchfiles, whose Rust core (notify) does the watching: nothing is polled.

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


def _wanted(change, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith(".#") or name.endswith(IGNORED_SUFFIXES))


def saves(roots: Sequence[Path], stop: threading.Event) -> Iterator[list[Path]]:
    """Each batch of changed paths under `roots`, sorted, until `stop` is set."""
    from watchfiles import watch

    for changes in watch(
        *roots,
        watch_filter=_wanted,
        step=STEP_MS,
        debounce=DEBOUNCE_MS,
        stop_event=stop,
        rust_timeout=500,
        yield_on_timeout=False,
        raise_interrupt=True,
    ):
        yield sorted({Path(path) for _, path in changes})
