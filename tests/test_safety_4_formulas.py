"""Issue 18, case 4: CSV files deckwright writes carry no cell a spreadsheet would evaluate
(`export --format csv`, errata.csv), and errata.md carries no raw HTML from the data."""

from __future__ import annotations

import csv
import io

import pytest

from deckwright.outputs.errata import errata_csv, errata_md, lines
from deckwright.safety.csvsafe import neutralise
from safety_support import Hostile

HOSTILE = [
    '=HYPERLINK("http://x.io","c")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


@pytest.mark.parametrize("cell", HOSTILE)
def test_a_cell_that_would_start_a_formula_is_neutralised(cell) -> None:
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-2", "+1.5", "Draw 1 card.", "", "a=b", 3])
def test_numbers_and_plain_text_are_left_alone(cell) -> None:
    assert neutralise(cell) == cell


def test_export_csv_neutralises_formulas_from_card_data(tmp_path) -> None:
    game = Hostile(tmp_path)
    game.project.replace("mini", "heroes.yaml", 'text: "Draw 1 card."', f"text: {HOSTILE[0]!r}")
    game.project.replace("mini", "heroes.yaml", "name: Cy", f'name: "{HOSTILE[1]}"')
    run = game.run("export", "mini", "--format", "csv")
    assert run.code == 0, run.err
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(run.out))}
    assert rows["ann"]["text"] == "'" + HOSTILE[0]
    assert rows["cy"]["name"] == "'" + HOSTILE[1]
    assert rows["ann"]["power"] == "3"  # numbers as they were
    for row in rows.values():
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value


def test_errata_csv_neutralises_formulas_and_errata_md_escapes_html(tmp_path) -> None:
    game = Hostile(tmp_path, "quill")
    game.project.replace("quill", "tables.yaml", 'printed: "Look at 3 cards."', f"printed: {HOSTILE[0]!r}")
    game.project.replace(
        "quill",
        "tables.yaml",
        'current: "Look at the top 3 cards of the deck, then put them back."',
        'current: "<img src=http://x.io/b.png onerror=alert(1)> ![t](http://x.io/t.png) Look."',
    )
    checked = game.project.check("quill", fit=False)
    assert checked.ok, [str(d) for d in checked.diags.errors]
    rows = lines(checked.game)
    table = list(csv.DictReader(io.StringIO(errata_csv(rows).decode("utf-8"))))
    assert any(r["printed_text"] == "'" + HOSTILE[0] for r in table)
    assert any(r["current_text"].startswith("<img src=") for r in table)  # CSV is data: not escaped
    md = errata_md(checked.game, rows).decode("utf-8")
    assert "<img" not in md and "&lt;img src=http://x.io/b.png onerror=alert(1)&gt;" in md
    assert "![t]" not in md and "!\\[t]" in md
