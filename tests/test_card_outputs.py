"""Card faces, TGC export and proofs, built from the synthetic game."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from conftest import TempProject, messages
from deckwright.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def build(project: TempProject, capsys, *extra: str) -> tuple[int, str]:
    code = main(["--project", str(project.root), "build", "mini", "--jobs", "1", *extra])
    out, err = capsys.readouterr()
    return code, out + err


def texts(svg: bytes) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_every_face_renders_at_the_exact_tgc_size(mini: TempProject, capsys) -> None:
    code, log = build(mini, capsys, "--only", "cards,tgc,proofs")
    assert code == 0, log
    cards = mini.root / "build/mini/cards"
    fronts = sorted(p.name for p in cards.glob("*-front.png"))
    assert fronts == ["ann-front.png", "bob-front.png", "cy-front.png", "zap-front.png"]
    for png in cards.glob("*.png"):
        with Image.open(png) as img:
            assert img.size == (825, 1125), png.name
    # one shared back for the deck, drawn once
    assert sorted(p.name for p in cards.glob("*back*.png")) == ["back.png"]


def test_tgc_manifest_adds_up_to_the_database(mini: TempProject, capsys) -> None:
    code, log = build(mini, capsys, "--only", "tgc")
    assert code == 0, log
    tgc = mini.root / "build/mini/tgc"
    rows = list(csv.DictReader(io.StringIO((tgc / "manifest.csv").read_text(encoding="utf-8"))))
    assert list(rows[0]) == ["deck", "product", "face", "back", "quantity", "note"]
    assert sum(int(r["quantity"]) for r in rows) == 10
    assert not any(r["note"] for r in rows)
    assert {r["product"] for r in rows} == {"PokerDeck"}
    for row in rows:
        for image in (row["face"], row["back"]):
            with Image.open(tgc / image) as img:
                assert img.size == (825, 1125)


def test_tgc_manifest_flags_unknown_counts_and_leaves_out_count_zero(mini: TempProject, capsys) -> None:
    mini.path("mini", "checks.yaml").unlink()  # its deck-size rule counts the cards changed here
    mini.replace("mini", "heroes.yaml", "    side: dark\n", "    count: 0\n    side: dark\n")
    unknown = '    count: {unknown: "not printed in the rules"}\n'
    mini.replace("mini", "heroes.yaml", "    count: 3\n", unknown)
    code, log = build(mini, capsys, "--only", "tgc")
    assert code == 0, log
    rows = list(csv.DictReader((mini.root / "build/mini/tgc/manifest.csv").open(encoding="utf-8")))
    faces = {r["face"]: r for r in rows}
    assert not any("bob" in face for face in faces)  # count 0: not printed, not listed
    (cy,) = [r for face, r in faces.items() if "cy-front" in face]
    assert cy["quantity"] == "1"
    assert cy["note"] == "count unknown (not printed in the rules): 1 copy until it is known"
    assert "1 cards have an unknown count and are listed as 1 copy, flagged in the note column: cy" in log


def test_tgc_manifest_lists_components_without_a_product(mini: TempProject, capsys) -> None:
    services = mini.root / "layouts/services.yaml"
    text = services.read_text(encoding="utf-8")
    poker = "      poker: {product: PokerDeck, pixels: [825, 1125]}\n"
    services.write_text(text.replace(poker, ""), encoding="utf-8")
    code, log = build(mini, capsys, "--only", "tgc")
    assert code == 0, log
    tgc = mini.root / "build/mini/tgc"
    rows = list(csv.DictReader((tgc / "manifest.csv").open(encoding="utf-8")))
    assert sum(int(r["quantity"]) for r in rows) == 10  # every physical card is accounted for
    assert all(r["product"] == r["face"] == r["back"] == "" for r in rows)
    assert all("The Game Crafter has no product for layout 'poker'" in r["note"] for r in rows)
    assert not list(tgc.glob("*/*.png"))
    assert "deck 'main': not exported: The Game Crafter has no product for layout 'poker'" in log


def test_proof_sheet_per_deck(mini: TempProject, capsys) -> None:
    code, log = build(mini, capsys, "--only", "proofs")
    assert code == 0, log
    with Image.open(mini.root / "build/mini/proofs/main.png") as img:
        assert img.width > 800


def test_text_that_cannot_fit_is_a_validation_error(mini: TempProject) -> None:
    long_text = " ".join(["Draw a card, then discard a card."] * 40)
    mini.replace("mini", "heroes.yaml", 'text: "Heal 2."', f'text: "{long_text}"')
    errors = messages(mini.check("mini"))
    assert len(errors) == 1, errors
    assert errors[0].startswith("cards/mini/heroes.yaml:21:11: error: card 'cy': text: text does not fit")
    assert "even at 7 pt" in errors[0]


def test_text_renders_as_written_with_escaping(mini: TempProject, capsys) -> None:
    tricky = "'Fish & <chips> \"quoted\" ]]> ’s'"
    mini.replace("mini", "heroes.yaml", 'text: "Heal 2."', f"text: {tricky}")
    code, log = build(mini, capsys, "--only", "cards")
    assert code == 0, log
    svg = (mini.root / "build/mini/cards/cy-front.svg").read_bytes()
    assert 'Fish & <chips> "quoted" ]]> ’s' in " ".join(texts(svg))


def test_unknown_text_shows_a_placeholder(mini: TempProject, capsys) -> None:
    code, log = build(mini, capsys, "--only", "cards")
    assert code == 0, log
    svg = (mini.root / "build/mini/cards/bob-front.svg").read_bytes()
    words = " ".join(texts(svg))
    assert "UNKNOWN" in words
    assert 'class="unknown"' in svg.decode()


@pytest.mark.parametrize(
    ("template", "old", "new", "expected"),
    [
        ("hero-front.svg.j2", '"body", field="text"', '"bodyy", field="text"', "no text style 'bodyy'"),
        ("hero-front.svg.j2", "card.name", "card.nam", "templates/mini/hero-front.svg.j2:4"),
        ("spell-front.svg.j2", "{% endblock %}", "{% endblok %}", "templates/mini/spell-front.svg.j2"),
    ],
)
def test_template_errors_name_the_template(
    mini: TempProject, template: str, old: str, new: str, expected: str
) -> None:
    path = mini.root / "templates/mini" / template
    path.write_text(path.read_text().replace(old, new), encoding="utf-8")
    errors = messages(mini.check("mini"))
    assert any(expected in e for e in errors), errors


def test_missing_template_is_a_validation_error(mini: TempProject) -> None:
    (mini.root / "templates/mini/spell-front.svg.j2").unlink()
    errors = messages(mini.check("mini"))
    assert errors == [
        "cards/mini/game.yaml:18:5: error: card type 'spell' has no front template "
        "(templates/mini/spell-front.svg.j2)"
    ]


def test_a_back_shared_by_two_sizes_is_drawn_at_each_size(mini: TempProject, capsys) -> None:
    mini.replace(
        "mini",
        "game.yaml",
        "decks:\n",
        "  coin:\n    title: Coin\n    layout: chit-medium\n    fields: {}\n"
        "decks:\n  coins:\n    title: Coins\n    types: [coin]\n",
    )
    mini.replace("mini", "checks.yaml", "count() == 10", "count() - count('coin') == 10")
    mini.path("mini", "coins.yaml").write_text(
        "type: coin\ncards:\n  - {id: gold, name: Gold, count: 5}\n", encoding="utf-8"
    )
    coin = mini.root / "templates/mini/coin-front.svg.j2"
    coin.write_text(
        (mini.root / "templates/mini/spell-front.svg.j2")
        .read_text()
        .replace('{{ text(card.text, geom.safe.at(0, 40, geom.safe.w, 150), "body", field="text") }}', "")
        .replace("geom.safe.slice_top(22)", "geom.safe"),
        encoding="utf-8",
    )
    code, log = build(mini, capsys, "--only", "cards")
    assert code == 0, log
    cards = mini.root / "build/mini/cards"
    with Image.open(cards / "back-poker.png") as poker, Image.open(cards / "back-chit-medium.png") as chit:
        assert poker.size == (825, 1125)
        assert chit.size == (300, 300)
