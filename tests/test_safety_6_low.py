"""Issue 18, case 6: rulebook.html fetches nothing remote when opened; errata.md carries no raw
HTML; a URL or an entity in a template or nested SVG art is a located error, not an internal
error; a card id too long for a file name is refused before any file is written; a deck's
`back:` is a slug."""

from __future__ import annotations

import base64

import pytest

from deckwright.outputs.errata import errata_md, lines
from deckwright.safety.weblinks import NO_FETCH_POLICY
from deckwright.writer import Writer
from safety_support import Hostile, error_at


def _with_rulebook(game: Hostile, chapter: str = "# Rules\n\nPlay {card:ann}.\n") -> None:
    (game.folder / "rulebook").mkdir()
    game.write("rulebook/01-rules.md", chapter)


def test_a_remote_url_in_the_rulebook_stylesheet_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    _with_rulebook(game)
    assert game.run("build", "mini", "--only", "rulebook").code == 0
    before = game.outputs()
    html = (game.root / "build" / "mini" / "rulebook.html").read_text(encoding="utf-8")
    assert f'<meta http-equiv="Content-Security-Policy" content="{NO_FETCH_POLICY}">' in html
    (game.templates / "rulebook.css").write_text(
        "h1 { color: black; }\n@media screen {\n  body { background: url(http://x.io/beacon.png); }\n}\n",
        encoding="utf-8",
    )
    run = game.run("build", "mini", "--only", "rulebook")
    assert run.code == 1
    error_at(run, "templates/mini/rulebook.css:3:22:", "remote URL", "http://x.io/beacon.png")
    assert game.outputs() == before


def test_a_remote_image_in_the_rulebook_prose_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    _with_rulebook(game, "# Rules\n\nPlay {card:ann}.\n\n![beacon](http://x.io/b.png)\n")
    run = game.run("build", "mini", "--only", "rulebook")
    assert run.code == 1
    error_at(run, "cards/mini/rulebook/01-rules.md:5:", "remote URL", "http://x.io/b.png")


def test_errata_md_shows_html_from_the_data_as_text(tmp_path) -> None:
    game = Hostile(tmp_path, "quill")
    game.project.replace("quill", "tables.yaml", 'printed: "Heal 2."', 'printed: "<script>alert(1)</script>"')
    checked = game.project.check("quill", fit=False)
    md = errata_md(checked.game, lines(checked.game)).decode("utf-8")
    assert "<script>" not in md and "&lt;script&gt;alert(1)&lt;/script&gt;" in md


@pytest.mark.parametrize(
    "markup, words",
    [
        ('<image width="5" height="5" href="http://x.io/b.png"/>', ("refers to 'http://x.io/b.png'",)),
        ('<image width="5" height="5" href="file:///etc/passwd"/>', ("refers to 'file:///etc/passwd'",)),
        ('<rect width="5" height="5" style="fill: url(http://x.io/p.svg#a)"/>', ("http://x.io/p.svg",)),
    ],
)
def test_a_url_in_a_template_is_a_located_error(tmp_path, markup, words) -> None:
    game = Hostile(tmp_path)
    game.edit_template("spell-front.svg.j2", "{% block face %}", "{% block face %}" + markup)
    run = game.run("build", "mini", "--only", "cards")  # before: "internal error: RasterError"
    assert run.code == 1
    error_at(run, "cards/mini/spells.yaml:", "front (spell-front.svg.j2)", *words)


def test_an_entity_in_a_template_is_a_located_error(tmp_path) -> None:
    game = Hostile(tmp_path)
    path = game.templates / "spell-front.svg.j2"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            '{% extends "_shared/card.svg.j2" %}',
            '{% extends "_shared/card.svg.j2" %}{% block face %}<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>&x;',
        ).replace("{% block face %}\n", "", 1),
        encoding="utf-8",
    )
    run = game.run("build", "mini", "--only", "cards")
    assert run.code == 1
    error_at(run, "cards/mini/spells.yaml:", "DOCTYPE")


def test_nested_svg_art_that_fetches_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    inner = '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://x.io/b.png"/></svg>'
    nested = base64.b64encode(inner.encode()).decode("ascii")
    art = game.root / "art" / "mini"
    art.mkdir(parents=True)
    (art / "ann.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        f'<image width="10" height="10" href="data:image/svg+xml;base64,{nested}"/></svg>',
        encoding="utf-8",
    )
    run = game.run("build", "mini", "--only", "cards")
    assert run.code == 1
    error_at(run, "cards/mini/heroes.yaml:3:5:", "ann.svg", "refused", "http://x.io/b.png")


def test_a_card_id_too_long_for_a_file_name_is_refused_before_any_file_is_written(tmp_path) -> None:
    game = Hostile(tmp_path)
    assert game.run("build", "mini", "--only", "cards").code == 0
    before = game.outputs()
    long_id = "a" * 251
    game.project.replace("mini", "heroes.yaml", "id: cy", f"id: {long_id}")
    run = game.run("build", "mini", "--only", "cards")
    assert run.code == 1
    error_at(run, "cards/mini/heroes.yaml:16:9:", "251 characters", "limit of 100")
    assert "File name too long" not in run.err
    assert game.outputs() == before


def test_the_writer_checks_every_name_before_writing(tmp_path) -> None:
    writer = Writer(tmp_path)
    assert writer.unwritable("cards/" + "a" * 240 + "-front.png") is not None
    assert writer.unwritable("../outside.png") is not None
    assert writer.unwritable("cards/ann-front.png") is None


def test_a_deck_back_must_be_a_slug(tmp_path) -> None:
    game = Hostile(tmp_path)
    game.project.replace(
        "mini", "game.yaml", "    title: Main deck\n", "    title: Main deck\n    back: ../../x\n"
    )
    run = game.run("validate", "mini")
    assert run.code == 1
    error_at(run, "cards/mini/game.yaml:26:11:", "back", "must be a slug")
