"""Texts that build: rendered exactly as written, or with a warning that names card and character."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
import yaml

from robustness_support import (
    BUILD,
    SVG,
    H,
    Project,
    real_image,
    run_cli,
    svg_art,
    watching,
)


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
