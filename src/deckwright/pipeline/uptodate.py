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


def _files(roots: Iterable[Path], exclude: Iterable[Path] = ()) -> list[Path]:
    found = []
    for root in roots:
        if root.is_file() or root.is_symlink():
            found.append(root)
        elif root.is_dir():
            found.extend(p for p in root.rglob("*") if p.is_symlink() or p.is_file())
    # a game on its own keeps its outputs (and the cache) inside its folder: not inputs
    skip = [e.resolve() for e in exclude]
    return sorted(p for p in set(found) if not any(s in p.resolve().parents for s in skip))


def input_digest(
    roots: Iterable[Path],
    options: BuildOptions,
    kinds: Iterable[str],
    exclude: Iterable[Path] = (),
    extra: str = "",
) -> str:
    """A digest of everything a build reads, hashed as it is read (art can be large).

    A symlink is hashed by where it points, not followed: art linking outside the project is
    refused by the build anyway, and its digest must not read files there.
    """
    h = hashlib.sha256()
    for part in (code_version(), json.dumps(asdict(options), sort_keys=True), ",".join(kinds), extra):
        h.update(part.encode() + b"\0")
    for path in _files(roots, exclude):
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


def last_state(build_dir: Path, game_id: str) -> dict:
    """What the last good build of the game recorded ({} when there is none)."""
    try:
        state = json.loads(_state_path(build_dir, game_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def is_up_to_date(build_dir: Path, game_id: str, inputs: str, out_dir: Path | None = None) -> bool:
    state = last_state(build_dir, game_id)
    if not state or state.get("inputs") != inputs:
        return False
    base = out_dir if out_dir is not None and "out" in state else build_dir
    for name, (size, mtime_ns) in state.get("outputs", {}).items():
        try:
            st = (base / name).stat()
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime_ns):
            return False
    return True


def record(
    build_dir: Path,
    game_id: str,
    inputs: str,
    written: Iterable[Path],
    out_dir: Path | None = None,
    made: dict[str, list[str]] | None = None,
    warnings: Iterable[str] = (),
) -> None:
    """Keep what a good build read (its digest), wrote (relative to `out_dir`, the game's build
    folder), which kind made which file, and its warnings (replayed by an up-to-date build)."""
    base = out_dir if out_dir is not None else build_dir
    outputs = {}
    for path in written:
        st = path.stat()
        outputs[str(path.relative_to(base))] = (st.st_size, st.st_mtime_ns)
    state = {"inputs": inputs, "outputs": outputs}
    if out_dir is not None:
        state.update(out=str(out_dir), made=made or {}, warnings=list(warnings))
    text = json.dumps(state, indent=1, sort_keys=True, ensure_ascii=False)
    Writer(build_dir).write_text(f"{STATE_DIR}/{game_id}.json", text + "\n")
