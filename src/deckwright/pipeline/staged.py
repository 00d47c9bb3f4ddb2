"""A build in stages, for the live tools (`deckwright watch`, `deckwright serve`): what the
designer looks at first is built and written first.

1. `faces`: the card images (`cards`): the edited card shows up as soon as it is drawn;
2. `print`: the print files made from those images (TGC set, proof sheets, print-and-play PDFs);
3. `documents`: the rulebook, errata and the editor's check, WeasyPrint's slow pages.

Each stage writes its files as soon as it is done, so a later stage's error leaves the earlier
stages' files written (a plain `deckwright build` writes all or nothing). A game with validation
errors (text that does not fit included) never gets here: it writes nothing at all.
Output kinds this table does not name (a newer kind) are built with the documents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from ..cache import RenderCache
from ..context.base import BuildContext, BuildOptions, Output
from ..fonts.registry import FontRegistry
from ..model import Catalog
from ..progress import NoProgress, Progress
from ..project import Project
from ..writer import Writer
from .build import WRITE_THREADS, Built, fonts_digest, output_builder
from .load import Checked

STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("faces", ("cards",)),
    ("print", ("tgc", "proofs", "pnp")),
    ("documents", ("rulebook", "errata", "check")),
)
LAST_STAGE = STAGES[-1][0]

# on_stage(stage, state, written): state is "building", "done" or "failed"
StageCallback = Callable[[str, str, list[str]], None]


def plan(kinds: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The stages a build of `kinds` goes through, in order, each with its kinds (in build
    order); stages with nothing to build are left out."""
    staged = {kind for _, members in STAGES for kind in members}
    result = []
    for name, members in STAGES:
        chosen = [k for k in kinds if k in members]
        if name == LAST_STAGE:
            chosen += [k for k in kinds if k not in staged]
        if chosen:
            result.append((name, chosen))
    return result


def build_staged(
    project: Project,
    checked: Checked,
    catalog: Catalog,
    fonts: FontRegistry,
    options: BuildOptions,
    kinds: Sequence[str],
    progress: Progress | None = None,
    on_stage: StageCallback | None = None,
) -> Built:
    """Build a valid game's `kinds` stage by stage, writing each stage's files when it is done.

    The build context (card faces, their images) is shared by all stages, as in `build_game`.
    `on_stage` hears of each stage starting and ending, with the paths (relative to
    build/<game>/) it wrote; after a failed stage the later ones are not built."""
    game = checked.game
    built = Built(game.id)
    cache = RenderCache(project.build_dir / ".cache", fonts_digest(fonts), enabled=options.use_cache)
    ctx = BuildContext(
        project, game, catalog, options, built.diags, fonts, cache, progress or NoProgress(), tuple(kinds)
    )
    if checked.faces is not None:
        ctx.shared["faces"] = checked.faces
    writer = Writer(project.build_dir / game.id)
    report = on_stage or (lambda stage, state, written: None)
    for stage, members in plan(kinds):
        report(stage, "building", [])
        outputs: list[Output] = []
        for kind in members:
            made = output_builder(kind)(ctx)
            outputs.extend(made)
            if built.diags.has_errors:
                break
            ctx.progress.step(f"{game.id}: {kind}: {len(made)} files")
        if built.diags.has_errors:
            report(stage, "failed", [])
            break
        with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
            written = list(pool.map(lambda o: writer.write_bytes(o.path, o.data), outputs))
        built.written.extend(written)
        report(stage, "done", [o.path for o in outputs])
    built.renders, built.cache_hits = cache.stats.renders, cache.stats.hits
    return built
