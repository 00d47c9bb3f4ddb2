"""Robustness (issue 8): bad input gets one clear located line, nothing is lost, nothing escapes.

Every build case starts from a project whose `mini` game was built once (`--only cards,tgc`),
breaks one input, builds again and checks: exit code 1, the exact diagnostic line
(`path:line:col: severity: message`), no traceback, and every file under build/mini/ byte-identical.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import tracemalloc
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from conftest import FIXTURES, REPO, TempProject
from deckwright.cli import main
from deckwright.diagnostics import Diagnostics
from deckwright.pipeline.lock import BuildLock
from deckwright.readers import load_game
from deckwright.readers.layouts import read_layouts
from deckwright.render.card.art import ArtLibrary
from deckwright.render.card.geometry import Box
from deckwright.source import SourceError, loads
from deckwright.validate import validate_game
from deckwright.writer import Writer

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


# ---- the table: bad input -> one located line, exit 1, previous outputs intact -------------------

LOL = '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
ALIAS_BOMB = "\n".join(
    [f"a0: &a0 {LOL}"] + [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)


@dataclass(frozen=True)
class Case:
    """Break the mini game with `setup(project, outside)`; the build must report `line`."""

    setup: Callable[[Project, Path], None]
    line: str  # the exact diagnostic line; "..." stands for a part that may differ


def edit(name: str, old: str, new: str) -> Callable[[Project, Path], None]:
    return lambda p, _: p.edit(name, old, new)


def write(name: str, data: str | bytes) -> Callable[[Project, Path], None]:
    return lambda p, _: p.write(name, data)


def art(name: str, data: bytes) -> Callable[[Project, Path], None]:
    return lambda p, _: p.art(name, data)


def svg_art(body: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{body}</svg>'.encode()


# 10^9 rectangles by reference, in 900 bytes ("billion laughs" with <use>)
USE_BOMB = '<rect id="l0" width="1" height="1"/>' + "".join(
    f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 10)
)
H = "cards/mini/heroes.yaml"
S = "cards/mini/spells.yaml"
ART_ANN = f"{H}:3:5: error: card 'ann': art:"

CASES: dict[str, Case] = {
    # -- YAML --------------------------------------------------------------------------------
    "yaml-syntax-unclosed-quote": Case(
        edit("heroes.yaml", 'text: "Heal 2."', 'text: "Heal 2.'),
        f"{H}:22:1: error: YAML syntax error: found unexpected end of stream "
        "(while scanning a quoted scalar started at line 21, column 11)",
    ),
    "yaml-syntax-unclosed-list": Case(
        edit("heroes.yaml", "rivals: [bob]", "rivals: [bob"),
        f"{H}:10:7: error: YAML syntax error: expected ',' or ']', but got ':' "
        "(while parsing a flow sequence started at line 9, column 13)",
    ),
    "yaml-syntax-mapping-in-value": Case(
        edit("heroes.yaml", "side: light\n    power: 1", "side: light power: 1"),
        f"{H}:19:22: error: YAML syntax error: mapping values are not allowed here",
    ),
    "yaml-tab": Case(
        edit("heroes.yaml", "    power: 1", "\tpower: 1"),
        f"{H}:20:1: error: tab character in indentation; YAML indents with spaces",
    ),
    "yaml-duplicate-key": Case(
        edit("heroes.yaml", "    power: 1\n", "    power: 1\n    power: 2\n"),
        f"{H}:21:5: error: duplicate key 'power' (first at line 20, column 5)",
    ),
    "yaml-wrong-type-field": Case(
        edit("heroes.yaml", "power: 1", "power: high"),
        f"{H}:20:12: error: card 'cy': 'power' must be a whole number, not 'high'",
    ),
    "yaml-wrong-type-name": Case(
        edit("heroes.yaml", "name: Cy", "name: [Cy]"),
        f"{H}:17:11: error: card 'cy' needs a 'name' (text), not a list",
    ),
    "yaml-wrong-type-cards": Case(
        write("spells.yaml", "type: spell\ncards: many\n"),
        f"{S}:2:8: error: cards must be a list, not the text 'many'",
    ),
    "yaml-missing-required-field": Case(
        edit("heroes.yaml", "    power: 1\n", ""),
        f"{H}:16:5: error: card 'cy': 'power' is required",
    ),
    "yaml-missing-required-key": Case(
        edit("game.yaml", "  edition: Test edition\n", ""),
        "cards/mini/game.yaml:2:3: error: game is missing required key 'edition'",
    ),
    "yaml-unknown-card-key": Case(
        edit("heroes.yaml", "power: 1", "powr: 1"),
        f"{H}:20:5: error: card 'cy': unknown key 'powr' for a hero card "
        "(accepted: id, name, count, number, note, art, side, power, text, rivals)",
    ),
    "yaml-unknown-file-key": Case(
        edit("heroes.yaml", "type: hero\n", "type: hero\ntipe: villain\n"),
        f"{H}:2:1: error: unknown key 'tipe' in card file (accepted: type, cards, note)",
    ),
    "yaml-unknown-game-key": Case(
        edit("game.yaml", "  edition: Test edition\n", "  edition: Test edition\n  editon: 2\n"),
        "cards/mini/game.yaml:5:3: error: unknown key 'editon' in game (accepted: id, name, edition, "
        "players, version, date, tagline, source, notes, epigraph, set, subtitle, host, play_time)",
    ),
    "yaml-empty-file": Case(write("spells.yaml", ""), f"{S}:1:1: error: file is empty"),
    "yaml-only-comments": Case(write("spells.yaml", "# nothing yet\n"), f"{S}:1:1: error: file is empty"),
    "yaml-non-utf8": Case(
        write("spells.yaml", b"type: spell\ncards:\n  - id: zap\n    name: Caf\xe9\n"),
        f"{S}:4:14: error: file is not valid UTF-8 (byte 0xe9); save it as UTF-8",
    ),
    "yaml-bom": Case(
        write("spells.yaml", b"\xef\xbb\xbftype: spell\ncards: []\n"),
        f"{S}:1:1: error: file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM",
    ),
    "yaml-raw-control-character": Case(
        edit("heroes.yaml", 'text: "Heal 2."', 'text: "Heal\x07 2."'),
        f"{H}:21:16: error: character U+0007 (a control character) is not allowed in a YAML file; remove it",
    ),
    "yaml-python-object-apply": Case(
        edit("heroes.yaml", 'text: "Heal 2."', "text: !!python/object/apply:os.system ['touch MARKER']"),
        f"{H}:21:11: error: tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed; refused",
    ),
    "yaml-python-name": Case(
        edit("heroes.yaml", 'text: "Heal 2."', "text: !!python/name:os.system ''"),
        f"{H}:21:11: error: tag 'tag:yaml.org,2002:python/name:os.system' is not allowed; refused",
    ),
    "yaml-alias-bomb": Case(
        write("bomb.yaml", ALIAS_BOMB + "\n"),
        "cards/mini/bomb.yaml:6:14: error: document expands to more than 200000 values "
        "(alias expansion?); refused",
    ),
    "yaml-merge-key": Case(
        edit("heroes.yaml", "  - id: cy\n", "  - <<: {side: dark}\n    id: cy\n"),
        f"{H}:16:5: error: merge keys (<<) are not supported",
    ),
    "yaml-long-string": Case(
        edit("heroes.yaml", 'text: "Heal 2."', 'text: "' + "x" * 100_001 + '"'),
        f"{H}:21:11: error: value is longer than 100000 characters; refused",
    ),
    "yaml-deep-nesting": Case(
        edit("heroes.yaml", 'text: "Heal 2."', "text: " + "[" * 70 + "]" * 70),
        f"{H}:21:73: error: nesting deeper than 64 levels; refused",
    ),
    # -- data --------------------------------------------------------------------------------
    "data-duplicate-id": Case(
        edit("spells.yaml", "id: zap", "id: ann"),
        f"{S}:3:9: error: duplicate card id 'ann' (first defined at {H}:3:9)",
    ),
    "data-dangling-reference": Case(
        edit("spells.yaml", "caster: ann", "caster: dan"),
        f"{S}:7:13: error: card 'zap': 'caster' refers to 'dan', which is no card of this game",
    ),
    "data-wrong-type-reference": Case(
        edit("spells.yaml", "caster: ann", "caster: zap"),
        f"{S}:7:13: error: card 'zap': 'caster' refers to 'zap', a spell card; expected hero",
    ),
    "data-asymmetric-reference": Case(
        edit("heroes.yaml", "rivals: [ann]", "rivals: []"),
        f"{H}:9:13: error: card 'ann' lists 'bob' in 'rivals', but 'bob' does not list 'ann' back "
        f"(at {H}:15:13)",
    ),
    "data-count-breaks-rule": Case(
        edit("spells.yaml", "count: 4", "count: 5"),
        "cards/mini/checks.yaml:2:5: error: the main deck has 10 cards, not 11 [check deck-size]",
    ),
    "data-table-breaks-rule": Case(
        edit("tables.yaml", "light: 2, dark: 1", "light: 2, dark: 2"),
        "cards/mini/tables.yaml:12:9: error: 3 players: light + dark must equal players [check sides-add-up]",
    ),
    "data-generated-table-too-long": Case(
        edit("tables.yaml", "generate: {players: [3, 5]}", "generate: {players: [3, 100000000]}"),
        "cards/mini/tables.yaml:26:25: error: table 'split': generate range must be [first, last] "
        "whole numbers, first <= last, at most 10000 apart",
    ),
    "data-derived-row-cycle": Case(
        edit("tables.yaml", "extends: 3\n", "extends: 5\n"),
        "cards/mini/tables.yaml:21:18: error: table 'setup': extends 4 in a cycle",
    ),
    "data-negative-count": Case(
        edit("heroes.yaml", "count: 3", "count: -2"),
        f"{H}:18:12: error: card 'cy': count must be a whole number >= 0 (0: not printed), not the number -2",
    ),
    "data-out-of-range": Case(
        edit("heroes.yaml", "power: 1", "power: 10"),
        f"{H}:20:12: error: card 'cy': 'power' must be at most 9, not 10",
    ),
    "data-unknown-enum-value": Case(
        edit("heroes.yaml", "side: dark", "side: grey"),
        f"{H}:12:11: error: card 'bob': 'side' is 'grey', which is not one of: light, dark",
    ),
    "data-id-with-dots": Case(
        edit("spells.yaml", "id: zap", "id: ../../zap"),
        f"{S}:3:9: error: card id '../../zap' must be a slug: lower-case letters and digits joined by '-'",
    ),
    "data-id-absolute": Case(
        edit("spells.yaml", "id: zap", "id: /tmp/zap"),
        f"{S}:3:9: error: card id '/tmp/zap' must be a slug: lower-case letters and digits joined by '-'",
    ),
    # -- text --------------------------------------------------------------------------------
    "text-control-character": Case(
        edit("heroes.yaml", 'text: "Heal 2."', r'text: "Heal\x07 2."'),
        f"{H}:21:11: error: card 'cy': 'text' contains a control character (U+0007)",
    ),
    "text-nul": Case(
        edit("heroes.yaml", 'text: "Heal 2."', r'text: "Heal\0 2."'),
        f"{H}:21:11: error: card 'cy': 'text' contains a control character (U+0000)",
    ),
    "text-delete": Case(
        edit("heroes.yaml", 'text: "Heal 2."', r'text: "Heal\x7f 2."'),
        f"{H}:21:11: error: card 'cy': 'text' contains a control character (U+007F)",
    ),
    "text-c1-control": Case(
        edit("heroes.yaml", 'text: "Heal 2."', r'text: "Heal\x9b 2."'),
        f"{H}:21:11: error: card 'cy': 'text' contains a control character (U+009B)",
    ),
    "text-control-in-name": Case(
        edit("heroes.yaml", "name: Cy", r'name: "C\ey"'),
        f"{H}:17:11: error: card 'cy': 'name' contains a control character (U+001B)",
    ),
    "text-control-in-game-name": Case(
        edit("game.yaml", 'name: "Mini & Co"', r'name: "Mini\b & Co"'),
        "cards/mini/game.yaml:2:3: error: game: 'name' contains a control character (U+0008)",
    ),
    "text-control-in-unknown-note": Case(
        edit("heroes.yaml", 'unknown: "The source', r'unknown: "\x01The source'),
        f"{H}:14:11: error: card 'bob': 'text': the note of the unknown contains a control "
        "character (U+0001)",
    ),
    "text-control-in-table": Case(
        edit("tables.yaml", "title: Split by rule", r'title: "Split\rby rule"'),
        "cards/mini/tables.yaml:24:5: error: table 'split': 'title' contains a control character (U+000D)",
    ),
    # -- files -------------------------------------------------------------------------------
    "art-symlink-out-of-art": Case(
        lambda p, outside: p.art("ann.png", outside / "secret.png"),
        f"{ART_ANN} ann.png: refused: the file (or the link it is) points outside art/",
    ),
    "art-folder-symlink-out": Case(
        lambda p, outside: (
            shutil.copy(outside / "secret.png", outside / "ann.png"),
            (p.root / "art").mkdir(),
            (p.root / "art/mini").symlink_to(outside),
        ),
        f"{ART_ANN} ann.png: refused: the file (or the link it is) points outside art/",
    ),
    "art-corrupt-bytes": Case(
        art("ann.png", b"\x89PNG\r\n\x1a\n this is not an image"),
        f"{ART_ANN} ann.png: cannot read image (UnidentifiedImageError: cannot identify image file ...",
    ),
    "art-corrupt-pixels": Case(
        art("ann.png", png(40, 60)),  # a sound header and checksums, too little pixel data
        f"{ART_ANN} ann.png: cannot read image (OSError: image file is truncated ...",
    ),
    "art-corrupt-jpeg": Case(
        art("ann.jpg", real_image("JPEG")[:200]),
        f"{ART_ANN} ann.jpg: cannot read image (OSError: ...",
    ),
    "art-jpeg-holding-svg": Case(
        art("ann.jpg", real_image("JPEG") + b'<svg><image href="file:///etc/passwd"/></svg>'),
        f"{ART_ANN} ann.jpg: refused: the image holds SVG markup",
    ),
    "art-decompression-bomb": Case(
        art("ann.png", png(100_000, 100_000)),
        f"{ART_ANN} ann.png: image is a decompression bomb; refused",
    ),
    "art-too-many-pixels": Case(
        art("ann.png", png(8000, 8000)),
        f"{ART_ANN} ann.png: 8000 x 8000 pixels is too large; refused",
    ),
    "art-svg-http": Case(
        art("ann.svg", svg_art('<image href="http://example.com/x.png" width="10" height="10"/>')),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-xlink-https": Case(
        art(
            "ann.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
            b"<image xlink:href='https://example.com/x.png'/></svg>",
        ),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-file": Case(
        lambda p, outside: p.art("ann.svg", svg_art(f'<image href="file://{outside}/secret.png"/>')),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-css-url": Case(
        art("ann.svg", svg_art('<rect width="10" height="10" style="fill: url(http://example.com/p)"/>')),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-entity": Case(
        lambda p, outside: p.art(
            "ann.svg",
            f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://{outside}/secret.png">]>'
            f'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'.encode(),
        ),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-entity-expansion": Case(
        art(
            "ann.svg",
            b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
        ),
        f"{ART_ANN} ann.svg: refused: SVG art refers to outside resources or declares entities",
    ),
    "art-svg-malformed": Case(
        art("ann.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><rect'),
        f"{ART_ANN} ann.svg: not a well-formed SVG file (unclosed token: line 1, column 40)",
    ),
    "art-svg-not-svg": Case(
        art("ann.svg", b"<html><body>hello</body></html>"),
        f"{ART_ANN} ann.svg: not an SVG file: its root element is <html>, not <svg>",
    ),
    "art-svg-use-loop": Case(
        art("ann.svg", svg_art('<g id="a"><rect width="1" height="1"/><use href="#a"/></g>')),
        f"{ART_ANN} ann.svg: refused: SVG art refers to itself (a <use> or url(#...) loop)",
    ),
    "art-svg-pattern-loop": Case(
        art("ann.svg", svg_art('<pattern id="p"><rect width="1" height="1" fill="url(#p)"/></pattern>')),
        f"{ART_ANN} ann.svg: refused: SVG art refers to itself (a <use> or url(#...) loop)",
    ),
    "art-svg-use-bomb": Case(
        art("ann.svg", svg_art(USE_BOMB)),
        f"{ART_ANN} ann.svg: refused: SVG art draws more than 100000 elements (references expanded)",
    ),
    "art-svg-deep-nesting": Case(
        art("ann.svg", svg_art("<g>" * 2000 + "</g>" * 2000)),
        f"{ART_ANN} ann.svg: refused: SVG art is nested (or refers) deeper than 64 levels",
    ),
    "art-not-a-file": Case(
        lambda p, _: (p.root / "art/mini/ann.png").mkdir(parents=True),
        f"{ART_ANN} ann.png: not a file",
    ),
    # -- templates ---------------------------------------------------------------------------
    "template-syntax-error": Case(
        edit("templates/mini/spell-front.svg.j2", "{% endblock %}", "{% endblok %}"),
        "templates/mini/spell-front.svg.j2:5:1: error: template error: Encountered unknown tag "
        "'endblok'. ...",
    ),
    "template-undefined-name": Case(
        edit("templates/mini/hero-front.svg.j2", "text(card.name", "text(card.nam"),
        "templates/mini/hero-front.svg.j2:4:1: error: card 'ann': front template failed: "
        "a hero card has no field 'nam' (it has: id, name, count, number, type, power, rivals, side, text)",
    ),
    "template-unknown-style": Case(
        edit("templates/mini/spell-front.svg.j2", '"body", field="text"', '"bodyy", field="text"'),
        "templates/mini/spell-front.svg.j2:4:1: error: card 'zap': front template failed: "
        "...no text style 'bodyy' (has: title, body, label)...",
    ),
}


# One case of each kind is also run through `deckwright validate` (same line, on stdout, exit 1);
# the rest only through build, to keep the suite fast.
VALIDATED = {
    "yaml-syntax-unclosed-quote",
    "yaml-tab",
    "yaml-duplicate-key",
    "yaml-unknown-card-key",
    "yaml-non-utf8",
    "yaml-python-object-apply",
    "yaml-alias-bomb",
    "data-duplicate-id",
    "data-dangling-reference",
    "data-count-breaks-rule",
    "data-zero-count",
    "text-control-in-name",
    "art-symlink-out-of-art",
    "art-svg-entity",
    "template-syntax-error",
}


def _matches(line: str, expected: str) -> bool:
    """`expected` is the line, or its pieces in order with "..." for what may differ."""
    parts = expected.split("...")
    if len(parts) == 1:
        return line == expected
    if not (line.startswith(parts[0]) and line.endswith(parts[-1])):
        return False
    at = len(parts[0])
    for part in parts[1:-1]:
        at = line.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return at <= len(line) - len(parts[-1])


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_located_line_and_keeps_the_last_build(
    name: str, project: Project, built, tmp_path: Path, capsys
) -> None:
    case = CASES[name]
    outside = tmp_path / "outside"  # a folder outside the project: nothing may be read from it
    outside.mkdir()
    (outside / "secret.png").write_bytes(real_image("PNG"))
    case.setup(project, outside)
    marker = tmp_path / "pwned"  # what a constructed Python tag would create
    heroes = project.file("heroes.yaml")
    if b"MARKER" in heroes.read_bytes():
        heroes.write_text(heroes.read_text(encoding="utf-8").replace("MARKER", str(marker)), encoding="utf-8")

    with watching() as seen:
        code, out, err = run_cli(capsys, project.root, *BUILD)
    lines = err.splitlines()
    assert code == 1, err
    assert "Traceback" not in out + err
    assert "internal error" not in err
    assert any(_matches(line, case.line) for line in lines), "\n".join(lines)
    assert "mini: not built (" in err
    assert hashes(project.outputs) == built[1]  # the last good outputs, byte for byte
    # nothing was fetched, and nothing outside the project was read
    assert not [s for s in seen if s[0] != "open"], seen
    assert not [s for s in seen if s[1].startswith(str(outside))], seen
    assert not marker.exists()  # the Python tag was never constructed

    if name in VALIDATED:
        code, out, err = run_cli(capsys, project.root, "validate", "mini")
        assert code == 1
        assert "Traceback" not in out + err
        assert any(_matches(line, case.line) for line in out.splitlines()), out


# ---- cases that build: text renders exactly as written, or with a warning ------------------------


def face_texts(project: Project, card: str) -> list[str]:
    root = ET.fromstring((project.outputs / f"cards/{card}-front.svg").read_bytes())
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize(
    "written",
    [
        "Fish & chips",
        "a < b > c",
        "\"double\" and 'single' quotes",
        "]]> ends CDATA; <![CDATA[ starts it",
        "<script>alert(1)</script>",
        "&amp; stays &amp;",
        "شفاء\u200f 2 \u200eHeal",  # right-to-left text and marks are kept, in order
    ],
)
def test_markup_characters_render_as_written(written: str, project: Project, capsys) -> None:
    project.edit(
        "heroes.yaml", 'text: "Heal 2."', "text: " + yaml.safe_dump(written, width=1000).split("\n")[0]
    )
    assert yaml.safe_load(project.file("heroes.yaml").read_text())["cards"][2]["text"] == written
    code, out, err = run_cli(capsys, project.root, *BUILD)
    assert code == 0, err
    assert "Traceback" not in out + err
    texts = face_texts(project, "cy")
    assert written in " ".join(texts[1:]), texts  # [0] is the name
    ET.fromstring((project.outputs / "cards/cy-front.svg").read_bytes())  # well-formed


def test_rtl_marks_draw_without_a_warning_when_the_font_has_them(project: Project, capsys) -> None:
    project.edit("heroes.yaml", 'text: "Heal 2."', 'text: "Heal\\u200f 2\\u200e."')
    code, _, err = run_cli(capsys, project.root, *BUILD)
    assert code == 0, err
    assert "U+200F" not in err and "U+200E" not in err
    assert "Heal\u200f 2\u200e." in " ".join(face_texts(project, "cy"))


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        (
            'text: "Heal 2."',
            'text: "Heal 中 2."',
            f"{H}:21:11: warning: card 'cy': text: font EB Garamond has no glyph for "
            "'中' (U+4E2D CJK UNIFIED IDEOGRAPH-4E2D)",
        ),
        (
            "name: Cy",
            'name: "Cy\\u202e"',
            f"{H}:17:11: warning: card 'cy': name: font EB Garamond has no glyph for "
            "'\\u202e' (U+202E RIGHT-TO-LEFT OVERRIDE)",
        ),
    ],
)
def test_characters_the_fonts_lack_are_a_warning_naming_card_and_character(
    old: str, new: str, line: str, project: Project, capsys
) -> None:
    project.edit("heroes.yaml", old, new)
    code, out, err = run_cli(capsys, project.root, *BUILD)
    assert code == 0, err
    assert line in err.splitlines(), err
    code, out, _ = run_cli(capsys, project.root, "validate", "mini")
    assert line in out.splitlines()
    code, out, _ = run_cli(capsys, project.root, "validate", "--strict", "mini")
    assert code == 1


def test_missing_art_is_a_placeholder_not_an_error(project: Project, capsys) -> None:
    code, out, _ = run_cli(capsys, project.root, "validate", "mini")
    assert code == 0
    # one summary line for the cards whose template has an art slot, and no other word on art
    assert [line for line in out.splitlines() if "art" in line] == [
        "cards/mini/game.yaml:1:1: warning: 3 cards with an art slot but no art: ann, bob, cy "
        "(add cards/mini/art/<card-id>.png, .jpg or .svg)"
    ]
    svg = (project.outputs / "cards/ann-front.svg").read_text(encoding="utf-8")
    assert 'class="art-placeholder"' in svg


def test_good_art_is_embedded_and_nothing_else_is_read(project: Project, capsys) -> None:
    project.art("ann.png", real_image("PNG"))
    uses = "".join(f'<use href="#s" x="{i % 10}" y="{i // 10}"/>' for i in range(100))
    project.art(
        "cy.svg",
        svg_art(  # shared gradients and symbols, as drawing programs write them
            '<defs><linearGradient id="g0"><stop offset="0" stop-color="#123456"/></linearGradient>'
            '<linearGradient id="g1" href="#g0"/><symbol id="s"><rect width="1" height="1" '
            f'style="fill: url(#g1)"/></symbol></defs>{uses}'
        ),
    )
    with watching() as seen:
        code, _, err = run_cli(capsys, project.root, *BUILD)
    assert code == 0, err
    assert f"{H}:3:5: warning: card 'ann': art: 18 DPI at print size, below 300" in err.splitlines()
    assert "data:image/png;base64," in (project.outputs / "cards/ann-front.svg").read_text()
    assert "data:image/svg+xml;base64," in (project.outputs / "cards/cy-front.svg").read_text()
    assert not [s for s in seen if s[0] != "open"], seen


# ---- art, directly: refused fast, without allocating, whatever the card id -------------------------


def test_decompression_bomb_is_refused_fast_without_allocating(tmp_path: Path) -> None:
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.png").write_bytes(png(100_000, 100_000))
    library = ArtLibrary(tmp_path / "art")
    tracemalloc.start()
    try:
        result = library.image("mini", "ann", Box(0, 0, 100, 100))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # 100000 x 100000 RGB would be 30 GB
    assert [i.message for i in result.issues] == ["ann.png: image is a decompression bomb; refused"]
    assert "data:" not in result.svg  # a placeholder


def test_an_svg_reference_bomb_is_refused_fast(tmp_path: Path) -> None:
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.svg").write_bytes(svg_art(USE_BOMB))
    result = ArtLibrary(tmp_path / "art").image("mini", "ann", Box(0, 0, 100, 100))
    assert [i.severity for i in result.issues] == ["error"]


def test_art_is_decoded_strictly_even_after_weasyprint_relaxed_pillow(tmp_path: Path, monkeypatch) -> None:
    """WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES process-wide when it is imported (a
    rulebook or print-and-play build, `watch`, several games in one run): truncated art must
    still be refused, not handed to cairo."""
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.png").write_bytes(png(40, 60))
    (tmp_path / "art/mini/bob.jpg").write_bytes(real_image("JPEG")[:300])
    library = ArtLibrary(tmp_path / "art")
    for card in ("ann", "bob"):
        result = library.image("mini", card, Box(0, 0, 100, 100))
        assert [i.severity for i in result.issues] == ["error"], result.issues
        assert "cannot read image" in result.issues[0].message
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # restored as it was


@pytest.mark.parametrize("card_id", ["../../outside", "ABSOLUTE"])
def test_art_lookups_never_leave_art(card_id: str, tmp_path: Path) -> None:
    """Card ids are slugs (validated), but the art library does not rely on it."""
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "outside.png").write_bytes(real_image("PNG"))
    if card_id == "ABSOLUTE":
        card_id = str(tmp_path / "outside")
    result = ArtLibrary(tmp_path / "art").image("mini", card_id, Box(0, 0, 100, 100))
    assert [(i.severity, i.message) for i in result.issues] == [
        ("error", "outside.png: refused: the file (or the link it is) points outside art/")
    ]
    assert "data:" not in result.svg


# ---- YAML limits, directly: fast and small ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        ALIAS_BOMB + "\n",
        "a: &a [" + ",".join(["x"] * 1000) + "]\nb: [" + ",".join(["*a"] * 1000) + "]\n",
        "a: &a [*a]\n",  # an alias to itself
    ],
)
def test_alias_expansion_is_refused_quickly_in_bounded_memory(text: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(SourceError) as info:
            loads(text, "f.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000
    assert "refused" in info.value.message


@pytest.mark.parametrize(
    ("text", "col"),
    [
        ("a: " + "[" * 5000, 4 + 64),  # a's value is level 1, at column 4; level 65 is refused
        ("a: " + "{a: " * 5000, 4 + 4 * 63 + 1),  # the key of the mapping at level 64
        ("- " * 5000, 1 + 2 * 65),  # the top level is 0
    ],
)
def test_nesting_beyond_pythons_recursion_limit_is_refused_where_it_gets_too_deep(
    text: str, col: int
) -> None:
    with pytest.raises(SourceError) as info:
        loads(text + "\n", "f.yaml")
    assert str(info.value) == f"f.yaml:1:{col}: nesting deeper than 64 levels; refused"


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for tag in ("python/object/apply:os.system", "python/object/new:os.system", "python/name:os.system"):
        with pytest.raises(SourceError, match="is not allowed; refused"):
            loads(f"x: !!{tag} ['touch {marker}']\n", "f.yaml")
    assert not marker.exists()


# ---- nothing lost --------------------------------------------------------------------------------


def test_a_build_holding_the_lock_refuses_a_second(project: Project, built, capsys) -> None:
    with BuildLock(project.root / "build", "mini"):
        code, out, err = run_cli(capsys, project.root, *BUILD, "--no-cache")
    lock = project.root / "build/.locks/mini.lock"
    assert code == 1
    assert "Traceback" not in out + err
    assert (
        f"deckwright: error: another deckwright build of mini is running (lock: {lock}); "
        "wait for it to finish"
    ) in err.splitlines()
    assert hashes(project.outputs) == built[1]
    code, out, err = run_cli(capsys, project.root, *BUILD, "--no-cache")  # released: builds again
    assert code == 0, err


def test_one_broken_game_does_not_stop_the_others(project: Project, capsys) -> None:
    shutil.copytree(project.root / "cards/mini", project.root / "cards/mini-two")
    shutil.copytree(project.root / "templates/mini", project.root / "templates/mini-two")
    project.edit("cards/mini-two/game.yaml", "id: mini", "id: mini-two")
    project.edit("heroes.yaml", "    power: 1", "\tpower: 1")  # mini: broken, and built first
    before = hashes(project.outputs)
    code, out, err = run_cli(capsys, project.root, "build", "--only", "cards", "--jobs", "1")
    assert code == 1
    assert "Traceback" not in out + err
    assert f"{H}:20:1: error: tab character in indentation; YAML indents with spaces" in err.splitlines()
    assert "mini: not built (1 errors)" in err.splitlines()
    assert "mini-two: 10 files in build/mini-two/" in out
    assert (project.root / "build/mini-two/cards/zap-front.png").is_file()
    assert hashes(project.outputs) == before


def test_a_killed_writers_temp_file_is_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead_pid = int(dead.stdout)
    folder = tmp_path / "out/cards"
    folder.mkdir(parents=True)
    leftover = folder / f".a.png.{dead_pid}.k3j_x9.tmp"
    in_flight = folder / f".a.png.{os.getpid()}.q7w_e2.tmp"  # a running process's
    other = folder / f".a.png.svg.{dead_pid}.abc.tmp"  # another file's (a.png.svg)
    for path in (leftover, in_flight, other):
        path.write_bytes(b"part")
    Writer(tmp_path / "out").write_bytes("cards/a.png", b"whole")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["a.png", in_flight.name, other.name])


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch) -> None:
    writer = Writer(tmp_path / "out")
    writer.write_bytes("cards/a.png", b"old")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError, match="No space"):
        writer.write_bytes("cards/a.png", b"new, longer bytes")
    monkeypatch.undo()
    assert (tmp_path / "out/cards/a.png").read_bytes() == b"old"
    assert [p.name for p in (tmp_path / "out/cards").iterdir()] == ["a.png"]
    with pytest.raises(Exception, match="outside"):
        writer.write_bytes("../escape.png", b"x")
    assert not (tmp_path / "escape.png").exists()


def _big_game(root: Path) -> TempProject:
    """The mini game with 12 more spells, built once; then every face is changed (the paper
    colour), so that a finished build would rewrite every image."""
    temp = TempProject(root)
    game = temp.add_game(FIXTURES / "mini")
    extra = ["type: spell", "cards:"]
    for i in range(12):
        extra += [f"  - id: spell-{i}", f"    name: Spell {i}", f"    text: Spell {i}.", "    caster: cy"]
    (game / "more-spells.yaml").write_text("\n".join(extra) + "\n", encoding="utf-8")
    checks = game / "checks.yaml"
    checks.write_text(checks.read_text().replace("count() == 10", "count() == 22"), encoding="utf-8")
    assert main(["--project", str(root), *BUILD]) == 0
    style = root / "templates/mini/style.yaml"
    style.write_text(style.read_text().replace("#fffdf5", "#f0e0c0"), encoding="utf-8")
    return temp


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@contextmanager
def build_process(root: Path, *options: str, prelude: str = "") -> Iterator[subprocess.Popen]:
    """`deckwright build` in its own process group, killed (with its workers) on the way out."""
    code = f"import sys\n{prelude}\nfrom deckwright.cli import main\nsys.exit(main(sys.argv[1:]))"
    argv = ["--project", str(root), "build", "mini", "--only", "cards,tgc", "--no-cache", *options]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)


def _wait_for(condition: Callable[[], bool], proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, f"the build ended before {what}: {proc.communicate()}"
        assert time.monotonic() < deadline, f"no {what} within a minute"
        time.sleep(0.002)


def test_a_build_killed_while_rendering_leaves_the_last_outputs(tmp_path: Path, capsys) -> None:
    temp = _big_game(tmp_path / "project")
    outputs = temp.root / "build/mini"
    before = hashes(outputs)
    with build_process(temp.root, "--jobs", "2") as proc:
        # the render workers exist from the first image to the last; nothing is written before
        _wait_for(lambda: bool(_children(proc.pid)), proc, "the render workers started")
        time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGKILL)  # the build and its workers
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert hashes(outputs) == before
    assert [p for p in outputs.rglob(".*.tmp")] == []
    with BuildLock(temp.root / "build", "mini"):
        pass  # the lock died with the build


def test_a_build_killed_while_writing_leaves_whole_files(tmp_path: Path, capsys) -> None:
    """Killed between two renames: each file is the old one or the new one, never a part of
    one; the next build finishes the job and sweeps up the dead build's temp file."""
    temp = _big_game(tmp_path / "project")
    outputs = temp.root / "build/mini"
    before = hashes(outputs)
    inodes = {name: (outputs / name).stat().st_ino for name in before}
    slow_writes = "import os, time\nfsync = os.fsync\nos.fsync = lambda fd: (time.sleep(0.03), fsync(fd))"

    def renamed() -> bool:
        return any((outputs / name).stat().st_ino != ino for name, ino in inodes.items())

    with build_process(temp.root, "--jobs", "1", prelude=slow_writes) as proc:
        _wait_for(renamed, proc, "the first output was replaced")
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    killed = hashes(outputs)
    capsys.readouterr()
    assert main(["--project", str(temp.root), *BUILD]) == 0
    after = hashes(outputs)
    assert set(after) == set(before)
    changed = {name for name in before if killed.get(name) != before[name]}
    assert changed and changed != {n for n in before if after[n] != before[n]}, "not killed mid-way"
    for name in before:
        assert killed[name] in (before[name], after[name]), f"{name} is neither old nor new"
    assert [p for p in outputs.rglob(".*.tmp")] == []


# ---- property-based: the loader and validator never raise ------------------------------------------

YAML_ALPHABET = st.sampled_from(
    [*"abcxyz019 -:,[]{}#&*!|>'\"%@`?\n\t\\.", "\ufeff", "\x07", "\x85", "é", "中", "\u200f"]
)


@settings(max_examples=200, deadline=None)
@given(st.text(YAML_ALPHABET, max_size=80))
def test_loader_raises_only_source_errors(text: str) -> None:
    try:
        loads(text, "f.yaml")
    except SourceError as exc:
        assert exc.loc.path == "f.yaml" and exc.loc.line >= 1 and exc.loc.col >= 1
        assert "\n" not in exc.message


KEYS = st.sampled_from(
    [
        *("id", "name", "count", "number", "note", "side", "power", "text", "rivals", "caster"),
        *("unknown", "type", "cards", "tables", "checks", "extends", "x"),
    ]
)
IDS = st.sampled_from(["ann", "bob", "cy", "zap", "dan", "Ann", "a b", "", "../x"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=True, allow_infinity=True),
    IDS,
    st.sampled_from(["light", "dark", "hero", "spell", "Heal 2.", "{R}", "{unknown}", "2026-10-01"]),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=12,
)
UNKNOWN = st.builds(lambda note: {"unknown": note}, st.one_of(st.text(max_size=8), VALUES))


def _hero(value: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(value, UNKNOWN, VALUES)


# mostly hero-shaped cards, so that generated files reach the schema, references and checks
CARD = st.one_of(
    st.fixed_dictionaries(
        {"id": IDS, "name": st.one_of(st.text(max_size=10), VALUES)},
        optional={
            "count": _hero(st.integers(-2, 5)),
            "side": _hero(st.sampled_from(["light", "dark", "grey"])),
            "power": _hero(st.integers(-1, 11)),
            "text": _hero(st.text(max_size=30)),
            "rivals": _hero(st.lists(IDS, max_size=3)),
            "number": _hero(st.one_of(st.integers(), st.text(max_size=4))),
            "x": VALUES,
        },
    ),
    st.dictionaries(KEYS, VALUES, max_size=8),
)
CARD_FILE = st.fixed_dictionaries(
    {"type": st.sampled_from(["hero", "hero", "spell", "nope", 3])},
    optional={"cards": st.one_of(st.lists(CARD, max_size=5), VALUES), "x": VALUES},
)
DOCUMENTS = st.one_of(CARD_FILE, VALUES).map(lambda doc: yaml.safe_dump(doc, allow_unicode=True))


@pytest.fixture(scope="module")
def scratch_game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scratch") / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    return folder


LAYOUTS = read_layouts(REPO / "layouts", Diagnostics(), str)


def _load_and_validate(folder: Path, text: str) -> None:
    (folder / "heroes.yaml").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    game = load_game(folder, diags, folder.parent)
    if game is not None:
        validate_game(game, LAYOUTS, diags)
    for d in diags:
        assert d.loc.path and d.loc.line >= 1, d


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DOCUMENTS)
def test_load_and_validate_never_raise_on_generated_structures(scratch_game: Path, text: str) -> None:
    _load_and_validate(scratch_game, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(YAML_ALPHABET, max_size=120).map(lambda t: "type: hero\ncards:\n  - " + t))
def test_load_and_validate_never_raise_on_generated_text(scratch_game: Path, text: str) -> None:
    _load_and_validate(scratch_game, text)
