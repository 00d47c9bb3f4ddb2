"""The card faces of a game as SVG and PNG, computed once per build and shared by the
card, TGC, proof and print-and-play outputs."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from ..model import Layout
from ..render.art import ArtLibrary
from ..render.faces import FaceSet, render_faces
from ..render.raster import svg_to_png
from ..render.style import load_style
from ..render.svg import CardRenderer
from ..render.textsvg import TextPainter
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


def renderer(ctx: BuildContext) -> CardRenderer | None:
    def make() -> CardRenderer | None:
        project, game = ctx.project, ctx.game
        folder = project.templates_dir / game.id
        style = load_style(folder, ctx.diags, project.display)
        if style is None:
            return None
        painter = TextPainter(ctx.fonts, style)
        return CardRenderer(
            project.templates_dir, game, ctx.layouts, style, painter, ArtLibrary(project.art_dir)
        )

    return ctx.memo("renderer", make)


def faces(ctx: BuildContext) -> FaceSet:
    def make() -> FaceSet:
        r = renderer(ctx)
        if r is None:
            return FaceSet()
        return render_faces(ctx.game, ctx.layouts, r, ctx.diags)

    return ctx.memo("faces", make)


def face_pngs(ctx: BuildContext) -> dict[str, bytes]:
    """PNG bytes per face name, rasterised in a process pool."""

    def make() -> dict[str, bytes]:
        face_set = faces(ctx)
        names = sorted(face_set.faces)
        jobs = [(face_set.faces[n].svg, *pixel_size(face_set.faces[n].layout)) for n in names]
        if ctx.options.jobs <= 1 or len(jobs) < 8:
            pngs = [svg_to_png(*job) for job in jobs]
        else:
            with ProcessPoolExecutor(max_workers=ctx.options.jobs) as pool:
                pngs = list(pool.map(_rasterise, jobs, chunksize=4))
        return dict(zip(names, pngs, strict=True))

    return ctx.memo("face-pngs", make)


def _rasterise(job: tuple[str, int, int]) -> bytes:
    return svg_to_png(*job)
