"""Print-and-play sheets without blind spots, measured from the PDFs (tests/sheetmeasure.py reads
the content streams): every cut line has a crop mark of 3 mm or more wholly inside the printable
area, every cut edge has the full 1/8 in bleed (butted neighbours share a cut), on full and
partial sheets, A4 and US Letter, duplex (both flips) and gutterfold. And the command-line and
viewer fixes of the same audit."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pytest

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from sheetmeasure import measure, read_sheets

BLEED = 3.175  # mm, every card layout's


def _build(root: Path, *extra: str) -> Path:
    project = TempProject(root)
    project.add_game(FIXTURES / "pnp-mini")
    args = ["--project", str(root), "build", "pnp-mini", "--only", "pnp", "--jobs", "1", "--no-cache"]
    assert main([*args, *extra]) == 0
    return root / "build" / "pnp-mini"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Duplex long edge and gutterfold (one build); duplex short edge with a negative offset."""
    long_edge = _build(tmp_path_factory.mktemp("long") / "p", "--gutterfold")
    short_edge = _build(
        tmp_path_factory.mktemp("short") / "p", "--duplex", "short-edge", "--back-offset", "-2,-1"
    )
    return {
        **{f"{p}-long": long_edge / f"pnp-{p}.pdf" for p in ("a4", "letter")},
        **{f"{p}-gutterfold": long_edge / f"pnp-{p}-gutterfold.pdf" for p in ("a4", "letter")},
        **{f"{p}-short": short_edge / f"pnp-{p}.pdf" for p in ("a4", "letter")},
    }


def _footers(path: Path) -> list[str]:
    pdf = pypdf.PdfReader(path)
    return [page.extract_text() for page in pdf.pages]


def _card_sheets(path: Path):
    """(footer, sheet) of each page with cards to cut out with crop marks (not tokens, boards)."""
    texts = _footers(path)
    tokens = set()
    for sheet in read_sheets(path.read_bytes()):
        text = texts[sheet.number - 1]
        if sheet.outlines:  # tokens: cut lines drawn round each, on the fronts; their backs follow
            tokens |= {sheet.number, sheet.number + 1}
        if sheet.number in tokens:
            continue
        if any(k in text for k in ("fronts, sheet", "backs, sheet", "gutterfold, sheet")):
            yield text, sheet


@pytest.mark.parametrize(
    "name", ["a4-long", "letter-long", "a4-short", "letter-short", "a4-gutterfold", "letter-gutterfold"]
)
def test_every_cut_is_marked_in_the_printable_area_and_every_cut_edge_bled(built, name: str) -> None:
    sheets = list(_card_sheets(built[name]))
    assert len(sheets) >= 4
    partial = 0
    for text, sheet in sheets:
        m = measure(sheet, margin=5.0, mark_min=3.0)
        assert m.bleed_min >= BLEED - 0.01, (name, sheet.number, m)  # edges with no neighbour
        # all of the bleed prints (backs moved by --back-offset -2,-1 are 2 mm nearer an edge)
        assert m.bleed_edge >= 5.0 - (2 if "short" in name and "backs" in text else 0) - 0.01, (name, m)
        assert m.seam_min is None or m.seam_min > 0.05, (name, sheet.number, m)
        if "backs, sheet" in text:
            assert not sheet.marks  # marks once, on the fronts
            continue
        assert m.unmarked == [], (name, sheet.number, m.unmarked)
        assert m.mark_edge >= 5.0 - 0.01 and m.mark_min >= 3.0 - 0.01, (name, sheet.number, m)
        assert m.marks_on_cards == 0
        cards = len(sheet.cards) // (2 if "gutterfold" in name else 1)
        partial += cards < max(len(s.cards) for _, s in sheets) // (2 if "gutterfold" in name else 1)
    assert partial  # the fixture's decks leave partial sheets, measured as well


def test_the_measure_sees_a_missing_mark_and_a_missing_bleed(built) -> None:
    """The measurement itself: a sheet with a mark taken away and a card's bleed cut is caught."""
    _, sheet = next(iter(_card_sheets(built["a4-long"])))
    assert measure(sheet).unmarked == []
    vertical = next(s for s in sheet.marks if s[0] == s[2])
    sheet.marks = [s for s in sheet.marks if abs(s[0] - vertical[0]) > 0.01 or s[0] != s[2]]
    assert measure(sheet).unmarked
    trim, clip = sheet.cards[0]
    sheet.cards[0] = (trim, type(clip)(trim.x0, clip.y0, clip.x1, clip.y1))
    assert measure(sheet).bleed_min < 0.01


def test_viewer_preferences_print_at_actual_size_and_preset_duplex(built) -> None:
    for name, duplex in (
        ("a4-long", "/DuplexFlipLongEdge"),
        ("a4-short", "/DuplexFlipShortEdge"),
        ("a4-gutterfold", "/Simplex"),
    ):
        prefs = pypdf.PdfReader(built[name]).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"
        assert prefs["/Duplex"] == duplex


def test_a_negative_back_offset_is_read_with_a_space(built) -> None:
    """`--back-offset -2,-1`: backs move 2 mm left and 1 mm up (short-edge flip: rows mirror)."""
    pdf = pypdf.PdfReader(built["a4-short"])
    texts = [p.extract_text() for p in pdf.pages]
    front = next(i for i, t in enumerate(texts) if "Mentor cards: fronts" in t)
    back = next(i for i, t in enumerate(texts) if "Mentor cards: backs" in t)
    f = [float(v) for v in pdf.pages[front].trimbox]
    b = [float(v) for v in pdf.pages[back].trimbox]
    h = float(pdf.pages[front].mediabox.height)
    mm = 72 / 25.4
    assert b == pytest.approx([f[0] - 2 * mm, h - f[3] + 1 * mm, f[2] - 2 * mm, h - f[1] + 1 * mm], abs=0.01)


def test_paper_and_margin_from_the_command_line(tmp_path: Path, capsys) -> None:
    project = TempProject(tmp_path / "p")
    project.add_game(FIXTURES / "pnp-mini")
    game = project.path("pnp-mini", "game.yaml")
    game.write_text(game.read_text(encoding="utf-8") + "build:\n  papers: [a4]\n", encoding="utf-8")
    args = ["--project", str(project.root), "build", "pnp-mini", "--only", "pnp", "--jobs", "1"]
    assert main(args) == 0
    out = project.root / "build" / "pnp-mini"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["pnp-a4.pdf"]
    assert main([*args, "--paper", "letter", "--margin", "8"]) == 0
    assert (out / "pnp-letter.pdf").exists()
    for _, sheet in _card_sheets(out / "pnp-letter.pdf"):
        m = measure(sheet, margin=8.0)
        assert m.unmarked == [] or not sheet.marks
        assert m.mark_edge >= 8.0 - 0.01 and m.bleed_edge >= 8.0 - 0.01
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--margin", "30"])
    assert exit_.value.code == 2
    assert "--margin must be between 0 and 25 mm" in capsys.readouterr().err


def test_back_offset_usage_names_negative_values(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    assert "-2,-1" in capsys.readouterr().out


def test_export_json_with_an_unknown_edition(mini: TempProject, capsys) -> None:
    mini.replace("mini", "game.yaml", "edition: Test edition", 'edition: {unknown: "No edition printed."}')
    code = main(["--project", str(mini.root), "export", "mini", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    assert json.load(io.StringIO(out))["game"]["edition"] == {"unknown": "No edition printed."}


def test_a_card_that_fits_no_grid_is_named_on_the_page_and_in_the_build(tmp_path: Path, capsys) -> None:
    project = TempProject(tmp_path / "p")
    project.add_game(FIXTURES / "pnp-mini")
    products = project.root / "layouts" / "products.yaml"
    products.write_text(
        products.read_text(encoding="utf-8")
        + "  giant:\n    extends: mini\n    title: Giant card\n    trim: [195mm, 270mm]\n",
        encoding="utf-8",
    )
    project.replace("pnp-mini", "game.yaml", "layout: mini", "layout: giant")
    args = [
        "--project",
        str(project.root),
        "build",
        "pnp-mini",
        "--only",
        "pnp",
        "--jobs",
        "1",
        "--paper",
        "a4",
    ]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "Omen cards: a Giant card (giant) does not fit on A4 inside its margins" in err
    first = _footers(project.root / "build" / "pnp-mini" / "pnp-a4.pdf")[0]
    assert "Not in this PDF: Omen cards: a Giant card (giant) does not fit on A4" in " ".join(first.split())


@pytest.mark.parametrize("name", ["a4-long", "letter-long", "letter-gutterfold"])
def test_every_footer_keeps_its_page_number(built, name: str) -> None:
    """Side and gutter footers shorten a long title, never 'sheet n of N · page n of N'."""
    texts = _footers(built[name])
    for n, text in enumerate(texts, 1):
        assert f"page {n} of {len(texts)}" in " ".join(text.split()), (name, n)
    if name == "letter-gutterfold":  # four pairs of sideways poker cards; the footer in the gutter
        pdf = pypdf.PdfReader(built[name])
        page = next(i for i, t in enumerate(texts) if "Hero cards: gutterfold, sheet 1" in t)
        assert len(next(s for s in read_sheets(built[name].read_bytes()) if s.number == page + 1).cards) == 8
        assert float(pdf.pages[page].mediabox.width) == pytest.approx(612)
