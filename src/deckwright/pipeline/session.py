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
from ..diagnostics import Diagnostics
from ..kinds import OUTPUT_KINDS, available_kinds
from ..progress import NoProgress, Progress
from ..project import Project
from .lock import BuildLock, LockedError
from .uptodate import input_digest, is_up_to_date, record

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

    def build(self, folder: Path) -> GameBuild:
        """One game, from the up-to-date check to written files; a bug never escapes."""
        try:
            return self._build(folder)
        except Exception as exc:
            return GameBuild(
                folder,
                folder.name,
                State.CRASHED,
                error=f"{type(exc).__name__}: {exc}",
                trace=traceback.format_exc(),
            )

    def roots(self, folder: Path) -> list[Path]:
        """Every file or folder a build of the game reads."""
        project = self.project
        return [
            folder,
            project.game_templates_dir(folder, folder.name),
            project.templates_dir / "_shared",
            project.layouts_dir,
            project.fonts_dir,
            project.art_dir / folder.name,
        ]

    def _prepare(self) -> Diagnostics:
        """Load the catalogue and fonts once; the problems are returned the first time only."""
        from .load import load_catalog, prepare_fonts

        if self._shared is not None:
            return Diagnostics()
        self._shared = Diagnostics()
        self.catalog = load_catalog(self.project, self._shared)
        self.fonts = prepare_fonts(self.project, self._shared)
        return self._shared

    def _build(self, folder: Path) -> GameBuild:
        options = self.options
        inputs = input_digest(self.roots(folder), options, self.kinds)
        if options.use_cache and is_up_to_date(self.project.build_dir, folder.name, inputs):
            return GameBuild(folder, folder.name, State.UP_TO_DATE)
        shared = self._prepare()
        if self._shared.has_errors or self.fonts is None:
            return GameBuild(folder, folder.name, State.INVALID, shared=shared)
        from .build import build_game
        from .load import check_game

        checked = check_game(self.project, folder, self.catalog, self.fonts, use_cache=options.use_cache)
        if not checked.ok:
            return GameBuild(folder, folder.name, State.INVALID, shared=shared, checked=checked.diags)
        game = checked.game
        kinds = self.kinds or [k for k in available_kinds() if k in (game.build.outputs or OUTPUT_KINDS)]
        try:
            with BuildLock(self.project.build_dir, game.id):
                if self.staged:
                    from .staged import build_staged

                    built = build_staged(
                        self.project, checked, self.catalog, self.fonts, options, kinds, self.progress
                    )
                else:
                    built = build_game(
                        self.project, checked, self.catalog, self.fonts, options, kinds, self.progress
                    )
                if built.ok:
                    record(self.project.build_dir, game.id, inputs, built.written)
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
        )
