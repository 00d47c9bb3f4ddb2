"""Every card of the three reference games renders; one card per template is checked for
structure: canvas size, shipped fonts only, text inside the trim, placeholders for unknowns."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from conftest import GAMES, REPO
from deckwright.diagnostics import Diagnostics
from deckwright.model import Unknown
from deckwright.pipeline.load import check_game, load_catalog, load_fonts
from deckwright.project import Project
from deckwright.render.card.geometry import CardGeometry

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def checked():
    project = Project(REPO)
    diags = Diagnostics()
    catalog = load_catalog(project, diags)
    fonts = load_fonts(project, diags)
    return {game: check_game(project, project.cards_dir / game, catalog, fonts) for game in GAMES}, fonts


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_type_renders_front_and_back(checked, game: str) -> None:
    results, _ = checked
    result = results[game]
    assert [str(d) for d in result.diags.errors] == []
    for card in result.game.cards:
        assert card.id in result.faces.front_of, card.id
        assert card.id in result.faces.back_of, card.id


@pytest.mark.parametrize("game", GAMES)
def test_one_card_per_template_is_well_formed(checked, game: str) -> None:
    results, fonts = checked
    result = results[game]
    shipped = {f.family for f in fonts.fonts.values()}
    seen_templates = set()
    for name, face in result.faces.faces.items():
        if face.template in seen_templates:
            continue
        seen_templates.add(face.template)
        root = ET.fromstring(face.svg)
        geom = CardGeometry(face.layout)
        assert root.get("viewBox") == f"0 0 {geom.width:g} {geom.height:g}", name
        families = set(re.findall(r'font-family="([^"]+)"', face.svg))
        assert families <= shipped, (name, families - shipped)
        trim = geom.trim
        for text in _untransformed_texts(root):
            x, y = float(text.get("x", 0)), float(text.get("y", 0))
            assert trim.x - 0.5 <= x <= trim.right + 0.5, (name, x, text.text)
            assert trim.y - 0.5 <= y <= trim.bottom + 0.5, (name, y, text.text)
    assert len(seen_templates) >= len(result.game.card_types)


def _untransformed_texts(element, transformed: bool = False):
    """<text> elements whose x/y are canvas positions (no transform on them or above)."""
    transformed = transformed or element.get("transform") is not None
    for child in element:
        if child.tag == f"{SVG}text":
            if not (transformed or child.get("transform")):
                yield child
        else:
            yield from _untransformed_texts(child, transformed)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_text_fields_show_a_placeholder(checked, game: str) -> None:
    results, _ = checked
    result = results[game]
    for card in result.game.cards:
        unknown_text = [k for k, v in card.fields.items() if isinstance(v, Unknown)]
        if unknown_text:
            svg = result.faces.faces[result.faces.front_of[card.id]].svg
            back = result.faces.faces[result.faces.back_of[card.id]].svg
            assert 'class="unknown"' in svg + back, (card.id, unknown_text)
