"""Skipping a build whose inputs have not changed since the last good one.

A digest of every file a game's build reads (its data folder, its templates and the shared
ones, layouts, fonts, art), the deckwright version and the build options is stored after a
successful build, with the size and modification time of each file it wrote. A later build with
the same digest, whose outputs are all still in place, has nothing to do.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path

from ..cache import code_version
from ..context.base import BuildOptions
from ..writer import Writer

STATE_DIR = ".cache/state"


def _files(roots: Iterable[Path]) -> list[Path]:
    found = []
    for root in roots:
        if root.is_file() or root.is_symlink():
            found.append(root)
        elif root.is_dir():
            found.extend(p for p in root.rglob("*") if p.is_symlink() or p.is_file())
    return sorted(set(found))


def input_digest(roots: Iterable[Path], options: BuildOptions, kinds: Iterable[str]) -> str:
    """A digest of everything a build reads, hashed as it is read (art can be large).

    A symlink is hashed by where it points, not followed: art linking outside the project is
    refused by the build anyway, and its digest must not read files there.
    """
    h = hashlib.sha256()
    for part in (code_version(), json.dumps(asdict(options), sort_keys=True), ",".join(kinds)):
        h.update(part.encode() + b"\0")
    for path in _files(roots):
        h.update(str(path).encode() + b"\0")
        if path.is_symlink():
            h.update(b"link:" + os.readlink(path).encode() + b"\0")
            continue
        with path.open("rb") as fh:
            for block in iter(lambda fh=fh: fh.read(1 << 20), b""):
                h.update(block)
        h.update(b"\0")
    return h.hexdigest()


def _state_path(build_dir: Path, game_id: str) -> Path:
    return build_dir / STATE_DIR / f"{game_id}.json"


def is_up_to_date(build_dir: Path, game_id: str, inputs: str) -> bool:
    try:
        state = json.loads(_state_path(build_dir, game_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if state.get("inputs") != inputs:
        return False
    for name, (size, mtime_ns) in state.get("outputs", {}).items():
        try:
            st = (build_dir / name).stat()
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime_ns):
            return False
    return True


def record(build_dir: Path, game_id: str, inputs: str, written: Iterable[Path]) -> None:
    outputs = {}
    for path in written:
        st = path.stat()
        outputs[str(path.relative_to(build_dir))] = (st.st_size, st.st_mtime_ns)
    text = json.dumps({"inputs": inputs, "outputs": outputs}, indent=1, sort_keys=True)
    Writer(build_dir).write_text(f"{STATE_DIR}/{game_id}.json", text + "\n")
