"""The CMYK ICC profile a press PDF is converted with: the printer's own file, or deckwright's
default, built once per machine and kept in a cache.

The default is made by ArgyllCMS's `colprof` from FOGRA39L.ti3 (the FOGRA39 measurement data,
package icc-profiles-free) with the total ink limit of the service (e.g. 240 % for
DriveThruCards): colprof builds the separation (black generation, ink limit) into the profile's
tables, so littleCMS needs no post-processing to keep within the limit. A build takes ~25 s at
colprof's medium quality, so the result is cached under the user's cache folder
($DECKWRIGHT_ICC_CACHE, else $XDG_CACHE_HOME/deckwright/icc, else ~/.cache/deckwright/icc),
with a JSON file beside it that says where it came from (source file and its SHA-256, colprof
version and arguments). The profile header's creation date is set to the measurement data's
(colprof writes the clock time): the same data and settings give the same bytes on every
machine, and so do the press PDFs that embed it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..writer import Writer

FOGRA39_TI3 = Path("/usr/share/color/icc/FOGRA39L.ti3")
CONDITION = "FOGRA39"  # the output condition of the default profile (ISO 12647-2, coated)
REGISTRY = "http://www.color.org"
QUALITY = "m"  # colprof -q: l(ow), m(edium), h(igh), u(ltra)
_HEADER_DATE = bytes.fromhex("07d6000c0001000000000000")  # 2006-12-01: FOGRA39L.ti3's CREATED


class ProfileError(Exception):
    pass


@dataclass(frozen=True)
class CmykProfile:
    """An output profile: its bytes, a name for the output intent, and its provenance."""

    data: bytes
    condition: str  # OutputConditionIdentifier, e.g. "FOGRA39"
    description: str
    provenance: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def cache_dir() -> Path:
    explicit = os.environ.get("DECKWRIGHT_ICC_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "deckwright" / "icc"


def load_profile(path: Path) -> CmykProfile:
    """A printer's own profile (`--icc FILE`): it must be a CMYK output profile."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read ICC profile {path}: {exc.strerror or exc}") from None
    if len(data) < 128 or data[36:40] != b"acsp":
        raise ProfileError(f"{path} is not an ICC profile")
    if data[16:20] != b"CMYK":
        space = data[16:20].decode("ascii", "replace").strip()
        raise ProfileError(f"{path} is a {space} profile; a press PDF needs a CMYK output profile")
    name = _description(data) or path.stem
    return CmykProfile(data, name, name, {"source": str(path), "sha256": hashlib.sha256(data).hexdigest()})


def default_profile(
    ink_limit: int | None, *, quality: str = QUALITY, folder: Path | None = None
) -> CmykProfile:
    """The FOGRA39-based profile with `ink_limit` (percent; None: the data's own), from the cache
    or built now with colprof."""
    folder = folder or cache_dir()
    if not FOGRA39_TI3.is_file():
        raise ProfileError(
            f"no {FOGRA39_TI3}: install the Debian package icc-profiles-free (make system), "
            "or give the printer's profile with --icc FILE"
        )
    source = FOGRA39_TI3.read_bytes()
    args = ["-q" + quality, "-b" + quality, "-kr"] + ([f"-l{ink_limit}"] if ink_limit else [])
    key = hashlib.sha256(source + " ".join(args).encode()).hexdigest()[:16]
    name = f"fogra39-{ink_limit or 'native'}-{quality}-{key}"
    icc, meta = folder / f"{name}.icc", folder / f"{name}.json"
    description = f"deckwright FOGRA39 (coated), total ink {ink_limit or 'as measured'} %"
    if icc.is_file() and meta.is_file():
        return CmykProfile(icc.read_bytes(), CONDITION, description, json.loads(meta.read_text("utf-8")))
    data = _colprof(source, args, description)
    provenance = {
        "source": str(FOGRA39_TI3),
        "source_sha256": hashlib.sha256(source).hexdigest(),
        "source_package": "icc-profiles-free (Debian)",
        "measurements": "FOGRA39L: Fogra, offset printing on coated paper, ISO 12647-2:2004/Amd 1",
        "tool": _colprof_version(),
        "arguments": ["colprof", *args, "-D", description],
        "ink_limit": ink_limit,
        "profile_sha256": hashlib.sha256(data).hexdigest(),
    }
    writer = Writer(folder)
    writer.write_bytes(icc.name, data)
    writer.write_text(meta.name, json.dumps(provenance, indent=2, sort_keys=True) + "\n")
    return CmykProfile(data, CONDITION, description, provenance)


def _colprof(source: bytes, args: list[str], description: str) -> bytes:
    colprof = shutil.which("colprof")
    if colprof is None:
        raise ProfileError(
            "colprof (ArgyllCMS) is not installed: install the Debian package argyll (make system), "
            "or give the printer's profile with --icc FILE"
        )
    with tempfile.TemporaryDirectory(prefix="deckwright-icc-") as tmp:
        base = Path(tmp) / "profile"
        base.with_suffix(".ti3").write_bytes(source)
        done = subprocess.run(
            [colprof, *args, "-D", description, "-C", "FOGRA39L data: Fogra; profile: ArgyllCMS", str(base)],
            capture_output=True,
            text=True,
            check=False,
        )
        out = base.with_suffix(".icc")
        if done.returncode != 0 or not out.is_file():
            raise ProfileError(f"colprof failed: {(done.stderr or done.stdout).strip()[-300:]}")
        data = out.read_bytes()
    return data[:24] + _HEADER_DATE + data[36:]


def _colprof_version() -> str:
    try:
        done = subprocess.run(["colprof"], capture_output=True, text=True, check=False)
    except OSError:
        return "colprof"
    for line in (done.stdout + done.stderr).splitlines():
        if "Version" in line:
            return "ArgyllCMS colprof " + line.split("Version", 1)[1].strip()
    return "ArgyllCMS colprof"


def _description(data: bytes) -> str | None:
    """The profile's 'desc' text (ICC v2 textDescriptionType or v4 multiLocalizedUnicode)."""
    count = int.from_bytes(data[128:132], "big")
    for i in range(min(count, 100)):
        entry = data[132 + 12 * i : 144 + 12 * i]
        if entry[:4] != b"desc":
            continue
        offset, size = int.from_bytes(entry[4:8], "big"), int.from_bytes(entry[8:12], "big")
        tag = data[offset : offset + size]
        if tag[:4] == b"desc":
            length = int.from_bytes(tag[8:12], "big")
            return tag[12 : 12 + length].rstrip(b"\0").decode("latin-1") or None
        if tag[:4] == b"mluc":
            first = int.from_bytes(tag[20:24], "big"), int.from_bytes(tag[24:28], "big")
            return tag[first[1] : first[1] + first[0]].decode("utf-16-be") or None
    return None
