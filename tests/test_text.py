"""Text layout: measuring, wrapping, shrinking, icons, alignment, and what CairoSVG then draws."""

from __future__ import annotations

import base64
import io
import json
import re
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from deckwright.diagnostics import Diagnostics
from deckwright.readers.fonts import load_registry
from deckwright.render.card.textfit import (
    MIN_SIZE_PT,
    STEP_PT,
    TextRun,
    TextSpec,
    fit_line,
    fit_text,
    measure,
)

FONTS = Path(__file__).resolve().parents[1] / "fonts"
Box = namedtuple("Box", "x y w h")  # the shape of render.geometry.Box
ICONS = {"R": 1.0, "MP": 1.5, "ATK": 1.2}
ABILITY = (
    "Protect one player nightly from the False Teacher; not the same player twice in a row. "
    "Pay {R}{R}: deal 2 damage to target Stronghold, or {ATK}+2 until end of turn."
)


@pytest.fixture(scope="module")
def registry():
    return load_registry(FONTS, Diagnostics())


@pytest.fixture(scope="module")
def serif(registry):
    return registry.face("EB Garamond")


def spec(face, size=10.0, min_size=None, **kw) -> TextSpec:
    return TextSpec(face, size, min_size, **kw)


def line_text(line) -> str:
    """A line as written in the source: icons back as their tokens, a space where runs part."""
    parts, end = [], line.x
    for run in line.runs:
        if run.x > end + 0.01:
            parts.append(" ")
        parts.append(run.text if isinstance(run, TextRun) else "{" + run.name + "}")
        end = run.x + run.width
    return "".join(parts)


def words(text: str) -> list[str]:
    return text.split()


# ---- measuring --------------------------------------------------------------------------------


def test_measure_adds_per_character_advances_without_kerning(serif):
    assert measure("AV", serif, 10) == pytest.approx(measure("A", serif, 10) + measure("V", serif, 10))
    assert measure("Tower", serif, 20) == pytest.approx(2 * measure("Tower", serif, 10))
    assert measure("", serif, 10) == 0


def test_markup_characters_measure_as_themselves(serif):
    text = 'Tom & Jerry <3 "quoted"'
    assert measure(text, serif, 9) == pytest.approx(sum(measure(c, serif, 9) for c in text))
    assert measure("&", serif, 9) != measure("&amp;", serif, 9)


# ---- wrapping -----------------------------------------------------------------------------------


def test_wrapping_keeps_every_word_in_order(serif):
    fitted = fit_text(ABILITY, spec(serif), Box(0, 0, 120, 200), ICONS)
    assert fitted.fits and len(fitted.lines) > 3
    assert words(" ".join(line_text(line) for line in fitted.lines)) == words(ABILITY)
    for line in fitted.lines:
        assert line.width <= 120 + 1e-6
        for run in text_runs(line):
            assert run.text == run.text.strip()  # spaces at a break are not drawn


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet="abcdefgh’—&<{}R", min_size=1, max_size=14),
        min_size=1,
        max_size=40,
    ),
    st.floats(min_value=30, max_value=200),
)
def test_wrapping_never_loses_reorders_or_splits_words(serif, source_words, width):
    text = " ".join(source_words)
    fitted = fit_text(text, spec(serif, 9, 6), Box(0, 0, width, 1000), ICONS)
    drawn = [line_text(line) for line in fitted.lines]
    assert words(" ".join(drawn)) == words(text)
    # a line is wider than the box only when it is a single word that cannot fit anywhere
    for line, line_words in zip(fitted.lines, drawn, strict=True):
        assert line.width <= width + 1e-6 or len(line_words.split()) == 1


def test_paragraphs_and_blank_lines_are_kept(serif):
    fitted = fit_text("First.\n\nThird.", spec(serif), Box(0, 0, 100, 100))
    assert [line_text(line) for line in fitted.lines] == ["First.", "", "Third."]
    y = [line.y for line in fitted.lines]
    assert y[1] - y[0] == pytest.approx(fitted.line_height_pt, abs=0.002)
    gapped = fit_text("First.\nSecond.", spec(serif, paragraph_gap=0.5), Box(0, 0, 100, 100))
    assert gapped.lines[1].y - gapped.lines[0].y == pytest.approx(12 + 5, abs=0.002)


def test_spaces_inside_a_line_are_kept_exactly(serif):
    fitted = fit_text("  Indented,  two  spaces.", spec(serif), Box(0, 0, 300, 50))
    (line,) = fitted.lines
    (run,) = text_runs(line)
    assert run.text == "Indented,  two  spaces."
    assert run.x == pytest.approx(measure("  ", serif, 10), abs=0.001)


# ---- shrinking ----------------------------------------------------------------------------------


def test_text_that_fits_keeps_its_size(serif):
    fitted = fit_text("Short.", spec(serif, 10, 6), Box(0, 0, 100, 50))
    assert fitted.fits and fitted.size_pt == 10 and fitted.overflow is None


def test_shrinks_to_the_largest_size_that_fits(serif):
    box = Box(0, 0, 120, 60)
    fitted = fit_text(ABILITY, spec(serif, 10, 6), box, ICONS)
    assert fitted.fits and 6 <= fitted.size_pt < 10
    assert (fitted.size_pt * 100) % (STEP_PT * 100) == 0
    assert len(fitted.lines) * fitted.line_height_pt <= box.h + 1e-6
    one_step_larger = fitted.size_pt + STEP_PT
    assert not fit_text(ABILITY, spec(serif, one_step_larger), box, ICONS).fits


def test_shrinking_stops_at_the_minimum_and_reports_the_overflow(serif):
    box = Box(0, 0, 80, 30)
    fitted = fit_text(ABILITY, spec(serif, 10, 7), box, ICONS)
    assert not fitted.fits and fitted.size_pt == 7
    overflow = fitted.overflow
    assert overflow.lines >= 1 and overflow.height_pt > 0 and overflow.width_pt == 0
    height = len(fitted.lines) * fitted.line_height_pt
    assert overflow.height_pt == pytest.approx(height - box.h, abs=0.01)
    assert re.fullmatch(r"\d+ lines below the box \(\d+\.\d\d pt too tall\)", str(overflow))
    # nothing is dropped: every word is still there, running past the bottom
    assert words(" ".join(line_text(line) for line in fitted.lines)) == words(ABILITY)
    assert fitted.lines[0].y < box.y + box.h < fitted.lines[-1].y


def test_a_word_wider_than_the_box_is_reported(serif):
    fitted = fit_text("Antidisestablishmentarianism", spec(serif, 10, 6), Box(0, 0, 40, 100))
    assert not fitted.fits and fitted.size_pt == 6
    assert fitted.overflow.width_pt == pytest.approx(
        measure("Antidisestablishmentarianism", serif, 6) - 40, abs=0.01
    )
    assert "wider than the box" in str(fitted.overflow)


def test_sizes_are_never_below_six_points(serif):
    assert MIN_SIZE_PT == 6
    with pytest.raises(ValueError, match=r"6\.0 pt <= minimum"):
        spec(serif, 9, 5.5)
    with pytest.raises(ValueError):
        spec(serif, 8, 9)


def test_a_title_shrinks_to_one_line(registry):
    face = registry.face("Quattrocento")
    title = "THE CUSTODIAN OF SEALS"
    fitted = fit_line(title, spec(face, 16, 8, align="middle"), Box(10, 10, 120, 30))
    assert fitted.fits and len(fitted.lines) == 1 and fitted.size_pt < 16
    assert measure(title, face, fitted.size_pt) <= 120 < measure(title, face, fitted.size_pt + STEP_PT)
    too_long = fit_line(title * 3, spec(face, 16, 8), Box(10, 10, 120, 30))
    assert not too_long.fits and too_long.size_pt == 8 and len(too_long.lines) == 1


# ---- icons --------------------------------------------------------------------------------------


def test_icons_take_their_width_and_split_the_text(serif):
    fitted = fit_text("Pay {MP} now", spec(serif), Box(5, 0, 200, 50), ICONS)
    (line,) = fitted.lines
    first, icon, last = line.runs
    assert (first.text, icon.name, last.text) == ("Pay", "MP", "now")
    space = measure(" ", serif, 10)
    assert icon.width == pytest.approx(15)  # 1.5 x the font size
    assert icon.x == pytest.approx(5 + measure("Pay ", serif, 10), abs=0.002)
    assert last.x == pytest.approx(icon.x + icon.width + space, abs=0.002)
    assert line.width == pytest.approx(measure("Pay  now", serif, 10) + 15, abs=0.002)
    assert icon.height == 10 and icon.y < line.y < icon.y + icon.height
    assert fitted.icons == (icon,)


def test_an_icon_stays_with_what_is_written_against_it(serif):
    text = "Gain {ATK}+2 and {R}{R}, then draw."
    narrow = fit_text(text, spec(serif, 10), Box(0, 0, 25, 500), ICONS)
    assert [line_text(line) for line in narrow.lines] == [
        "Gain",
        "{ATK}+2",
        "and",
        "{R}{R},",
        "then",
        "draw.",
    ]


def test_missing_glyphs_are_reported_with_the_fit(registry):
    fitted = fit_text(
        "Judas’ kiss {R}", spec(registry.face("EB Garamond", "bold")), Box(0, 0, 200, 50), ICONS
    )
    assert fitted.missing_glyphs == ("’",)


# ---- alignment ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("align", "offset"), [("start", 0.0), ("middle", 0.5), ("end", 1.0)])
def test_horizontal_alignment(serif, align, offset):
    box = Box(10, 20, 150, 100)
    fitted = fit_text("One line\nand a longer second line", spec(serif, align=align), box)
    for line in fitted.lines:
        assert line.x == pytest.approx(box.x + offset * (box.w - line.width), abs=0.002)
        assert line.runs[0].x == line.x


@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_vertical_alignment(serif, valign):
    box = Box(0, 50, 100, 100)
    fitted = fit_text("Two\nlines", spec(serif, valign=valign), box)
    metrics = serif.metrics
    block = 2 * fitted.line_height_pt
    top = {"top": 50, "middle": 50 + (100 - block) / 2, "bottom": 150 - block}[valign]
    half_leading = (fitted.line_height_pt - (metrics.ascent + metrics.descent) * 10) / 2
    assert fitted.lines[0].y == pytest.approx(top + half_leading + metrics.ascent * 10, abs=0.002)


# ---- what CairoSVG draws ------------------------------------------------------------------------

DPI = 300
RENDER = r"""
import base64, json, sys
from pathlib import Path
from deckwright.diagnostics import Diagnostics
from deckwright.fonts.fontconfig import activate
from deckwright.readers.fonts import load_registry
job = json.load(sys.stdin)
activate(load_registry(Path(job["fonts"]), Diagnostics()), Path(job["cache"]))
import cairosvg
json.dump([base64.b64encode(cairosvg.svg2png(bytestring=s.encode(), dpi=job["dpi"])).decode()
           for s in job["svgs"]], sys.stdout)
"""


def render(svgs: list[str], cache: Path) -> list[Image.Image]:
    """PNG images of `svgs`, drawn by CairoSVG in a fresh process with only our fonts."""
    job = {"fonts": str(FONTS), "cache": str(cache), "dpi": DPI, "svgs": svgs}
    done = subprocess.run(
        [sys.executable, "-c", RENDER], input=json.dumps(job), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return [Image.open(io.BytesIO(base64.b64decode(png))).convert("L") for png in json.loads(done.stdout)]


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svg_of(fitted, width=200, height=150) -> str:
    """What a template does with a FittedText: tspans for text runs, boxes for icons."""
    face = fitted.face
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}pt" height="{height}pt" '
        f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="white"/>',
        f'<text font-family="{face.family}" font-weight="{face.svg_weight}" '
        f'font-style="{face.svg_style}" font-size="{fitted.size_pt}" xml:space="preserve">',
    ]
    for line in fitted.lines:
        for run in text_runs(line):
            out.append(f'<tspan x="{run.x}" y="{line.y}">{escape(run.text)}</tspan>')
    out.append("</text>")
    for icon in fitted.icons:
        out.append(
            f'<rect x="{icon.x + 0.5}" y="{icon.y + 0.5}" width="{icon.width - 1}" '
            f'height="{icon.height - 1}" rx="2" fill="black"/>'
        )
    out.append("</svg>")
    return "".join(out)


def ink(image: Image.Image, top: float, bottom: float) -> tuple[float, float] | None:
    """Left and right ink edges (pt) between two heights (pt)."""
    scale = DPI / 72
    band = image.crop((0, round(top * scale), image.width, round(bottom * scale)))
    box = band.point(lambda v: 255 if v < 250 else 0).getbbox()
    return None if box is None else (box[0] / scale, box[2] / scale)


def ink_bounds(face, text: str, size: float) -> tuple[float, float]:
    """Where the ink of `text` starts and ends relative to its origin, from the glyph outlines."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    font = TTFont(str(face.path), lazy=True)
    glyphs, cmap, upem = font.getGlyphSet(), font.getBestCmap(), font["head"].unitsPerEm
    bounds = []
    for char in (text[0], text[-1]):
        pen = BoundsPen(glyphs)
        glyphs[cmap[ord(char)]].draw(pen)
        bounds.append(pen.bounds)
    left = bounds[0][0] * size / upem
    right = measure(text[:-1], face, size) + bounds[1][2] * size / upem
    return left, right


@pytest.fixture(scope="module")
def drawn(registry, tmp_path_factory):
    """Everything this module draws, in one CairoSVG process."""
    serif, sans = registry.face("EB Garamond"), registry.face("Inter", "bold")
    paragraph = fit_text(
        ABILITY + " Tom & Jerry <3 “quoted” — “AVAWAY”.", spec(serif, 12, 6), Box(20, 20, 160, 110), ICONS
    )
    long_lines = {
        face.family: ('Protect one player nightly from the False Teacher & "the Deceiver" <twice>', face)
        for face in (serif, sans, registry.face("DejaVu Sans Mono"), registry.face("Cabin"))
    }
    singles = {
        family: fit_line(text, spec(face, 9), Box(5, 5, 600, 20))
        for family, (text, face) in long_lines.items()
    }
    svgs = [svg_of(paragraph)] + [svg_of(f, 620, 30) for f in singles.values()]
    images = render(svgs, tmp_path_factory.mktemp("fontconfig"))
    Path(tmp_path_factory.getbasetemp() / "paragraph.png").parent.mkdir(exist_ok=True)
    images[0].save(tmp_path_factory.getbasetemp() / "paragraph.png")  # to look at when in doubt
    return (
        paragraph,
        images[0],
        dict(zip(singles, zip(singles.values(), images[1:], strict=True), strict=True)),
        long_lines,
    )


def test_drawn_lines_stay_inside_the_box(drawn):
    paragraph, image, _, _ = drawn
    assert paragraph.fits and len(paragraph.lines) >= 5
    cap = paragraph.face.metrics.cap_height * paragraph.size_pt
    px = 72 / DPI
    for line in paragraph.lines:
        left, right = ink(image, line.y - cap, line.y)
        assert left >= 20 - px and right <= 20 + 160 + px, line_text(line)
        last = line.runs[-1]
        if isinstance(last, TextRun):  # the ink ends where the glyph outlines say it does
            assert right == pytest.approx(
                last.x + ink_bounds(paragraph.face, last.text, paragraph.size_pt)[1], abs=2 * px
            )


def test_icons_are_drawn_where_the_layout_put_them(drawn):
    paragraph, image, _, _ = drawn
    for icon in paragraph.icons:
        middle = icon.y + icon.height / 2
        left, right = ink(image, middle - 0.5, middle + 0.5)
        assert left <= icon.x + 1 and right >= icon.x + icon.width - 1


def test_a_long_line_measures_within_one_percent_of_its_ink(drawn):
    _, _, singles, long_lines = drawn
    for family, (fitted, image) in singles.items():
        text, face = long_lines[family]
        (line,) = fitted.lines
        left, right = ink(image, 0, 30)
        width = measure(text, face, fitted.size_pt)
        assert abs((right - left) - width) < 0.01 * width, family
        # and exactly, once the first and last glyphs' side bearings are taken off
        start, end = ink_bounds(face, text, fitted.size_pt)
        assert left == pytest.approx(line.x + start, abs=2 * 72 / DPI), family
        assert right == pytest.approx(line.x + end, abs=2 * 72 / DPI), family


def text_runs(line) -> tuple[TextRun, ...]:
    return tuple(r for r in line.runs if isinstance(r, TextRun))
