"""Errata: `errata.md`, `errata.csv` and `errata.pdf` from the game's errata table(s).

A table is an errata table when it declares `editor: {errata: ...}` (docs/data-format.md); a game
without one gets no errata files. Each row gives the card, its number where known, the printed
text, the current text and the kind of change as recorded ("unknown" where the source does not
classify it). The reprint candidates are the printed cards whose text differs from the current
official wording: the card's reference field (e.g. a Stronghold's Section 7 text) where the game
holds one, else the errata row's current text.

The PDF is `templates/_shared/errata.html.j2` through WeasyPrint (`render/documents.py`), with
the project's fonts. The bytes are reproducible: the /ID derives from the game, the font subsets'
timestamps are pinned, and the only dates written are SOURCE_DATE_EPOCH's, when it is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jinja2 import StrictUndefined, TemplateError
from markupsafe import Markup

from ..consistency.errata import Erratum, errata
from ..consistency.texts import card_label
from ..consistency.words import compare
from ..context.base import BuildContext, Output
from ..diagnostics import Diagnostics, Loc
from ..fonts.registry import FontRegistry
from ..model import Game, Unknown
from ..project import Project
from ..render.document.documents import font_faces, source_date
from ..safety.csvsafe import csv_bytes
from ..safety.templates import render, sandboxed_environment

if TYPE_CHECKING:
    from ..cache import RenderCache

TEMPLATE = "_shared/errata.html.j2"
FAMILIES = ("Linux Libertine O", "Inter")
CSV_COLUMNS = (
    "table",
    "card",
    "card_ids",
    "number",
    "printed_text",
    "current_text",
    "change",
    "reprint_candidate",
    "official_text",
)


@dataclass(frozen=True)
class Line:
    """One errata row as the outputs print it."""

    table: str
    card: str
    card_ids: str
    number: str
    printed: str
    current: str
    change: str
    change_note: str  # what an unknown kind says is missing
    official: str  # the current official wording ("" for a remark row)
    official_from: str  # where that wording is
    reprint: bool
    disagrees: bool  # the errata's current text and the card's official wording differ


def _text(value) -> str:
    if isinstance(value, Unknown):
        return "unknown"
    return "" if value is None else str(value)


def _change(value) -> str:
    if isinstance(value, Unknown):
        return "unknown"
    return "" if value is None else str(value).replace("-", " ")


def lines(game: Game) -> list[Line]:
    out = []
    for entry in errata(game):
        official, source, disagrees = _official(game, entry)
        printed = entry.printed if isinstance(entry.printed, str) else None
        reprint = bool(
            printed and official and not entry.remark and compare(printed, official) != "identical"
        )
        out.append(
            Line(
                table=entry.table.title,
                card=entry.card,
                card_ids=", ".join(c.id for c in entry.cards),
                number=", ".join(entry.numbers),
                printed=_text(entry.printed),
                current=_text(entry.current),
                change=_change(entry.kind),
                change_note=entry.kind.note if isinstance(entry.kind, Unknown) else "",
                official=official or "",
                official_from=source,
                reprint=reprint,
                disagrees=disagrees,
            )
        )
    return out


def _official(game: Game, entry: Erratum) -> tuple[str | None, str, bool]:
    """The current official wording of the row's card, where it comes from, and whether the
    errata's own current text differs from it."""
    if entry.remark:
        return None, "", False
    for card in entry.cards:
        found = entry.official(card)
        if found is not None:
            text, loc = found
            differs = isinstance(entry.current, str) and compare(entry.current, text) != "identical"
            return text, f"{card_label(card)}, {entry.spec.reference} ({loc.path}:{loc.line})", differs
    if isinstance(entry.current, str):
        loc = entry.loc_of("current")
        return entry.current, f"{entry.table.title} ({loc.path}:{loc.line})", False
    return None, "", False


def errata_csv(rows: list[Line]) -> bytes:
    lines = (
        [
            r.table,
            r.card,
            r.card_ids,
            r.number,
            r.printed,
            r.current,
            r.change,
            "yes" if r.reprint else "no",
            r.official,
        ]
        for r in rows
    )
    return csv_bytes([CSV_COLUMNS, *lines])  # cells a spreadsheet would evaluate are neutralised


def _cell(text: str) -> str:
    return _md_text(" ".join(text.replace("\\", "\\\\").replace("|", "\\|").split()))


def _md_text(text: str) -> str:
    """Data as Markdown shows it, never as HTML: a `<` or `>` from the data is an entity, so
    `<img src=...>` or `<script>` in a card's text stays text in any Markdown viewer; and no
    `![image](url)` a viewer would fetch."""
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("![", "!\\[")


def _md_row(*cells: str) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def errata_md(game: Game, rows: list[Line]) -> bytes:
    md = [f"# {_md_text(game.info.name)} — Errata", ""]
    for table in dict.fromkeys(r.table for r in rows):
        md += [f"## {_md_text(table)}", "", _md_row("Card", "No.", "Printed text", "Current text", "Change")]
        md.append("|---|---|---|---|---|")
        group = [r for r in rows if r.table == table]
        md += [_md_row(r.card, r.number, r.printed, r.current, r.change) for r in group]
        notes = dict.fromkeys(r.change_note for r in group if r.change_note)
        md += [""] + [f"Change “unknown”: {_md_text(note)}" for note in notes] + ([""] if notes else [])
    candidates = [r for r in rows if r.reprint]
    md += ["## Reprint candidates", ""]
    if not candidates:
        md += ["No printed card differs from the current official wording.", ""]
    else:
        md += [
            "Printed cards whose text differs from the current official wording:",
            "",
            _md_row("Card", "No.", "Printed text", "Official wording", "From"),
            "|---|---|---|---|---|",
        ]
        for r in candidates:
            official = r.official + (" (the errata's current text differs)" if r.disagrees else "")
            md.append(_md_row(r.card, r.number, r.printed, official, r.official_from))
        md.append("")
    return "\n".join(md).encode("utf-8")


def errata_pdf(
    project: Project,
    game: Game,
    rows: list[Line],
    fonts: FontRegistry,
    diags: Diagnostics,
    cache: RenderCache | None = None,
) -> bytes | None:
    """The errata as a PDF (None when the template fails: reported in `diags`); through `cache`
    when given, so a rebuild that leaves the errata as they were does not draw them again."""
    font_css, _ = font_faces(fonts, FAMILIES, lambda path: path.as_uri())
    env = sandboxed_environment(
        [project.templates_dir], project.display, autoescape=True, undefined=StrictUndefined
    )
    where = Loc(project.display(project.templates_dir / TEMPLATE))
    try:
        html = render(  # within the time limit; any failure a TemplateError
            env.get_template(TEMPLATE),
            info=game.info,
            rows=rows,
            tables=list(dict.fromkeys(r.table for r in rows)),
            notes=list(dict.fromkeys(r.change_note for r in rows if r.change_note)),
            candidates=[r for r in rows if r.reprint],
            date=source_date(),
            font_css=Markup(font_css),
        )
    except TemplateError as exc:
        failed_at = getattr(exc, "where", None)  # the template file and line, when known
        at = Loc(project.display(failed_at[0]), failed_at[1]) if failed_at else where
        diags.error(at, f"errata template: {exc}")
        return None

    def make() -> bytes:
        from ..render.document.weasy import render_pdf  # WeasyPrint loads only when a PDF is drawn

        roots = (project.fonts_dir, project.templates_dir)
        pdf, warnings = render_pdf(html, project.templates_dir, roots, f"{game.id}/errata")
        for message in warnings:
            diags.warning(where, f"errata (WeasyPrint): {message}")
        return pdf

    return make() if cache is None else cache.through("errata-pdf", f"errata:{game.id}", (html,), make)


def build(ctx: BuildContext) -> list[Output]:
    rows = lines(ctx.game)
    if not rows:
        return []  # no errata table: no errata files
    pdf = errata_pdf(ctx.project, ctx.game, rows, ctx.fonts, ctx.diags, ctx.cache)
    if pdf is None:
        return []
    return [
        Output("errata.md", errata_md(ctx.game, rows)),
        Output("errata.csv", errata_csv(rows)),
        Output("errata.pdf", pdf),
    ]
