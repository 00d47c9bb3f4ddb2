"""CairoSVG's text drawer for plain runs (render/cairotext.py): same pixels as CairoSVG's own
per-letter drawer, same cursor behaviour, and everything else left to CairoSVG.

conftest activates the fonts, which installs the run drawer. A text element with a per-letter
attribute (`letter-spacing="0"` changes nothing visible) goes to CairoSVG's own drawer, so the
two drawers can be compared in one process.
"""

from __future__ import annotations

import io

import cairosvg
import pytest
from cairosvg import surface as cairosvg_surface
from PIL import Image, ImageChops
from pypdf import PdfReader

from deckwright.fonts import cairotext

W, H = 300, 120


def svg(body: str) -> bytes:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
        f'<rect width="{W}" height="{H}" fill="white"/>{body}</svg>'
    ).encode()


def png(body: str) -> Image.Image:
    return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg(body), dpi=72, scale=3))).convert("L")


def per_letter(element: str) -> str:
    """The same element, sent to CairoSVG's drawer by an attribute that changes nothing."""
    return element.replace("<text ", '<text letter-spacing="0" ', 1)


def ink_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.invert(image).getbbox()


def assert_same_drawing(a: Image.Image, b: Image.Image) -> None:
    """Identical but for a glyph landing one pixel over when its position rounds the other way."""
    box_a, box_b = ink_box(a), ink_box(b)
    assert box_a is not None and box_b is not None
    assert all(abs(p - q) <= 1 for p, q in zip(box_a, box_b, strict=True)), (box_a, box_b)
    diff = ImageChops.difference(a, b)
    changed = sum(diff.histogram()[65:])
    inked = sum(a.histogram()[:128])
    assert changed <= 0.05 * inked, (changed, inked)


def test_installed_once_and_both_names_point_at_it():
    cairotext.install()
    cairotext.install()
    assert cairosvg_surface.TAGS["text"] is cairosvg_surface.text
    assert getattr(cairosvg_surface.text, "_deckwright_run", False)


@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
@pytest.mark.parametrize("family", ["EB Garamond", "Inter", "Linux Libertine O"])
def test_plain_run_draws_what_the_per_letter_drawer_draws(anchor, family):
    element = (
        f'<text x="150" y="60" font-family="{family}" font-size="22" text-anchor="{anchor}" '
        f'fill="#000">Whispering Fog, 3 × ward</text>'
    )
    assert_same_drawing(png(element), png(per_letter(element)))


def test_bold_italic_and_stroke_match():
    element = (
        '<text x="10" y="70" font-family="Inter" font-size="30" font-weight="bold" font-style="italic" '
        'fill="#c00" stroke="#000" stroke-width="1.5">Outlined</text>'
    )
    ours, theirs = png(element), png(per_letter(element))
    assert_same_drawing(ours, theirs)
    stroke_only = png(element.replace('fill="#c00"', 'fill="none"'))
    assert ink_box(stroke_only) is not None  # the outline path is built for the stroke


def test_text_in_a_clip_path_clips():
    clipped = (
        '<defs><clipPath id="c"><text x="10" y="80" font-family="Inter" font-size="60" '
        'font-weight="bold">CLIP</text></clipPath></defs>'
        f'<rect width="{W}" height="{H}" fill="black" clip-path="url(#c)"/>'
    )
    image = png(clipped)
    box = ink_box(image)
    assert box is not None and box[2] < W * 3 * 0.8  # the letters' shape, not the whole rect
    assert image.getpixel((5, 5)) == 255


def test_children_and_per_letter_positions_go_to_cairosvg():
    # A text with tspans and one with a list of x positions: both still draw (CairoSVG's drawer).
    tspans = '<text x="10" y="50" font-family="Inter" font-size="20">A<tspan fill="red">B</tspan>C</text>'
    listed = '<text x="10 40 70" y="90" font-family="Inter" font-size="20">XYZ</text>'
    image = png(tspans + listed)
    box = ink_box(image)
    assert box is not None and box[1] < 50 * 3 and box[3] > 80 * 3
    assert ink_box(png(listed)) == ink_box(png(per_letter(listed)))


def test_empty_text_moves_nothing_and_draws_nothing():
    assert ink_box(png('<text x="10" y="50" font-family="Inter" font-size="20"></text>')) is None


def test_pdf_keeps_a_line_as_one_string_of_real_text():
    element = '<text x="10" y="60" font-family="Inter" font-size="18">Light and Mist</text>'
    pdf = PdfReader(io.BytesIO(cairosvg.svg2pdf(bytestring=svg(element))))
    page = pdf.pages[0]
    assert page.extract_text().strip() == "Light and Mist"
    content = page.get_contents().get_data()
    # One show-text operator for the run (CairoSVG's own drawer writes one per letter).
    assert content.count(b"Tj") + content.count(b"TJ") == 1, content
