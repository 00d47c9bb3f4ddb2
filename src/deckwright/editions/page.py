"""`build/<game>/diff/index.html`: a diff to look at. Every face whose image changed is shown
old | new | the pixel difference (the new face faded, the pixels that differ in red), with the
text diff of its cards beside it; then every change, its word diff marked.

The faces are drawn with the pipeline's own rasteriser at half the print resolution (a board's
longest side at most `MAX_SIDE` pixels). The page is `templates/_shared/diff.html.j2`, rendered
in Jinja2's sandbox with autoescaping: it shows the game's own texts, which are data.
"""

from __future__ import annotations

import io
import re

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from ..context.base import Output
from ..context.card_images import pixel_size
from ..diagnostics import Diagnostics, Loc
from ..project import Project
from .change import Change
from .faces import FacePair, PrintImpact

TEMPLATE = "_shared/diff.html.j2"
SCALE = 0.5  # of the 300 DPI print size
MAX_SIDE = 1000  # px
THRESHOLD = 24  # a channel difference above this is a changed pixel (below: antialiasing noise)
HIGHLIGHT = (220, 20, 60)


def preview_size(pair: FacePair) -> tuple[int, int]:
    width, height = pixel_size(pair.layout)
    scale = min(SCALE, MAX_SIDE / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _file_stem(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name)


def face_images(pair: FacePair) -> tuple[bytes | None, bytes | None, bytes | None, int]:
    """PNGs of the old face, the new face and their highlighted difference, and how many pixels
    differ (the difference is None when the face is only on one side)."""
    from PIL import Image, ImageChops

    from ..render.image.raster import svg_to_png

    size = preview_size(pair)
    old = svg_to_png(pair.old_svg, *size) if pair.old_svg is not None else None
    new = svg_to_png(pair.new_svg, *size) if pair.new_svg is not None else None
    if old is None or new is None:
        return old, new, None, 0
    a = Image.open(io.BytesIO(old)).convert("RGB")
    b = Image.open(io.BytesIO(new)).convert("RGB")
    if a.size != b.size:
        a = a.resize(b.size)
    delta = ImageChops.difference(a, b).convert("L")
    mask = delta.point(lambda v: 255 if v > THRESHOLD else 0)
    changed = sum(mask.histogram()[255:])
    faded = Image.blend(b, Image.new("RGB", b.size, (255, 255, 255)), 0.7)
    faded.paste(Image.new("RGB", b.size, HIGHLIGHT), mask=mask)
    out = io.BytesIO()
    faded.save(out, format="PNG", optimize=False)
    return old, new, out.getvalue(), changed


def words_html(change: Change) -> Markup:
    """A change's word diff, deleted words struck and inserted ones marked; else old → new."""
    if change.words:
        parts = []
        for op, words in change.words:
            if op == "delete":
                parts.append(Markup("<del>{}</del>").format(words))
            elif op == "insert":
                parts.append(Markup("<ins>{}</ins>").format(words))
            else:
                parts.append(escape(words))
        return Markup(" ").join(parts)
    return escape(change.message)


def diff_page(
    project: Project,
    game_id: str,
    title: str,
    labels: tuple[str, str],
    changes: list[Change],
    pairs: list[FacePair],
    impact: PrintImpact,
    diags: Diagnostics,
) -> list[Output]:
    """The page and its images, as outputs relative to build/<game>/ (empty when the template
    fails: reported in `diags`)."""
    outputs: list[Output] = []
    faces = []
    for pair in sorted(pairs, key=lambda p: p.name):
        old, new, delta, changed = face_images(pair)
        stem = _file_stem(pair.name)
        images = {}
        for side, data in (("old", old), ("new", new), ("diff", delta)):
            if data is not None:
                path = f"diff/faces/{stem}-{side}.png"
                outputs.append(Output(path, data))
                images[side] = path.removeprefix("diff/")
        about = [
            c
            for c in changes
            if c.card in pair.cards
            or (pair.state == "removed" and c.old_card and f"{c.old_card}-" in pair.name)
        ]
        faces.append({"pair": pair, "images": images, "pixels": changed, "changes": about})
    env = SandboxedEnvironment(
        loader=FileSystemLoader(str(project.templates_dir)), autoescape=True, undefined=StrictUndefined
    )
    groups = {}
    for change in changes:
        groups.setdefault(change.group, []).append(change)
    try:
        html = env.get_template(TEMPLATE).render(
            title=title,
            labels=labels,
            faces=faces,
            groups=groups,
            impact=impact.lines(),
            words_html=words_html,
            count=len(changes),
        )
    except TemplateError as exc:
        diags.error(Loc(project.display(project.templates_dir / TEMPLATE)), f"diff page template: {exc}")
        return []
    outputs.append(Output("diff/index.html", html.encode("utf-8")))
    return outputs
