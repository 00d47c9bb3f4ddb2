"""The games a `deckwright serve` shows, rebuilt in stages on every save.

A rebuild loads and validates the game (laying out every card's text, from the face cache but
for the edited cards), then builds it with `pipeline.staged`: card images first, then the
print files, then the documents, telling the open pages after each stage. A game with errors is
not built (its print files stay as they were); instead the faces that differ from the written
card images are drawn as previews, in memory, with text that does not fit marked, so the
designer sees the problem.

Everything here runs in one thread (the command's main thread): the web server only reads the
state, whose fields are replaced whole, never changed in place.
"""

from __future__ import annotations

import hashlib
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..context.base import BuildOptions
from ..diagnostics import Diagnostic, Diagnostics, Loc
from ..kinds import DEFAULT_KINDS, available_kinds
from ..model import Catalog, Game
from ..project import Project

STAGE_NAMES = ("faces", "print", "documents")  # pipeline.staged.STAGES, without importing cairo


def face_digest(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16]


@dataclass
class GameLive:
    """What the page shows of one game; replaced field by field by the builder."""

    folder: Path
    id: str
    game: Game | None = None
    state: str = "waiting"  # waiting | building | ok | errors | failed | locked
    message: str = ""  # failed, locked: what happened
    stages: dict[str, str] = field(default_factory=dict)  # stage -> waiting|building|done|failed|blocked
    diagnostics: tuple[Diagnostic, ...] = ()
    faces: dict[str, str] = field(default_factory=dict)  # face name -> digest of the SVG shown
    front_of: dict[str, str] = field(default_factory=dict)  # card id -> face name
    back_of: dict[str, str] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)  # face -> digest of build/<game>/cards/<face>.png
    previews: dict[str, bytes] = field(default_factory=dict)  # face -> PNG drawn for the preview only
    version: int = 0
    seconds: float = 0.0  # the last rebuild's time, load to last stage
    stage_seconds: dict[str, float] = field(default_factory=dict)  # each stage's last build time


class Studio:
    def __init__(
        self,
        project: Project,
        folders: Sequence[Path],
        options: BuildOptions,
        publish: Callable[[dict], None] = lambda event: None,
    ) -> None:
        self.project = project
        self.options = options
        self.publish = publish
        self.games: dict[str, GameLive] = {f.name: GameLive(f, f.name) for f in folders}
        self.catalog: Catalog | None = None
        self.fonts = None
        self.shared = Diagnostics()  # problems of the layouts or fonts
        self.version = 0
        self._lock = threading.Lock()  # one rebuild at a time

    # -- set-up ------------------------------------------------------------------------------

    def prepare(self) -> bool:
        """Load layouts and fonts, and point fontconfig at the fonts: before cairo is loaded."""
        from ..pipeline.load import load_catalog, prepare_fonts

        self.shared = Diagnostics()
        self.catalog = load_catalog(self.project, self.shared)
        self.fonts = prepare_fonts(self.project, self.shared)
        return self.fonts is not None and not self.shared.has_errors

    def roots(self) -> list[Path]:
        """Every folder a build of the served games reads: what the watcher watches."""
        roots = {root for live in self.games.values() for root in self.project.game_inputs(live.folder)}
        return sorted(r for r in roots if r.exists())

    def affected(self, paths: Iterable[Path]) -> list[str]:
        """The games a change to `paths` can change: those whose folders hold a path, and all
        of them for a shared file (layouts, fonts, shared templates)."""
        project = self.project
        own = {
            game_id: (
                live.folder,
                project.game_templates_dir(live.folder, game_id),
                project.art_dir / game_id,
            )
            for game_id, live in self.games.items()
        }
        found: set[str] = set()
        for path in paths:
            hits = {g for g, roots in own.items() if any(path == r or r in path.parents for r in roots)}
            if not hits:
                return list(self.games)
            found |= hits
        return [g for g in self.games if g in found]

    # -- rebuilding --------------------------------------------------------------------------

    def rebuild(self, game_ids: Iterable[str] | None = None, layouts_changed: bool = False) -> None:
        with self._lock:
            if layouts_changed and self.fonts is not None:
                from ..pipeline.load import load_catalog

                self.shared = Diagnostics()
                self.catalog = load_catalog(self.project, self.shared)
            for game_id in list(game_ids or self.games):
                live = self.games[game_id]
                start = time.perf_counter()
                try:
                    self._rebuild(live)
                except Exception as exc:  # a bug in deckwright: shown on the page, the server lives on
                    live.state = "failed"
                    live.message = f"internal error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
                    live.stages = {s: "failed" for s in live.stages}
                live.seconds = time.perf_counter() - start
                self._changed(live)

    def _changed(self, live: GameLive, stage: str = "") -> None:
        self.version += 1
        live.version = self.version
        self.publish({"version": self.version, "game": live.id, "state": live.state, "stage": stage})

    def kinds(self, game: Game) -> list[str]:
        """The game's outputs (its game.yaml `build: outputs`, else what a plain build makes),
        and always its card images: the page shows them."""
        chosen = [k for k in available_kinds() if k in (game.build.outputs or DEFAULT_KINDS)]
        return chosen if "cards" in chosen else ["cards", *chosen]

    def _rebuild(self, live: GameLive) -> None:
        from ..pipeline.lock import BuildLock, LockedError
        from ..pipeline.staged import build_staged, plan

        live.state = "building"
        live.stages = {s: "waiting" for s in (live.stages or STAGE_NAMES)}
        self._changed(live)
        if self.fonts is None or self.catalog is None or self.shared.has_errors:
            live.state, live.diagnostics = "errors", tuple(self.shared.sorted())
            live.stages = {s: "blocked" for s in live.stages}
            return
        from ..pipeline.load import check_game

        start = time.perf_counter()
        checked = check_game(self.project, live.folder, self.catalog, self.fonts, use_cache=True)
        live.stage_seconds = {"load": time.perf_counter() - start}
        game = checked.game
        if game is not None:
            live.game = game
        faces = checked.faces
        if faces is None and game is not None and not checked.ok:
            faces = self._faces_anyway(game)  # a broken count rule must not hide the edited card
        if faces is not None:
            live.front_of, live.back_of = dict(faces.front_of), dict(faces.back_of)
        if not checked.ok:
            live.diagnostics = tuple(checked.diags.sorted())
            if faces is not None and game is not None:
                live.previews = self._previews(live, game, faces)
                digests = {n: face_digest(f.svg) for n, f in faces.faces.items()}
                live.faces = {n: ("p" + d if n in live.previews else d) for n, d in digests.items()}
            live.state = "errors"
            live.stages = {s: "blocked" for s in live.stages}
            return
        kinds = self.kinds(game)
        stages = [name for name, _ in plan(kinds)]
        live.stages = {s: "waiting" for s in stages}
        self._changed(live)
        digests = {n: face_digest(f.svg) for n, f in checked.faces.faces.items()}

        started: dict[str, float] = {"load": start}

        def on_stage(stage: str, state: str, written: list[str]) -> None:
            now = time.perf_counter()
            if state == "building":
                started[stage] = now
            else:
                live.stage_seconds = {**live.stage_seconds, stage: now - started.get(stage, now)}
            live.stages = {**live.stages, stage: state}
            if stage == "faces" and state == "done":
                live.written = digests
                live.faces = dict(digests)
                live.previews = {}
            self._changed(live, stage)

        try:
            with BuildLock(self.project.build_dir, game.id):
                built = build_staged(
                    self.project, checked, self.catalog, self.fonts, self.options, kinds, on_stage=on_stage
                )
        except LockedError as exc:
            live.state, live.message = "locked", str(exc)
            live.diagnostics = tuple(checked.diags.sorted())
            return
        live.diagnostics = tuple([*checked.diags.sorted(), *built.diags.sorted()])
        live.state = "ok" if built.ok else "errors"
        live.message = ""
        live.stages = {s: ("blocked" if v == "waiting" else v) for s, v in live.stages.items()}

    def _faces_anyway(self, game: Game):
        """The faces of a game whose validation failed before its text was laid out (a count
        rule, a bad reference): drawn for the preview, their problems already reported or
        beside the point; None when the data is too broken to draw."""
        from ..context.card_images import make_renderer
        from ..render.card.faces import render_faces

        ignored = Diagnostics()
        try:
            renderer = make_renderer(
                self.project,
                game,
                self.catalog.layouts,
                self.fonts,
                ignored,
                self.project.build_dir / ".cache",
            )
            return None if renderer is None else render_faces(game, self.catalog.layouts, renderer, ignored)
        except Exception:  # data validation rejected: an unknown layout or card type, ...
            return None

    def _previews(self, live: GameLive, game: Game, faces) -> dict[str, bytes]:
        """PNGs of the faces that differ from the written card images, drawn in preview mode
        (text that does not fit marked): the page shows these while the game has errors."""
        from ..context.card_images import make_renderer, pixel_size
        from ..render.card.template import BACK, FRONT
        from ..render.image.raster import svg_to_png

        todo = {n for n, f in faces.faces.items() if live.written.get(n) != face_digest(f.svg)}
        if not todo:
            return {}
        cache_dir = self.project.build_dir / ".cache"
        renderer = make_renderer(
            self.project, game, self.catalog.layouts, self.fonts, Diagnostics(), cache_dir, preview=True
        )
        sides: dict[str, tuple] = {}
        for card in game.cards:
            for side, names in ((FRONT, faces.front_of), (BACK, faces.back_of)):
                name = names.get(card.id)
                if name in todo and name not in sides:
                    sides[name] = (card, side)
        previews = {}
        for name in sorted(sides):
            card, side = sides[name]
            face = faces.faces[name]
            svg = face.svg
            if renderer is not None:
                try:
                    svg = renderer.render(card, side).svg
                except Exception:  # reported by the validation already; the plain face will do
                    svg = face.svg
            previews[name] = svg_to_png(svg, *pixel_size(face.layout))
        return previews

    # -- what the page asks --------------------------------------------------------------------

    def build_dir(self, live: GameLive) -> Path:
        """build/<game id>/ (a game folder given by path may be named otherwise)."""
        return self.project.game_build_dir(live.game.id if live.game is not None else live.id)

    def error_locs(self, live: GameLive) -> set[tuple[str, int]]:
        return {(d.loc.path, d.loc.line) for d in live.diagnostics if d.severity.value == "error"}

    def absolute(self, loc: Loc) -> Path:
        path = Path(loc.path)
        return path if path.is_absolute() else self.project.root / path
