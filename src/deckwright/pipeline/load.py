"""The load phase: the project's catalogue (layouts, papers, print services) and fonts, then each
game loaded and validated. Everything a build reads from the project is read here, with located
errors; later stages receive model objects. Nothing here prints."""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostics
from ..fonts.fontconfig import activate
from ..fonts.registry import FontRegistry
from ..model import Catalog, Game
from ..project import Project
from ..readers import load_game
from ..readers.catalog import read_catalog
from ..readers.fonts import load_registry
from ..safety.budget import work_budget
from ..source import ParseCache
from ..validate import validate_game

if TYPE_CHECKING:
    from ..render.card.faces import FaceSet


@dataclass
class Checked:
    """One game after loading and validation."""

    folder: Path
    game: Game | None
    diags: Diagnostics = field(default_factory=Diagnostics)
    faces: FaceSet | None = None  # every face as SVG, when the text fit was checked

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.diags.has_errors


def load_catalog(project: Project, diags: Diagnostics) -> Catalog:
    return read_catalog(project.layouts_dir, diags, project.display)


def load_fonts(project: Project, diags: Diagnostics) -> FontRegistry | None:
    registry = load_registry(project.fonts_dir, diags, project.display)
    return None if diags.has_errors else registry


def prepare_fonts(project: Project, diags: Diagnostics) -> FontRegistry | None:
    """Load the shipped fonts and point fontconfig at them (before cairo/weasyprint load)."""
    registry = load_fonts(project, diags)
    if registry is None:
        return None
    key = hashlib.sha256(str(registry.folder.resolve()).encode()).hexdigest()[:12]
    activate(registry, Path(tempfile.gettempdir()) / f"deckwright-fontconfig-{key}")
    return registry


def check_game(
    project: Project,
    folder: Path,
    catalog: Catalog,
    fonts: FontRegistry | None = None,
    use_cache: bool = True,
) -> Checked:
    """Load and validate a game; with `fonts`, also lay out every card's text in its
    template, so text that does not fit is a validation error like any other.
    Parsed files, compiled templates and laid-out cards are kept in build/.cache; without
    `use_cache` (`build --no-cache`, a cold build) they are made afresh, and kept for the next."""
    diags = Diagnostics()
    cache_dir = project.build_dir / ".cache"
    with work_budget():  # one budget for every expression of the game's checks and tables
        game = load_game(folder, diags, project.root, ParseCache(cache_dir, read=use_cache))
        if game is None:
            return Checked(folder, game, diags)
        validate_game(game, catalog.layouts, diags)
    faces = None
    if fonts is not None and not diags.has_errors:
        from ..context.card_images import make_renderer  # the rendering stack, only when needed
        from ..render.card.faces import render_faces

        renderer = make_renderer(project, game, catalog.layouts, fonts, diags, cache_dir, use_cache)
        if renderer is not None:
            faces = render_faces(game, catalog.layouts, renderer, diags)
    return Checked(folder, game, diags, faces)
