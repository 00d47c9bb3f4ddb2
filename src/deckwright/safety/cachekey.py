"""The machine's cache key: every entry deckwright keeps in build/.cache/ is signed with it.

build/.cache/ holds pickled values (parsed YAML, rendered card sides) and compiled templates
(Python bytecode), which run code when loaded. A cache folder restored from elsewhere (a CI
cache, a game folder shipped with its build/) or written by anyone but this user must never be
loaded, so each entry carries a keyed BLAKE2b digest (an HMAC) under a secret that never
leaves the machine: 32 random bytes in the user's cache folder
(`$XDG_CACHE_HOME/deckwright/cache-key`, else `~/.cache/deckwright/cache-key`), created on
first use, readable by the user alone. An entry signed under another key (or none) is a miss:
the work is done again and the entry rewritten. `DECKWRIGHT_CACHE_KEY_FILE` names another file.

When no key can be kept (a read-only home), each process makes up its own: nothing is reused
between builds, which costs time, never safety.
"""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path

KEY_BYTES = 32


def key_file() -> Path:
    named = os.environ.get("DECKWRIGHT_CACHE_KEY_FILE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "deckwright" / "cache-key"


@functools.cache
def machine_key() -> bytes:
    """This user's cache key on this machine (made on first use), or a key of this process
    alone when none can be kept."""
    path = key_file()
    with contextlib.suppress(OSError):
        return _read(path)
    with contextlib.suppress(OSError):
        _create(path)
        return _read(path)
    return os.urandom(KEY_BYTES)


def _read(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        # A key others could write (or one that is not ours) could have been chosen by them.
        if info.st_uid != os.getuid() or info.st_mode & 0o022:
            raise PermissionError("the cache key file may be written by others")
        data = fh.read(KEY_BYTES + 1)
    if len(data) != KEY_BYTES:
        raise OSError("the cache key file is damaged")
    return data


def _create(path: Path) -> None:
    """A new key, written whole under a temporary name and linked into place: of two processes
    that make one at once, both use the one that got there first."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(KEY_BYTES))
        with contextlib.suppress(FileExistsError):
            os.link(temp, path)
    finally:
        temp.unlink(missing_ok=True)
