"""Issue 18, case 5: no input makes deckwright run for hours or eat the machine. Each limit
(safety/limits.py, docs/safety.md) is one located error that names it, and each case finishes
well inside the subprocess timeout (before: minutes, hours, or a MemoryError)."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from deckwright.safety.limits import (
    MAX_CHECK_STEPS,
    MAX_COUNT,
    MAX_CSV_ROWS,
    MAX_IMAGE_PIXELS,
    MAX_NUMBER_BITS,
    MAX_TOTAL_COUNT,
)
from safety_support import Hostile, error_at

FAST = 60  # seconds; each case below takes a few


@pytest.mark.parametrize("count", [1_000_000_000, 10_000_000, MAX_COUNT + 1])
def test_a_count_above_the_limit_is_refused(tmp_path, count) -> None:
    game = Hostile(tmp_path)
    game.project.replace("mini", "heroes.yaml", "count: 3", f"count: {count}")
    commands = [("validate", "mini")] + ([("build", "mini", "--only", "pnp")] if count > 10**8 else [])
    for argv in commands:
        run = game.run(*argv, timeout=FAST if count > MAX_COUNT + 1 else None)
        assert run.code == 1
        error_at(run, "cards/mini/heroes.yaml:18:12:", f"count {count}", f"limit of {MAX_COUNT} copies")


def test_the_copies_of_all_cards_together_are_bounded(tmp_path) -> None:
    game = Hostile(tmp_path)
    cards = "".join(
        f"  - id: extra-{i}\n    name: Extra {i}\n    count: {MAX_COUNT}\n    text: Heal.\n    caster: ann\n"
        for i in range(MAX_TOTAL_COUNT // MAX_COUNT + 1)
    )
    game.write("extra.yaml", "type: spell\ncards:\n" + cards)
    run = game.run("validate", "mini", timeout=FAST)
    assert run.code == 1
    error_at(run, "cards/mini/extra.yaml:", f"more than {MAX_TOTAL_COUNT} copies")


def _checks(game: Hostile, body: str) -> None:
    game.write("checks.yaml", "checks:\n" + body)


def test_a_chain_of_powers_is_refused_before_it_is_computed(tmp_path) -> None:
    game = Hostile(tmp_path)
    _checks(game, '  - id: huge\n    expect: "((10**999)**999)**999 > 0"\n    message: never\n')
    run = game.run("validate", "mini", timeout=FAST)  # before: minutes
    assert run.code == 1
    error_at(run, "cards/mini/checks.yaml:3:13:", "check 'huge'", f"limit of {MAX_NUMBER_BITS}")


def test_the_work_of_all_checks_together_is_bounded_and_reported_once(tmp_path) -> None:
    game = Hostile(tmp_path)
    expensive = '    expect: "sum(range(100000)) > 0 and len([x for x in range(9000)]) > 0"\n'
    _checks(
        game,
        "".join(
            f"  - id: heavy-{n}\n    for: i in range(100000)\n{expensive}    message: never\n"
            for n in range(3)
        ),
    )
    run = game.run("validate", "mini", timeout=FAST)  # before: ~10^10 steps, hours
    assert run.code == 1
    limit = [e for e in run.errors if "limit of check work" in e]
    assert len(limit) == 1, run.errors
    error_at(run, "cards/mini/checks.yaml:4:13:", "check 'heavy-0'", str(MAX_CHECK_STEPS))


def test_the_bracket_lint_is_linear(tmp_path) -> None:
    game = Hostile(tmp_path)
    rows = "".join(f"s{n},Spell {n},{'(' * 120_000},ann\n" for n in range(8))
    game.write("more.csv", "id,name,text,caster\n" + rows)
    game.write("more.yaml", "type: spell\ncsv: more.csv\n")
    game.project.replace("mini", "checks.yaml", "count() == 10", "count() == 18")
    run = game.run("check", "mini", timeout=FAST)  # before: more than 2 minutes
    assert run.code == 0, run.err
    unmatched = [line for line in run.out.splitlines() if "unmatched (" in line]
    assert 8 <= len(unmatched) <= 8 * 10  # at most ten a text, the rest counted
    assert sum("(120000 unmatched brackets or quotes in this text)" in line for line in unmatched) == 8


def test_a_csv_of_a_million_rows_is_refused_at_the_limit(tmp_path) -> None:
    game = Hostile(tmp_path)
    with open(game.path("more.csv"), "w", encoding="utf-8") as fh:
        fh.write("id,name,text,caster\n")
        fh.writelines("x,S,,\n" for _ in range(1_000_000))  # 6 MB, under the file limit
    game.write("more.yaml", "type: spell\ncsv: more.csv\n")
    run = game.run("validate", "mini", timeout=FAST)  # before: more than 15 minutes at 2 GB
    assert run.code == 1
    error_at(run, f"cards/mini/more.csv:{MAX_CSV_ROWS + 2}:1:", f"more than {MAX_CSV_ROWS} rows")


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that says it is `width` x `height` (a bomb to whoever decodes it), in ~70 bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


BOMB = "data:image/png;base64," + base64.b64encode(_png_header_only(23000, 23000)).decode("ascii")


def test_a_huge_png_inside_svg_art_is_refused_before_drawing(tmp_path) -> None:
    game = Hostile(tmp_path)
    assert game.run("build", "mini", "--only", "cards").code == 0
    before = game.outputs()
    art = game.root / "art" / "mini"
    art.mkdir(parents=True)
    (art / "ann.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        f'<image width="10" height="10" href="{BOMB}"/></svg>',
        encoding="utf-8",
    )
    run = game.run("build", "mini", "--only", "cards", "--jobs", "2", timeout=FAST)  # before: 2.16 GB a card
    assert run.code == 1
    error_at(run, "cards/mini/heroes.yaml:3:5:", "ann.svg", "23000 x 23000", f"limit of {MAX_IMAGE_PIXELS}")
    assert game.outputs() == before


def test_a_huge_png_in_a_template_or_nested_svg_is_refused_before_drawing(tmp_path) -> None:
    game = Hostile(tmp_path)
    nested = base64.b64encode(
        f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{BOMB}"/></svg>'.encode()
    ).decode("ascii")
    game.edit_template(
        "spell-front.svg.j2",
        "{% block face %}",
        f'{{% block face %}}<image width="5" height="5" href="data:image/svg+xml;base64,{nested}"/>',
    )
    run = game.run("build", "mini", "--only", "cards", timeout=FAST)
    assert run.code == 1
    error_at(run, "cards/mini/spells.yaml:", "front (spell-front.svg.j2)", "23000 x 23000", "limit")


def test_a_template_loop_runs_out_of_time_and_stops_the_render_pass(tmp_path, monkeypatch) -> None:
    from deckwright.safety import limits

    monkeypatch.setattr(limits, "MAX_TEMPLATE_SECONDS", 1)  # 10 s in use; the mechanism is the same
    game = Hostile(tmp_path)
    game.edit_template(
        "hero-front.svg.j2",
        "{% block face %}",
        "{% block face %}{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
    )
    run = game.run("validate", "mini")  # before: 10^10 iterations, hours
    assert run.code == 1
    error_at(
        run, "templates/mini/hero-front.svg.j2:3:", "ran for more than 1 s", "limit of one template render"
    )
    assert sum("ran for more than" in e for e in run.errors) == 1  # the pass stopped at the first


@pytest.mark.parametrize("expression", ['"x" * 1000000000', "[1] * 1000000000", "(10 ** 999) ** 999"])
def test_a_huge_value_made_in_a_template_is_refused(tmp_path, expression) -> None:
    game = Hostile(tmp_path)
    game.edit_template(
        "hero-front.svg.j2", "{% block face %}", "{% block face %}{{ (" + expression + ") | length }}"
    )
    run = game.run("validate", "mini", timeout=FAST)
    assert run.code == 1
    error_at(run, "templates/mini/hero-front.svg.j2:3:", "above the limit")
