"""load -> validate -> (plan -> render -> write). Renderers are added stage by stage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostics
from .model import Game, Layout
from .project import Project
from .readers import load_game
from .readers.layouts import read_layouts
from .validate import validate_game


@dataclass
class Checked:
    """One game after loading and validation."""

    folder: Path
    game: Game | None
    diags: Diagnostics = field(default_factory=Diagnostics)

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.diags.has_errors


def load_layouts(project: Project, diags: Diagnostics) -> Mapping[str, Layout]:
    return read_layouts(project.layouts_dir, diags, project.display)


def check_game(project: Project, folder: Path, layouts: Mapping[str, Layout]) -> Checked:
    diags = Diagnostics()
    game = load_game(folder, diags, project.root)
    if game is not None:
        validate_game(game, layouts, diags)
    return Checked(folder, game, diags)
