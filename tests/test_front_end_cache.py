"""What the front end (load, validate, text fit, SVG) keeps between builds in build/.cache
must never change a result: same faces, same findings, same locations as a cold start."""

from __future__ import annotations

import jinja2
import pytest

from conftest import TempProject, messages


def no_compiling(*args, **kwargs):
    raise AssertionError("a cached template was compiled again")


def faces(project: TempProject) -> dict[str, str]:
    checked = project.check("mini")
    assert checked.faces is not None, messages(checked)
    return {name: face.svg for name, face in checked.faces.faces.items()}


def test_compiled_templates_are_reused_and_render_the_same(
    mini: TempProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = faces(mini)
    assert list((mini.root / "build/.cache/templates").rglob("*.jinja"))
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert faces(mini) == cold


def test_an_edited_template_is_compiled_afresh(mini: TempProject) -> None:
    faces(mini)
    template = mini.root / "templates/mini/hero-front.svg.j2"
    template.write_text(template.read_text().replace("{% block face %}", "{% block face %}<!--new-->"))
    assert all("<!--new-->" in svg for name, svg in faces(mini).items() if name in ("ann-front", "bob-front"))


def test_a_cached_template_still_reports_its_file_and_line(
    mini: TempProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = mini.root / "templates/mini/hero-front.svg.j2"
    template.write_text(template.read_text().replace("text(card.name", "text(card.nam"))
    errors = messages(mini.check("mini"))
    where = "templates/mini/hero-front.svg.j2:4:1: error: card 'ann'"
    assert any(e.startswith(where) for e in errors), errors
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert messages(mini.check("mini")) == errors


def test_a_damaged_template_cache_only_costs_time(mini: TempProject) -> None:
    cold = faces(mini)
    for entry in (mini.root / "build/.cache/templates").rglob("*.jinja"):
        entry.write_bytes(entry.read_bytes()[:20])
    assert faces(mini) == cold
