"""The rulebook: `rulebook.pdf`, `rulebook.html` (one self-contained file) and, with
`--booklet`, `rulebook-booklet.pdf` (half-size pages imposed two-up for saddle stitching).

The prose is `cards/<game>/rulebook/*.md`; every table in it is generated from the data
(`render/prose.py`, `render/datatables.py`). The page is `templates/<game>/rulebook.html.j2`
or `templates/_shared/rulebook.html.j2`, styled by `templates/_shared/rulebook.css` followed by
`templates/<game>/rulebook.css`. Fonts are the project's own (`fonts/fonts.yaml`): linked for
WeasyPrint (which embeds subsets in the PDF), embedded as WOFF2 subsets in the HTML.

Builds are reproducible: the PDF /ID derives from the game, and the only dates written are
SOURCE_DATE_EPOCH's, when it is set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from jinja2 import StrictUndefined, TemplateError, TemplateNotFound
from markupsafe import Markup

from ..context.base import BuildContext, Output, worker_pool
from ..diagnostics import Loc
from ..fonts.registry import GENERIC_FAMILIES, FontRegistry
from ..model import Game, Unknown
from ..progress import NoProgress
from ..render.document.datatables import format_value
from ..render.document.documents import (
    families_in,
    font_faces,
    impose_booklet,
    pdf_faces,
    source_date,
)
from ..render.document.prose import Prose, render_prose
from ..render.document.webfonts import woff2_data_url
from ..safety.containment import ContainmentError, read_contained
from ..safety.limits import MAX_FILE_BYTES
from ..safety.templates import render, sandboxed_environment
from ..safety.weblinks import remote_css_urls, remote_html_urls, with_no_fetch_policy

SHARED = "_shared"
TEMPLATE = "rulebook.html.j2"
STYLESHEET = "rulebook.css"
# (full page, booklet page, booklet sheet in points, landscape)
PAPER = {
    "a4": ("A4", "A5", (841.89, 595.28)),
    "letter": ("letter", "5.5in 8.5in", (792.0, 612.0)),
}
WEB_FONT = "rulebook-woff2"  # cache kind of the HTML's fonts
BOOKLET_CSS = ":root { --body-size: 9.6pt; } @page { margin: 15mm 13mm 15mm 13mm; }"


def build(ctx: BuildContext) -> list[Output]:
    try:
        return _build(ctx)
    except TemplateError as exc:  # the page template failing in one of its later renders
        _template_error(ctx, exc, Path(ctx.project.templates_dir / ctx.game.id / TEMPLATE))
        return []


def _template_error(ctx: BuildContext, exc: TemplateError, fallback: Path) -> None:
    """A rulebook template error at the file and line it was raised at."""
    path, line = getattr(exc, "where", None) or (Path(getattr(exc, "filename", None) or fallback), 1)
    line = getattr(exc, "lineno", None) or line
    ctx.diags.error(Loc(ctx.project.display(path), line), f"rulebook template: {exc}")


def _build(ctx: BuildContext) -> list[Output]:
    game = ctx.game
    if not game.rulebook:
        return []  # a game without cards/<game>/rulebook/ has no rulebook to build
    project = ctx.project
    prose = render_prose(game)
    for loc, message in prose.problems:
        ctx.diags.error(loc, message, code="rulebook-ref")
    template = _template(ctx)
    css = _stylesheets(ctx)
    registry = _registry(ctx)
    if template is None or css is None or registry is None or ctx.diags.has_errors:
        return []
    families = _families(ctx, css, registry)
    full, half, sheet = PAPER[ctx.options.paper]
    page = f"@page {{ size: {full}; }}"

    def html(font_css: str, paper_css: str) -> str:
        return _page(template, game, prose, font_css, css + "\n" + paper_css)

    print_fonts, faces = font_faces(registry, families, lambda path: path.as_uri())
    try:
        document = html(print_fonts, page)
    except TemplateError as exc:
        _template_error(ctx, exc, Path(template.filename))
        return []
    # What a browser would fetch from the network, found before WeasyPrint draws anything: the
    # page without its fonts (which deckwright embeds itself) holds every URL the game put in.
    if _remote_media(ctx, html("", page), template, prose):
        return []
    roots = (project.fonts_dir, project.templates_dir)
    base = project.templates_dir / game.id

    def pdf(kind: str, source: str) -> bytes:
        def make() -> bytes:
            from ..render.document.weasy import render_pdf  # WeasyPrint loads only when a PDF is drawn

            data, warnings = render_pdf(source, base, roots, f"{game.id}/{kind}/{ctx.options.paper}")
            _report(ctx, warnings)
            return data

        return _through(ctx, "rulebook-pdf", f"{kind}:{game.id}", (kind, source), make)

    progress = getattr(ctx, "progress", None) or NoProgress()
    progress.start(f"{game.id}: rulebook", 3 if ctx.options.booklet else 2)
    # The HTML embeds the faces the PDF uses, each subset to the document's characters.
    chars = "".join(sorted(set(prose.html.striptags() + document)))
    with _web_fonts(ctx, faces, chars) as web_font:
        outputs = [Output("rulebook.pdf", pdf("rulebook", document))]
        progress.advance()
        web_fonts, _ = font_faces(registry, families, web_font, pdf_faces(outputs[0].data, registry))
    outputs.append(Output("rulebook.html", with_no_fetch_policy(html(web_fonts, page)).encode("utf-8")))
    progress.advance()

    if ctx.options.booklet:
        pages = pdf("rulebook-booklet", html(print_fonts, f"@page {{ size: {half}; }}\n{BOOKLET_CSS}"))
        metadata = {"/Title": f"{game.info.name} — Rulebook (booklet)", "/Producer": "deckwright"}
        outputs.append(Output("rulebook-booklet.pdf", impose_booklet(pages, sheet, metadata)))
        progress.advance()
    progress.finish(", ".join(o.path for o in outputs))
    return outputs


@contextmanager
def _web_fonts(ctx: BuildContext, faces: list[Path], chars: str) -> Iterator[Callable[[Path], str]]:
    """Yields url(face): the face's WOFF2 data URL for `chars`, through the cache.

    Which faces the HTML needs is known only from the PDF (2-3 s of WeasyPrint), so with --jobs
    > 1 every face of the stylesheet's families that the cache lacks is subset in worker
    processes while the PDF is drawn, rather than one after another once it is done. One worker
    less than --jobs: the PDF keeps a core of its own. The faces the PDF does not use (about
    half, ~0.1 s each) are cached too, uncounted, so that a rebuild with the same characters
    starts no worker at all.
    """

    parts = {face: (face.name, face.read_bytes(), chars) for face in faces}  # each file read once
    cache = getattr(ctx, "cache", None)
    todo = [f for f in faces if cache is None or cache.get(cache.key(WEB_FONT, *parts[f])) is None]
    workers = min(ctx.options.jobs - 1, len(todo))
    pool = worker_pool(workers) if workers > 0 else None
    started = {face: pool.submit(woff2_data_url, face, chars) for face in todo} if pool else {}

    def url(face: Path) -> str:
        def make() -> bytes:
            future = started.pop(face, None)
            return (future.result() if future else woff2_data_url(face, chars)).encode("ascii")

        return _through(ctx, WEB_FONT, f"woff2:{face.name}", parts[face], make).decode("ascii")

    try:
        yield url
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)  # waits only for the faces being subset
        for face, future in started.items():  # the faces the HTML did not take
            if cache is not None and not future.cancelled() and future.exception() is None:
                cache.put(cache.key(WEB_FONT, *parts[face]), future.result().encode("ascii"))


def _through(ctx: BuildContext, kind: str, label: str, parts, make) -> bytes:
    """A render through the build's cache (build/.cache/), when the build has one."""
    cache = getattr(ctx, "cache", None)
    return make() if cache is None else cache.through(kind, label, parts, make)


def _page(template, game: Game, prose: Prose, font_css: str, css: str) -> str:
    info = game.info
    return render(  # within the time limit; any failure a located TemplateError
        template,
        lang="en",
        info=info,
        date=source_date(),
        font_css=Markup(font_css),
        css=Markup(css),
        toc=prose.toc,
        body=prose.html,
        running_edition=_running_edition(game),
        meta_line=" · ".join(str(v) for v in (info.version, info.date) if v and not isinstance(v, Unknown)),
        players=_players(game),
    )


def _remote_media(ctx: BuildContext, page: str, template, prose: Prose) -> bool:
    """Report every URL rulebook.html would fetch from the network when opened (an image in
    the prose, a stylesheet or beacon in the template); True when there is one. Each is
    located in the chapter that holds it, else in the page template."""
    found = remote_html_urls(page)
    for _, _, url in found:
        where = Loc(ctx.project.display(Path(template.filename)))
        for chapter in ctx.game.rulebook:
            at = chapter.text.find(url)
            if at >= 0:
                line = chapter.text.count("\n", 0, at) + 1
                where = Loc(chapter.path, line, at - (chapter.text.rfind("\n", 0, at) + 1) + 1)
                break
        ctx.diags.error(
            where,
            f"rulebook.html would fetch a remote URL when opened ({url[:80]}); "
            "use a file of the project or a data: URL",
        )
    return bool(found)


def _running_edition(game: Game) -> str:
    edition = game.info.edition
    text = "edition unknown" if isinstance(edition, Unknown) else str(edition)
    version = game.info.version
    if version and not isinstance(version, Unknown):
        text = f"{text} · {version}"
    return text


def _players(game: Game) -> str:
    info = game.info
    count = (
        f"{info.players_min}"
        if info.players_min == info.players_max
        else f"{info.players_min}–{info.players_max}"
    )
    text = f"{count} player{'s' if info.players_max > 1 else ''}"
    host = info.extra.get("players_host")
    if isinstance(host, int) and host > 0:
        text += f" + {host} Host" if host == 1 else f" + {host} Hosts"
    return text


def _template(ctx: BuildContext):
    folder = ctx.project.templates_dir
    env = sandboxed_environment(
        [folder],
        ctx.project.display,
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["value"] = lambda v: format_value(ctx.game, v, None)
    names = [f"{ctx.game.id}/{TEMPLATE}", f"{SHARED}/{TEMPLATE}"]
    try:
        return env.select_template(names)
    except TemplateNotFound:
        shown = ctx.project.display(folder / SHARED / TEMPLATE)
        ctx.diags.error(
            Loc(shown), f"no rulebook template: add {shown} (or templates/{ctx.game.id}/{TEMPLATE})"
        )
        return None
    except TemplateError as exc:  # a refused file (a link out of templates/, ...) or bad syntax
        where = getattr(exc, "loc", None) or Loc(ctx.project.display(folder / ctx.game.id / TEMPLATE))
        line = getattr(exc, "lineno", None) or where.line
        ctx.diags.error(Loc(where.path, line), f"rulebook template: {exc}")
        return None


def _stylesheets(ctx: BuildContext) -> str | None:
    folder = ctx.project.templates_dir
    shared = folder / SHARED / STYLESHEET
    if not shared.is_file():
        ctx.diags.error(Loc(ctx.project.display(shared)), "the shared rulebook stylesheet is missing")
        return None
    sheets = []
    own = folder / ctx.game.id / STYLESHEET
    for path in (shared, own) if own.exists() or own.is_symlink() else (shared,):
        shown = ctx.project.display(path)
        try:  # inside templates/ (links followed), a regular file, at most MAX_FILE_BYTES
            text = read_contained(path, [folder], MAX_FILE_BYTES, shown).decode("utf-8")
        except ContainmentError as exc:
            ctx.diags.error(exc.loc, f"rulebook stylesheet {exc.message}")
            return None
        except UnicodeDecodeError:
            ctx.diags.error(Loc(shown), "rulebook stylesheet is not valid UTF-8")
            return None
        remote = remote_css_urls(text)
        for line, col, url in remote:
            ctx.diags.error(
                Loc(shown, line, col),
                f"rulebook stylesheet refers to a remote URL ({url[:80]}), which a browser opening "
                "rulebook.html would fetch; use a file under templates/ or a data: URL",
            )
        if remote:
            return None
        sheets.append(text)
    return "\n".join(sheets)


def _registry(ctx: BuildContext) -> FontRegistry:
    return ctx.fonts


def _families(ctx: BuildContext, css: str, registry: FontRegistry) -> list[str]:
    shipped = {f.casefold().replace(" ", ""): f for f in registry.families}
    out = []
    for name in families_in(css):
        key = name.casefold().replace(" ", "")
        if key in shipped:
            out.append(shipped[key])
        elif name.lower() not in (*GENERIC_FAMILIES, "inherit", "initial"):
            shown = ctx.project.display(ctx.project.templates_dir / ctx.game.id / STYLESHEET)
            ctx.diags.warning(
                Loc(shown),
                f"rulebook stylesheet names font {name!r}, which fonts/fonts.yaml does not ship; "
                "WeasyPrint would use whatever the machine has",
            )
    return out


def _report(ctx: BuildContext, warnings: list[str]) -> None:
    where = Loc(ctx.project.display(ctx.project.templates_dir / SHARED / STYLESHEET))
    for message in warnings:
        if message.startswith("refused to fetch"):
            ctx.diags.error(where, f"rulebook: {message}")
        else:
            ctx.diags.warning(where, f"rulebook (WeasyPrint): {message}")
