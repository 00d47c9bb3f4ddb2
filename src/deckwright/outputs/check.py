"""`check.html`: the editor's check of a game as a page to read in a browser.

Each finding shows its message, its key (to acknowledge it in `cards/<game>/acknowledged.yaml`)
and its sides next to each other: where each text stands, the text as written, the part the
finding is about marked, and for errata a word diff (deleted words struck on the left, inserted
ones underlined on the right). Acknowledged findings and what agreed are listed at the end.
The page links the project's fonts (fonts/fonts.yaml) relative to build/<game>/.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from jinja2 import StrictUndefined, TemplateError
from markupsafe import Markup, escape

from .. import consistency
from ..consistency import Finding, Report, Side
from ..context.base import BuildContext, Output
from ..diagnostics import Diagnostics, Loc
from ..fonts.registry import SLOTS, FontRegistry
from ..model import Game
from ..project import Project
from ..safety.templates import render, sandboxed_environment

TEMPLATE = "_shared/check.html.j2"
FAMILIES = ("Linux Libertine O", "Inter", "DejaVu Sans Mono")
TITLES = {
    "errata": "Errata against the official wording",
    "numbers": "Numbers against texts and data",
    "limits": "Limits the data can exceed",
    "lint": "Text lint",
    "acknowledgement": "Acknowledgements that match no finding",
}


def build(ctx: BuildContext) -> list[Output]:
    report = ctx.memo("consistency", lambda: consistency.run(ctx.game, ctx.diags, ctx.project.display))
    page = check_page(ctx.project, ctx.game, report, ctx.fonts, ctx.diags)
    return [] if page is None else [Output("check.html", page)]


def check_page(
    project: Project, game: Game, report: Report, fonts: FontRegistry, diags: Diagnostics
) -> bytes | None:
    env = sandboxed_environment(
        [project.templates_dir], project.display, autoescape=True, undefined=StrictUndefined
    )
    try:
        html = render(  # within the time limit; any failure a TemplateError
            env.get_template(TEMPLATE),
            game=game.info,
            report=report,
            kinds=[(kind, TITLES[kind], found) for kind, found in report.by_kind().items()],
            side_html=side_html,
            font_css=Markup(_font_css(project, game, fonts)),
        )
    except TemplateError as exc:
        path, line = getattr(exc, "where", None) or (project.templates_dir / TEMPLATE, 1)
        diags.error(Loc(project.display(path), line), f"check page template: {exc}")
        return None
    return html.encode("utf-8")


def _font_css(project: Project, game: Game, registry: FontRegistry) -> str:
    """@font-face rules for the shipped faces, as URLs relative to build/<game>/."""
    page_dir = project.game_build_dir(game.id)
    rules = []
    for font in registry.fonts.values():
        if font.family not in FAMILIES:
            continue
        for slot, path in font.faces.items():
            weight, style = SLOTS[slot]
            url = os.path.relpath(path, page_dir).replace(os.sep, "/")
            rules.append(
                f'@font-face {{ font-family: "{font.family}"; src: url("{url}"); '
                f"font-weight: {700 if weight == 'bold' else 400}; font-style: {style}; }}"
            )
    return "\n".join(rules)


def side_html(finding: Finding, index: int) -> Markup:
    """A side's text with its marks; with a word diff, what the side drops or adds."""
    side = finding.sides[index]
    if finding.diff and index < 2:
        keep = "delete" if index == 0 else "insert"
        tag = "del" if index == 0 else "ins"
        parts = [
            escape(words) if op == "equal" else Markup(f"<{tag}>{escape(words)}</{tag}>")
            for op, words in finding.diff
            if op in ("equal", keep)
        ]
        return Markup(" ").join(parts)
    return _marked(side)


def _marked(side: Side) -> Markup:
    out, at = [], 0
    for start, end in _merged(side.marks):
        out.append(escape(side.text[at:start]))
        out.append(Markup("<mark>{}</mark>").format(side.text[start:end]))
        at = end
    out.append(escape(side.text[at:]))
    return Markup("").join(out)


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
