"""load -> validate -> build outputs -> write. The CLI drives it; nothing here prints."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .cache import RenderCache, files_digest
from .diagnostics import Diagnostics
from .model import Game, Layout
from .outputs.base import OUTPUT_KINDS, BuildContext, BuildOptions, Output
from .progress import NoProgress, Progress
from .project import Project
from .readers import load_game
from .readers.layouts import read_layouts
from .render.fonts import FontRegistry, activate, load_registry
from .safety.budget import work_budget
from .source import ParseCache
from .validate import validate_game
from .writer import Writer

WRITE_THREADS = 8

if TYPE_CHECKING:
    from .render.faces import FaceSet


@dataclass
class Checked:
    """One game after loading and validation."""

    folder: Path
    game: Game | None
    diags: Diagnostics = field(default_factory=Diagnostics)
    faces: FaceSet | None = None  # every face as SVG, when the text fit was checked

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.diags.has_errors


@dataclass
class Built:
    game_id: str
    written: list[Path] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)
    renders: int = 0  # images and documents actually rendered (not read from the cache)
    cache_hits: int = 0

    @property
    def ok(self) -> bool:
        return not self.diags.has_errors


def load_layouts(project: Project, diags: Diagnostics) -> Mapping[str, Layout]:
    return read_layouts(project.layouts_dir, diags, project.display)


def check_game(
    project: Project,
    folder: Path,
    layouts: Mapping[str, Layout],
    fonts: FontRegistry | None = None,
    use_cache: bool = True,
) -> Checked:
    """Load and validate a game; with `fonts`, also lay out every card's text in its
    template, so text that does not fit is a validation error like any other.
    Parsed files, compiled templates and laid-out cards are kept in build/.cache; without
    `use_cache` (`build --no-cache`, a cold build) they are made afresh, and kept for the next."""
    diags = Diagnostics()
    cache_dir = project.build_dir / ".cache"
    with work_budget():  # one budget for every expression of the game's checks and tables
        game = load_game(folder, diags, project.root, ParseCache(cache_dir, read=use_cache))
        if game is None:
            return Checked(folder, game, diags)
        validate_game(game, layouts, diags)
    faces = None
    if fonts is not None and not diags.has_errors:
        from .outputs.card_images import make_renderer  # the rendering stack, only when needed
        from .render.faces import render_faces

        renderer = make_renderer(project, game, layouts, fonts, diags, cache_dir, use_cache)
        if renderer is not None:
            faces = render_faces(game, layouts, renderer, diags)
    return Checked(folder, game, diags, faces)


def output_builder(kind: str):
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"no output kind {kind!r} (kinds: {', '.join(OUTPUT_KINDS)})")
    module = importlib.import_module(f"{__package__}.outputs.{kind}")
    return module.build


def load_fonts(project: Project, diags: Diagnostics) -> FontRegistry | None:
    registry = load_registry(project.fonts_dir, diags, project.display)
    return None if diags.has_errors else registry


def prepare_fonts(project: Project, diags: Diagnostics) -> FontRegistry | None:
    """Load the shipped fonts and point fontconfig at them (before cairo/weasyprint load)."""
    registry = load_fonts(project, diags)
    if registry is None:
        return None
    key = hashlib.sha256(str(registry.folder.resolve()).encode()).hexdigest()[:12]
    activate(registry, Path(tempfile.gettempdir()) / f"deckwright-fontconfig-{key}")
    return registry


def fonts_digest(fonts: FontRegistry) -> str:
    """Every shipped font file: a changed font re-renders everything drawn with fonts."""
    return files_digest(path for font in fonts.fonts.values() for path in font.faces.values())


def build_game(
    project: Project,
    checked: Checked,
    layouts: Mapping[str, Layout],
    fonts: FontRegistry,
    options: BuildOptions,
    kinds: Sequence[str],
    progress: Progress | None = None,
) -> Built:
    """Build the chosen outputs of a valid game into build/<game>/."""
    game = checked.game
    built = Built(game.id)
    cache = RenderCache(project.build_dir / ".cache", fonts_digest(fonts), enabled=options.use_cache)
    ctx = BuildContext(
        project, game, layouts, options, built.diags, fonts, cache, progress or NoProgress(), tuple(kinds)
    )
    if checked.faces is not None:
        ctx.shared["faces"] = checked.faces
    outputs: list[Output] = []
    for kind in kinds:
        made = output_builder(kind)(ctx)
        outputs.extend(made)
        if built.diags.has_errors:
            return built  # nothing is written from a build that found errors
        ctx.progress.step(f"{game.id}: {kind}: {len(made)} files")
    built.renders, built.cache_hits = cache.stats.renders, cache.stats.hits
    writer = Writer(project.build_dir / game.id)
    for output in outputs:
        problem = writer.unwritable(output.path)
        if problem is not None:
            built.diags.error(game.info.loc, f"cannot write {output.path[:60]}: {problem}")
    if built.diags.has_errors:
        return built  # nothing is written: not one file of the build is replaced
    # Each file is synced to disk before it replaces the old one; threads overlap those waits
    # (a cold peer-deck build writes 213 files: ~0.25 s one by one).
    with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
        built.written.extend(pool.map(lambda output: writer.write_bytes(output.path, output.data), outputs))
    return built
