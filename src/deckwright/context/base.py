"""What every output kind receives, and what it gives back.

An output kind is a module (or package) under `outputs/` with a function
`build(ctx: BuildContext) -> list[Output]`. It returns bytes with a path relative to
`build/<game>/`; the pipeline writes them atomically. Kinds never touch the disk themselves and
report problems in `ctx.diags`. What several kinds share (card faces, their images) is computed
once per build in `context.card_images` and kept in `ctx.shared`.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..kinds import OUTPUT_KINDS
from ..progress import NoProgress, Progress

if TYPE_CHECKING:  # kept out of the import path of `validate` and up-to-date checks
    from ..cache import RenderCache
    from ..diagnostics import Diagnostics
    from ..fonts.registry import FontRegistry
    from ..model import Catalog, Game, Layout
    from ..project import Project

PAPERS = ("a4", "letter")
DUPLEX = ("long-edge", "short-edge")


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "a4"  # rulebook paper
    pnp_papers: tuple[str, ...] | None = None  # print-and-play papers (None: game.yaml's, else all)
    margin: float | None = None  # mm: print-and-play printable margin (None: each paper's own)
    icc: str | None = None  # press PDFs: the printer's CMYK profile (None: the service's or default)
    press_images: bool = False  # press: also each face as a CMYK TIFF
    duplex: str = "long-edge"
    gutterfold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, applied to every backs page
    ink_saver: bool = False
    booklet: bool = False
    jobs: int = 1
    use_cache: bool = True
    tts_base_url: str | None = None  # where the TTS images will be hosted (None: file:/// URLs)


@dataclass(frozen=True)
class Output:
    """A file of the build: its bytes, or how to read them when it is written (card images
    come back from the render cache one at a time, so a large deck is never all in memory)."""

    path: str  # relative to build/<game>/
    data: bytes | None = None
    load: Callable[[], bytes] | None = None

    def content(self) -> bytes:
        return self.data if self.data is not None else self.load()


@dataclass
class BuildContext:
    project: Project
    game: Game
    catalog: Catalog
    options: BuildOptions
    diags: Diagnostics
    fonts: FontRegistry
    cache: RenderCache
    progress: Progress = field(default_factory=NoProgress)
    kinds: tuple[str, ...] = OUTPUT_KINDS  # what this build makes: a builder may prepare for a later one
    # Work shared between builders of one game (rendered card SVGs, PNGs, ...), keyed by name.
    shared: dict[str, Any] = field(default_factory=dict)

    @property
    def layouts(self) -> Mapping[str, Layout]:
        return self.catalog.layouts

    def memo(self, key: str, make):
        """Compute a shared intermediate once per build."""
        if key not in self.shared:
            self.shared[key] = make()
        return self.shared[key]


def worker_pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """Processes for `--jobs`. Forked, not started afresh: a worker inherits the fontconfig set-up
    and CairoSVG settings `fonts.activate` made before cairo was first imported (which a new
    interpreter would not have), and imports nothing again."""
    fork = multiprocessing.get_context("fork")
    return ProcessPoolExecutor(workers, fork, initializer=initializer, initargs=initargs)
