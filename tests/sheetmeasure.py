"""Print-and-play sheets measured from their PDFs, as a prepress check would: the content
streams are read (not deckwright's own plan), so the tests check what prints.

Each card page is read with pypdf's content-stream parser, following `q`/`Q`/`cm`:
- a card is a Form XObject drawn (`Do`) inside a clip rectangle (`re W n`): its printed area
  is the clip, its canvas the form's /BBox mapped by the current matrix, and its trim the canvas
  less the layout's bleed on each side (`bleed`, 1/8 in for every layout in layouts/);
- a crop mark is a stroked, undashed straight segment (`m l S`) of the crop-mark width.
Lengths are in millimetres, page coordinates with y down.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import pypdf
from pypdf.generic import ContentStream

from deckwright.geometry import Affine

PT = 25.4 / 72
MARK_WIDTH = 0.2 / PT  # points: the crop-mark stroke
TOL = 0.01  # mm


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0


@dataclass
class Sheet:
    number: int  # 1-based page number
    width: float
    height: float
    cards: list[tuple[Rect, Rect]] = field(default_factory=list)  # (trim, printed clip)
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)
    dashed: list[tuple[float, float, float, float]] = field(default_factory=list)
    outlines: int = 0  # other stroked paths: tokens' cut lines, calibration drawings


def _mul(a, b):
    """Matrix product of PDF matrices (a applied first), as a 6-tuple."""
    m = Affine(*b) @ Affine(*a)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _rect(m, x, y, w, h, height) -> Rect:
    pts = [_apply(m, px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs = [p[0] * PT for p in pts]
    ys = [(height - p[1]) * PT for p in pts]  # y down, mm
    return Rect(min(xs), min(ys), max(xs), max(ys))


def read_sheets(data: bytes, bleed_mm: float = 3.175) -> list[Sheet]:
    pdf = pypdf.PdfReader(io.BytesIO(data))
    out = []
    for number, page in enumerate(pdf.pages, 1):
        box = page.mediabox
        width, height = float(box.width), float(box.height)
        sheet = Sheet(number, width * PT, height * PT)
        xobjects = page["/Resources"].get("/XObject", {})
        content = ContentStream(page.get_contents(), pdf)
        ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        stack: list = []
        clip: Rect | None = None
        path: list = []
        rect_pending = None
        line_width, dashed = 1.0, False
        for operands, op in content.operations:
            op = op.decode("latin-1") if isinstance(op, bytes) else op
            if op == "q":
                stack.append((ctm, clip, line_width, dashed))
            elif op == "Q":
                ctm, clip, line_width, dashed = stack.pop()
            elif op == "cm":
                ctm = _mul(tuple(float(v) for v in operands), ctm)
            elif op == "re":
                rect_pending = _rect(ctm, *(float(v) for v in operands), height)
                path = []
            elif op == "W":
                if rect_pending is not None:
                    clip = rect_pending
            elif op == "n":
                rect_pending = None
            elif op == "w":
                line_width = float(operands[0])
            elif op == "d":
                dashed = len(operands[0]) > 0
            elif op == "m":  # a second subpath makes the path no mark
                path = [*([None] if path else []), _apply(ctm, float(operands[0]), float(operands[1]))]
            elif op == "l":
                path.append(_apply(ctm, float(operands[0]), float(operands[1])))
            elif op in ("c", "v", "y", "h"):
                path.append(None)
            elif op == "S":
                if rect_pending is not None or None in path or len(path) > 2:
                    sheet.outlines += 1
                elif len(path) == 2 and abs(line_width - MARK_WIDTH) < 0.01:
                    (x1, y1), (x2, y2) = path
                    seg = (x1 * PT, (height - y1) * PT, x2 * PT, (height - y2) * PT)
                    if seg[0] == seg[2] or seg[1] == seg[3] or abs(seg[0] - seg[2]) < 1e-6:
                        (sheet.dashed if dashed else sheet.marks).append(seg)
                path, rect_pending = [], None
            elif op == "Do":
                form = xobjects[operands[0]].get_object()
                if form.get("/Subtype") != "/Form" or clip is None:
                    continue
                bbox = [float(v) for v in form["/BBox"]]
                matrix = tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0)))
                canvas = _rect(
                    _mul(matrix, ctm), bbox[0], bbox[1], bbox[2] - bbox[0], bbox[3] - bbox[1], height
                )
                b = bleed_mm
                trim = Rect(canvas.x0 + b, canvas.y0 + b, canvas.x1 - b, canvas.y1 - b)
                sheet.cards.append((trim, clip))
        if sheet.cards:
            out.append(sheet)
    return out


@dataclass
class Measure:
    """One sheet's figures: the worst mark and the least bleed on a cut edge."""

    page: int
    cut_lines: int
    unmarked: list[str]  # cut lines with no mark of MARK_MIN wholly in the printable area
    mark_edge: float  # least distance of a mark from the paper edge, mm (stroke included)
    mark_min: float  # shortest mark, mm
    bleed_min: float  # least bleed on an edge no card is butted against, mm
    bleed_edge: float  # least distance of printed bleed from the paper edge, mm
    seam_min: float | None  # least overlap past a shared cut line, mm
    marks_on_cards: int  # marks that touch a card's printed area


def measure(sheet: Sheet, margin: float = 5.0, mark_min: float = 3.0) -> Measure:
    half = MARK_WIDTH * PT / 2
    w, h = sheet.width, sheet.height
    xs = sorted({round(v, 3) for t, _ in sheet.cards for v in (t.x0, t.x1)})
    ys = sorted({round(v, 3) for t, _ in sheet.cards for v in (t.y0, t.y1)})
    unmarked = []

    def inside(seg) -> bool:
        x0, x1 = sorted((seg[0], seg[2]))
        y0, y1 = sorted((seg[1], seg[3]))
        if x0 == x1:
            x0, x1 = x0 - half, x1 + half
        else:
            y0, y1 = y0 - half, y1 + half
        return x0 >= margin - TOL and y0 >= margin - TOL and x1 <= w - margin + TOL and y1 <= h - margin + TOL

    def length(seg) -> float:
        return abs(seg[2] - seg[0]) + abs(seg[3] - seg[1])

    for x in xs:
        if not any(
            abs(s[0] - x) < TOL and abs(s[2] - x) < TOL and inside(s) and length(s) >= mark_min - TOL
            for s in sheet.marks
        ):
            unmarked.append(f"x={x:.2f}")
    for y in ys:
        if not any(
            abs(s[1] - y) < TOL and abs(s[3] - y) < TOL and inside(s) and length(s) >= mark_min - TOL
            for s in sheet.marks
        ):
            unmarked.append(f"y={y:.2f}")
    mark_edge = min(
        (
            min(
                min(s[0], s[2]) - (half if s[0] == s[2] else 0),
                min(s[1], s[3]) - (half if s[1] == s[3] else 0),
            )
            for s in sheet.marks
        ),
        default=float("inf"),
    )
    mark_edge = min(
        mark_edge,
        min(
            (
                min(
                    w - max(s[0], s[2]) - (half if s[0] == s[2] else 0),
                    h - max(s[1], s[3]) - (half if s[1] == s[3] else 0),
                )
                for s in sheet.marks
            ),
            default=float("inf"),
        ),
    )
    bleeds, seams = [], []
    for i, (t, c) in enumerate(sheet.cards):
        others = [o for j, (o, _) in enumerate(sheet.cards) if j != i]
        sides = (
            ("left", t.x0 - c.x0, lambda o, t=t: abs(o.x1 - t.x0) < TOL and _overlap(o.y0, o.y1, t.y0, t.y1)),
            (
                "right",
                c.x1 - t.x1,
                lambda o, t=t: abs(o.x0 - t.x1) < TOL and _overlap(o.y0, o.y1, t.y0, t.y1),
            ),
            ("top", t.y0 - c.y0, lambda o, t=t: abs(o.y1 - t.y0) < TOL and _overlap(o.x0, o.x1, t.x0, t.x1)),
            (
                "bottom",
                c.y1 - t.y1,
                lambda o, t=t: abs(o.y0 - t.y1) < TOL and _overlap(o.x0, o.x1, t.x0, t.x1),
            ),
        )
        for _, amount, butted in sides:
            (seams if any(butted(o) for o in others) else bleeds).append(amount)
    clips = [c for _, c in sheet.cards]
    on_cards = sum(
        1
        for s in sheet.marks
        for c in clips
        if min(s[0], s[2]) - half < c.x1
        and max(s[0], s[2]) + half > c.x0
        and min(s[1], s[3]) - half < c.y1
        and max(s[1], s[3]) + half > c.y0
    )
    return Measure(
        sheet.number,
        len(xs) + len(ys),
        unmarked,
        mark_edge,
        min((length(s) for s in sheet.marks), default=float("inf")),
        min(bleeds, default=float("inf")),
        min(min(c.x0, c.y0, w - c.x1, h - c.y1) for c in clips),
        min(seams) if seams else None,
        on_cards,
    )


def _overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    return min(a1, b1) - max(a0, b0) > TOL
