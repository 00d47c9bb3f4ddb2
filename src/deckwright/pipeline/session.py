"""A build session: the games of one `deckwright build` (or one round of `watch`), each checked
for being up to date, then loaded, validated, built under its lock and recorded.

The session owns what a build decides; it prints nothing. Each game's outcome is returned as a
`GameBuild` for the command line to show. The project's catalogue and fonts are loaded (and the
fonts activated for cairo) once, by the first game that needs building: an up-to-date project
starts no rendering library at all.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..context.base import BuildOptions
from ..diagnostics import Diagnostics, Loc
from ..kinds import DEFAULT_KINDS, available_kinds
from ..progress import NoProgress, Progress
from ..project import Project
from .cleanup import merged, remove_stale, stale
from .lock import BuildLock, LockedError
from .uptodate import input_digest, is_up_to_date, last_state, record

if TYPE_CHECKING:  # kept out of an up-to-date build's imports
    from ..fonts.registry import FontRegistry
    from ..model import Catalog


class State(Enum):
    UP_TO_DATE = "up to date"
    BUILT = "built"
    INVALID = "invalid"  # validation found errors: nothing built
    FAILED = "failed"  # an output found errors: nothing written
    LOCKED = "locked"  # another build of the game is running
    CRASHED = "crashed"  # a bug in deckwright: nothing written


@dataclass
class GameBuild:
    """What became of one game in a session."""

    folder: Path
    game_id: str
    state: State
    # Problems of the project's catalogue or fonts, reported with the first game that loaded them.
    shared: Diagnostics = field(default_factory=Diagnostics)
    checked: Diagnostics = field(default_factory=Diagnostics)  # loading and validation
    diags: Diagnostics = field(default_factory=Diagnostics)  # building
    written: int = 0
    renders: int = 0
    cache_hits: int = 0
    error: str = ""  # LOCKED, CRASHED: what happened
    trace: str = ""  # CRASHED: the traceback, for DECKWRIGHT_DEBUG
    out_dir: Path | None = None  # where the game's outputs are
    replayed: list[str] = field(default_factory=list)  # UP_TO_DATE: the last build's warnings
    removed: list[Path] = field(default_factory=list)  # BUILT: files no longer made, removed

    @property
    def ok(self) -> bool:
        return self.state in (State.UP_TO_DATE, State.BUILT)


class BuildSession:
    def __init__(
        self,
        project: Project,
        options: BuildOptions,
        kinds: Sequence[str] = (),
        progress: Progress | None = None,
        staged: bool = False,
    ) -> None:
        self.project = project
        # `watch`: card images first, then print files, then documents (pipeline/staged.py)
        self.staged = staged
        self.options = options
        self.kinds = tuple(kinds)  # (): each game's game.yaml `build: outputs`, else every kind
        self.progress = progress or NoProgress()
        self.catalog: Catalog | None = None
        self.fonts: FontRegistry | None = None
        self._shared: Diagnostics | None = None
        self._catalogs: dict[tuple[Path, ...], tuple[Catalog, Diagnostics]] = {}
        self._fonts_dir: Path | None = None  # fontconfig is set up once per process

    def build(self, folder: Path, project: Project | None = None) -> GameBuild:
        """One game, from the up-to-date check to written files; a bug never escapes.
        `project`: the one the game sits in, when it is not the session's."""
        try:
            return self._build(folder, project or self.project)
        except Exception as exc:
            return GameBuild(
                folder,
                folder.name,
                State.CRASHED,
                error=f"{type(exc).__name__}: {exc}",
                trace=traceback.format_exc(),
            )

    def roots(self, folder: Path, project: Project | None = None) -> list[Path]:
        """Every file or folder a build of the game reads, with this session's options."""
        project = project or self.project
        icc = [Path(self.options.icc)] if self.options.icc else []  # a changed printer profile
        return [*project.game_inputs(folder), *icc]

    def _prepare(self, project: Project, folder: Path) -> Diagnostics:
        """Load the game's catalogue and fonts, each once per session; their problems are
        returned the first time only."""
        from .load import load_catalog, prepare_fonts

        shared = Diagnostics()
        layouts = tuple(p.resolve() for p in project.game_layouts_dirs(folder))
        if layouts not in self._catalogs:
            diags = Diagnostics()
            self._catalogs[layouts] = (load_catalog(project, diags, folder), diags)
            for d in diags:
                shared.add(d)
        self.catalog, catalog_diags = self._catalogs[layouts]
        fonts_dir = project.game_fonts_dir(folder).resolve()
        if self._fonts_dir is None:
            self._fonts_dir = fonts_dir
            self._shared = Diagnostics()
            self.fonts = prepare_fonts(project, self._shared, folder)
            for d in self._shared:
                shared.add(d)
        elif fonts_dir != self._fonts_dir:
            shared.error(
                Loc(project.display(fonts_dir)),
                f"this game's fonts differ from those of the games built before it "
                f"({self._fonts_dir}); build it on its own",
            )
        self._usable = not catalog_diags.has_errors and not self._shared.has_errors
        return shared

    def _build(self, folder: Path, project: Project) -> GameBuild:
        options = self.options
        out_dir = project.game_build_dir(folder.name)
        inputs = input_digest(
            self.roots(folder, project), options, self.kinds, exclude=[project.build_dir], extra=str(out_dir)
        )
        if options.use_cache and is_up_to_date(project.build_dir, folder.name, inputs, out_dir):
            warnings = last_state(project.build_dir, folder.name).get("warnings", [])
            return GameBuild(folder, folder.name, State.UP_TO_DATE, out_dir=out_dir, replayed=warnings)
        shared = self._prepare(project, folder)
        if shared.has_errors or not self._usable or self.fonts is None:
            return GameBuild(folder, folder.name, State.INVALID, shared=shared, out_dir=out_dir)
        from .build import build_game
        from .load import check_game

        checked = check_game(project, folder, self.catalog, self.fonts, use_cache=options.use_cache)
        if not checked.ok:
            return GameBuild(
                folder, folder.name, State.INVALID, shared=shared, checked=checked.diags, out_dir=out_dir
            )
        game = checked.game
        out_dir = project.game_build_dir(game.id)
        kinds = self.kinds or [k for k in available_kinds() if k in (game.build.outputs or DEFAULT_KINDS)]
        removed: list[Path] = []
        try:
            with BuildLock(project.build_dir, game.id):
                if self.staged:
                    from .staged import build_staged

                    built = build_staged(
                        project, checked, self.catalog, self.fonts, options, kinds, self.progress
                    )
                else:
                    built = build_game(
                        project, checked, self.catalog, self.fonts, options, kinds, self.progress
                    )
                if built.ok:
                    before = last_state(project.build_dir, game.id)
                    previous = before.get("made", {}) if before.get("out") == str(out_dir) else {}
                    removed = remove_stale(out_dir, stale(previous, built.made))
                    warnings = [
                        str(d)
                        for diags in (shared, checked.diags, built.diags)
                        for d in diags.sorted()
                        if d.severity.value != "error"
                    ]
                    record(
                        project.build_dir,
                        game.id,
                        inputs,
                        built.written,
                        out_dir,
                        merged(previous, built.made),
                        warnings,
                    )
        except LockedError as exc:
            locked = GameBuild(folder, game.id, State.LOCKED, shared=shared, checked=checked.diags)
            locked.error = str(exc)
            return locked
        return GameBuild(
            folder,
            game.id,
            State.BUILT if built.ok else State.FAILED,
            shared=shared,
            checked=checked.diags,
            diags=built.diags,
            written=len(built.written),
            renders=built.renders,
            cache_hits=built.cache_hits,
            out_dir=out_dir,
            removed=removed,
        )
