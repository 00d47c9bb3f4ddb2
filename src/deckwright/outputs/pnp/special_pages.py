"""The print-and-play PDF's own pages: calibration, duplex alignment sheet, component checklist,
and the assembly map of a tiled board.

Each is drawn onto a `PageDrawing` in page coordinates (points, y down); the footer is added by
`outputs.pnp`. Text is set in the sheets' font and measured with it, so nothing runs past the
margins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...geometry import Affine, Box, Segment
from ...model import Game, Paper, Unknown
from ...render.pdf.painter import MARK_STROKE, PageDrawing, SheetFace, SheetFont
from ...units import MM
from .alignment import AlignSheet, plan_alignment
from .impose import FOOTER_BAND, Item
from .tiles import Tile

GREY = "#6b6b6b"
LIGHT = "#b8b8b8"
Draw = Callable[[PageDrawing], tuple[None, None]]


def _text_width(paper: Paper) -> tuple[float, float]:
    left = paper.margin + 10 * MM
    return left, paper.width - 2 * left


def _paragraph(
    d: PageDrawing,
    font: SheetFont,
    text: str,
    x: float,
    y: float,
    width: float,
    size: float,
    bold: bool = False,
    fill: str = "#000000",
    leading: float = 1.35,
) -> float:
    """Draw wrapped text from baseline y; return the baseline after the last line."""
    for line in font.wrap(text, size, width, bold):
        d.text(x, y, line, size, bold=bold, fill=fill)
        y += size * leading
    return y


def _known(value) -> str | None:
    if value is None or isinstance(value, Unknown):
        return None
    return str(value)


# ---- calibration -------------------------------------------------------------------------------


def draw_calibration(
    d: PageDrawing,
    game: Game,
    paper: Paper,
    font: SheetFont,
    subject: str,
    duplex: bool,
    sections: Sequence[tuple[str, int, int]],
    problems: Sequence[str] = (),
) -> None:
    info = game.info
    x, width = _text_width(paper)
    y = paper.margin + 16 * MM
    title, size = font.fit(info.name, 22, width, 12, bold=True)
    d.text(x, y, title, size, bold=True)
    y += 8 * MM
    edition = _known(info.edition) or "edition unknown"
    extra = " · ".join(v for v in (_known(info.version), _known(info.date)) if v)
    y = _paragraph(d, font, edition + (f" · {extra}" if extra else ""), x, y, width, 12)
    y = _paragraph(d, font, subject, x, y + 1 * MM, width, 9, fill=GREY)
    y += 6 * MM
    y = _paragraph(
        d,
        font,
        "Print at Actual size / 100 % — not “Fit to page” or “Shrink to fit”.",
        x,
        y,
        width,
        12,
        bold=True,
    )
    y += 2 * MM
    y = _paragraph(
        d,
        font,
        "Measure the two squares below: their sides must be exactly 50 mm and 2 inches (50.8 mm). "
        "If they are smaller, the printer or the PDF viewer scaled the page, and no card will be "
        "the right size.",
        x,
        y,
        width,
        9.5,
    )
    y += 4 * MM
    for side, label in ((50 * MM, "50 mm"), (2 * 72.0, "2 in")):
        d.rect(Box(x, y, side, side), width=0.25 * MM)
        d.text(x + side / 2, y + side / 2, label, 14, bold=True, anchor="middle")
        d.text(x + side / 2, y + side / 2 + 6 * MM, "each side", 8, anchor="middle", fill=GREY)
        x += side + 15 * MM
    x, _ = _text_width(paper)
    y += 2 * 72.0 + 4 * MM
    _ruler(d, font, x, y)
    y += 14 * MM
    if duplex:
        how = (
            "Print double-sided, at actual size; the backs pages are laid out for the flip named in "
            "their footers. Print the duplex alignment sheet first (the pages named below), hold it "
            "against a window and read the pair that lines up; build again with "
            "--back-offset X,Y to move every backs page by that much. Then print the card sheets. "
            "Cut on the crop marks in the margins; where cards touch they share one cut. In the "
            "print dialog choose actual size (100 %), not Fit: cards would shrink by 3-5 %."
        )
    else:
        how = (
            "Print single-sided, at actual size. Fold each gutterfold sheet on the dashed line in "
            "the middle, fronts outside, glue the halves together, then cut on the crop marks."
        )
    y = _paragraph(d, font, how, x, y, width, 9.5)
    for problem in problems:  # what these sheets leave out, and why: said here, not only in the build
        y = _paragraph(d, font, f"Not in this PDF: {problem}.", x, y + 2 * MM, width, 9.5)
    y += 4 * MM
    d.text(x, y, "Contents", 11, bold=True)
    y += 5.5 * MM
    for title, first, last in sections:
        pages = f"page {first}" if first == last else f"pages {first}–{last}"
        name, size = font.fit(title, 9.5, width - 30 * MM, 7)
        d.text(x, y, name, size)
        d.text(x + width, y, pages, 9.5, anchor="end")
        y += 4.6 * MM
        if y > paper.height - paper.margin - FOOTER_BAND - 8 * MM:
            break


def _ruler(d: PageDrawing, font: SheetFont, x: float, y: float) -> None:
    """A 100 mm ruler with millimetre ticks."""
    d.line(Segment(x, y, x + 100 * MM, y), 0.15 * MM)
    for mm in range(101):
        tick = 4 * MM if mm % 10 == 0 else (2.5 * MM if mm % 5 == 0 else 1.5 * MM)
        d.line(Segment(x + mm * MM, y, x + mm * MM, y + tick), 0.1 * MM)
        if mm % 10 == 0:
            d.text(x + mm * MM, y + 7 * MM, str(mm // 10), 7, anchor="middle")
    d.text(x + 103 * MM, y + 3 * MM, "cm (100 mm)", 7, fill=GREY)


# ---- duplex alignment --------------------------------------------------------------------------


@dataclass
class AlignmentSheet:
    paper: Paper
    edge: str
    base: tuple[float, float]  # the --back-offset of this build, mm
    font: SheetFont

    @property
    def plan(self) -> AlignSheet:
        return plan_alignment(self.paper, self.edge, self.base)

    def draw_front(self, d: PageDrawing) -> tuple[None, None]:
        paper, font = self.paper, self.font
        x, width = _text_width(paper)
        y = paper.margin + 14 * MM
        d.text(x, y, "Duplex alignment", 16, bold=True)
        flip = self.edge.replace("-", " ")
        text = (
            f"Print this page and the next one double-sided (flip on the {flip}), at actual size. "
            "Hold the sheet against a window or a lamp. Each target on this side has a twin on the "
            "back, printed moved by the numbers beside it. Find the pair whose squares and crosses "
            "line up best and build again with --back-offset X,Y (millimetres: X to the right and "
            "Y down as seen on the back; negative values as labelled, e.g. --back-offset -2,-1). "
            "If two neighbouring pairs look equally good, take the value between them."
        )
        _paragraph(d, font, text, x, y + 8 * MM, width, 9.5)
        for cell in self.plan.cells:
            self._cell(d, cell.cell, cell.front, cell.offset)
        return None, None

    def draw_back(self, d: PageDrawing) -> tuple[None, None]:
        plan = self.plan
        for cell, box in zip(plan.cells, plan.back_cells, strict=True):
            self._cell(d, box, cell.back, cell.offset)
        x, _ = _text_width(self.paper)
        y = plan.area.bottom + 15 * MM if self.edge == "long-edge" else self.paper.margin + 14 * MM
        d.text(x, y, "Duplex alignment: back", 12, bold=True)
        if self.base != (0.0, 0.0):
            note = f"This build already moves the backs by {self.base[0]:g}, {self.base[1]:g} mm."
            d.text(x, y + 6 * MM, note, 9, fill=GREY)
        return None, None

    def _cell(
        self, d: PageDrawing, cell: Box, centre: tuple[float, float], offset: tuple[float, float]
    ) -> None:
        d.rect(cell, stroke=LIGHT, width=0.1 * MM)
        cx, cy = centre
        half = 5 * MM
        d.rect(Box(cx - half, cy - half, 2 * half, 2 * half), width=0.15 * MM)
        d.cross(cx, cy, 8 * MM, width=0.15 * MM)
        label = ", ".join("0" if v == 0 else f"{v:+g}" for v in offset)
        d.text(cell.cx, cell.bottom - 2 * MM, label, 7, anchor="middle", fill=GREY)


# ---- component checklist -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    heading: bool
    text: str
    count: int = 0
    detail: str = ""


def _entries(game: Game) -> list[_Entry]:
    entries: list[_Entry] = []
    listed: set[str] = set()
    blocks = [(deck.title, deck.types) for deck in game.decks.values()]
    blocks += [(ct.title, (t,)) for t, ct in game.card_types.items() if not game.deck_of_type(t)]
    for title, types in blocks:
        cards = [c for t in types for c in game.cards_of(t) if c.id not in listed]
        if not cards:
            continue
        pieces = sum(c.copies for c in cards)
        entries.append(_Entry(True, title, pieces))
        for card in cards:
            listed.add(card.id)
            card_type = game.card_types[card.type]
            detail = card_type.title
            if card.number is not None:
                detail = f"no. {card.number} · {detail}"
            if isinstance(card.count, Unknown):
                detail += " · count unknown: one printed"
            elif card.count == 0:
                detail += " · not printed (count 0)"
            entries.append(_Entry(False, card.name, card.copies, detail))
    return entries


def checklist_pages(game: Game, layouts, paper: Paper, font: SheetFont) -> list[Draw]:
    """The checklist in two columns, as many pages as it takes."""
    entries = _entries(game)
    x0, width = _text_width(paper)
    gutter = 8 * MM
    col_w = (width - gutter) / 2
    bottom = paper.height - paper.margin - FOOTER_BAND - 6 * MM
    first_top = paper.margin + 32 * MM
    top = paper.margin + 14 * MM
    row, heading_row = 4.4 * MM, 6.5 * MM
    pages: list[list[tuple[float, float, _Entry]]] = [[]]
    col, y = 0, first_top
    for entry in entries:
        need = heading_row + row if entry.heading else row  # keep a heading with its first card
        if y + need > bottom:
            col += 1
            if col == 2:
                pages.append([])
                col = 0
            y = top if len(pages) > 1 else first_top
        if entry.heading and y > (top if len(pages) > 1 else first_top):
            y += 2 * MM
        pages[-1].append((x0 + col * (col_w + gutter), y, entry))
        y += heading_row if entry.heading else row
    total = sum(e.count for e in entries if not e.heading)
    kinds = sum(not e.heading for e in entries)

    def make(items: list[tuple[float, float, _Entry]], first: bool) -> Draw:
        def draw(d: PageDrawing) -> tuple[None, None]:
            if first:
                y = paper.margin + 16 * MM
                d.text(x0, y, "Component checklist", 16, bold=True)
                summary = (
                    f"{game.info.name}: {total} pieces, {kinds} different; tick each one off as you cut it."
                )
                _paragraph(d, font, summary, x0, y + 7 * MM, width, 9.5)
            for x, y, entry in items:
                _entry(d, font, x, y, col_w, entry)
            return None, None

        return draw

    return [make(items, i == 0) for i, items in enumerate(pages)]


def _entry(d: PageDrawing, font: SheetFont, x: float, y: float, width: float, entry: _Entry) -> None:
    if entry.heading:
        count = f" — {entry.count} piece{'s' if entry.count != 1 else ''}"
        text, size = font.fit(entry.text, 9.5, width - font.width(count, 9.5, bold=True), 7, bold=True)
        d.text(x, y + 4 * MM, text + count, size, bold=True)
        d.line(Segment(x, y + 5.3 * MM, x + width, y + 5.3 * MM), 0.1 * MM, color=LIGHT)
        return
    base = y + 3.3 * MM
    box = 2.8 * MM
    d.rect(Box(x, base - box + 0.3 * MM, box, box), width=MARK_STROKE)
    d.text(x + 12 * MM, base, f"{entry.count} ×", 8, anchor="end")
    name_x = x + 14 * MM
    room = width - 14 * MM
    name, size = font.fit(entry.text, 8, room * 0.62, 6)
    d.text(name_x, base, name, size)
    used = font.width(name, size) + 2 * MM
    detail, dsize = font.fit(entry.detail, 6.5, room - used, 5)
    if detail:
        d.text(name_x + used, base, detail, dsize, fill=GREY)


def draw_board_map(
    d: PageDrawing,
    paper: Paper,
    font: SheetFont,
    title: str,
    face: SheetFace,
    item: Item,
    tiles: Sequence[Tile],
) -> tuple[None, None]:
    """A tiled board whole, scaled to the page, each tile's part outlined and labelled: how the
    tiles go together.

    Placing the board whole before its tiles also lets the PDF hold it once, as one Form XObject
    that every tile shows part of (a face first placed in part gets an XObject per placement).
    """
    x, width = _text_width(paper)
    y = paper.margin + 12 * MM
    heading, size = font.fit(title, 14, width, 9, bold=True)
    d.text(x, y, heading, size, bold=True)
    y = _paragraph(
        d,
        font,
        f"{len(tiles)} tiles: print them at actual size, cut each along its dashed seams and lay "
        "it over its left and upper neighbours, crosses on crosses. Each tile's footer names it.",
        x,
        y + 6 * MM,
        width,
        9,
        fill=GREY,
    )
    area = Box(x, y + 2 * MM, width, paper.height - paper.margin - FOOTER_BAND - 4 * MM - (y + 2 * MM))
    canvas_w, canvas_h = item.canvas
    scale = min(area.w / canvas_w, area.h / canvas_h)
    board = Box(area.x + (area.w - canvas_w * scale) / 2, area.y, canvas_w * scale, canvas_h * scale)
    d.card(face, item.canvas, Affine(a=scale, d=scale, e=board.x, f=board.y), board)
    label_size = 12
    for tile in tiles:
        part = Box(
            board.x + tile.source.x * scale,
            board.y + tile.source.y * scale,
            tile.source.w * scale,
            tile.source.h * scale,
        )
        d.rect(part, stroke="#ffffff", width=3 * MARK_STROKE)
        d.rect(part, width=MARK_STROKE, dash="4 2")
    for tile in tiles:  # labels over every outline
        cx = board.x + (tile.source.x + tile.source.w / 2) * scale
        cy = board.y + (tile.source.y + tile.source.h / 2) * scale
        w = font.width(tile.label, label_size, bold=True) + 3 * MM
        d.rect(Box(cx - w / 2, cy - 3.5 * MM, w, 7 * MM), fill="#ffffff", radius=1 * MM)
        d.text(cx, cy + 0.35 * label_size, tile.label, label_size, bold=True, anchor="middle")
    return None, None
