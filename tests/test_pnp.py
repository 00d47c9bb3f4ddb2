"""Print-and-play PDFs: sheet geometry (impose), and the PDFs built from a small synthetic game
(tests/fixtures/pnp-mini: poker cards over two sheets, a double-sided type, mini cards, a board
that is tiled, one that fits a page, round tokens and a marker)."""

from __future__ import annotations

import io
import math
import re
from dataclasses import replace
from pathlib import Path

import pypdf
import pytest

from conftest import FIXTURES, REPO, TempProject
from deckwright.cli import main
from deckwright.diagnostics import Diagnostics
from deckwright.geometry import Affine, Box
from deckwright.model import Layout
from deckwright.outputs.pnp.alignment import plan_alignment
from deckwright.outputs.pnp.impose import (
    FOLD_CLEARANCE,
    MARK_MIN,
    TILE_OVERLAP,
    Item,
    back_slot,
    crop_marks,
    place_footer,
    plan_grid,
    plan_gutterfold,
    sheet_flip,
)
from deckwright.outputs.pnp.tiles import plan_tiles
from deckwright.pipeline.load import load_catalog
from deckwright.project import Project
from deckwright.readers.catalog import read_catalog
from deckwright.render.pdf.facedrawings import FaceDrawings
from deckwright.render.pdf.painter import (
    MARK_STROKE,
    PageDrawing,
    SheetFace,
    drop_background,
    pages_to_pdf,
    pdf_date,
)
from deckwright.units import MM

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
# physical copies per card of the fixture (boards are tiled and counted apart)
COPIES = {
    "Aldric": 3, "Brena": 2, "Corvin": 1, "Dalla": 2, "Evrard": 1, "Fenwick": 2,
    "Galen": 1, "Hester": 1, "Ivory": 2, "Jasper": 1, "Kindle": 5, "Lumen": 3, "Marshal": 1,
}  # fmt: skip
BACK_NAMES = {"Ironbark": 1, "Moonwell": 1}  # the double-sided mentors' own backs


# ---- fixtures -----------------------------------------------------------------------------------


def _project(root: Path) -> TempProject:
    project = TempProject(root)
    project.add_game(FIXTURES / "pnp-mini")
    return project


def _build(project: TempProject, *extra: str) -> Path:
    code = main(["--project", str(project.root), "build", "pnp-mini", "--only", "pnp", "--jobs", "1", *extra])
    assert code == 0
    return project.root / "build" / "pnp-mini"


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    return _build(_project(tmp_path_factory.mktemp("plain") / "p"), "--no-cache")


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> Path:
    project = _project(tmp_path_factory.mktemp("variants") / "p")
    papers = project.root / "layouts" / "papers.yaml"  # A4 only: each paper is a PDF per variant
    text = papers.read_text(encoding="utf-8")
    papers.write_text(text[: text.index("  letter:")], encoding="utf-8")
    return _build(
        project,
        "--gutterfold",
        "--ink-saver",
        "--duplex",
        "short-edge",
        "--back-offset",
        "1.5,-0.5",
        "--no-cache",
    )


@pytest.fixture(scope="module")
def layouts():
    diags = Diagnostics()
    found = load_catalog(Project(REPO), diags).layouts
    assert not diags.has_errors
    return found


@pytest.fixture(scope="module")
def papers():
    diags = Diagnostics()
    found = read_catalog(REPO / "layouts", diags, str).papers
    assert not diags.has_errors, [str(d) for d in diags]
    return found


def reader(path: Path) -> pypdf.PdfReader:
    return reader_of(path.read_bytes())


def reader_of(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def texts(pdf: pypdf.PdfReader) -> list[str]:
    return [page.extract_text() for page in pdf.pages]


def page_of(pdf: pypdf.PdfReader, what: str) -> int:
    found = [i for i, text in enumerate(texts(pdf)) if what in text]
    assert len(found) == 1, (what, found)
    return found[0]


def box(page, name: str) -> tuple[float, ...]:
    return tuple(round(float(v), 2) for v in page[name])


def item(layout: Layout) -> Item:
    return Item(layout.width, layout.height, layout.bleed, layout.corner_radius)


# ---- the PDFs ----------------------------------------------------------------------------------


def test_one_pdf_per_paper_and_variant(plain: Path, variants: Path) -> None:
    assert sorted(p.name for p in plain.glob("*.pdf")) == ["pnp-a4.pdf", "pnp-letter.pdf"]
    assert sorted(p.name for p in variants.glob("*.pdf")) == sorted(
        f"pnp-a4{suffix}.pdf" for suffix in ("", "-gutterfold", "-ink-saver", "-gutterfold-ink-saver")
    )


@pytest.mark.parametrize(("name", "size"), [("pnp-a4.pdf", A4), ("pnp-letter.pdf", LETTER)])
def test_page_sizes_are_exact(plain: Path, name: str, size: tuple[float, float]) -> None:
    for page in reader(plain / name).pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == size


def test_page_count_follows_from_the_card_counts(plain: Path, tmp_path: Path, layouts, papers) -> None:
    a4 = papers["a4"]
    per_poker = plan_grid(a4, item(layouts["poker"])).per_page
    assert per_poker == 8
    heroes = 3 + 2 + 1 + 2 + 1 + 2
    tiles = len(plan_tiles(a4, item(layouts["board-bifold"])))
    expected = (
        1  # calibration
        + 1  # checklist, on the back of the calibration sheet
        + 2  # duplex alignment, front and back
        + 2 * math.ceil(heroes / per_poker)  # fronts + backs per sheet
        + 2  # mentors
        + 2  # omens (mini cards)
        + 2  # the tiled board's assembly map, blank back
        + 2 * tiles  # the tiled board, each tile with a blank back
        + 2  # the small board on one page, blank back
        + 2  # chits
        + 2  # marker
    )
    pdf = reader(plain / "pnp-a4.pdf")
    assert len(pdf.pages) == expected == 26
    # one more hero sheet when the heroes no longer fit two
    project = _project(tmp_path / "more")
    project.replace("pnp-mini", "heroes.yaml", "name: Corvin,", "name: Corvin, count: 9,")
    more = reader(_build(project, "--no-cache") / "pnp-a4.pdf")
    assert len(more.pages) == expected + 2


def test_pages_come_in_duplex_pairs_with_footers(plain: Path) -> None:
    pages = texts(reader(plain / "pnp-a4.pdf"))
    total = len(pages)
    for n, text in enumerate(pages, 1):
        assert "Sheet & Co — Proof edition" in text
        assert f"page {n} of {total}" in text
    assert "Calibration" in pages[0]
    assert "Component checklist" in pages[1]
    assert "Duplex alignment: front" in pages[2] and "Duplex alignment: back" in pages[3]
    for n in range(4, total, 2):  # every odd page a front, the even page after it its back
        front, back = pages[n], pages[n + 1]
        assert re.search(r"fronts, sheet|whole board|assembly map|tile [A-Z]\d", front), front
        assert re.search(r"backs, sheet|\(blank\)", back), back
    assert "Hero cards: fronts, sheet 2 of 2" in pages[6]
    assert "Hero cards: backs, sheet 2 of 2 (long edge flip)" in pages[7]


def test_a_tiled_board_comes_with_its_assembly_map_and_is_held_once(plain: Path) -> None:
    pdf = reader(plain / "pnp-a4.pdf")
    pages = texts(pdf)
    maps = [n for n, text in enumerate(pages) if "Greatfield: assembly map of" in text]
    tiles = [n for n, text in enumerate(pages) if re.search(r"Greatfield: tile [A-Z]\d", text)]
    assert len(maps) == 1 and tiles and maps[0] < tiles[0]
    labels = {re.search(r"Greatfield: tile ([A-Z]\d)", pages[n]).group(1) for n in tiles}
    assert labels <= set(pages[maps[0]].split())  # every tile is labelled on the map
    board = _forms(pdf, maps[0])
    assert board and all(board <= _forms(pdf, n) for n in tiles)  # one XObject for every tile


def test_every_card_name_is_text_as_often_as_it_prints(plain: Path) -> None:
    for name in ("pnp-a4.pdf", "pnp-letter.pdf"):
        pages = texts(reader(plain / name))
        checklist = pages[1]
        everything = "\n".join(pages)
        for card, copies in COPIES.items():
            assert checklist.count(card) == 1, card
            assert everything.count(card) == copies + 1, (name, card)
        for back, copies in BACK_NAMES.items():
            assert everything.count(back) == copies, back


def test_every_font_is_embedded_and_no_page_is_a_bitmap(plain: Path) -> None:
    pdf = reader(plain / "pnp-a4.pdf")
    fonts: dict[int, pypdf.generic.DictionaryObject] = {}
    images = []

    def walk(resources) -> None:
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            fonts[font.idnum] = font.get_object()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Image":
                images.append(xobject)
            elif "/Resources" in xobject:
                walk(xobject["/Resources"])
        for pattern in (resources.get("/Pattern") or {}).values():
            pattern = pattern.get_object()
            if "/Resources" in pattern:
                walk(pattern["/Resources"])

    for page in pdf.pages:
        walk(page["/Resources"])
    assert fonts
    families = set()
    for font in fonts.values():
        assert font["/Subtype"] != "/Type3", font
        if font["/Subtype"] == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font["/FontDescriptor"].get_object()
        assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), font["/BaseFont"]
        families.add(str(font["/BaseFont"]).split("+")[-1])
    assert {"Inter-Regular", "Inter-Bold", "EBGaramond12-Regular"} <= families
    assert not images  # vector throughout


def test_trim_and_bleed_boxes_on_every_page(plain: Path) -> None:
    pdf = reader(plain / "pnp-a4.pdf")
    for page in pdf.pages:
        media, trim, bleed = (box(page, k) for k in ("/MediaBox", "/TrimBox", "/BleedBox"))
        assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
        assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
    # a full sheet of poker cards, sideways: two columns 88.9 mm wide, apart by twice the
    # bleed (6.35 mm), by four butted rows of 63.5 mm, to 0.1 mm
    fronts = pdf.pages[page_of(pdf, "Hero cards: fronts, sheet 1 of 2")]
    x0, y0, x1, y1 = box(fronts, "/TrimBox")
    assert abs((x1 - x0) / MM - 184.15) < 0.1
    assert abs((y1 - y0) / MM - 254.0) < 0.1
    bx0, _, bx1, _ = box(fronts, "/BleedBox")
    assert bx0 < x0 and bx1 > x1  # the bleed is kept outside the block


def test_backs_sit_behind_their_fronts(plain: Path, variants: Path) -> None:
    """Two mentors fill the top-left of their sheet: their backs' box is its mirror image."""
    pdf = reader(plain / "pnp-a4.pdf")
    w, h = A4
    front = box(pdf.pages[page_of(pdf, "Mentor cards: fronts")], "/TrimBox")
    back = box(pdf.pages[page_of(pdf, "Mentor cards: backs")], "/TrimBox")
    assert front[0] < w / 2  # the partly filled sheet starts on the left...
    assert back == pytest.approx((w - front[2], front[1], w - front[0], front[3]), abs=0.01)  # ...backs right
    # short-edge flip mirrors the rows, and --back-offset 1.5,-0.5 (mm, y down) moves every back
    pdf = reader(variants / "pnp-a4.pdf")
    front = box(pdf.pages[page_of(pdf, "Mentor cards: fronts")], "/TrimBox")
    back = box(pdf.pages[page_of(pdf, "Mentor cards: backs")], "/TrimBox")
    dx, dy = 1.5 * MM, -0.5 * MM
    expected = (front[0] + dx, h - front[3] - dy, front[2] + dx, h - front[1] - dy)  # PDF y points up
    assert back == pytest.approx(expected, abs=0.01)


def test_builds_are_byte_for_byte_reproducible(plain: Path, tmp_path: Path) -> None:
    again = _build(_project(tmp_path / "again"), "--no-cache")
    for name in ("pnp-a4.pdf", "pnp-letter.pdf"):
        assert (again / name).read_bytes() == (plain / name).read_bytes(), name
    pdf = reader(plain / "pnp-a4.pdf")
    ids = pdf.trailer["/ID"]
    assert len(ids) == 2 and ids[0] == ids[1] and len(bytes(ids[0].original_bytes)) == 16
    assert "/CreationDate" not in pdf.metadata  # no clock time without SOURCE_DATE_EPOCH


def test_pdf_is_well_formed(plain: Path) -> None:
    """The boxes, /Info and /ID patched into cairo's bytes leave a PDF a strict reader takes,
    its resources named once each (cairo writes a name once per use)."""
    data = (plain / "pnp-a4.pdf").read_bytes()
    pdf = pypdf.PdfReader(io.BytesIO(data), strict=True)
    assert "Calibration" in pdf.pages[0].extract_text()
    assert pdf.metadata["/Title"] == "Sheet & Co — print and play (A4)"
    assert pdf.metadata["/Producer"].startswith("cairo ")
    assert b"/CreationDate" not in data  # not even cairo's own, superseded
    for block in re.findall(rb"/XObject <<(.*?)>>", data, re.S):
        names = re.findall(rb"/x\d+ ", block)
        assert len(names) == len(set(names)), block


def test_dates_come_from_source_date_epoch_only() -> None:
    drawing = PageDrawing(A4[0], A4[1], "Inter")
    drawing.text(100, 100, "Hello", 12)
    page = drawing.page()
    undated = pages_to_pdf([page], {"Title": "t"})
    dated = pages_to_pdf([page], {"Title": "t"}, pdf_date("1700000000"))
    assert pdf_date("not a number") is None
    first, second = reader_of(undated), reader_of(dated)
    assert "/CreationDate" not in first.metadata
    assert second.metadata["/CreationDate"] == second.metadata["/ModDate"] == "D:20231114221320Z"
    assert first.trailer["/ID"] == second.trailer["/ID"]  # the identifier follows the drawing


def _face_page(face: SheetFace, canvas: tuple[float, float], *at: tuple[float, float]):
    """An A4 page with the face placed at each (x, y), clipped to what of it is on the page."""
    drawing = PageDrawing(A4[0], A4[1], "Inter")
    for x, y in at:
        drawing.card(face, canvas, Affine(e=x, f=y), Box(0, 0, *A4))
    return drawing.page()


def _forms(pdf: pypdf.PdfReader, n: int) -> set[int]:
    xobjects = pdf.pages[n]["/Resources"].get("/XObject") or {}
    return {x.idnum for x in xobjects.values() if x.get_object()["/Subtype"] == "/Form"}


def test_each_face_is_drawn_once_and_placed_many_times() -> None:
    """A face is one Form XObject for the whole file, however often and wherever it prints;
    a board tile (most of it off the page) leaves later placements whole."""
    canvas = (400.0, 200.0)
    face = SheetFace.of(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{canvas[0]}pt" height="{canvas[1]}pt" '
        f'viewBox="0 0 {canvas[0]} {canvas[1]}"><rect width="400" height="200" fill="#345"/>'
        '<text x="20" y="100" font-family="Inter" font-size="20">Westward</text>'
        '<text x="300" y="100" font-family="Inter" font-size="20">Eastward</text></svg>'
    )
    pages = [
        _face_page(face, canvas, (-290, 40)),  # a tile: only its right part on the page
        _face_page(face, canvas, (20, 20), (20, 300), (20, 580)),
        _face_page(face, canvas, (20, 40), (300, 500)),  # the second one partly off the page
        _face_page(face, canvas, (20, 20)),
    ]
    pdf = reader_of(pages_to_pdf(pages, {"Title": "t"}))
    text = texts(pdf)
    assert "Eastward" in text[0]
    assert text[1].count("Westward") == text[1].count("Eastward") == 3
    assert "Westward" in text[2] and "Eastward" in text[2] and "Westward" in text[3]
    whole = _forms(pdf, 1)
    assert len(whole) == 1 and _forms(pdf, 3) == whole and whole <= _forms(pdf, 2)
    assert not _forms(pdf, 0) & whole


class DictDrawings(FaceDrawings):
    """Display lists kept in a dict, as the build keeps them in its cache."""

    def __init__(self, store: dict[bytes, bytes]) -> None:
        super().__init__()
        self.store = store

    def get(self, svg: bytes) -> bytes | None:
        return self.store.get(svg)

    def put(self, svg: bytes, drawing: bytes) -> None:
        self.store[svg] = drawing


_PNG = (  # a 1 x 1 red pixel: embedded raster art, which a display list does not hold
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)


def _rich_face(label: str, raster: bool = False) -> str:
    """A face using what card templates use: gradients, clip paths, dashes, opacity, text."""
    art = (
        f'<image x="10" y="10" width="20" height="20" href="data:image/png;base64,{_PNG}"/>' if raster else ""
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="180pt" height="252pt" viewBox="0 0 180 252">'
        '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#234"/>'
        '<stop offset="1" stop-color="#a85" stop-opacity="0.5"/></linearGradient>'
        '<radialGradient id="r"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/>'
        '</radialGradient><clipPath id="c"><rect x="5" y="5" width="170" height="242" rx="8"/></clipPath>'
        "</defs>"
        '<g clip-path="url(#c)"><rect width="180" height="252" fill="url(#g)"/>'
        '<circle cx="90" cy="90" r="40" fill="url(#r)" opacity="0.7"/>'
        '<path d="M10 200 C 40 180, 140 220, 170 200" stroke="#fff" stroke-width="2" stroke-dasharray="4 2" '
        'fill="none" stroke-linecap="round"/>'
        f'<g opacity="0.5"><text x="90" y="40" font-family="Inter" font-size="14" text-anchor="middle" '
        f'font-weight="bold">{label}</text><rect x="20" y="230" width="10" height="10"/></g>'
        '<text x="20" y="160" font-family="EB Garamond" font-size="9" font-style="italic">'
        "Once per turn</text>"
        f"{art}</g></svg>"
    )


def test_replayed_faces_give_the_same_pdf_bytes() -> None:
    """A face drawn once leaves its display list; replayed, it makes the PDF byte for byte;
    a face with raster art is drawn by CairoSVG every time."""
    canvas = (180.0, 252.0)
    faces = [
        SheetFace.of(_rich_face("Aldric")),
        SheetFace.of(_rich_face("Brena")),
        SheetFace.of(_rich_face("Pix", True)),
    ]
    pages = [_face_page(faces[0], canvas, (20, 20), (220, 20)), _face_page(faces[1], canvas, (20, 20))]
    pages.append(_face_page(faces[2], canvas, (20, 20), (220, 300)))
    live = pages_to_pdf(pages, {"Title": "t"})
    store: dict[bytes, bytes] = {}
    first = DictDrawings(store)
    assert pages_to_pdf(pages, {"Title": "t"}, drawings=first) == live
    assert (first.drawn, first.replayed, len(store)) == (3, 0, 2)
    again = DictDrawings(store)
    assert pages_to_pdf(pages, {"Title": "t"}, drawings=again) == live
    assert (again.drawn, again.replayed) == (1, 2)
    assert texts(reader_of(live))[0].count("Aldric") == 2
    # a damaged entry (or one naming a call the recorder never writes) is drawn afresh
    first_face, second_face = list(store)
    store[first_face] = store[first_face][:-40]
    store[second_face] = store[second_face].replace(b'["save"]', b'["show_page"]', 1)
    damaged = DictDrawings(store)
    assert pages_to_pdf(pages, {"Title": "t"}, drawings=damaged) == live
    assert (damaged.drawn, damaged.replayed) == (3, 0)


def _log(capsys) -> str:
    out, err = capsys.readouterr()
    return out + err


def test_a_one_card_edit_draws_one_face(tmp_path: Path, capsys) -> None:
    """Each face is drawn once for both PDFs, which replay its display list; after an edit,
    only the edited face is drawn, and the PDFs are those a clean build makes."""
    faces = re.compile(r"print-and-play PDFs: 2 drawn, 0 from cache; faces: (\d+) drawn, (\d+) replayed")
    project = _project(tmp_path / "p")
    _build(project)
    drawn, replayed = map(int, faces.search(_log(capsys)).groups())
    assert replayed == 2 * drawn and drawn > 10  # on A4 and on Letter
    project.replace("pnp-mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    edited = _build(project)
    assert faces.search(_log(capsys)).groups() == ("1", str(replayed))
    fresh = _project(tmp_path / "fresh")
    fresh.replace("pnp-mini", "heroes.yaml", 'text: "Heal 2."', 'text: "Heal 3."')
    clean = _build(fresh, "--no-cache")
    for name in ("pnp-a4.pdf", "pnp-letter.pdf"):
        assert (edited / name).read_bytes() == (clean / name).read_bytes(), name


def test_calibration_and_alignment_pages(plain: Path, variants: Path) -> None:
    pages = texts(reader(plain / "pnp-a4.pdf"))
    calibration = pages[0]
    for needed in ("Sheet & Co", "Proof edition", "50 mm", "2 in", "Actual size / 100 %", "Contents"):
        assert needed in calibration, needed
    front, back = pages[2], pages[3]
    for dx in (-2, -1, 0, 1, 2):
        for dy in (-2, -1, 0, 1, 2):
            label = f"{dx:+d}, {dy:+d}".replace("+0", "0")
            assert label in front and label in back, label
    assert "--back-offset X,Y" in front
    # with an offset given, the sheet is centred on it: its labels are what to pass next
    shifted = texts(reader(variants / "pnp-a4.pdf"))
    assert "+3.5, -2.5" in shifted[3] and "-0.5, +1.5" in shifted[3]


def test_gutterfold_is_single_sided_with_a_fold_line(variants: Path) -> None:
    pages = texts(reader(variants / "pnp-a4-gutterfold.pdf"))
    assert not any("Duplex alignment" in p or "(blank)" in p for p in pages)
    fold = [p for p in pages if "gutterfold, sheet" in p]
    assert fold and all("fold on the dashed line" in p for p in fold)
    everything = "\n".join(pages)
    for card, copies in COPIES.items():
        assert everything.count(card) == copies + 1, card


def test_ink_saver_hides_the_background_group(variants: Path) -> None:
    svg = '<svg><g id="background"><rect/></g><g id="face"/></svg>'
    hidden, found = drop_background(svg)
    assert found and '<g id="background" display="none">' in hidden
    assert drop_background("<svg><g id='face'/></svg>") == ("<svg><g id='face'/></svg>", False)
    plain, saver = variants / "pnp-a4.pdf", variants / "pnp-a4-ink-saver.pdf"
    assert len(reader(saver).pages) == len(reader(plain).pages)
    assert saver.read_bytes() != plain.read_bytes()


# ---- geometry (impose) -----------------------------------------------------------------------

CARDS = ("poker", "euro-poker", "bridge", "mini", "small-square", "square", "tarot", "jumbo")


@pytest.mark.parametrize("paper_id", ["a4", "letter"])
@pytest.mark.parametrize("layout_id", CARDS)
def test_crop_marks_stay_in_the_margins(papers, layouts, paper_id: str, layout_id: str) -> None:
    paper, it = papers[paper_id], item(layouts[layout_id])
    grid = plan_grid(paper, it)
    assert grid is not None and grid.per_page >= 1
    for count in {grid.per_page, max(1, grid.per_page // 2 + 1)}:  # a full and a partial sheet
        slots = grid.slots(count)
        placed = place_footer(paper, [s.clip for s in slots], crop_marks(slots, paper))
        marks = placed[1] if placed else crop_marks(slots, paper)
        assert marks
        for footer in placed[0].boxes if placed else ():  # the footer clear of cards and marks
            assert not any(footer.overlaps(s.clip) for s in slots)
            assert not any(footer.overlaps(m.bounds(MARK_STROKE / 2)) for m in marks)
        printable = Box(
            paper.margin, paper.margin, paper.width - 2 * paper.margin, paper.height - 2 * paper.margin
        )
        for mark in marks:
            bounds = _stroke_box(mark)
            assert printable.contains(bounds), mark  # wholly where a home printer prints
            assert mark.length >= MARK_MIN - 1e-6
            assert not any(bounds.overlaps(s.clip) for s in slots)  # outside every card
        for x in {v for s in slots for v in (s.trim.x, s.trim.right)}:  # every cut line is marked
            assert any(m.x1 == m.x2 and abs(m.x1 - x) < 0.01 for m in marks), x
        for y in {v for s in slots for v in (s.trim.y, s.trim.bottom)}:
            assert any(m.y1 == m.y2 and abs(m.y1 - y) < 0.01 for m in marks), y
        for slot in slots:  # full bleed on every edge no card butts against
            for side, amount in zip("ltrb", _bleeds(slot), strict=True):
                if not any(_butts(slot, other, side) for other in slots if other is not slot):
                    assert amount == pytest.approx(it.bleed), (slot.index, side)
                else:
                    assert amount > 0
        for slot in slots:  # each trim exact, each card drawn at 100 % onto it
            w, h = (it.width, it.height) if grid.turns % 2 == 0 else (it.height, it.width)
            assert abs(slot.trim.w - w) < 0.1 * MM and abs(slot.trim.h - h) < 0.1 * MM
            assert abs(slot.transform.a) + abs(slot.transform.b) == pytest.approx(1)
            drawn = slot.transform.map_rect(Box(it.bleed, it.bleed, it.width, it.height))
            assert (drawn.x, drawn.y, drawn.w, drawn.h) == pytest.approx(
                (slot.trim.x, slot.trim.y, slot.trim.w, slot.trim.h)
            )
            assert slot.clip.contains(slot.trim)


def _stroke_box(mark) -> Box:
    """What a crop mark inks: its stroke is MARK_STROKE wide, with butt caps (cairo's default)."""
    half = MARK_STROKE / 2
    x0, x1 = sorted((mark.x1, mark.x2))
    y0, y1 = sorted((mark.y1, mark.y2))
    if x0 == x1:
        return Box(x0 - half, y0, 2 * half, y1 - y0)
    return Box(x0, y0 - half, x1 - x0, 2 * half)


def _bleeds(slot) -> tuple[float, float, float, float]:
    c, t = slot.clip, slot.trim
    return (t.x - c.x, t.y - c.y, c.right - t.right, c.bottom - t.bottom)


def _butts(slot, other, side: str) -> bool:
    a, b = slot.trim, other.trim
    across = (
        min(a.bottom, b.bottom) - max(a.y, b.y) if side in "lr" else min(a.right, b.right) - max(a.x, b.x)
    )
    edge = {
        "l": abs(b.right - a.x),
        "r": abs(b.x - a.right),
        "t": abs(b.bottom - a.y),
        "b": abs(b.y - a.bottom),
    }
    return edge[side] < 1e-6 and across > 1e-6


@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_poker_cards_lie_sideways_two_by_four(papers, layouts, paper_id: str) -> None:
    """Three upright columns with their bleed and 3 mm marks need 203.85 mm across: more than
    A4's printable 200 mm; Letter's 205.9 mm take them, but then only two rows: eight sideways
    cards beat six."""
    grid = plan_grid(papers[paper_id], item(layouts["poker"]))
    assert (grid.cols.count, grid.rows.count, grid.turns) == (2, 4, 1)
    three = plan_grid(papers[paper_id], item(layouts["poker"]), turns=0)
    assert three.per_page == 6
    assert plan_grid(replace(papers["a4"], margin=3 * MM), item(layouts["poker"])).per_page == 9


@pytest.mark.parametrize("edge", ["long-edge", "short-edge"])
def test_each_back_mirrors_its_front(papers, layouts, edge: str) -> None:
    paper, it = papers["a4"], item(layouts["bridge"])
    grid = plan_grid(paper, it)
    assert grid.turns == 0
    flip = sheet_flip(paper, edge)
    offset = (0.7 * MM, -1.2 * MM)
    for front in grid.slots():
        back = back_slot(front, it, flip)
        moved = back_slot(front, it, flip, offset)
        if edge == "long-edge":  # columns mirror: column 1's back in column 3
            assert back.trim.x == pytest.approx(paper.width - front.trim.right)
            assert back.trim.y == pytest.approx(front.trim.y)
            assert back.transform.quarter_turns == 0
        else:  # rows mirror, and the image turns 180 degrees to read upright after a book-style turn
            assert back.trim.y == pytest.approx(paper.height - front.trim.bottom)
            assert back.trim.x == pytest.approx(front.trim.x)
            assert back.transform.quarter_turns == 2
        assert not back.transform.mirrored  # a back is never printed mirror-image
        m, b = moved.trim, back.trim.moved(*offset)
        assert (m.x, m.y, m.w, m.h) == pytest.approx((b.x, b.y, b.w, b.h))
        # the card's own trim lands on the back's trim
        cx, cy = back.transform.apply(it.bleed + it.width / 2, it.bleed + it.height / 2)
        assert (cx, cy) == pytest.approx((back.trim.cx, back.trim.cy))


@pytest.mark.parametrize("paper_id", ["a4", "letter"])
@pytest.mark.parametrize("layout_id", ["poker", "mini", "tarot", "chit-medium", "marker"])
def test_gutterfold_keeps_the_fold_clear(papers, layouts, paper_id: str, layout_id: str) -> None:
    paper, it = papers[paper_id], item(layouts[layout_id])
    fold = plan_gutterfold(paper, it)
    fronts, backs = fold.slots()
    x = fold.fold_x
    assert all(s.clip.right <= x - FOLD_CLEARANCE + 1e-6 for s in fronts)
    assert all(s.clip.x >= x + FOLD_CLEARANCE - 1e-6 for s in backs)
    for f, b in zip(fronts, backs, strict=True):
        assert b.trim.x == pytest.approx(2 * x - f.trim.right) and b.trim.y == pytest.approx(f.trim.y)
        turn = (b.transform.quarter_turns - f.transform.quarter_turns) % 4
        assert turn == (2 if fold.turns % 2 else 0)  # sideways cards: backs turned 180 degrees
    marks = crop_marks(fronts + backs, paper)
    assert not any(m.bounds(MARK_STROKE / 2).overlaps(s.clip) for m in marks for s in fronts + backs)


@pytest.mark.parametrize("paper_id", ["a4", "letter"])
@pytest.mark.parametrize("layout_id", ["board-bifold", "board-quadfold", "board-sixfold"])
def test_tiles_cover_the_board_with_overlap(papers, layouts, paper_id: str, layout_id: str) -> None:
    paper, it = papers[paper_id], item(layouts[layout_id])
    tiles = plan_tiles(paper, it)
    assert len(tiles) > 1
    cw, ch = it.canvas
    printable = Box(
        paper.margin, paper.margin, paper.width - 2 * paper.margin, paper.height - 2 * paper.margin
    )
    for tile in tiles:
        assert printable.contains(tile.clip)
        assert abs(tile.transform.a) + abs(tile.transform.b) == pytest.approx(1)  # 100 %
        for mark in tile.marks:
            assert not mark.bounds(MARK_STROKE / 2).overlaps(tile.clip)
    # every point of the board is on some tile; neighbours overlap by TILE_OVERLAP or more
    sources = [t.source for t in tiles]
    for fx in (0.001, 0.25, 0.5, 0.75, 0.999):
        for fy in (0.001, 0.25, 0.5, 0.75, 0.999):
            p = Box(fx * cw, fy * ch, 0, 0)
            assert any(s.contains(p) for s in sources), (fx, fy)
    by_pos = {(t.row, t.col): t.source for t in tiles}
    for (r, c), s in by_pos.items():
        for other in (by_pos.get((r, c + 1)), by_pos.get((r + 1, c))):
            if other is not None:
                overlap_w = min(s.right, other.right) - max(s.x, other.x)
                overlap_h = min(s.bottom, other.bottom) - max(s.y, other.y)
                assert min(overlap_w, overlap_h) >= TILE_OVERLAP - 1e-6
    # a seam's crosses appear on both tiles at the same board position
    crosses = [set((round(x, 3), round(y, 3)) for x, y in _board_points(t)) for t in tiles]
    if len(tiles) > 1:
        assert crosses[0] & crosses[1]


def _board_points(tile):
    t = tile.transform
    det = t.a * t.d - t.b * t.c
    for x, y in tile.crosses:
        x0, y0 = x - t.e, y - t.f
        yield ((t.d * x0 - t.c * y0) / det, (-t.b * x0 + t.a * y0) / det)


def test_alignment_targets_sit_behind_each_other_at_their_offset(papers) -> None:
    paper = papers["letter"]
    for edge in ("long-edge", "short-edge"):
        sheet = plan_alignment(paper, edge)
        assert len(sheet.cells) == 25
        flip = sheet_flip(paper, edge)
        for cell in sheet.cells:
            bx, by = flip.apply(*cell.front)
            assert cell.back == pytest.approx((bx + cell.offset[0] * MM, by + cell.offset[1] * MM))
        assert {c.offset for c in sheet.cells} == {(x, y) for x in range(-2, 3) for y in range(-2, 3)}


def test_marks_are_long_enough_where_the_paper_allows(papers, layouts) -> None:
    grid = plan_grid(papers["a4"], item(layouts["bridge"]))
    slots = grid.slots()
    placed = place_footer(papers["a4"], [s.clip for s in slots], crop_marks(slots, papers["a4"]))
    assert placed is not None  # A4: up the sides between the marks (the book prefers a band below)
    assert min(m.length for m in placed[1]) >= MARK_MIN - 1e-6
    grid = plan_grid(papers["letter"], item(layouts["poker"]))
    slots = grid.slots()
    placed = place_footer(papers["letter"], [s.clip for s in slots], crop_marks(slots, papers["letter"]))
    assert placed is not None and placed[0].side  # Letter's 2 mm below 4 rows: up the sides
    assert min(m.length for m in placed[1]) >= MARK_MIN - 1e-6


def test_papers_file_is_checked(tmp_path: Path) -> None:
    (tmp_path / "papers.yaml").write_text(
        "papers:\n  a4: {title: A4, size: [210mm, 297mm], margin: 5mm}\n"
        "  bad: {title: Bad, size: [210mm], margin: 5mm}\n"
        "  worse: {title: Worse, size: [1in, 1in], margin: 1in, colour: red}\n",
        encoding="utf-8",
    )
    diags = Diagnostics()
    found = read_catalog(tmp_path, diags, lambda p: p.name).papers
    assert list(found) == ["a4"]
    messages = [str(d) for d in diags]
    assert any("size must be [width, height]" in m for m in messages)
    assert any("unknown key 'colour'" in m for m in messages)
    assert abs(found["a4"].width - A4[0]) < 0.01 and abs(found["a4"].height - A4[1]) < 0.01
