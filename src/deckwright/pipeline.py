"""load -> validate -> build outputs -> write. The CLI drives it; nothing here prints."""

from __future__ import annotations

import hashlib
import importlib
import tempfile
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostics
from .model import Game, Layout
from .outputs.base import BuildContext, BuildOptions, Output
from .project import Project
from .render.fonts import FontRegistry, activate, load_registry
from .readers import load_game
from .readers.layouts import read_layouts
from .validate import validate_game
from .writer import Writer

# Output kinds in build order, each a module under deckwright.outputs with build(ctx).
# Imported only when built, so `validate` never loads the rendering libraries.
OUTPUT_KINDS: tuple[str, ...] = ("cards", "tgc", "proofs", "pnp", "rulebook", "errata", "check")


@dataclass
class Checked:
    """One game after loading and validation."""

    folder: Path
    game: Game | None
    diags: Diagnostics = field(default_factory=Diagnostics)

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.diags.has_errors


@dataclass
class Built:
    game_id: str
    written: list[Path] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)

    @property
    def ok(self) -> bool:
        return not self.diags.has_errors


def load_layouts(project: Project, diags: Diagnostics) -> Mapping[str, Layout]:
    return read_layouts(project.layouts_dir, diags, project.display)


def check_game(project: Project, folder: Path, layouts: Mapping[str, Layout]) -> Checked:
    diags = Diagnostics()
    game = load_game(folder, diags, project.root)
    if game is not None:
        validate_game(game, layouts, diags)
    return Checked(folder, game, diags)


def output_builder(kind: str):
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"no output kind {kind!r} (kinds: {', '.join(OUTPUT_KINDS)})")
    module = importlib.import_module(f"{__package__}.outputs.{kind}")
    return module.build


def available_kinds() -> list[str]:
    """Output kinds whose builder module exists in this version."""
    return [
        kind for kind in OUTPUT_KINDS if importlib.util.find_spec(f"{__package__}.outputs.{kind}") is not None
    ]


def prepare_fonts(project: Project, diags: Diagnostics) -> FontRegistry | None:
    """Load the shipped fonts and point fontconfig at them (before cairo/weasyprint load)."""
    registry = load_registry(project.fonts_dir, diags, project.display)
    if diags.has_errors:
        return None
    key = hashlib.sha256(str(registry.folder.resolve()).encode()).hexdigest()[:12]
    activate(registry, Path(tempfile.gettempdir()) / f"deckwright-fontconfig-{key}")
    return registry


def build_game(
    project: Project,
    game: Game,
    layouts: Mapping[str, Layout],
    options: BuildOptions,
    kinds: Sequence[str],
) -> Built:
    """Build the chosen outputs of a valid game into build/<game>/."""
    built = Built(game.id)
    fonts = prepare_fonts(project, built.diags)
    if fonts is None:
        return built
    ctx = BuildContext(project, game, layouts, options, built.diags, fonts)
    outputs: list[Output] = []
    for kind in kinds:
        outputs.extend(output_builder(kind)(ctx))
        if built.diags.has_errors:
            return built  # nothing is written from a build that found errors
    writer = Writer(project.build_dir / game.id)
    for output in outputs:
        built.written.append(writer.write_bytes(output.path, output.data))
    return built
