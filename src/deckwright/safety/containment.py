"""One rule for every file a game names or holds: YAML, CSV, Markdown, stylesheets, templates,
art and fonts.

The file must resolve, links followed, inside one of the folders it belongs to (the game folder,
the template folders, art/, fonts/ ...), must be a regular file (not a device, a FIFO or a
folder), and is read with its size limit checked on the bytes read, not on what `stat` says:
/dev/zero reports size 0, a file may grow while it is read. A violation is a `ContainmentError`
with the place to report and a message that names the file as the game names it, never the
content of what it points at.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..diagnostics import Loc


class ContainmentError(Exception):
    """A file a game names that may not be read; `loc` and `message` are for the designer."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(f"{loc}: {message}")
        self.loc = loc
        self.message = message


def resolved_roots(roots: Iterable[Path]) -> tuple[Path, ...]:
    return tuple(Path(os.path.realpath(root)) for root in roots)


def is_inside(real: Path, roots: Iterable[Path]) -> bool:
    """Whether a resolved path is one of `roots` (already resolved) or lies beneath one."""
    return any(real == root or root in real.parents for root in roots)


def contained_path(path: Path, roots: Iterable[Path], shown: str, loc: Loc | None = None) -> Path:
    """`path` resolved, links followed, after checking it lies inside `roots` and is a regular
    file: for files another library opens by name (fonts, WeasyPrint's stylesheets).
    Raises ContainmentError located at `loc` (default: the file itself)."""
    where = loc or Loc(shown)
    try:
        real = Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        raise ContainmentError(where, f"{shown}: file not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ContainmentError(where, f"{shown}: a loop of links; refused") from None
        raise ContainmentError(where, f"{shown}: cannot read file: {exc.strerror}") from None
    roots = resolved_roots(roots)
    if not is_inside(real, roots):
        raise ContainmentError(where, f"{shown}: refused: it lies outside {_names(roots)} (links followed)")
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise ContainmentError(where, f"{shown}: cannot read file: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise ContainmentError(where, f"{shown}: is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise ContainmentError(where, f"{shown}: refused: not a regular file (a device, a pipe or a socket)")
    return real


def read_contained(
    path: Path, roots: Iterable[Path], limit: int, shown: str, loc: Loc | None = None
) -> bytes:
    """The bytes of `path`, which must resolve inside `roots`, be a regular file and hold at
    most `limit` bytes (counted as read). Raises ContainmentError located at `loc` (default:
    the file itself)."""
    where = loc or Loc(shown)
    real = contained_path(path, roots, shown, loc)
    try:
        # O_NONBLOCK: had the file been swapped for a FIFO since it was checked, opening it
        # must not wait for a writer; fstat below refuses it.
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ContainmentError(where, f"{shown}: cannot read file: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ContainmentError(where, f"{shown}: refused: not a regular file")
        try:
            # the size the file says it has (no buffer of `limit` bytes for a small file), then
            # on until its end or past the limit: what counts is what is read
            data = fh.read(min(info.st_size, limit) + 1)
            while len(data) <= limit:
                more = fh.read(min(1 << 20, limit + 1 - len(data)))
                if not more:
                    break
                data += more
        except OSError as exc:
            raise ContainmentError(where, f"{shown}: cannot read file: {exc.strerror}") from None
    if len(data) > limit:
        raise ContainmentError(where, f"{shown}: file is larger than {limit} bytes (the limit); refused")
    return data


def _names(roots: tuple[Path, ...]) -> str:
    """The allowed folders, by name only: a message need not show where the machine keeps them."""
    names = list(dict.fromkeys(f"{root.name}/" for root in roots))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
