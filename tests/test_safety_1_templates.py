"""Issue 18, case 1: a template cannot run code or read files outside the template folders.

Every payload below ran `id` (or read /etc/passwd into back.svg) before templates were
rendered in Jinja's sandbox with a confined loader."""

from __future__ import annotations

import pytest

from safety_support import SECRET, Hostile, error_at

PAYLOADS = [
    'cycler.__init__.__globals__.os.popen("touch {mark}").read()',
    'self.__init__.__globals__.os.popen("touch {mark}").read()',
    "lipsum.__globals__['os'].popen('touch {mark}').read()",
    'range.__globals__["os"].popen("touch {mark}").read()',
    'text.__globals__["os"].popen("touch {mark}").read()',
    "card.fields.__class__.__mro__[-1].__subclasses__()",
    '"{{0.__class__.__init__.__globals__}}".format(card)',
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_card_template_cannot_run_code_even_under_validate(tmp_path, payload) -> None:
    game = Hostile(tmp_path)
    mark = tmp_path / "pwned"
    game.edit_template(
        "hero-front.svg.j2",
        "{% block face %}",
        "{% block face %}<!-- {{ " + payload.format(mark=mark) + " }} -->",
    )
    run = game.run("validate", "mini")
    assert run.code == 1
    error_at(run, "templates/mini/hero-front.svg.j2:3:", "front template failed")
    assert not mark.exists()


def test_a_rulebook_template_cannot_run_code_and_the_last_rulebook_stays(tmp_path) -> None:
    game = Hostile(tmp_path)
    (game.folder / "rulebook").mkdir()
    game.write("rulebook/01-rules.md", "# Rules\n\nPlay {card:ann}.\n")
    assert game.run("build", "mini", "--only", "rulebook").code == 0
    before = game.outputs()
    assert "rulebook.html" in before
    mark = tmp_path / "pwned"
    (game.templates / "rulebook.html.j2").write_text(
        "<html>\n{{ self.__init__.__globals__.os.popen('touch " + str(mark) + "').read() }}\n</html>\n",
        encoding="utf-8",
    )
    run = game.run("build", "mini", "--only", "rulebook")
    assert run.code == 1
    error_at(run, "templates/mini/rulebook.html.j2:2:", "rulebook template", "unsafe")
    assert not mark.exists()
    assert game.outputs() == before


def test_an_include_of_a_link_out_of_the_templates_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    assert game.run("build", "mini", "--only", "cards").code == 0
    before = game.outputs()
    (game.templates / "leak.svg.j2").symlink_to(game.secret)
    game.edit_template(
        "back.svg.j2", "{% block face %}", '{% block face %}<!-- {% include "leak.svg.j2" %} -->'
    )
    run = game.run("build", "mini", "--only", "cards")
    assert run.code == 1
    line = error_at(run, "templates/mini/back.svg.j2:3:", "leak.svg.j2", "refused", "outside")
    assert SECRET not in line
    assert game.outputs() == before
    game.nothing_leaked()


@pytest.mark.parametrize(
    "name", ["/etc/passwd", "../../outside/secret.env", "_shared/../../../outside/secret.env"]
)
def test_an_include_by_absolute_or_climbing_path_is_refused(tmp_path, name) -> None:
    game = Hostile(tmp_path)
    game.edit_template("back.svg.j2", "{% block face %}", '{% block face %}{% include "' + name + '" %}')
    run = game.run("validate", "mini")
    assert run.code == 1
    error_at(run, "templates/mini/back.svg.j2:3:", "refused")
    game.nothing_leaked()


def test_a_card_template_that_is_itself_a_link_out_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    template = game.templates / "spell-front.svg.j2"
    template.unlink()
    template.symlink_to(game.secret)
    run = game.run("validate", "mini")
    assert run.code == 1
    error_at(run, "templates/mini/spell-front.svg.j2", "refused", "outside")


def test_a_template_may_still_do_what_the_reference_templates_do(tmp_path) -> None:
    """The sandbox keeps what templates legitimately use: their own dicts and lists, range,
    namespace, filters, the card's fields and the helpers."""
    game = Hostile(tmp_path)
    game.edit_template(
        "hero-front.svg.j2",
        "{% block face %}",
        "{% block face %}{% set d = {} %}{% set _ = d.update({'a': 1}) %}{% set l = [] %}"
        "{% set _ = l.append(card.name | upper) %}{% set ns = namespace(n=0) %}"
        "{% for i in range(3) %}{% set ns.n = ns.n + i %}{% endfor %}"
        "<!-- {{ d.a }} {{ l | join(',') }} {{ ns.n }} {{ card.power | string }} -->",
    )
    run = game.run("build", "mini", "--only", "cards")
    assert run.code == 0, run.err
    svg = (game.root / "build" / "mini" / "cards" / "ann-front.svg").read_text(encoding="utf-8")
    assert "<!-- 1 ANN 3 3 -->" in svg


@pytest.mark.parametrize(
    "body, words",
    [
        ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", ("calls itself without end",)),
        ("{{ 1 / 0 }}", ("ZeroDivisionError",)),
        ("{% if font_css %}{{ [].pop() }}{% endif %}", ("IndexError",)),
    ],
)
def test_a_failing_rulebook_template_is_a_located_error(tmp_path, body, words) -> None:
    game = Hostile(tmp_path)
    (game.folder / "rulebook").mkdir()
    game.write("rulebook/01-rules.md", "# Rules\n\nPlay {card:ann}.\n")
    (game.templates / "rulebook.html.j2").write_text(f"<html>\n{body}\n</html>\n", encoding="utf-8")
    run = game.run("build", "mini", "--only", "rulebook")  # before: "internal error"
    assert run.code == 1
    error_at(run, "templates/mini/rulebook.html.j2:", "rulebook template", *words)
