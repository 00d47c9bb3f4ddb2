"""The build phase: a checked game's chosen output kinds, built in order and written atomically
into build/<game>/ only when none of them found an error. Nothing here prints."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..cache import RenderCache, files_digest
from ..context.base import BuildContext, BuildOptions, Output
from ..diagnostics import Diagnostics
from ..fonts.registry import FontRegistry
from ..kinds import OUTPUT_KINDS
from ..model import Catalog, Game
from ..progress import NoProgress, Progress
from ..project import Project
from ..writer import Writer
from .load import Checked

if TYPE_CHECKING:
    from ..consistency import Report

WRITE_THREADS = 8


@dataclass
class Built:
    game_id: str
    written: list[Path] = field(default_factory=list)
    made: dict[str, list[str]] = field(default_factory=dict)  # output kind -> paths it made
    diags: Diagnostics = field(default_factory=Diagnostics)
    renders: int = 0  # images and documents actually rendered (not read from the cache)
    cache_hits: int = 0

    @property
    def ok(self) -> bool:
        return not self.diags.has_errors


def output_builder(kind: str):
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"no output kind {kind!r} (kinds: {', '.join(OUTPUT_KINDS)})")
    module = importlib.import_module(f"deckwright.outputs.{kind}")
    return module.build


def fonts_digest(fonts: FontRegistry) -> str:
    """Every shipped font file: a changed font re-renders everything drawn with fonts."""
    return files_digest(path for font in fonts.fonts.values() for path in font.faces.values())


def build_game(
    project: Project,
    checked: Checked,
    catalog: Catalog,
    fonts: FontRegistry,
    options: BuildOptions,
    kinds: Sequence[str],
    progress: Progress | None = None,
    shared: dict | None = None,
) -> Built:
    """Build the chosen outputs of a valid game into build/<game>/."""
    built = Built(checked.game.id)
    ctx = build_context(project, checked, catalog, fonts, options, kinds, progress, built)
    ctx.shared.update(shared or {})
    outputs: list[Output] = []
    for kind in kinds:
        made = output_builder(kind)(ctx)
        outputs.extend(made)
        built.made[kind] = sorted(output.path for output in made)
        if built.diags.has_errors:
            return built  # nothing is written from a build that found errors
        ctx.progress.step(f"{ctx.game.id}: {kind}: {len(made)} files")
    built.renders, built.cache_hits = ctx.cache.stats.renders, ctx.cache.stats.hits
    write_outputs(project, ctx.game, outputs, built)
    return built


def build_context(
    project: Project,
    checked: Checked,
    catalog: Catalog,
    fonts: FontRegistry,
    options: BuildOptions,
    kinds: Sequence[str],
    progress: Progress | None,
    built: Built,
) -> BuildContext:
    """What every output kind of one build receives; problems go to `built.diags`."""
    cache = RenderCache(project.build_dir / ".cache", fonts_digest(fonts), enabled=options.use_cache)
    ctx = BuildContext(
        project,
        checked.game,
        catalog,
        options,
        built.diags,
        fonts,
        cache,
        progress or NoProgress(),
        tuple(kinds),
    )
    if checked.faces is not None:
        ctx.shared["faces"] = checked.faces
    return ctx


def write_outputs(project: Project, game: Game, outputs: Sequence[Output], built: Built) -> None:
    """Write `outputs` into the game's build folder, each atomically; when one of them could not
    be written (a name too long, ...), none is: the folder stays as the last build left it."""
    writer = Writer(project.game_build_dir(game.id))
    for output in outputs:
        problem = writer.unwritable(output.path)
        if problem is not None:
            built.diags.error(game.info.loc, f"cannot write {output.path[:60]}: {problem}")
    if built.diags.has_errors:
        return
    # Each file is synced to disk before it replaces the old one; threads overlap those waits
    # (a cold peer-deck build writes 213 files: ~0.25 s one by one).
    with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
        written = pool.map(lambda output: writer.write_bytes(output.path, output.content()), outputs)
        built.written.extend(written)


def editor_check(
    project: Project, checked: Checked, catalog: Catalog, fonts: FontRegistry
) -> tuple[Report, Built]:
    """`deckwright check`: the editor's check of a valid game, and its page written by the
    `check` output kind (build/<game>/check.html)."""
    from .. import consistency

    findings = Diagnostics()
    report = consistency.run(checked.game, findings, project.display)
    built = build_game(
        project, checked, catalog, fonts, BuildOptions(), ["check"], shared={"consistency": report}
    )
    for d in findings:
        built.diags.add(d)
    return report, built
