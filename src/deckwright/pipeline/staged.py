"""A build in stages, for the live tools (`deckwright watch`, `deckwright serve`): what the
designer looks at first is built and written first.

1. `faces`: the card images (`cards`): the edited card shows up as soon as it is drawn;
2. `print`: the print files made from those images (TGC set, proof sheets, print-and-play PDFs);
3. `documents`: the rulebook, errata and the editor's check, WeasyPrint's slow pages.

Each stage writes its files as soon as it is done, so a later stage's error leaves the earlier
stages' files written (a plain `deckwright build` writes all or nothing). A game with validation
errors (text that does not fit included) never gets here: it writes nothing at all.
Output kinds this table does not name (a newer kind) are built with the documents.

With more than one job, the documents are built in a forked process while this one draws the
print files: neither needs the other, and WeasyPrint's layout (pure Python, one core) is the
longest step of a rebuild after a one-card edit. The child starts from the state the card faces
left (faces, images, caches) and sends back its files and findings.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Sequence

from ..context.base import BuildContext, BuildOptions, Output
from ..diagnostics import Diagnostic
from ..fonts.registry import FontRegistry
from ..model import Catalog
from ..progress import Progress
from ..project import Project
from .build import Built, build_context, output_builder, write_outputs
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
    ctx = build_context(project, checked, catalog, fonts, options, kinds, progress, built)
    cache = ctx.cache
    report = on_stage or (lambda stage, state, written: None)
    stages = plan(kinds)
    side: _Forked | None = None
    extra_renders = extra_hits = 0
    try:
        for n, (stage, members) in enumerate(stages):
            if side is not None and stage == side.stage:  # built beside the stage before it
                outputs, found, extra_renders, extra_hits, made = side.result()
                side = None
                built.diags.extend(found)
                built.made.update(made)
            else:
                report(stage, "building", [])
                rest = stages[n + 1 :]
                if options.jobs > 1 and len(rest) == 1 and rest[0][0] == LAST_STAGE and stage != "faces":
                    report(rest[0][0], "building", [])
                    side = _Forked.start(ctx, *rest[0])
                outputs = _build(ctx, members, built)
            if not built.diags.has_errors:
                write_outputs(project, game, outputs, built)
            if built.diags.has_errors:
                report(stage, "failed", [])
                break  # a stage being built beside this one is not written either
            report(stage, "done", [o.path for o in outputs])
    finally:
        if side is not None:
            side.cancel()
    built.renders = cache.stats.renders + extra_renders
    built.cache_hits = cache.stats.hits + extra_hits
    return built


def _build(ctx: BuildContext, kinds: Sequence[str], built: Built | None = None) -> list[Output]:
    """One stage's kinds, in order, each kind's files recorded in `built`; stops at the first
    kind that finds an error."""
    outputs: list[Output] = []
    for kind in kinds:
        made = output_builder(kind)(ctx)
        outputs.extend(made)
        if built is not None:
            built.made[kind] = sorted(output.path for output in made)
        if ctx.diags.has_errors:
            break
        ctx.progress.step(f"{ctx.game.id}: {kind}: {len(made)} files")
    return outputs


class _Forked:
    """A stage built in a forked copy of this process; its result comes back through a pipe."""

    def __init__(self, stage: str, process, reader) -> None:
        self.stage = stage
        self.process = process
        self.reader = reader

    @classmethod
    def start(cls, ctx: BuildContext, stage: str, kinds: Sequence[str]) -> _Forked:
        fork = multiprocessing.get_context("fork")
        reader, sender = fork.Pipe(duplex=False)
        known, renders, hits = len(ctx.diags), ctx.cache.stats.renders, ctx.cache.stats.hits

        def run() -> None:
            reader.close()
            try:
                beside = Built(ctx.game.id)
                outputs = _build(ctx, kinds, beside)
                found = list(ctx.diags)[known:]
                stats = ctx.cache.stats
                sender.send(("ok", outputs, found, stats.renders - renders, stats.hits - hits, beside.made))
            except BaseException as exc:
                sender.send(("crash", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            finally:
                sender.close()

        # not a daemon: the rulebook subsets its web fonts in a pool of its own
        process = fork.Process(target=run, name=f"deckwright-{stage}")
        process.start()
        sender.close()
        return cls(stage, process, reader)

    def cancel(self) -> None:
        """Stop it (the stage beside it failed or crashed): nothing it made is kept."""
        self.reader.close()
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()

    def result(self) -> tuple[list[Output], list[Diagnostic], int, int, dict[str, list[str]]]:
        try:
            message = self.reader.recv()
        except EOFError:
            message = ("crash", f"the {self.stage} process died (exit code {self.process.exitcode})", "")
        finally:
            self.reader.close()
            self.process.join()
        if message[0] != "ok":
            raise RuntimeError(f"building the {self.stage} failed: {message[1]}\n{message[2]}")
        return message[1], message[2], message[3], message[4], message[5]
