"""Print-and-play: the pages of `book`, turned into PDFs, from the cache or drawn.

Faces are drawn (or replayed from their display lists) by `deckwright.render.pdf`; this module
feeds them the pages and keeps the results in the build cache.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import replace

from ...cache import RenderCache
from ...context.base import BuildContext, Output, worker_pool
from ...context.card_images import faces
from ...fonts.registry import FontError
from ...model import Paper
from ...render.card.faces import FaceSet
from ...render.pdf.facedrawings import FaceDrawings, record, worth_recording
from ...render.pdf.painter import (
    Page,
    SheetFace,
    SheetFont,
    drop_background,
    pages_to_pdf,
    pdf_date,
)
from ...units import MM
from .book import SheetBook, variants


def build(ctx: BuildContext) -> list[Output]:
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    papers = dict(ctx.catalog.papers)
    if not papers and not ctx.diags.has_errors:
        ctx.diags.error(ctx.game.info.loc, "no paper sizes: add layouts/papers.yaml (papers: a4, letter)")
    papers = _chosen_papers(ctx, papers)
    try:
        font = SheetFont.from_registry(ctx.fonts)
    except FontError as exc:
        ctx.diags.error(ctx.game.info.loc, f"print-and-play sheets: {exc}")
        return []
    if ctx.diags.has_errors:
        return []
    options = ctx.options
    sheet_faces = SheetFaces(face_set, ctx)
    date = pdf_date(os.environ.get("SOURCE_DATE_EPOCH"))
    books: list[tuple[str, list[Page], dict[str, str], str]] = []
    reported: set[str] = set()
    for paper in papers.values():
        for variant in variants(options.gutterfold, options.ink_saver):
            book = SheetBook(ctx.game, ctx.layouts, face_set, paper, variant, font, sheet_faces, options)
            pages = book.render()
            for problem in book.problems:
                if problem not in reported:
                    reported.add(problem)
                    ctx.diags.warning(ctx.game.info.loc, problem)
            info = {
                "Title": f"{ctx.game.info.name} — print and play ({paper.title})",
                "Subject": book.subject,
                "Creator": "deckwright",
            }
            duplex = "simplex" if variant.gutterfold else options.duplex
            books.append((f"pnp-{paper.id}{variant.suffix}.pdf", pages, info, duplex))
    return [Output(label, data) for label, data in _render(ctx, books, date)]


def _chosen_papers(ctx: BuildContext, papers: dict[str, Paper]) -> dict[str, Paper]:
    """The papers `--paper` names, else game.yaml's `build: papers` (else all of
    layouts/papers.yaml), each with the `--margin` of the command line if one was given."""
    settings = ctx.game.build
    chosen, where = settings.papers, "build: papers"
    if ctx.options.pnp_papers is not None:
        chosen, where = ctx.options.pnp_papers, "--paper"
    if chosen is not None:
        unknown = [p for p in chosen if p not in papers]
        if unknown:
            ctx.diags.error(
                settings.loc or ctx.game.info.loc,
                f"{where}: no paper {', '.join(map(repr, unknown))} in layouts/papers.yaml "
                f"(papers: {', '.join(papers)})",
            )
        papers = {key: paper for key, paper in papers.items() if key in chosen}
    if ctx.options.margin is not None:
        margin = ctx.options.margin * MM
        papers = {key: replace(paper, margin=margin) for key, paper in papers.items()}
    return papers


def _render(
    ctx: BuildContext, books: list[tuple[str, list[Page], dict[str, str], str]], date: str | None
) -> list[tuple[str, bytes]]:
    """Each book as PDF bytes: from the cache, else drawn (in worker processes with --jobs)."""
    done: dict[str, bytes] = {}
    todo = []
    for label, pages, info, duplex in books:
        parts = [p.key() for p in pages] + [repr(info), date or "", duplex]
        key = ctx.cache.key("pnp", *parts)
        cached = ctx.cache.get(key)
        if cached is not None:
            ctx.cache.stats.hits += 1
            done[label] = cached
        else:
            todo.append((label, key, (pages, info, date, duplex)))
    ctx.progress.start(f"{ctx.game.id}: print-and-play PDFs", len(todo))
    fresh, drawn = _face_lists(ctx, [job[0] for _, _, job in todo])
    jobs = [(*job, CachedDrawings(ctx.cache, fresh)) for _, _, job in todo]
    rendered, replayed = [], 0
    for data, faces_replayed, faces_drawn in _map(_pdf, jobs, ctx.options.jobs):
        rendered.append(data)
        replayed, drawn = replayed + faces_replayed, drawn + faces_drawn
        ctx.progress.advance()
    ctx.progress.finish(
        f"{len(jobs)} drawn, {len(done)} from cache; faces: {drawn} drawn, {replayed} replayed"
    )
    for (label, key, _), data in zip(todo, rendered, strict=True):
        ctx.cache.put(key, data)
        ctx.cache.record_render(label)
        done[label] = data
    return [(label, done[label]) for label, *_ in books]


def _face_lists(ctx: BuildContext, books: list[list[Page]]) -> tuple[set[bytes], int]:
    """Record the display lists of the faces these books print that the cache lacks; returns
    the face SVGs recorded now, and how many.

    They are drawn once for all books and spread over the workers, rather than once by every
    book, and go straight into the render cache, from which each book reads them as it places
    the face: a 10,000-card deck's lists are never all in memory. A lone book without workers
    draws its own: recording and replaying costs ~15 % more CPU than drawing, which two workers
    more than win back in wall time (peer deck, idle 2-core machine: 0.55-0.6 s instead of 0.7 s).
    """
    if len(books) < 2 and ctx.options.jobs < 2:
        return set(), 0
    drawings = CachedDrawings(ctx.cache)
    faces = {key: svg for pages in books for page in pages for key, svg in page.faces.items()}
    missing = [
        svg
        for svg in (svg.encode("utf-8") for svg in faces.values())
        if not drawings.has(svg) and worth_recording(svg)
    ]
    fresh: set[bytes] = set()
    for svg, data in zip(missing, _map(record, missing, ctx.options.jobs), strict=True):
        if data is not None:
            drawings.put(svg, data)
            fresh.add(svg)
    return fresh, len(missing)


def _map(function: Callable, items: list, workers: int) -> Iterator:
    """`function` of each item, in order: in worker processes with --jobs, else here."""
    if workers <= 1 or len(items) < 2:
        yield from map(function, items)
        return
    with worker_pool(min(workers, len(items))) as pool:
        yield from pool.map(function, items)


def _pdf(job: tuple[list[Page], dict[str, str], str | None, str, FaceDrawings]) -> tuple[bytes, int, int]:
    """The PDF, and how many faces were replayed from display lists and drawn by CairoSVG."""
    pages, info, date, duplex, drawings = job
    data = pages_to_pdf(pages, info, date, drawings, duplex)
    return data, drawings.replayed, drawings.drawn


class CachedDrawings(FaceDrawings):
    """The faces' display lists, read from the render cache when a face is placed, keyed by the
    face SVG, the fonts, and the CairoSVG and cairo that made the calls (a new version may draw
    differently)."""

    def __init__(self, cache: RenderCache, fresh: set[bytes] | None = None) -> None:
        super().__init__()
        self.cache = cache
        self.fresh = fresh or set()  # recorded in this build: read back even in a cold build

    def _key(self, svg: bytes) -> str:
        import cairocffi
        import cairosvg

        return self.cache.key("pnp-face", cairosvg.__version__, cairocffi.cairo_version_string(), svg)

    def get(self, svg: bytes) -> bytes | None:
        key = self._key(svg)
        return self.cache.load(key) if svg in self.fresh else self.cache.get(key)

    def has(self, svg: bytes) -> bool:
        return self.cache.has(self._key(svg))

    def put(self, svg: bytes, drawing: bytes) -> None:
        self.cache.put(self._key(svg), drawing)


class SheetFaces:
    """Each face as a `SheetFace`, once per build (and once more without backgrounds)."""

    def __init__(self, face_set: FaceSet, ctx: BuildContext) -> None:
        self.face_set = face_set
        self.ctx = ctx
        self._faces: dict[tuple[str, bool], SheetFace] = {}
        self._warned: set[str] = set()

    def __call__(self, name: str, ink_saver: bool) -> SheetFace:
        key = (name, ink_saver)
        if key not in self._faces:
            face = self.face_set.faces[name]
            svg = face.svg
            if ink_saver:
                svg, found = drop_background(svg)
                if not found and face.template not in self._warned:
                    self._warned.add(face.template)
                    self.ctx.diags.warning(
                        self.ctx.game.info.loc,
                        f'ink saver: template {face.template} has no <g id="background">; '
                        "its faces print with their background",
                    )
            self._faces[key] = SheetFace.of(svg)
        return self._faces[key]
