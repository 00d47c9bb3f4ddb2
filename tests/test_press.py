"""Press PDFs for print shops (one card side per page, full bleed, service page order, CMYK),
the CMYK profile and separation, and preflight.

The default profile is built by colprof at low quality (~8 s of CPU) once per machine and kept
in the user's ICC cache, like the medium-quality one a real build makes; the press builds here
are given it with --icc, which is also how a printer's own profile comes in."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pypdf
import pytest

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from deckwright.colour.convert import Separator, pdf_to_cmyk
from deckwright.colour.profile import ProfileError, cache_dir, default_profile, load_profile
from deckwright.geometry import Box
from deckwright.preflight import Rules, preflight
from deckwright.render.pdf.painter import PageDrawing, pages_to_pdf

MM = 72 / 25.4
HEROES = {"Aldric": 3, "Brena": 2, "Corvin": 1, "Dalla": 2, "Evrard": 1, "Fenwick": 2}


@pytest.fixture(scope="session")
def profile():
    return default_profile(240, quality="l")


@pytest.fixture(scope="module")
def press(tmp_path_factory, profile) -> Path:
    root = tmp_path_factory.mktemp("press") / "p"
    project = TempProject(root)
    project.add_game(FIXTURES / "pnp-mini")
    icc = root / "printer.icc"
    icc.write_bytes(profile.data)
    args = ["--project", str(root), "build", "pnp-mini", "--only", "press", "--jobs", "1", "--icc", str(icc)]
    assert main(args) == 0
    return root / "build" / "pnp-mini" / "press"


def _texts(path: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def test_one_pdf_per_card_deck_and_service(press: Path) -> None:
    found = sorted(str(p.relative_to(press)) for p in press.rglob("*.pdf"))
    decks = ["hero-cards.pdf", "mentor-cards.pdf", "omen-cards.pdf"]  # tokens and boards are not cards
    assert found == [
        f"{service}/{deck}" for service in ("drivethrucards", "offset-fogra39") for deck in decks
    ]


def test_drivethrucards_pages_go_back_then_face_one_side_per_page(press: Path) -> None:
    texts = _texts(press / "drivethrucards" / "hero-cards.pdf")
    assert len(texts) == 2 * sum(HEROES.values())
    fronts = texts[1::2]
    backs = texts[0::2]
    assert [name for text in fronts for name in HEROES if name in text] == [
        name for name, copies in HEROES.items() for _ in range(copies)
    ]
    assert not any(name in text for text in backs for name in HEROES)  # backs first, then faces
    # the offset press takes the face first
    offset = _texts(press / "offset-fogra39" / "hero-cards.pdf")
    assert "Aldric" in offset[0] and "Aldric" not in offset[1]


@pytest.mark.parametrize(("service", "bleed"), [("drivethrucards", 0.125 * 72), ("offset-fogra39", 3 * MM)])
def test_trim_and_bleed_boxes_and_no_marks(press: Path, service: str, bleed: float) -> None:
    pdf = pypdf.PdfReader(press / service / "hero-cards.pdf")
    for page in pdf.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        assert [float(v) for v in page.bleedbox] == pytest.approx(media)
        assert trim == pytest.approx([bleed, bleed, bleed + 2.5 * 72, bleed + 3.5 * 72], abs=0.01)
        assert media == pytest.approx([0, 0, 2.5 * 72 + 2 * bleed, 3.5 * 72 + 2 * bleed], abs=0.01)
        content = page.get_contents().get_data()
        assert b" S\n" not in content and b" l S" not in content  # no crop marks drawn on the page


def test_press_pdfs_are_cmyk_within_the_ink_limit_and_pass_preflight(press: Path, profile) -> None:
    for path in sorted(press.rglob("*.pdf")):
        data = path.read_bytes()
        limit = 240 if "drivethrucards" in str(path) else 300
        report = preflight(
            data, Rules(path.parent.name, "cmyk", limit, 0.125 * 72 if limit == 240 else 3 * MM)
        )
        assert report.ok, report.lines(path.name)
        spaces = set().union(*report.colour_spaces.values())
        assert spaces <= {"DeviceCMYK", "DeviceGray"}, spaces
        assert max(report.max_ink.values()) <= 241
        intent = pypdf.PdfReader(path).trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX"
        assert intent["/DestOutputProfile"].get_object().get_data() == profile.data


def test_press_builds_are_reproducible(press: Path, tmp_path: Path, profile) -> None:
    project = TempProject(tmp_path / "again")
    project.add_game(FIXTURES / "pnp-mini")
    icc = tmp_path / "printer.icc"
    icc.write_bytes(profile.data)
    args = ["--project", str(project.root), "build", "pnp-mini", "--only", "press", "--jobs", "1"]
    assert main([*args, "--icc", str(icc), "--no-cache"]) == 0
    again = project.root / "build" / "pnp-mini" / "press"
    for path in press.rglob("*.pdf"):
        assert (again / path.relative_to(press)).read_bytes() == path.read_bytes(), path


def test_a_plain_build_makes_no_press_pdfs(tmp_path: Path) -> None:
    from deckwright.kinds import DEFAULT_KINDS, OUTPUT_KINDS

    assert "press" in OUTPUT_KINDS and "press" not in DEFAULT_KINDS


# ---- the profile and the separation ----------------------------------------------------------


def test_the_default_profile_is_cached_with_its_provenance(profile) -> None:
    again = default_profile(240, quality="l")
    assert again.data == profile.data  # from the cache: no second colprof run
    assert profile.data[16:20] == b"CMYK" and profile.data[12:16] == b"prtr"
    assert profile.data[24:36] == bytes.fromhex("07d6000c0001000000000000")  # no clock time
    stored = sorted(cache_dir().glob("fogra39-240-l-*.json"))
    meta = json.loads(stored[-1].read_text(encoding="utf-8"))
    assert meta["source"].endswith("FOGRA39L.ti3") and len(meta["source_sha256"]) == 64
    assert "-l240" in meta["arguments"] and meta["tool"].startswith("ArgyllCMS colprof")


def test_a_printer_profile_must_be_cmyk(tmp_path: Path) -> None:
    from PIL import ImageCms

    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(ProfileError, match="RGB profile"):
        load_profile(rgb)
    (tmp_path / "junk.icc").write_bytes(b"not a profile")
    with pytest.raises(ProfileError, match="not an ICC profile"):
        load_profile(tmp_path / "junk.icc")


def test_rich_black_keeps_the_ink_limit_and_black_text_is_100_k(profile) -> None:
    black = Separator(profile).colour((0, 0, 0))
    assert 2.3 <= sum(black) <= 2.41 and black[3] > 0.9  # rich black, within 240 %
    d = PageDrawing(200, 100, "sans-serif")
    d.rect(Box(0, 0, 200, 100), fill="#1e4d8c", stroke=None)
    d.text(10, 40, "Black type", 12)
    d.text(10, 80, "Red type", 12, fill="#cc0000")
    data = pdf_to_cmyk(pages_to_pdf([d.page()], {"Title": "t"}), profile)
    content = pypdf.PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data().decode("latin-1")
    texts = re.findall(r"BT(.*?)ET", content, re.S)
    assert any(re.search(r"\b0(\.0)? 0(\.0)? 0(\.0)? 1 k", t) for t in texts)  # 100 % K, no CMY
    assert " rg" not in content and " RG" not in content
    red = [line for line in content.splitlines() if line.endswith(" k") and line.startswith("0")]
    assert red


# ---- preflight -------------------------------------------------------------------------------


def _pdf(content: bytes, extra_page: bytes = b"", resources: bytes = b"<< >>") -> bytes:
    """A one-page PDF written by hand (what deckwright itself never writes)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 198 270] " + extra_page
        + b" /Resources " + resources + b" /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]  # fmt: skip
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


BOXES = b"/TrimBox [9 9 189 261] /BleedBox [0 0 198 270]"
DTC = Rules("drivethrucards", "cmyk", 240, 9.0)


def test_preflight_passes_a_clean_cmyk_page() -> None:
    report = preflight(_pdf(b"0.2 0.3 0.4 0.5 k 0 0 198 270 re f", BOXES), DTC)
    assert report.ok, report.lines("x")
    assert report.max_ink[1] == pytest.approx(140, abs=1.5)


def test_preflight_reports_ink_over_the_limit_with_its_page() -> None:
    report = preflight(_pdf(b"1 1 1 1 k 0 0 198 270 re f", BOXES), DTC)
    assert [f.line("x") for f in report.errors] == [
        "x: page 1: error: total ink up to 400 % (the limit is 240 %)"
    ]


def test_preflight_reports_rgb_on_a_cmyk_press() -> None:
    report = preflight(_pdf(b"0.2 0.3 0.4 rg 0 0 198 270 re f", BOXES), DTC)
    assert any("RGB colour on a CMYK press page (DeviceRGB)" in f.message for f in report.errors)
    assert preflight(_pdf(b"0.2 0.3 0.4 rg 0 0 198 270 re f", BOXES)).ok  # fine for an RGB printer


def test_preflight_reports_missing_bleed_and_boxes() -> None:
    report = preflight(
        _pdf(b"0 0 0 1 k 0 0 198 270 re f", b"/TrimBox [3 3 195 267] /BleedBox [0 0 198 270]"), DTC
    )
    assert any(f.page == 1 and f.message.startswith("missing bleed: 1.06 mm") for f in report.errors)
    report = preflight(_pdf(b"0 0 0 1 k 0 0 198 270 re f"), DTC)
    assert any(f.message == "no TrimBox and BleedBox" for f in report.errors)


def test_preflight_reports_fonts_not_embedded() -> None:
    page = preflight(
        _pdf(b"BT /F1 12 Tf 20 20 Td (Hi) Tj ET", BOXES, b"<< /Font << /F1 5 0 R >> >>"), Rules()
    )
    assert [f.message for f in page.errors] == ["font Helvetica is not embedded (pages 1)"]


def test_preflight_reports_images_below_300_ppi(tmp_path: Path) -> None:
    import cairocffi

    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 198, 270)
    context = cairocffi.Context(surface)
    image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 100, 100)
    context.scale(1.8, 1.8)  # 100 px over 180 pt = 2.5 in: 40 ppi
    context.set_source_surface(image, 0, 0)
    context.paint()
    surface.finish()
    report = preflight(out.getvalue())
    assert any(f.severity == "warning" and "at 40 ppi as placed" in f.message for f in report.findings)


def test_preflight_command(press: Path, tmp_path: Path, capsys) -> None:
    pdf = press / "drivethrucards" / "hero-cards.pdf"
    assert main(["preflight", str(pdf), "--service", "drivethrucards"]) == 0
    out, err = capsys.readouterr()
    assert "colour spaces DeviceCMYK" in out and "output intent" in out
    assert "preflight against drivethrucards passed" in err
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(_pdf(b"1 1 1 1 k 0 0 198 270 re f", BOXES))
    assert main(["preflight", str(bad), "--service", "drivethrucards"]) == 1
    out, err = capsys.readouterr()
    assert f"{bad}: page 1: error: total ink up to 400 %" in out
    assert main(["preflight", str(bad), "--service", "nobody"]) == 2


def test_images_are_separated_and_soft_masks_left_alone(profile) -> None:
    import cairocffi

    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 100, 100)
    context = cairocffi.Context(surface)
    image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 4, 4)
    paint = cairocffi.Context(image)
    paint.set_source_rgb(0.8, 0.1, 0.1)
    paint.paint()
    context.set_source_surface(image, 0, 0)
    context.paint()
    gradient = cairocffi.LinearGradient(0, 0, 100, 0)
    gradient.add_color_stop_rgba(0, 0, 0, 1, 1)
    gradient.add_color_stop_rgba(1, 0, 0, 1, 0)  # fades out: a luminosity soft mask
    context.set_source(gradient)
    context.rectangle(0, 50, 100, 50)
    context.fill()
    surface.finish()
    data = pdf_to_cmyk(out.getvalue(), profile)
    report = preflight(data, Rules(None, "cmyk", 240))
    assert report.ok, report.lines("x")
    assert set().union(*report.colour_spaces.values()) <= {"DeviceCMYK", "DeviceGray"}
    pdf = pypdf.PdfReader(io.BytesIO(data))
    (found,) = pdf.pages[0].images
    assert found.image.mode == "CMYK"
    expected = [v * 255 for v in Separator(profile).colour((0.8, 0.1, 0.1))]
    assert found.image.getpixel((1, 1)) == pytest.approx(expected, abs=1)


def test_press_images_are_cmyk_tiffs_with_the_profile(tmp_path: Path, profile) -> None:
    from PIL import Image

    project = TempProject(tmp_path / "p")
    project.add_game(FIXTURES / "pnp-mini")
    icc = tmp_path / "printer.icc"
    icc.write_bytes(profile.data)
    args = ["--project", str(project.root), "build", "pnp-mini", "--only", "press", "--jobs", "1"]
    assert main([*args, "--icc", str(icc), "--press-images"]) == 0
    folder = project.root / "build" / "pnp-mini" / "press" / "drivethrucards" / "hero-cards"
    tiffs = sorted(folder.glob("*.tif"))
    assert len(tiffs) == len(HEROES) + 1  # each face once, the shared back once
    with Image.open(tiffs[0]) as image:
        assert image.mode == "CMYK" and image.info["icc_profile"] == profile.data
        assert round(image.info["dpi"][0]) == 300
        assert image.size == (825, 1125)  # the card image's pixels: poker at 300 DPI with bleed
