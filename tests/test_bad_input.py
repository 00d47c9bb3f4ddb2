"""Bad input (issue 8): one located line, exit 1, no traceback, the previous build intact.

Every case starts from a project whose `mini` game was built once (`--only cards,tgc`), breaks one
input, builds again and checks: exit code 1, the exact diagnostic line
(`path:line:col: severity: message`), no traceback, and every file under build/mini/ byte-identical.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from robustness_support import (
    ALIAS_BOMB,
    BUILD,
    USE_BOMB,
    H,
    Project,
    S,
    hashes,
    png,
    real_image,
    run_cli,
    svg_art,
    watching,
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
