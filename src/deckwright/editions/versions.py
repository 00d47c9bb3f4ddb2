"""One version of a game, read as `deckwright validate` reads it: the model, its problems, and
(when fonts are given) every face as SVG, through the pipeline's own loader and renderer.

Both versions read their YAML through the current project's parse cache (`build/.cache`, keyed
by content and the path messages show). A version materialised in a temporary folder lays out
its faces with a cache of its own, thrown away with it: face entries are keyed by the templates'
paths too, so they would never be hit again.
The fonts are the current project's: a font is not part of a game's edition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostics
from ..fonts.registry import FontRegistry
from ..model import Catalog, Game, Layout
from ..project import Project
from ..readers import load_game
from ..readers.catalog import read_catalog
from ..render.card.faces import FaceSet
from ..source import ParseCache
from ..validate import validate_game


@dataclass
class Version:
    label: str  # "HEAD", "the working tree", "v1 (1a2b3c4)", a folder
    project: Project
    folder: Path
    game: Game | None = None
    catalog: Catalog = field(default_factory=lambda: Catalog({}, {}, {}))
    diags: Diagnostics = field(default_factory=Diagnostics)
    faces: FaceSet | None = None

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.diags.has_errors

    @property
    def layouts(self) -> Mapping[str, Layout]:
        return self.catalog.layouts


def load_version(
    label: str,
    project: Project,
    folder: Path,
    cache_dir: Path,
    fonts: FontRegistry | None = None,
    faces_cache: Path | None = None,
) -> Version:
    """Load and validate the game in `folder` of `project`; with `fonts`, render its faces.
    `faces_cache`: where laid-out faces are kept, when not in `cache_dir` (a temporary copy of
    the project: its entries are keyed by the templates' paths too, and would never be hit)."""
    version = Version(label, project, folder)
    diags = version.diags
    version.catalog = read_catalog(project.layouts_dir, diags, project.display)
    version.game = load_game(folder, diags, project.root, ParseCache(cache_dir))
    if version.game is None or diags.has_errors:
        return version
    validate_game(version.game, version.layouts, diags)
    if fonts is not None and not diags.has_errors:
        from ..context.card_images import make_renderer  # the rendering stack, only when drawn
        from ..render.card.faces import render_faces

        renderer = make_renderer(
            project, version.game, version.layouts, fonts, diags, faces_cache or cache_dir
        )
        if renderer is not None:
            version.faces = render_faces(version.game, version.layouts, renderer, diags)
    return version
