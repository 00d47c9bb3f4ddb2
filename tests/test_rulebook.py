"""Rulebooks: Markdown prose + tables generated from the data -> PDF, HTML and booklet.

WeasyPrint is slow, so the PDFs are built a few times per module (fixtures below) and shared.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import re
import shutil

import pytest
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from conftest import FIXTURES, REPO, TempProject, messages
from deckwright.cli import main
from deckwright.diagnostics import Diagnostics, Loc
from deckwright.model import RulebookFile
from deckwright.readers.fonts import load_registry
from deckwright.references.syntax import RefSyntaxError, parse_ref, read_rulebook_text, scan_refs
from deckwright.render.document.documents import booklet_order
from deckwright.render.document.prose import render_prose
from deckwright.render.document.weasy import LocalFetcher

FILLER = " ".join(
    ["The light gathers where the heroes stand, and the dark waits at the edge of the table."] * 9
)

MINI_RULEBOOK = {
    "01-welcome.md": f"""<!-- A comment, never printed: {{card:nope}} -->
# Welcome

Mini is a game of {{card:ann}} and {{card:bob}}. Bob's text: {{card:bob field=text}}.

{FILLER}

## Sides by player count

{{table:setup columns=players,light,dark,heroes:"Heroes dealt"}}

> [!EXAMPLE] Setting up for four
> Deal {{card:ann}}, {{card:ann}}, {{card:bob}} and {{card:cy}}.

Code stays code: `{{card:nope}}` and \\{{card:nope}}.
""",
    "02-cards.md": f"""# The heroes

{FILLER}

{FILLER}

{{cards:hero columns=name,side,power:Power,text}}

## Spells

{{cards:spell as=terms columns=name,text,caster:"Cast by"}}

# Sides by rule

{FILLER}

{FILLER}

{FILLER}

{FILLER}

{{table:split}}
""",
    "03-appendix.md": f"""# Appendix {{-}}

{FILLER}

{FILLER}

{FILLER}

{{table:setup as=numbered columns=players,heroes}}
""",
}


# A light look for the test game: small fonts subset quickly (WeasyPrint's time goes there).
MINI_CSS = """:root { --body-font: "Cabin", "DejaVu Sans Mono"; --heading-font: "Cabin", "DejaVu Sans Mono";
  --ui-font: "Cabin", "DejaVu Sans Mono"; }
@page { @top-left { font-family: "Cabin"; } @top-right { font-family: "Cabin"; }
  @bottom-center { font-family: "Cabin"; } }
"""


def add_rulebook(tp: TempProject, game: str = "mini", files: dict[str, str] = MINI_RULEBOOK) -> None:
    folder = tp.root / "cards" / game / "rulebook"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    look = tp.root / "templates" / game / "rulebook.css"
    look.parent.mkdir(parents=True, exist_ok=True)
    look.write_text(MINI_CSS, encoding="utf-8")


def build(tp: TempProject, game: str = "mini", *options: str) -> dict[str, bytes]:
    """`deckwright build GAME --only rulebook [options]`: the files it writes, by name."""
    folder = tp.root / "build" / game
    shutil.rmtree(folder, ignore_errors=True)
    code = main(["--project", str(tp.root), "build", game, "--only", "rulebook", "--quiet", *options])
    assert code == 0
    return {path.name: path.read_bytes() for path in sorted(folder.glob("rulebook*"))}


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2010\n", "").replace("-\n", ""))


@pytest.fixture(scope="module")
def mini_book(tmp_path_factory) -> tuple[TempProject, dict[str, bytes]]:
    tp = TempProject(tmp_path_factory.mktemp("rulebook") / "project")
    tp.add_game(FIXTURES / "mini")
    add_rulebook(tp)
    outputs = build(tp, "mini", "--jobs", "2")  # web fonts subset in a worker beside the PDF
    return tp, outputs


# ---- reading references ------------------------------------------------------------------------


def test_reference_syntax() -> None:
    ref = parse_ref(
        "table", 'setup columns=players,as_written:"Recommended roles" as=list', "{...}", Loc("x")
    )
    assert (ref.kind, ref.target) == ("table", "setup")
    assert ref.options == {"columns": "players,as_written:Recommended roles", "as": "list"}
    assert parse_ref("cards", "quirk,judgment", "{...}", Loc("x")).target == "quirk,judgment"
    for kind, body, message in [
        ("crad", "ann", "unknown reference kind 'crad'"),
        ("card", "ann colour=red", "unknown option 'colour'"),
        ("table", 'setup where="light > 1', "cannot read"),
        ("table", "setup as=grid", "as='grid' is not one of"),
        ("card", "Ann", "'Ann' is not an id"),
        ("table", "setup columns", "not an option=value pair"),
    ]:
        with pytest.raises(RefSyntaxError, match=message):
            parse_ref(kind, body, "{...}", Loc("x"))


def test_references_are_found_with_line_and_column_outside_code() -> None:
    text = (
        "Intro {card:ann} and `{card:code}`.\n"
        "```\n{card:fenced}\n```\n"
        "<!-- {card:commented}\n   {card:still-commented} -->\n"
        "  Escaped \\{card:escaped}; last {table:setup as=list}\n"
    )
    found = [(line, col, m.group(0)) for line, col, m in scan_refs(text)]
    assert found == [(1, 7, "{card:ann}"), (7, 33, "{table:setup as=list}")]
    diags = Diagnostics()
    refs = read_rulebook_text("x {card:ann colour=red}\n", "book.md", diags)
    assert refs == ()
    assert [str(d) for d in diags] == [
        "book.md:1:3: error: {card:ann colour=red}: unknown option 'colour' (accepted: field)"
    ]


# ---- validation ----------------------------------------------------------------------------------


def test_dangling_references_fail_validation_with_their_location(mini: TempProject) -> None:
    add_rulebook(
        mini,
        files={
            "01-bad.md": (
                "# Bad\n\n"
                "A {card:nope} here.\n\n"
                "{table:nope}\n\n"
                "{table:setup columns=players,nope}\n\n"
                "   {cards:hero,villain}\n\n"
                '{cards:hero where="nope > 1"}\n\n'
                "{card:ann field=colour}\n\n"
                "| a | b |\n|---|---|\n| 1 | 2 |\n"
            )
        },
    )
    checked = mini.check("mini")
    errors = messages(checked)
    path = "cards/mini/rulebook/01-bad.md"
    expected = [
        f"{path}:3:3: error: {{card:nope}}: no card 'nope' in this game",
        f"{path}:5:1: error: {{table:nope}}: no table 'nope' (tables: setup, split)",
        f"{path}:7:1: error: {{table:setup columns=players,nope}}: columns: no column 'nope' "
        "(columns: players, light, dark, heroes, total)",
        f"{path}:9:4: error: {{cards:hero,villain}}: no card type 'villain' (card types: hero, spell)",
        f"{path}:11:1: error: {{cards:hero where=\"nope > 1\"}}: where: unknown name 'nope'",
        f"{path}:13:1: error: {{card:ann field=colour}}: a hero card has no field 'colour' "
        "(name, id, count, number, type, side, power, text, rivals)",
    ]
    assert [e for e in errors if "rulebook" in e] == expected
    assert any(
        w.startswith(f"{path}:15:1: warning: a table typed into the rulebook")
        for w in messages(checked, "warning")
    )


def test_the_real_rulebooks_validate() -> None:
    """Every reference in the three games' rulebooks resolves (no rendering: fast)."""
    tp_diags = Diagnostics()
    from deckwright.project import Project
    from deckwright.readers import load_game
    from deckwright.validate.rulebook import check_rulebook

    for game_id in ("light-and-mist", "midnight-congregation", "light-vs-darkness"):
        game = load_game(REPO / "cards" / game_id, tp_diags, REPO)
        assert game is not None and len(game.rulebook) >= 1
        check_rulebook(game, tp_diags)
    problems = [str(d) for d in tp_diags if "rulebook" in d.loc.path]
    assert problems == []
    assert Project(REPO).templates_dir.is_dir()


# ---- Markdown conventions (no PDF) -----------------------------------------------------------------


def test_markdown_conventions(mini: TempProject) -> None:
    game = mini.check("mini").game
    text = (
        "<!-- hidden note -->\n# One\n\n"
        "Text {card:cy}.\n{table:split as=list columns=players,dark}\nMore text.\n\n"
        "> [!TIP] Careful\n> Heal {card:cy}.\n\n> Just a quote.\n\n# Two {-}\n\n<b>raw</b>\n"
    )
    refs = read_rulebook_text(text, "x.md", Diagnostics())
    game = dataclasses.replace(game, rulebook=(RulebookFile("01-x.md", "x.md", text, refs),))
    prose = render_prose(game)
    html = str(prose.html)
    assert prose.problems == []
    assert "hidden note" not in html
    assert '<h2 id="1-one" class="section"><span class="secnum">1.</span> One</h2>' in html
    assert '<h2 id="two" class="section">Two</h2>' in html
    # the block reference leaves the paragraph: text before, the generated list, text after
    assert re.search(r"<p>Text Cy\.</p>\s*<div class=\"generated list\"", html)
    assert '<li><strong class="lead">3</strong>: 1</li>' in html and "<p>More text.</p>" in html
    assert '<aside class="callout callout-tip">' in html and '<p class="callout-title">Careful</p>' in html
    assert "<blockquote>\n<p>Just a quote.</p>" in html
    assert "&lt;b&gt;raw&lt;/b&gt;" in html
    assert [(h.level, h.number, h.text) for h in prose.toc] == [(1, "1.", "One"), (1, "", "Two")]


# ---- the PDF -------------------------------------------------------------------------------------


def test_generated_tables_follow_the_data(mini_book, tmp_path) -> None:
    tp, outputs = mini_book
    text = squash(" ".join(pdf_pages(outputs["rulebook.pdf"])))
    assert "Mini is a game of Ann and Bob" in text
    assert "Heroes dealt" in text and "2 × Ann, Bob, 2 × Cy" in text  # derived rows expanded
    assert "Cast by: Ann" in text
    # change values in a copy: every generated table and name follows
    copy = TempProject(tmp_path / "copy")
    copy.add_game(tp.root / "cards" / "mini", templates=tp.root / "templates" / "mini")
    copy.replace("mini", "heroes.yaml", "name: Ann", "name: Annwyn")
    copy.replace("mini", "heroes.yaml", "power: 4", "power: 8")
    copy.replace("mini", "tables.yaml", "generate: {players: [3, 5]}", "generate: {players: [3, 6]}")
    changed = build(copy)
    new = squash(" ".join(pdf_pages(changed["rulebook.pdf"])))
    assert "Mini is a game of Annwyn and Bob" in new and "Ann and Bob" not in new
    assert "2 × Annwyn, Bob, 2 × Cy" in new and "Cast by: Annwyn" in new
    assert re.search(r"Bob Dark 8", new) and re.search(r"Bob Dark 4", text)
    assert re.search(r"\b6 3 3\b", new) and not re.search(r"\b6 3 3\b", text)  # the generated split grew


def test_unknown_values_are_visible(mini_book) -> None:
    _, outputs = mini_book
    html = outputs["rulebook.html"].decode("utf-8")
    assert '<span class="unknown">unknown</span><sup class="note-ref">1</sup>' in html  # in the hero table
    assert "The source prints no text for Bob." in html
    text = squash(" ".join(pdf_pages(outputs["rulebook.pdf"])))
    assert "The source prints no text for Bob." in text


def test_contents_lists_every_section_with_its_real_page(mini_book) -> None:
    _, outputs = mini_book
    pages = pdf_pages(outputs["rulebook.pdf"])
    assert len(pages) >= 5
    toc = [m.groups() for m in re.finditer(r"^(?:(\d+)\. )?(.+?) ?\.{3,} ?(\d+)$", pages[1], re.M)]
    titles = [(number, title) for number, title, _ in toc]
    assert titles == [
        ("1", "Welcome"),
        (None, "Sides by player count"),
        ("2", "The heroes"),
        (None, "Spells"),
        ("3", "Sides by rule"),
        (None, "Appendix"),
    ]
    assert len({page for *_, page in toc}) >= 3  # the sections really are on different pages
    for number, title, page in toc:
        heading = f"{number}. {title}" if number else title
        lines = [line.strip() for line in pages[int(page) - 1].splitlines()]
        assert any(re.sub(r"\s+", " ", line) == heading for line in lines), (heading, page)


def test_fonts_are_embedded_and_shipped(mini_book) -> None:
    _, outputs = mini_book
    registry = load_registry(REPO / "fonts", Diagnostics())
    shipped = {family.replace(" ", "-") for family in registry.families}
    seen = set()
    for page in PdfReader(io.BytesIO(outputs["rulebook.pdf"])).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = (
                font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            )
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
            seen.add(str(font["/BaseFont"]).split("+", 1)[1])
    assert seen and all(any(name.startswith(f) for f in shipped) for name in seen), seen
    html = outputs["rulebook.html"].decode("utf-8")
    assert 'src: url("data:font/woff2;base64,' in html and 'url("file:' not in html


def test_web_fonts_hold_the_pages_characters_as_shipped(mini_book) -> None:
    _, outputs = mini_book
    html = outputs["rulebook.html"].decode("utf-8")
    text = {ord(c) for c in html} | set(range(0x20, 0x7F))
    registry = load_registry(REPO / "fonts", Diagnostics())
    rule = re.compile(
        r'font-family: "([^"]+)"; src: url\("data:font/woff2;base64,([^"]+)"\); '
        r"font-weight: (\d+); font-style: (\w+);"
    )
    faces = rule.findall(html)
    assert faces
    for family, data, weight, style in faces:
        font = next(f for f in registry.fonts.values() if f.family == family)
        slot = "-".join(["bold"] * (weight == "700") + ["italic"] * (style == "italic")) or "regular"
        shipped, subset = TTFont(font.faces[slot]), TTFont(io.BytesIO(base64.b64decode(data)))
        assert subset.flavor == "woff2"
        wanted = {c: g for c, g in shipped.getBestCmap().items() if c in text}
        assert set(subset.getBestCmap()) == set(wanted), (family, slot)
        for code in sorted(wanted)[:20]:  # the glyphs are the shipped ones
            drawn = [RecordingPen(), RecordingPen()]
            shipped.getGlyphSet()[wanted[code]].draw(drawn[0])
            subset.getGlyphSet()[subset.getBestCmap()[code]].draw(drawn[1])
            assert drawn[0].value == drawn[1].value, (family, slot, chr(code))


def test_a_rebuild_with_the_same_characters_subsets_no_font(mini_book, tmp_path, capsys) -> None:
    tp, _ = mini_book
    copy = TempProject(tmp_path / "copy")
    copy.add_game(tp.root / "cards" / "mini", templates=tp.root / "templates" / "mini")

    def renders(*options: str) -> tuple[int, int]:
        assert main(["--project", str(copy.root), "build", "mini", "--only", "rulebook", *options]) == 0
        return tuple(
            int(n) for n in re.findall(r"\((\d+) rendered, (\d+) from cache\)", capsys.readouterr().out)[0]
        )

    rendered, _ = renders("--jobs", "2")
    assert rendered > 1  # the PDF and its faces
    appendix = copy.root / "cards" / "mini" / "rulebook" / "03-appendix.md"
    appendix.write_text(appendix.read_text(encoding="utf-8") + f"\n{FILLER}\n", encoding="utf-8")
    assert renders("--jobs", "2") == (1, rendered - 1)  # the PDF again; every web font from the cache


def test_same_bytes_twice(mini_book) -> None:
    tp, outputs = mini_book
    # rendered afresh (not read back from build/.cache), the web fonts one after another
    again = build(tp, "mini", "--no-cache", "--jobs", "1")
    assert again["rulebook.pdf"] == outputs["rulebook.pdf"]
    assert again["rulebook.html"] == outputs["rulebook.html"]
    ids = PdfReader(io.BytesIO(outputs["rulebook.pdf"])).trailer["/ID"]
    assert len(ids) == 2 and ids[0]
    assert b"/CreationDate" not in outputs["rulebook.pdf"]  # no clock in the file


def test_source_date_epoch_sets_the_dates(mini_book, monkeypatch) -> None:
    tp, _ = mini_book
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    first = build(tp, "mini", "--paper", "letter", "--booklet")
    meta = PdfReader(io.BytesIO(first["rulebook.pdf"])).metadata
    assert meta["/CreationDate"].startswith("D:20260101") and meta["/ModDate"] == meta["/CreationDate"]
    page = PdfReader(io.BytesIO(first["rulebook.pdf"])).pages[0]
    assert [round(float(v)) for v in page.mediabox.upper_right] == [612, 792]  # US Letter
    # the booklet: half-Letter pages two-up on landscape Letter, padded to a multiple of 4
    pages = len(pdf_pages(first["rulebook.pdf"]))
    booklet = PdfReader(io.BytesIO(first["rulebook-booklet.pdf"]))
    sheet = [round(float(v)) for v in booklet.pages[0].mediabox.upper_right]
    assert sheet == [792, 612]
    assert len(booklet.pages) % 2 == 0 and len(booklet.pages) * 2 >= pages
    second = build(tp, "mini", "--paper", "letter", "--booklet")
    assert second == first


def test_booklet_order() -> None:
    assert booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    assert sorted(p for side in booklet_order(12) for p in side) == list(range(12))


def test_fetcher_serves_only_project_files(tmp_path) -> None:
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "a.otf").write_bytes(b"font")
    (tmp_path / "secret.txt").write_text("no")
    fetcher = LocalFetcher([fonts])
    assert fetcher.fetch((fonts / "a.otf").as_uri()).read() == b"font"
    for url in [
        (tmp_path / "secret.txt").as_uri(),
        (fonts / ".." / "secret.txt").as_uri(),
        "https://example.com/font.otf",
        "file://otherhost/etc/passwd",
    ]:
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 4


def test_a_real_rulebook_has_its_tables(tmp_path) -> None:
    """Light & Mist (the smallest real game): the tables issue 5 asks for, from the data."""
    tp = TempProject(tmp_path / "project")
    tp.add_game(REPO / "cards" / "light-and-mist")
    outputs = build(tp, "light-and-mist")
    text = squash(" ".join(pdf_pages(outputs["rulebook.pdf"])))
    assert "Light & Mist" in text and "Development / Playtest Edition" in text
    assert "Recommended roles" in text and "9-player roles + Deceiver" in text  # role table
    assert re.search(r"Players M1 M2 M3 M4 M5 6 2 3 4 3 4 7 2 3 3 4 4 8 3 4 4 5 5", text)  # mission teams
    assert "Walk in the Light After result Host reports 0, 1, or 2+ Sabotage." in text  # scripture cards
    assert "Pastor, Watchman, 2 × Faithful, False Teacher, Deceiver" in text  # names from the cards
