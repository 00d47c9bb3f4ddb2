"""A content-addressed cache of rendered bytes, so a rebuild renders only what changed.

Every expensive render (a face's PNG, a PDF, a rulebook) is keyed by a hash of everything that
makes it: its SVG or HTML source (which already holds the card data, template, layout and
style), the shipped fonts, the deckwright version and the kind of render. Same key, same
bytes: a hit is read back instead of rendered. Blobs live in `build/.cache/`, written
atomically but not synced to disk, each signed with this machine's cache key
(safety/cachekey.py): a torn entry, or one written anywhere else, fails it (a miss); deleting
that folder (or `--no-cache`) only costs time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import io
import pickle
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .safety.cachekey import machine_key
from .writer import Writer


@functools.cache
def code_version() -> str:
    """The version plus a digest of deckwright's own source: a changed renderer must not reuse
    what the old one drew (a release and a working copy alike)."""
    package = Path(__file__).resolve().parent
    return __version__ + ":" + files_digest(package.rglob("*.py"))[:16]


def checked(data: bytes) -> bytes:
    """`data` with its signature appended: a keyed digest under this machine's cache key
    (safety/cachekey.py). An entry that a crash left torn or empty (cache files are not synced
    to disk), or that was written anywhere else, reads back as a miss, never as wrong bytes or
    as a pickle from someone else."""
    return data + _signature(data)


def unchecked(entry: bytes) -> bytes | None:
    """The data of a `checked` entry, or None when it does not match its signature."""
    if len(entry) < CHECKSUM_BYTES:
        return None
    data, checksum = entry[:-CHECKSUM_BYTES], entry[-CHECKSUM_BYTES:]
    return data if hmac.compare_digest(_signature(data), checksum) else None


def _signature(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=CHECKSUM_BYTES, key=machine_key()).digest()


CHECKSUM_BYTES = 16


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def files_digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(str(path).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


@dataclass
class CacheStats:
    hits: int = 0
    renders: int = 0
    rendered: list[str] = field(default_factory=list)  # what was rendered, for tests and logs


class RenderCache:
    def __init__(self, folder: Path, fonts: str, enabled: bool = True) -> None:
        """`fonts` is the digest of every shipped font file."""
        self.folder = folder
        self.fonts = fonts
        self.enabled = enabled
        self.stats = CacheStats()
        self._writer = Writer(folder, durable=False)

    def key(self, kind: str, *parts: str | bytes, fonts: str | None = None) -> str:
        """A key over the parts, the version, and the fonts: by default all of them (a PDF
        embeds whichever it uses); a render that knows which fonts it draws passes their digest."""
        return digest(code_version(), self.fonts if fonts is None else fonts, kind, *parts)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def get(self, key: str) -> bytes | None:
        if not self.enabled:
            return None
        return self.load(key)

    def has(self, key: str) -> bool:
        """Whether an entry is there to be read (`load` still checks it)."""
        return self.enabled and self._path(key).is_file()

    def load(self, key: str) -> bytes | None:
        """An entry's bytes, also in a cold build (`enabled` off): for what this build itself put
        there, such as card images it reads back one at a time when it writes them."""
        try:
            return unchecked(self._path(key).read_bytes())
        except OSError:
            return None

    def put(self, key: str, data: bytes) -> None:
        self._writer.write_bytes(f"{key[:2]}/{key}", checked(data))

    def through(
        self, kind: str, label: str, parts: Iterable[str | bytes], make: Callable[[], bytes]
    ) -> bytes:
        """The cached bytes for these inputs, or `make()` (then cached)."""
        key = self.key(kind, *parts)
        data = self.get(key)
        if data is not None:
            self.stats.hits += 1
            return data
        data = make()
        self.record_render(label)
        self.put(key, data)
        return data

    def record_render(self, label: str) -> None:
        self.stats.renders += 1
        self.stats.rendered.append(label)


class PickleStore:
    """Python values kept in a folder between builds, as pickles signed with this machine's
    cache key (`checked`): an entry from elsewhere is never unpickled. As a second wall, only
    deckwright's own data classes and plain values may be rebuilt from a pickle (`_DataOnly`).
    A value that is missing, torn, foreign or unreadable reads as None; one that cannot be
    written is not kept: either only costs the work of making it again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, name: str) -> Any | None:
        try:
            data = unchecked((self.folder / name).read_bytes())
            return _DataOnly(io.BytesIO(data)).load() if data is not None else None
        except Exception:  # unreadable, or a pickle of something that no longer loads
            return None

    def put(self, name: str, value: Any) -> None:
        with contextlib.suppress(OSError):
            data = checked(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
            Writer(self.folder, durable=False).write_bytes(name, data)


class _DataOnly(pickle.Unpickler):
    """An unpickler that rebuilds deckwright's data classes (YMap, Loc, Rendered ...) and
    nothing else: no function, no class of another module, so even a pickle that carried a
    valid signature could not call anything."""

    ALLOWED = frozenset(
        {
            ("deckwright.source", "YMap"),
            ("deckwright.source", "YList"),
            ("deckwright.diagnostics", "Loc"),
            ("deckwright.render.card.template", "Rendered"),
            ("deckwright.render.card.template", "Problem"),
            ("deckwright.render.card.facecache", "_Entry"),
        }
    )

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a cache data class")
