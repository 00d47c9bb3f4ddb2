"""Print services as data: layouts/services.yaml read into the catalogue, located errors, and a
service's own pixel size served without stretching the face."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from PIL import Image

from conftest import REPO
from deckwright.diagnostics import Diagnostics
from deckwright.readers.catalog import read_catalog
from deckwright.render.image.canvas import fit_canvas
from deckwright.render.image.png import encode_rgb


def catalog_of(folder: Path):
    diags = Diagnostics()
    return read_catalog(folder, diags, lambda p: p.name), diags


def test_the_shipped_services_cover_the_game_crafter_and_a_press_service() -> None:
    catalog, diags = catalog_of(REPO / "layouts")
    assert not diags.errors, [str(d) for d in diags]
    tgc = catalog.services["tgc"]
    assert tgc.products["poker"].product == "PokerDeck"
    assert tgc.products["poker"].pixels == (825, 1125)
    assert "marker" not in tgc.products  # TGC has no 1 x 2 in product
    press = catalog.services["drivethrucards"].press
    assert (press.page_order, press.colour, press.ink_limit, round(press.bleed, 3)) == (
        "back-front",
        "cmyk",
        240,
        9.0,
    )


def with_services(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "layouts"
    shutil.copytree(REPO / "layouts", folder)
    (folder / "services.yaml").write_text(text, encoding="utf-8")
    return folder


def test_service_problems_are_located(tmp_path: Path) -> None:
    folder = with_services(
        tmp_path,
        "services:\n"
        "  tgc:\n"
        "    title: The Game Crafter\n"
        "    dpi: 300\n"
        "    products:\n"
        "      pokr: {product: PokerDeck, pixels: [825, 1125]}\n"
        "      poker: {product: PokerDeck, pixels: [825, -1]}\n"
        "      mini: {product: MiniDeck, colour: red}\n"
        "  press-co:\n"
        "    title: Press Co\n"
        "    dpi: 300\n"
        "    press: {page_order: sideways, bleed: 3mm, colour: cmyk}\n"
        "    products: {}\n",
    )
    catalog, diags = catalog_of(folder)
    lines = sorted(str(d) for d in diags.errors)
    assert any(
        line.startswith("services.yaml:6:7: error: service 'tgc': no layout 'pokr'") for line in lines
    ), lines
    assert any(
        line.startswith("services.yaml:7:") and "pixels must be [width, height]" in line for line in lines
    )
    assert any(line.startswith("services.yaml:8:") and "'colour'" in line for line in lines), lines
    assert any(line.startswith("services.yaml:12:") and "page_order must be one of" in line for line in lines)
    assert "press-co" not in catalog.services
    assert set(catalog.services["tgc"].products) == set()


def test_an_unknown_top_level_key_in_a_layouts_file_is_reported_once(tmp_path: Path) -> None:
    folder = with_services(tmp_path, "servces:\n  tgc: {}\n")
    _, diags = catalog_of(folder)
    messages = [str(d) for d in diags.errors]
    assert len(messages) == 1 and messages[0].startswith("services.yaml:1:1: error:"), messages
    assert "servces" in messages[0]


def test_a_larger_canvas_keeps_the_face_at_its_scale_and_extends_the_bleed() -> None:
    face = Image.new("RGB", (819, 1114), "navy")
    face.paste(Image.new("RGB", (200, 300), "gold"), (300, 400))  # art, away from the edges
    face.paste(Image.new("RGB", (819, 5), "red"), (0, 0))  # the top edge of the bleed
    out = Image.open(io.BytesIO(fit_canvas(encode_rgb(face), (825, 1125))))
    assert out.size == (825, 1125)
    # centred at the same scale: the art keeps its 200 x 300 px, moved by the half-differences (3, 5)
    assert out.getpixel((303, 405)) == (255, 215, 0) and out.getpixel((302, 404)) != (255, 215, 0)
    assert out.getpixel((303 + 199, 405 + 299)) == (255, 215, 0)
    assert out.getpixel((303 + 200, 405 + 300)) != (255, 215, 0)
    # the new rows above repeat the top edge (red), never white
    assert all(out.getpixel((x, 0)) == (255, 0, 0) for x in (0, 3, 400, 824))


def test_a_smaller_canvas_crops_evenly_from_the_bleed() -> None:
    face = Image.new("RGB", (830, 1130), "white")
    face.paste(Image.new("RGB", (10, 10), "black"), (410, 560))
    out = Image.open(io.BytesIO(fit_canvas(encode_rgb(face), (825, 1125))))
    assert out.size == (825, 1125)
    assert out.getpixel((408, 558)) == (0, 0, 0) and out.getpixel((407, 557)) == (255, 255, 255)
