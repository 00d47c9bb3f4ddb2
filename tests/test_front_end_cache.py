"""What the front end (load, validate, text fit, SVG) keeps between builds in build/.cache
must never change a result: same faces, same findings, same locations as a cold start."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from conftest import TempProject, messages
from deckwright.cli import main
from deckwright.source import ParseCache, SourceError, YList, YMap, load


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


def located(value: object) -> object:
    """A loaded value with every location it carries, for comparing two loads exactly."""
    if isinstance(value, YMap):
        items = {k: (located(v), value.key_loc(k), value.loc_of(k)) for k, v in value.items()}
        return ("map", value.loc, items)
    if isinstance(value, YList):
        return ("list", value.loc, [(located(v), value.loc_of(i)) for i, v in enumerate(value)])
    return (type(value).__name__, value)


def test_a_parsed_file_comes_back_from_the_cache_exactly(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("a: [1, 2.5, {b: x}]\nc: 2026-10-01\nd: ~\n", encoding="utf-8")
    cache = ParseCache(tmp_path / "cache")
    fresh = load(path, "cards.yaml")
    assert located(load(path, "cards.yaml", cache)) == located(fresh)
    assert len(list(cache.folder.iterdir())) == 1
    assert located(load(path, "cards.yaml", cache)) == located(fresh)
    # the path its locations name is part of the key
    assert load(path, "other.yaml", cache).loc.path == "other.yaml"


def test_an_edited_or_damaged_file_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    cache = ParseCache(tmp_path / "cache")
    assert load(path, "cards.yaml", cache) == {"a": 1}
    path.write_text("a: 2\n", encoding="utf-8")
    assert load(path, "cards.yaml", cache) == {"a": 2}
    for entry in cache.folder.iterdir():
        entry.write_bytes(b"garbage")
    assert load(path, "cards.yaml", cache) == {"a": 2}


def test_a_file_that_does_not_parse_is_reported_every_time(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    cache = ParseCache(tmp_path / "cache")
    for _ in range(2):
        with pytest.raises(SourceError) as err:
            load(path, "cards.yaml", cache)
        assert str(err.value) == "cards.yaml:2:1: duplicate key 'a' (first at line 1, column 1)"
    assert not cache.folder.exists()


def test_a_game_loads_the_same_from_the_parse_cache(mini: TempProject) -> None:
    cold = mini.check("mini")
    assert list((mini.root / "build/.cache/yaml").rglob("*"))
    warm = mini.check("mini")
    assert warm.game == cold.game
    assert [str(d) for d in warm.diags] == [str(d) for d in cold.diags]


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates rendered (one name per side drawn, not read from the face cache)."""
    drawn: list[str] = []
    render = jinja2.Template.render

    def counting(self: jinja2.Template, *args, **kwargs):
        drawn.append(self.name)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", counting)
    return drawn


def overflow(project: TempProject) -> None:
    """Give card 'cy' a text too long for its box: an error its render finds."""
    long_text = " ".join(["Draw a card, then discard a card."] * 40)
    project.replace("mini", "heroes.yaml", 'text: "Heal 2."', f'text: "{long_text}"')


def findings(project: TempProject) -> list[str]:
    return [str(d) for d in project.check("mini").diags]


def test_unchanged_cards_come_from_the_face_cache_with_their_findings(
    mini: TempProject, renders: list[str]
) -> None:
    overflow(mini)
    cold_faces, cold = faces(mini), findings(mini)
    assert any("text does not fit" in f for f in cold), cold
    renders.clear()
    assert faces(mini) == cold_faces
    assert findings(mini) == cold
    assert renders == []


def test_an_edited_card_is_drawn_again_and_only_it(mini: TempProject, renders: list[str]) -> None:
    cold = faces(mini)
    renders.clear()
    mini.replace("mini", "heroes.yaml", "name: Cy", "name: Cyra")
    warm = faces(mini)
    assert renders == ["hero-front.svg.j2"]
    assert {name for name in warm if warm[name] != cold[name]} == {"cy-front"}


def test_a_finding_moves_with_its_card(mini: TempProject) -> None:
    overflow(mini)
    assert next(f for f in findings(mini) if "does not fit" in f).startswith("cards/mini/heroes.yaml:21:11")
    mini.replace("mini", "heroes.yaml", "cards:\n", "# a note\ncards:\n")
    assert next(f for f in findings(mini) if "does not fit" in f).startswith("cards/mini/heroes.yaml:22:11")


def test_a_card_a_template_looks_up_is_part_of_the_key(mini: TempProject, renders: list[str]) -> None:
    template = mini.root / "templates/mini/spell-front.svg.j2"
    template.write_text(
        template.read_text().replace(
            "{% block face %}", "{% block face %}<desc>{{ find_card(card.caster).name }}</desc>"
        )
    )
    assert "<desc>Ann</desc>" in faces(mini)["zap-front"]
    renders.clear()
    mini.replace("mini", "heroes.yaml", "name: Ann", "name: Anna")
    assert "<desc>Anna</desc>" in faces(mini)["zap-front"]
    assert "spell-front.svg.j2" in renders


def test_no_cache_builds_start_cold_and_refresh_the_caches(
    mini: TempProject, capsys, renders: list[str]
) -> None:
    """`build --no-cache` is a cold build: nothing kept is used (no template comes from the
    cache, every card is laid out), but what it makes is kept for the next build."""
    args = ["--project", str(mini.root), "build", "mini", "--jobs", "1", "--only", "cards"]
    assert main(args) == 0, capsys.readouterr()
    laid_out = len(renders)
    assert main([*args, "--no-cache"]) == 0, capsys.readouterr()
    assert len(renders) == 2 * laid_out  # every card laid out again
    cache = mini.root / "build" / ".cache"
    for kept in ("yaml", "templates", "faces"):
        assert any((cache / kept).rglob("*")), kept
