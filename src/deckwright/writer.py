"""The only code that writes into build/: atomic (temp file + rename), never outside its folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

NAME_MAX = 255  # bytes of one file name, on the file systems a build folder lives on
TEMP_NAME_EXTRA = 32  # what a temp file's name adds to its file's: `.`, `.PID.XXXXXXXX.tmp`


class WriteError(Exception):
    pass


class Writer:
    def __init__(self, root: Path, durable: bool = True) -> None:
        """`durable`: each file reaches the disk before it replaces the old one, so a power cut
        cannot leave an empty or torn file under a good name. Caches, whose entries check
        themselves on reading, skip that wait (~2 ms a file)."""
        self.root = root.resolve()
        self.durable = durable
        self.written: list[Path] = []

    def target(self, relative: str | Path) -> Path:
        path = (self.root / relative).resolve()
        if path != self.root and self.root not in path.parents:
            raise WriteError(f"refusing to write {relative!s}: it is outside {self.root}")
        return path

    def unwritable(self, relative: str | Path) -> str | None:
        """Why `relative` could not be written, found before anything is: a build checks every
        name first, so that it never fails half-way with some files already replaced."""
        try:
            path = self.target(relative)
        except WriteError as exc:
            return str(exc)
        for part in path.relative_to(self.root).parts:
            # the temp file beside it is `.NAME.PID.XXXXXXXX.tmp`
            if len(os.fsencode(part)) + TEMP_NAME_EXTRA > NAME_MAX:
                return f"the file name {part[:40]}... is too long ({len(os.fsencode(part))} bytes)"
        return None

    def write_bytes(self, relative: str | Path, data: bytes) -> Path:
        """Write `data` so that readers see the old file or the new one, never a part."""
        path = self.target(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        _sweep_dead_temps(path)
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            self.written.append(path)
            return path  # unchanged: keep the file (and its mtime) as it is
        # the writer's pid is in the name, so that a later write can tell a killed writer's
        # leftover from a temp file another build is still writing
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                if self.durable:
                    os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.written.append(path)
        return path

    def write_text(self, relative: str | Path, text: str) -> Path:
        return self.write_bytes(relative, text.encode("utf-8"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's process)
    return True


def _sweep_dead_temps(path: Path) -> None:
    """Remove the temp files a killed writer of `path` left beside it (`.NAME.PID.XXXX.tmp`
    whose PID is no longer running); a live writer's temp file is never touched."""
    prefix = f".{path.name}."
    # A plain scan: a glob pattern per file name costs a regex compilation on every write.
    with os.scandir(path.parent) as entries:
        temps = [e.name for e in entries if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    for name in temps:
        parts = name[len(prefix) : -len(".tmp")].split(".")
        if len(parts) != 2 or not parts[0].isdigit():
            continue  # not this file's temp (another file's name continues with dots)
        if not _alive(int(parts[0])):
            (path.parent / name).unlink(missing_ok=True)
