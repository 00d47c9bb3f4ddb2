"""Golden tests: what `deckwright build` makes for the fixture games, against the copies stored
under tests/golden/ (re-bless with `pytest --update-golden`, see tests/golden/README.md).

- every card face and back of tests/fixtures/mini and pnp-mini, as SVG: equal, exactly;
- the print-and-play plan of pnp-mini for each paper: every page's boxes and every placed card,
  read from the PDF, as text: equal, exactly;
- a few 300 DPI card PNGs: within `TOLERANCE`.

Everything is read from the build folder the command line writes, not from internal modules,
so the tests hold while the package is reorganised. The last tests change a template or a card
size by 1 mm in a copy and show that the comparisons report it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from goldenfiles import Golden, ImageTolerance

BUILDS = {"mini": "cards", "pnp-mini": "cards,pnp"}  # game -> the outputs its goldens need
PAPERS = ("a4", "letter")  # pnp-mini's print-and-play PDFs (every paper of layouts/papers.yaml)
# Small faces (a few tens of kB each): a dark back with centred white text, a spell's front
# with a title and body text, and a marker of pnp-mini's.
PNGS = {"mini": ("back.png", "zap-front.png"), "pnp-mini": ("marshal-front.png",)}
TOLERANCE = ImageTolerance(mean=0.5, threshold=32, fraction=0.002)
MM = 72 / 25.4


def build(project: TempProject, game: str, only: str) -> Path:
    args = ["--project", str(project.root), "build", game, "--only", only, "--jobs", "1", "--quiet"]
    assert main(args) == 0
    return project.root / "build" / game


def project_with(root: Path, *games: str) -> TempProject:
    project = TempProject(root)
    for game in games:
        project.add_game(FIXTURES / game)
    return project


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """build/<game>/ of each fixture game, built once for this module."""
    project = project_with(tmp_path_factory.mktemp("golden") / "project", *BUILDS)
    return {game: build(project, game, only) for game, only in BUILDS.items()}


def card_svgs(out: Path) -> dict[str, str]:
    # bytes, decoded: no newline translation, so a stray \r would show
    return {p.name: p.read_bytes().decode("utf-8") for p in sorted((out / "cards").glob("*.svg"))}


def fail_on(problems: Sequence[str], what: str) -> None:
    if problems:
        head = f"{what} differ from tests/golden/ (re-bless with pytest --update-golden):"
        pytest.fail("\n".join([head, *problems]))


# ---- the print-and-play plan, read from a PDF ----------------------------------------------------

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Sequence[float], n: Sequence[float]) -> Matrix:
    """m then n, as PDF composes them (`cm` with m: CTM' = m x CTM)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def bounds(points: Sequence[tuple[float, float]], m: Matrix) -> tuple[float, float, float, float]:
    mapped = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]) for x, y in points]
    xs, ys = [x for x, _ in mapped], [y for _, y in mapped]
    return (min(xs), min(ys), max(xs), max(ys))


def intersect(a: Sequence[float] | None, b: Sequence[float]) -> tuple[float, ...]:
    if a is None:
        return tuple(b)
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def num(v: float) -> str:
    return f"{round(float(v), 3) + 0.0:.3f}"  # + 0.0: no "-0.000"


def nums(values: Sequence[float]) -> str:
    return " ".join(num(v) for v in values)


PATH_POINTS = {"m", "l", "c", "v", "y"}  # operators whose operands are points of the path
PATH_ENDS = {"n", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*"}


def placements(page, reader: pypdf.PdfReader) -> Iterator[tuple[object, Matrix, tuple[float, ...] | None]]:
    """Every Form XObject the page's own content draws: the form, the matrix that maps its
    space onto the page (in PDF user space, y up) and the clip around it (a bounding box)."""
    ctm, clip = IDENTITY, None
    stack: list[tuple[Matrix, tuple[float, ...] | None]] = []
    path: list[tuple[float, float]] = []
    clipping = False
    forms = page["/Resources"].get("/XObject", {})
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        op = op.decode("latin-1")
        if op == "q":
            stack.append((ctm, clip))
        elif op == "Q":
            ctm, clip = stack.pop()
        elif op == "cm":
            ctm = multiply([float(v) for v in operands], ctm)
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path += [(x, y), (x + w, y + h)]
        elif op in PATH_POINTS:
            values = [float(v) for v in operands]
            path += list(zip(values[::2], values[1::2], strict=True))
        elif op in ("W", "W*"):
            clipping = True
        elif op in PATH_ENDS:
            if clipping and path:
                clip = intersect(clip, bounds(path, ctm))
            path, clipping = [], False
        elif op == "Do":
            form = forms[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                matrix = [float(v) for v in form.get("/Matrix", IDENTITY)]
                yield form, multiply(matrix, ctm), clip


def first_text(form, reader: pypdf.PdfReader) -> str:
    """The first string the form shows (a face's first text is usually its card's name)."""
    for operands, op in ContentStream(form, reader).operations:
        if op in (b"Tj", b"'", b'"'):
            return _text(operands[-1])
        if op == b"TJ":
            return "".join(_text(part) for part in operands[0] if not isinstance(part, int | float))
    return ""


def _text(value) -> str:
    # cairo's simple-font subsets keep WinAnsi codes for Latin text
    return bytes(value.original_bytes if hasattr(value, "original_bytes") else value).decode(
        "cp1252", errors="backslashreplace"
    )


def pdf_plan(data: bytes) -> str:
    """The plan of a print-and-play PDF, one line per page and per placed card, in points
    rounded to 0.001: the page's MediaBox, TrimBox and BleedBox; for each card (a Form XObject,
    named by the order it first appears in, its first text and its size), the page area its
    canvas covers, the linear part of its matrix (mirroring, turns) and its clip."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    names: dict[int, str] = {}
    lines = []
    for n, page in enumerate(reader.pages, 1):
        # page.trimbox would fall back to the CropBox: a missing box must show
        trim, bleed = (nums(page[key]) if key in page else "none" for key in ("/TrimBox", "/BleedBox"))
        lines.append(f"page {n}: MediaBox {nums(page.mediabox)}  TrimBox {trim}  BleedBox {bleed}")
        for form, matrix, clip in placements(page, reader):
            ref = form.indirect_reference.idnum
            x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
            if ref not in names:
                size = f"{num(x1 - x0)}x{num(y1 - y0)}"
                names[ref] = f"form {len(names) + 1} {size} {first_text(form, reader)!r}"
            canvas = bounds([(x0, y0), (x1, y1)], matrix)
            clipped = nums(clip) if clip is not None else "none"
            lines.append(f"  {names[ref]}: at {nums(canvas)}  matrix {nums(matrix[:4])}  clip {clipped}")
    return "\n".join(lines) + "\n"


def plans(out: Path) -> dict[str, str]:
    return {f"plan-{paper}.txt": pdf_plan((out / f"pnp-{paper}.pdf").read_bytes()) for paper in PAPERS}


# ---- the golden tests --------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(BUILDS))
def test_card_svgs_match_the_golden_copies(game: str, built: dict[str, Path], golden: Golden) -> None:
    svgs = card_svgs(built[game])
    assert svgs, f"no card SVGs in {built[game]}"
    fail_on(golden.check_texts(f"{game}/cards", svgs, ".svg"), f"{game}'s card SVGs")


def test_print_and_play_plans_match_the_golden_copies(built: dict[str, Path], golden: Golden) -> None:
    found = plans(built["pnp-mini"])
    for text in found.values():
        assert "  form " in text  # cards were found on the pages, not just page boxes
    fail_on(golden.check_texts("pnp-mini", found, ".txt"), "pnp-mini's print-and-play plans")


@pytest.mark.parametrize("game", list(PNGS))
def test_card_pngs_match_the_golden_copies_within_tolerance(
    game: str, built: dict[str, Path], golden: Golden
) -> None:
    where = built[game] / "cards"
    images = {name: (where / name).read_bytes() for name in PNGS[game]}
    fail_on(golden.check_images(f"{game}/cards", images, TOLERANCE, where), f"{game}'s card PNGs")


# ---- the comparisons can fail -----------------------------------------------------------------


def test_the_plan_reader_sees_cards_mirrored_on_backs_pages(built: dict[str, Path]) -> None:
    """The plan is read, not made up: the duplex backs sit behind their fronts, at positions
    mirrored across the page's vertical centre line."""
    text = plans(built["pnp-mini"])["plan-a4.txt"]
    pages = text.split("page ")[1:]
    width = float(pages[0].split("MediaBox ")[1].split()[2])
    fronts, backs = ([line for line in pages[i].splitlines() if "form" in line] for i in (4, 5))  # sheet 1
    assert len(fronts) == len(backs) == 8  # poker cards 2 x 4, sideways, with full bleed and marks

    def at(line: str) -> list[float]:
        return [float(v) for v in line.split(" at ")[1].split()[:4]]

    front_xs = sorted({round(at(line)[0] + at(line)[2], 2) for line in fronts})
    back_xs = sorted({round(2 * width - at(line)[0] - at(line)[2], 2) for line in backs})
    assert math.isclose(front_xs[0], back_xs[0], abs_tol=0.01) and len(front_xs) == len(back_xs) == 2


def test_a_template_moved_by_1_mm_fails_the_svg_and_png_goldens(tmp_path: Path, golden: Golden) -> None:
    project = project_with(tmp_path / "project", "mini")
    template = project.root / "templates" / "mini" / "spell-front.svg.j2"
    text = template.read_text(encoding="utf-8")
    old = "geom.safe.at(0, 40, "
    assert text.count(old) == 1
    template.write_text(text.replace(old, f"geom.safe.at(0, {40 + MM:.4f}, "), encoding="utf-8")
    out = build(project, "mini", "cards")
    problems = golden.diff_texts("mini/cards", card_svgs(out), ".svg")
    # only the spell's front uses the template; its body text moved down by 1 mm
    assert problems[0] == "differs: mini/cards/zap-front.svg"
    assert not any(p.startswith(("differs:", "missing", "extra")) for p in problems[1:]), problems
    assert "--- golden/mini/cards/zap-front.svg" in problems
    assert any(p.startswith("+<text") for p in problems) and any(p.startswith("-<text") for p in problems)
    images = {name: (out / "cards" / name).read_bytes() for name in PNGS["mini"]}
    strayed = golden.diff_images("mini/cards", images, TOLERANCE, out / "cards")
    assert list(strayed) == ["zap-front.png"], strayed


def test_a_card_size_changed_by_1_mm_fails_the_plan_golden(tmp_path: Path, golden: Golden) -> None:
    project = project_with(tmp_path / "project", "pnp-mini")
    products = project.root / "layouts" / "products.yaml"
    text = products.read_text(encoding="utf-8")
    old = "trim: [1.75in, 2.5in]"  # the mini card, pnp-mini's omens
    assert text.count(old) == 1
    products.write_text(text.replace(old, "trim: [45.45mm, 2.5in]"), encoding="utf-8")
    problems = golden.diff_texts("pnp-mini", plans(build(project, "pnp-mini", "pnp")), ".txt")
    assert problems[:2] == ["differs: pnp-mini/plan-a4.txt", "differs: pnp-mini/plan-letter.txt"], problems
    assert "--- golden/pnp-mini/plan-a4.txt" in problems
