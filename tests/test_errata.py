"""Errata outputs: errata.md, errata.csv and errata.pdf come from the errata table's data."""

from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from conftest import FIXTURES, REPO, TempProject
from deckwright.cache import RenderCache
from deckwright.diagnostics import Diagnostics
from deckwright.outputs.errata import CSV_COLUMNS, errata_csv, errata_md, errata_pdf, lines
from deckwright.pipeline.load import check_game, load_catalog
from deckwright.project import Project
from deckwright.readers.fonts import load_registry
from deckwright.source import load

FONTS = load_registry(REPO / "fonts", Diagnostics())


def game_of(project: Project, game_id: str):
    diags = Diagnostics()
    checked = check_game(project, project.cards_dir / game_id, load_catalog(project, diags))
    assert checked.ok, [str(d) for d in checked.diags.errors]
    return checked.game


@pytest.fixture
def quill(temp_project: TempProject) -> TempProject:
    temp_project.add_game(FIXTURES / "quill")
    return temp_project


def test_errata_lines_come_from_the_table(quill: TempProject) -> None:
    rows = {r.card: r for r in lines(game_of(quill.project, "quill"))}
    assert list(rows) == ["Peek (S1)", "Mend (S2)", "Gust"]
    peek, mend, gust = rows.values()
    assert (peek.number, peek.printed, peek.change) == ("S1", "Look at 3 cards.", "wording")
    assert mend.current == "Heal 2 damage."  # the "(clarity only)" marker is the kind, not the text
    assert mend.change == "clarity only"
    assert (gust.change, gust.reprint, gust.official) == ("no change", False, "")
    assert peek.reprint and mend.reprint
    assert peek.official == "Look at the top 3 cards of the deck, then put them back."
    assert peek.official_from.startswith("S1 Peek, text (cards/quill/spells.yaml:")


def test_errata_csv_and_markdown(quill: TempProject) -> None:
    game = game_of(quill.project, "quill")
    rows = lines(game)
    table = list(csv.DictReader(io.StringIO(errata_csv(rows).decode("utf-8"))))
    assert tuple(table[0]) == CSV_COLUMNS
    assert [(r["card"], r["card_ids"], r["number"], r["change"], r["reprint_candidate"]) for r in table] == [
        ("Peek (S1)", "s1-peek", "S1", "wording", "yes"),
        ("Mend (S2)", "s2-mend", "S2", "clarity only", "yes"),
        ("Gust", "s3-gust", "", "no change", "no"),
    ]
    md = errata_md(game, rows).decode("utf-8")
    assert "| Mend (S2) | S2 | Heal 2. | Heal 2. damage. |" not in md
    assert "| Mend (S2) | S2 | Heal 2. | Heal 2 damage. | clarity only |" in md
    candidates = md.split("## Reprint candidates", 1)[1]
    assert "Peek (S1)" in candidates and "Mend (S2)" in candidates and "Gust" not in candidates


def test_an_unknown_kind_prints_as_unknown(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "kind: wording", 'kind: {unknown: "The source does not say."}')
    peek = lines(game_of(quill.project, "quill"))[0]
    assert (peek.change, peek.change_note) == ("unknown", "The source does not say.")
    assert (
        "Change “unknown”: The source does not say."
        in errata_md(game_of(quill.project, "quill"), [peek]).decode()
    )


def test_markdown_cells_escape_pipes(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", 'printed: "Look at 3 cards."', 'printed: "Look | at 3 cards."')
    md = errata_md(game_of(quill.project, "quill"), lines(game_of(quill.project, "quill"))).decode()
    assert "| Look \\| at 3 cards. |" in md


def test_a_game_without_errata_gets_none() -> None:
    assert lines(game_of(Project(REPO), "midnight-congregation")) == []


def test_errata_pdf_is_reproducible_and_holds_the_rows(quill: TempProject) -> None:
    game = game_of(quill.project, "quill")
    rows = lines(game)
    diags = Diagnostics()
    first = errata_pdf(quill.project, game, rows, FONTS, diags)
    second = errata_pdf(quill.project, game, rows, FONTS, diags)
    assert first is not None and first == second
    assert not diags.has_errors, [str(d) for d in diags]
    reader = PdfReader(io.BytesIO(first))
    text = " ".join(page.extract_text() for page in reader.pages)
    for words in ("Quill — Errata", "Reprint candidates", "Peek (S1)", "Heal 2 damage.", "clarity only"):
        assert words in text
    fonts = {
        str(f.get_object()["/BaseFont"]) for p in reader.pages for f in p["/Resources"]["/Font"].values()
    }
    assert any("Libertine" in f for f in fonts)


def test_a_rebuild_reads_the_errata_pdf_from_the_cache(quill: TempProject, tmp_path) -> None:
    game = game_of(quill.project, "quill")
    rows = lines(game)
    cache = RenderCache(tmp_path / "cache", fonts="the shipped fonts")
    first = errata_pdf(quill.project, game, rows, FONTS, Diagnostics(), cache)
    again = errata_pdf(quill.project, game, rows, FONTS, Diagnostics(), cache)
    assert first is not None and again == first
    assert (cache.stats.renders, cache.stats.hits) == (1, 1)


def test_light_vs_darkness_errata_match_appendix_b() -> None:
    project = Project(REPO)
    rows = lines(game_of(project, "light-vs-darkness"))
    raw = load(REPO / "cards/light-vs-darkness/errata.yaml")["tables"]["errata"]["rows"]
    assert [r.card for r in rows] == [r["card"] for r in raw]
    assert [r.printed for r in rows] == [r["printed_text"] for r in raw]
    by_card = {r.card: r for r in rows}
    assert by_card["Love one another (65)"].number == "65"
    assert by_card["Love one another (65)"].change == "clarity only"
    assert by_card["Mary of Bethany (12), The Lord Provides (191)"].number == "12, 191"
    assert by_card["Fear (Stronghold)"].change == "unknown"
    candidates = [r.card for r in rows if r.reprint]
    assert len(candidates) == 15 and "Mary of Bethany (12), The Lord Provides (191)" not in candidates
    # Fear's official wording is its Stronghold text (Section 7), which Appendix B's text lacks a clause of.
    fear = by_card["Fear (Stronghold)"]
    assert fear.official.endswith("(ties: all tied players).") and fear.disagrees
