"""The only code that writes into build/: atomic (temp file + rename), never outside its folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class WriteError(Exception):
    pass


class Writer:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.written: list[Path] = []

    def target(self, relative: str | Path) -> Path:
        path = (self.root / relative).resolve()
        if path != self.root and self.root not in path.parents:
            raise WriteError(f"refusing to write {relative!s}: it is outside {self.root}")
        return path

    def write_bytes(self, relative: str | Path, data: bytes) -> Path:
        """Write `data` so that readers see the old file or the new one, never a part."""
        path = self.target(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            self.written.append(path)
            return path  # unchanged: keep the file (and its mtime) as it is
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
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
