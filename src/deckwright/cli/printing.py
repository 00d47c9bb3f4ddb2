"""What the command line prints: findings, each game's outcome, where its files come from, and a
progress bar per stage."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostics
from ..project import Project

if TYPE_CHECKING:
    pass


def _print_diagnostics(diags: Diagnostics, quiet: bool) -> None:
    """Findings in file order on stderr; warnings only when not --quiet."""
    for d in diags.sorted():
        if d.severity.value == "error" or not quiet:
            print(d, file=sys.stderr)


def _print_problems(problems) -> None:
    """Each version's errors (its warnings are `validate`'s business); those of another version
    than the working tree say which."""
    for label, diags in problems:
        for d in diags.sorted():
            if d.severity.value != "error":
                continue
            print(f"{d} (in {label})" if label and label != "the working tree" else d, file=sys.stderr)


def _sources(project: Project, folder: Path) -> list[str]:
    """Where a game's templates, fonts, layouts and art come from (`validate --verbose`)."""
    from ..project import DEFAULTS

    def shown(path: Path) -> str:
        try:  # not resolved: the built-in folders may be links into a checkout
            return f"built in ({path.relative_to(DEFAULTS.parent.parent)})"
        except ValueError:
            return str(path.resolve())

    from ..readers.style import load_style

    templates = project.game_templates_dir(folder, folder.name)
    style = load_style(templates, Diagnostics(), project.display)
    theme = f", then the {style.theme} theme (built in)" if style is not None and style.theme else ""
    art = [str(p.resolve()) for p in project.game_art_dirs(folder, folder.name) if p.is_dir()]
    return [
        f"templates: {shown(templates)}{theme}",
        f"fonts: {shown(project.game_fonts_dir(folder))}",
        f"layouts: {', '.join(shown(p) for p in project.game_layouts_dirs(folder))}",
        f"art: {', '.join(art) or 'none yet (' + str((folder / 'art').resolve()) + ')'}",
        f"outputs: {project.game_build_dir(folder.name)}",
    ]


def _print_outcome(outcome, quiet: bool, verbose: bool = False, project: Project | None = None) -> None:
    """What became of one game: its findings, then one line."""
    from ..pipeline.session import State

    for d in outcome.shared.sorted():
        print(d, file=sys.stderr)
    _print_diagnostics(outcome.checked, quiet)
    _print_diagnostics(outcome.diags, quiet)
    name, game_id = outcome.folder.name, outcome.game_id
    # the real folder: relative to the project inside one, else in full
    out_dir = outcome.out_dir or (project.game_build_dir(game_id) if project else Path("build", game_id))
    shown = project.display(out_dir) if project is not None and not project.standalone else str(out_dir)
    where = shown.rstrip(os.sep) + os.sep
    if outcome.state is State.UP_TO_DATE:
        if not quiet:
            print(f"{name}: up to date (nothing changed since the last build)")
            if outcome.replayed:
                count = len(outcome.replayed)
                more = "" if verbose else " (--verbose lists them)"
                print(
                    f"{name}: {count} warning{'s' if count != 1 else ''} from the last build{more}",
                    file=sys.stderr,
                )
                if verbose:
                    for line in outcome.replayed:
                        print(line, file=sys.stderr)
    elif outcome.state is State.INVALID:
        if outcome.checked.errors:
            print(f"{name}: not built ({len(outcome.checked.errors)} errors)", file=sys.stderr)
    elif outcome.state is State.LOCKED:
        print(f"deckwright: error: {outcome.error}", file=sys.stderr)
    elif outcome.state is State.CRASHED:
        if os.environ.get("DECKWRIGHT_DEBUG"):
            print(outcome.trace, file=sys.stderr, end="")
        print(
            f"deckwright: internal error while building {name}: {outcome.error} "
            f"(set DECKWRIGHT_DEBUG=1 for the traceback); {where} left as it was",
            file=sys.stderr,
        )
    elif outcome.state is State.FAILED:
        print(f"{game_id}: build failed; {where} left as it was", file=sys.stderr)
    elif not quiet:
        removed = f"; {len(outcome.removed)} no longer made, removed" if outcome.removed else ""
        print(
            f"{game_id}: {outcome.written} files in {where} "
            f"({outcome.renders} rendered, {outcome.cache_hits} from cache{removed})"
        )


class TerminalProgress:
    """A bar per stage on a terminal; one line per stage when output is not a terminal."""

    WIDTH = 28

    def __init__(self, stream, quiet: bool = False) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()
        self.stage, self.total, self.done = "", 0, 0

    def start(self, stage: str, total: int) -> None:
        self.stage, self.total, self.done = stage, total, 0
        self._draw()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def finish(self, summary: str = "") -> None:
        if self.quiet:
            return
        end = "\r\x1b[K" if self.tty else ""
        print(f"{end}{self.stage}: {summary}", file=self.stream, flush=True)

    def step(self, message: str) -> None:
        if not self.quiet:
            print(message, file=self.stream, flush=True)

    def _draw(self) -> None:
        if self.quiet or not self.tty or self.total <= 0:
            return
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        print(f"\r{self.stage} [{bar}] {self.done}/{self.total}", end="", file=self.stream, flush=True)
