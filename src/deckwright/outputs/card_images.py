"""The card faces of a game as SVG and PNG, computed once per build and shared by the
card, TGC, proof and print-and-play outputs."""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor

from ..cache import digest, files_digest
from ..diagnostics import Diagnostics, Loc
from ..model import Game, Layout
from ..project import Project
from ..render.art import ArtLibrary
from ..render.faces import FaceSet, render_faces
from ..render.fonts import FontError, FontRegistry
from ..render.raster import svg_to_png
from ..render.style import load_style
from ..render.svg import CardRenderer
from ..render.textsvg import TextPainter
from ..source import ParseCache
from .base import BuildContext

PRINT_DPI = 300


def pixel_size(layout: Layout) -> tuple[int, int]:
    """The image size at 300 DPI with bleed: TGC's exact size where the layout names one."""
    if layout.tgc_pixels is not None:
        return layout.tgc_pixels
    return (
        round((layout.width + 2 * layout.bleed) / 72 * PRINT_DPI),
        round((layout.height + 2 * layout.bleed) / 72 * PRINT_DPI),
    )


def make_renderer(
    project: Project, game: Game, layouts: Mapping[str, Layout], fonts: FontRegistry, diags: Diagnostics
) -> CardRenderer | None:
    game_dir = project.game_templates_dir(game.folder, game.id)
    style = load_style(game_dir, diags, project.display, ParseCache(project.build_dir / ".cache"))
    if style is None:
        return None
    try:
        painter = TextPainter(fonts, style)
    except FontError as exc:
        diags.error(Loc(project.display(game_dir / "style.yaml")), f"icon_font: {exc}")
        return None
    return CardRenderer(
        game_dir,
        project.templates_dir,
        game,
        layouts,
        style,
        painter,
        ArtLibrary(project.art_dir),
        project.display,
        cache_dir=project.build_dir / ".cache",
    )


def renderer(ctx: BuildContext) -> CardRenderer | None:
    return ctx.memo(
        "renderer", lambda: make_renderer(ctx.project, ctx.game, ctx.layouts, ctx.fonts, ctx.diags)
    )


def faces(ctx: BuildContext) -> FaceSet:
    def make() -> FaceSet:
        r = renderer(ctx)
        if r is None:
            return FaceSet()
        return render_faces(ctx.game, ctx.layouts, r, ctx.diags)

    return ctx.memo("faces", make)


def face_pngs(ctx: BuildContext) -> dict[str, bytes]:
    """PNG bytes per face name: from the cache, else rasterised in a process pool."""

    def make() -> dict[str, bytes]:
        face_set = faces(ctx)
        pngs: dict[str, bytes] = {}
        todo: list[tuple[str, str, tuple[str, int, int]]] = []  # name, cache key, job
        for name in sorted(face_set.faces):
            face = face_set.faces[name]
            width, height = pixel_size(face.layout)
            key = ctx.cache.key("png", face.svg, f"{width}x{height}", fonts=used_fonts_digest(ctx, face.svg))
            cached = ctx.cache.get(key)
            if cached is not None:
                ctx.cache.stats.hits += 1
                pngs[name] = cached
            else:
                todo.append((name, key, (face.svg, width, height)))
        jobs = [job for _, _, job in todo]
        ctx.progress.start(f"{ctx.game.id}: card images", len(jobs))
        rendered = []
        if ctx.options.jobs <= 1 or len(jobs) < 8:
            for job in jobs:
                rendered.append(svg_to_png(*job))
                ctx.progress.advance()
        else:
            # fork: workers inherit the fontconfig set-up and CairoSVG's text metrics setting
            # (fonts.activate), which a fresh interpreter would not have.
            fork = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=ctx.options.jobs, mp_context=fork) as pool:
                for png in pool.map(_rasterise, jobs, chunksize=2):
                    rendered.append(png)
                    ctx.progress.advance()
        ctx.progress.finish(f"{len(jobs)} rendered, {len(pngs)} from cache")
        for (name, key, _), png in zip(todo, rendered, strict=True):
            ctx.cache.put(key, png)
            ctx.cache.record_render(f"png:{name}")
            pngs[name] = png
        return pngs

    return ctx.memo("face-pngs", make)


_FONT_FAMILY = re.compile(r'font-family="([^"]+)"')


def used_fonts_digest(ctx: BuildContext, svg: str) -> str:
    """The digest of the font files an SVG draws with: editing a font re-renders only the
    faces that use it."""
    per_font = ctx.memo(
        "font-digests",
        lambda: {font.id: files_digest(font.faces.values()) for font in ctx.fonts.fonts.values()},
    )
    ids = sorted({ctx.fonts.font(family).id for family in set(_FONT_FAMILY.findall(svg))})
    return digest(*(f"{i}:{per_font[i]}" for i in ids))


def _rasterise(job: tuple[str, int, int]) -> bytes:
    return svg_to_png(*job)
