"""The card faces of a game as SVG and PNG, computed once per build and shared by the
card, TGC, proof and print-and-play outputs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from ..cache import RenderCache, digest, files_digest
from ..diagnostics import Diagnostics, Loc
from ..fonts.registry import FontError, FontRegistry
from ..model import Game, Layout
from ..project import THEMES, Project
from ..readers.style import load_style
from ..render.card.faces import Face, FaceSet, render_faces
from ..render.card.gameart import GameArt
from ..render.card.template import CardRenderer
from ..render.card.textsvg import TextPainter
from ..render.image.raster import svg_to_png, svg_to_png_and_thumbnail
from ..source import ParseCache
from .base import BuildContext, worker_pool

PRINT_DPI = 300
THUMB_WIDTH = 180  # px: a face's width on the proof sheets
POOL_FROM = 8  # jobs: fewer are drawn in this process, as starting a pool would cost more


def pixel_size(layout: Layout, dpi: int = PRINT_DPI) -> tuple[int, int]:
    """The image size of a face with its bleed, at `dpi`."""
    return (
        round((layout.width + 2 * layout.bleed) / 72 * dpi),
        round((layout.height + 2 * layout.bleed) / 72 * dpi),
    )


def thumb_size(layout: Layout) -> tuple[int, int]:
    width, height = pixel_size(layout)
    return THUMB_WIDTH, round(height * THUMB_WIDTH / width)


def make_renderer(
    project: Project,
    game: Game,
    layouts: Mapping[str, Layout],
    fonts: FontRegistry,
    diags: Diagnostics,
    cache_dir: Path,
    cache_reads: bool = True,
    preview: bool = False,
) -> CardRenderer | None:
    """The game's card renderer; `cache_dir` keeps parsed style files, compiled templates and
    laid-out cards between builds (made afresh without `cache_reads`, for `--no-cache`).
    `preview` (`deckwright serve`): text that does not fit is drawn marked, not for print."""
    game_dir = project.game_templates_dir(game.folder, game.id)
    style = load_style(game_dir, diags, project.display, ParseCache(cache_dir, read=cache_reads))
    if style is None:
        return None
    try:
        painter = TextPainter(fonts, style, preview=preview)
    except FontError as exc:
        diags.error(Loc(project.display(game_dir / "style.yaml")), f"icon_font: {exc}")
        return None
    if not _faces_drawable(style, fonts, diags, Loc(project.display(game_dir / "style.yaml"))):
        return None
    theme = THEMES / style.theme if style.theme else None
    art = GameArt(project.game_art_dirs(game.folder, game.id), {c.id: c.art for c in game.cards if c.art})
    return CardRenderer(
        game_dir,
        project.templates_dir,
        game,
        layouts,
        style,
        painter,
        art,
        project.display,
        cache_dir=cache_dir,
        cache_reads=cache_reads,
        theme_dirs=(theme,) if theme is not None and theme.resolve() != game_dir.resolve() else (),
    )


def _faces_drawable(style, fonts: FontRegistry, diags: Diagnostics, where: Loc) -> bool:
    """Every text style's font face, checked once at its definition in style.yaml (not once per
    card): a face that is not shipped, or that cairo would draw with another file, is an error."""
    ok = True
    for text_style in style.text.values():
        try:
            fonts.face(text_style.font, text_style.weight, text_style.style)
        except FontError as exc:
            diags.error(text_style.loc or where, f"text style {text_style.name!r}: {exc}")
            ok = False
    return ok


def renderer(ctx: BuildContext) -> CardRenderer | None:
    return ctx.memo(
        "renderer",
        lambda: make_renderer(
            ctx.project,
            ctx.game,
            ctx.layouts,
            ctx.fonts,
            ctx.diags,
            ctx.project.build_dir / ".cache",
            ctx.options.use_cache,
        ),
    )


def faces(ctx: BuildContext) -> FaceSet:
    def make() -> FaceSet:
        r = renderer(ctx)
        if r is None:
            return FaceSet()
        return render_faces(ctx.game, ctx.layouts, r, ctx.diags)

    return ctx.memo("faces", make)


def face_pngs(ctx: BuildContext) -> FacePngs:
    """Every face's PNG, by face name: from the cache, else drawn (in a process pool for many),
    each with its thumbnail when this build makes proof sheets (see `face_thumbs`). The images
    are stored in the render cache as they are drawn and read back from it one at a time."""

    def make() -> FacePngs:
        face_set = faces(ctx)
        jobs: dict[str, _Job] = {}
        todo: list[str] = []
        for name in sorted(face_set.faces):
            job = _job(ctx, face_set.faces[name], png=True, thumb=False)
            jobs[name] = job
            if ctx.cache.has(job.png_key):
                ctx.cache.stats.hits += 1
            else:
                todo.append(name)
        with_thumbs = "proofs" in ctx.kinds
        drawing = [
            replace(jobs[name], thumb_key=_thumb_key(ctx, face_set.faces[name]))
            if with_thumbs
            else jobs[name]
            for name in todo
        ]
        drawn = _draw_all(ctx, "card images", drawing, len(jobs) - len(todo))
        thumbs = ctx.shared.setdefault("drawn-thumbs", {})
        for name, (_, thumb) in zip(todo, drawn, strict=True):
            ctx.cache.record_render(f"png:{name}")
            if thumb is not None:
                thumbs[name] = thumb
        return FacePngs(ctx.cache, jobs)

    return ctx.memo("face-pngs", make)


class FacePngs(Mapping[str, bytes]):
    """Each face's PNG, read from the render cache when asked for; an entry gone or damaged
    since it was drawn or found is drawn again."""

    def __init__(self, cache: RenderCache, jobs: Mapping[str, _Job]) -> None:
        self._cache = cache
        self._jobs = dict(jobs)

    def __getitem__(self, name: str) -> bytes:
        job = self._jobs[name]
        data = self._cache.load(job.png_key)
        if data is None:
            data = svg_to_png(job.svg, *job.size)
            self._cache.put(job.png_key, data)
        return data

    def __iter__(self) -> Iterator[str]:
        return iter(self._jobs)

    def __len__(self) -> int:
        return len(self._jobs)


def face_thumbs(ctx: BuildContext, names: Iterable[str]) -> dict[str, bytes]:
    """Proof-sheet thumbnail PNG bytes per face name: made with the face's PNG in this build,
    from the cache, else made on their own (without encoding or caching a PNG)."""
    face_set = faces(ctx)
    drawn_thumbs = ctx.shared.setdefault("drawn-thumbs", {})
    thumbs: dict[str, bytes] = {}
    todo: list[str] = []
    for name in sorted(set(names)):
        if name in drawn_thumbs:
            thumbs[name] = drawn_thumbs[name]
        elif (cached := ctx.cache.get(_thumb_key(ctx, face_set.faces[name]))) is not None:
            ctx.cache.stats.hits += 1
            thumbs[name] = cached
        else:
            todo.append(name)
    if not todo:
        return thumbs
    jobs = [_job(ctx, face_set.faces[name], png=False, thumb=True) for name in todo]
    drawn = _draw_all(ctx, "thumbnails", jobs, len(thumbs))
    for name, (_, thumb) in zip(todo, drawn, strict=True):
        ctx.cache.record_render(f"thumb:{name}")
        thumbs[name] = drawn_thumbs[name] = thumb
    return thumbs


def _png_key(ctx: BuildContext, face: Face) -> str:
    width, height = pixel_size(face.layout)
    return ctx.cache.key("png", face.svg, f"{width}x{height}", fonts=used_fonts_digest(ctx, face.svg))


def _thumb_key(ctx: BuildContext, face: Face) -> str:
    width, height = thumb_size(face.layout)
    return ctx.cache.key("thumb", face.svg, f"{width}x{height}", fonts=used_fonts_digest(ctx, face.svg))


@dataclass(frozen=True)
class _Job:
    """One face to draw: its PNG (when it has a `png_key`) and its proof-sheet thumbnail (when
    it has a `thumb_key`), and the cache keys to store them under."""

    svg: str
    size: tuple[int, int]
    thumb: tuple[int, int]
    png_key: str | None
    thumb_key: str | None

    @property
    def cost(self) -> tuple[int, int]:
        """For ordering only: the image's pixels, then the SVG's length."""
        return (self.size[0] * self.size[1], len(self.svg))


def _job(ctx: BuildContext, face: Face, png: bool, thumb: bool) -> _Job:
    png_key = _png_key(ctx, face) if png else None
    thumb_key = _thumb_key(ctx, face) if thumb else None
    return _Job(face.svg, pixel_size(face.layout), thumb_size(face.layout), png_key, thumb_key)


_Drawn = tuple[None, bytes | None]  # a face's thumbnail (None when not asked for); its PNG is cached


def _draw(job: _Job, cache: RenderCache) -> _Drawn:
    """Draw one face and store what it drew in the cache (workers write their entries in
    parallel). The PNG is not handed back: `FacePngs` reads it from the cache when it is
    written, so that drawing a large deck does not keep every image in memory."""
    if job.thumb_key is None:
        drawn = (svg_to_png(job.svg, *job.size), None)
    else:
        drawn = svg_to_png_and_thumbnail(job.svg, job.size, job.thumb, with_png=job.png_key is not None)
    for key, data in zip((job.png_key, job.thumb_key), drawn, strict=True):
        if key is not None:
            cache.put(key, data)
    return None, drawn[1]


_worker_cache: RenderCache | None = None  # the build's cache, in a pool's worker


def _start_worker(cache: RenderCache) -> None:
    global _worker_cache
    _worker_cache = cache


def _draw_in_worker(job: _Job) -> _Drawn:
    return _draw(job, _worker_cache)


def _draw_all(ctx: BuildContext, what: str, jobs: list[_Job], cached: int) -> list[_Drawn]:
    """Every job's drawing, in the jobs' order: in this process for a few, else in a pool."""
    ctx.progress.start(f"{ctx.game.id}: {what}", len(jobs))
    drawn: list[_Drawn | None] = [None] * len(jobs)
    if ctx.options.jobs <= 1 or len(jobs) < POOL_FROM:
        for i, job in enumerate(jobs):
            drawn[i] = _draw(job, ctx.cache)
            ctx.progress.advance()
    else:
        # Largest first (the boards), so that no worker is left drawing a board alone at the end.
        order = sorted(range(len(jobs)), key=lambda i: jobs[i].cost, reverse=True)
        with worker_pool(ctx.options.jobs, _start_worker, (ctx.cache,)) as pool:
            futures = {pool.submit(_draw_in_worker, jobs[i]): i for i in order}
            for future in as_completed(futures):
                drawn[futures[future]] = future.result()
                ctx.progress.advance()
    ctx.progress.finish(f"{len(jobs)} rendered, {cached} from cache")
    return drawn


_FONT_FAMILY = re.compile(r'font-family="([^"]+)"')


def used_fonts_digest(ctx: BuildContext, svg: str) -> str:
    """The digest of the font files an SVG draws with: editing a font re-renders only the
    faces that use it."""
    per_font = ctx.memo(
        "font-digests",
        lambda: {font.id: files_digest(font.faces.values()) for font in ctx.fonts.fonts.values()},
    )
    known = ctx.memo("svg-font-digests", dict)  # a face's PNG and thumbnail keys both ask
    if svg not in known:
        ids = sorted({ctx.fonts.font(family).id for family in set(_FONT_FAMILY.findall(svg))})
        known[svg] = digest(*(f"{i}:{per_font[i]}" for i in ids))
    return known[svg]
