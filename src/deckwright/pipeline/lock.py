"""One build of a game at a time: two builds writing the same files would interleave.

The lock is per game (`build/.locks/<game>.lock`): builds of different games write different
folders, and the render cache they share is written atomically and content-addressed.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class LockedError(Exception):
    pass


class BuildLock:
    """An exclusive, non-blocking lock, released on exit (or when the process dies)."""

    def __init__(self, build_dir: Path, game_id: str) -> None:
        self.game_id = game_id
        self.path = build_dir / ".locks" / f"{game_id}.lock"
        self._fd: int | None = None

    def __enter__(self) -> BuildLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LockedError(
                f"another deckwright build of {self.game_id} is running (lock: {self.path}); "
                "wait for it to finish"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
