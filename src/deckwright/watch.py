"""Saves, from the operating system's file notifications (inotify, FSEvents, ReadDirectoryChangesW)
through watchfiles, whose Rust core (notify) does the watching: nothing is polled. Both
`deckwright watch` and the studio (`deckwright serve`) wait for saves here.

An editor's save is often several events (truncate and write, or a temp file renamed over the
old one); watchfiles groups the events that come within `STEP_MS` of each other into one batch.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

READY_MS = 200  # a quiet spell this long tells the watcher is in place
READY_TIMEOUT_S = 10  # a watcher not in place by then still works; only early saves could be missed
STEP_MS = 25  # quiet time that ends a batch: short, as it adds to every save's latency
DEBOUNCE_MS = 800  # a batch is handed over after this long even if events keep coming
IGNORED_SUFFIXES = (".tmp", ".swp", ".swx", "~")  # editors' and the writer's temporary files


def _wanted(path: str, ignored: Sequence[Path]) -> bool:
    name = Path(path).name
    if name.startswith(".#") or name.endswith(IGNORED_SUFFIXES):
        return False
    return not any(Path(path).is_relative_to(folder) for folder in ignored)


def saves(
    roots: Sequence[Path],
    stop: threading.Event,
    ignored: Sequence[Path] = (),
    ready: threading.Event | None = None,
) -> Iterator[list[Path]]:
    """Each batch of changed paths under `roots` (and not under `ignored`), sorted, until `stop`
    is set. `ready` is set once the operating system is watching (the first quiet timeout)."""
    from watchfiles import watch

    roots = [root for root in roots if root.exists()]  # a folder not made yet (art/) is not watched
    for changes in watch(
        *roots,
        watch_filter=lambda change, path: _wanted(path, ignored),
        step=STEP_MS,
        debounce=DEBOUNCE_MS,
        stop_event=stop,
        rust_timeout=READY_MS,
        yield_on_timeout=True,
        raise_interrupt=True,
    ):
        if not changes:  # a quiet timeout: by now the watcher is in place
            if ready is not None:
                ready.set()
            continue
        yield sorted({Path(path) for _, path in changes})


class Listener:
    """Saves under `roots`, heard from the moment the listener is made: a save made while a
    build runs is queued, not lost, so the watcher is made before the first build."""

    def __init__(
        self, roots: Sequence[Path], ignored: Sequence[Path] = (), stop: threading.Event | None = None
    ) -> None:
        self.stop = stop or threading.Event()
        self._batches: queue.Queue[list[Path]] = queue.Queue()
        ready = threading.Event()
        thread = threading.Thread(
            target=self._listen,
            args=(list(roots), list(ignored), ready),
            daemon=True,
            name="deckwright-watch",
        )
        thread.start()
        ready.wait(READY_TIMEOUT_S)

    def _listen(self, roots: list[Path], ignored: list[Path], ready: threading.Event) -> None:
        for batch in saves(roots, self.stop, ignored, ready):
            self._batches.put(batch)

    def __iter__(self) -> Iterator[list[Path]]:
        """The paths saved since the last batch (batches that queued up during a build come
        together), until `stop` is set."""
        while not self.stop.is_set():
            try:
                paths = set(self._batches.get(timeout=0.25))
            except queue.Empty:
                continue
            while True:
                try:
                    paths |= set(self._batches.get_nowait())
                except queue.Empty:
                    break
            yield sorted(paths)
