"""What the robustness tests share: a built mini project to break, a watch on every file opened
and network access tried, and images made by hand."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import struct
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from conftest import FIXTURES, TempProject
from deckwright.cli import main

SVG = "{http://www.w3.org/2000/svg}"
BUILD = ("build", "mini", "--only", "cards,tgc", "--jobs", "1")

# ---- watching for anything fetched or opened ------------------------------------------------------

_WATCH: list[tuple[str, str]] | None = None


def _audit(event: str, args: tuple) -> None:
    if _WATCH is None:
        return
    if event == "urllib.Request" and str(args[0]).startswith("data:"):
        return  # CairoSVG reads the data: URLs a card embeds through urllib; nothing is fetched
    if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
        _WATCH.append((event, repr(args)[:200]))
    elif event == "open" and args and isinstance(args[0], str | bytes | os.PathLike):
        _WATCH.append((event, os.fsdecode(args[0])))


sys.addaudithook(_audit)  # audit hooks cannot be removed; it records only inside watching()


@contextmanager
def watching() -> Iterator[list[tuple[str, str]]]:
    """Every file opened and every network access attempted inside the block."""
    global _WATCH
    _WATCH = []
    try:
        yield _WATCH
    finally:
        _WATCH = None


# ---- a built project to break -------------------------------------------------------------------


def hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@dataclass
class Project:
    root: Path

    def file(self, name: str) -> Path:
        """A path relative to the project; bare names are files of the mini game."""
        return self.root / (name if "/" in name else f"cards/mini/{name}")

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.file(name)
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {name}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    def write(self, name: str, data: str | bytes) -> Path:
        path = self.file(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        path.write_bytes(data)
        return path

    def art(self, name: str, data: bytes | Path) -> Path:
        path = self.root / "art/mini" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, Path):
            path.symlink_to(data)
        else:
            path.write_bytes(data)
        return path

    @property
    def outputs(self) -> Path:
        return self.root / "build/mini"


def run_cli(capsys, root: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--project", str(root), *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The mini game built once; cases copy this project (with its build/)."""
    temp = TempProject(tmp_path_factory.mktemp("built") / "project")
    temp.add_game(FIXTURES / "mini")
    code = main(["--project", str(temp.root), *BUILD])
    assert code == 0
    return temp.root, hashes(temp.root / "build/mini")


@pytest.fixture
def project(built, tmp_path: Path) -> Project:
    root = tmp_path / "project"
    shutil.copytree(built[0], root, symlinks=True)
    return Project(root)


def png(width: int, height: int, pixels: bytes | None = None) -> bytes:
    """A PNG by hand: any header (a bomb claims a size it never holds), any pixel data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(pixels if pixels is not None else b"\0" * 16)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def real_image(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 60), "#884422").save(out, fmt)
    return out.getvalue()


# ---- inputs more than one module breaks things with ----------------------------------------

LOL = '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
ALIAS_BOMB = "\n".join(
    [f"a0: &a0 {LOL}"] + [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)
H = "cards/mini/heroes.yaml"
S = "cards/mini/spells.yaml"


def svg_art(body: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{body}</svg>'.encode()


# 10^9 rectangles by reference, in 900 bytes ("billion laughs" with <use>)
USE_BOMB = '<rect id="l0" width="1" height="1"/>' + "".join(
    f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 10)
)
