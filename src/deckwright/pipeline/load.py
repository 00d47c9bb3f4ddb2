"""The load phase: the project's catalogue (layouts, papers, print services) and fonts, then each
game loaded and validated. Everything a build reads from the project is read here, with located
errors; later stages receive model objects. Nothing here prints."""

from __future__ import annotations

import difflib
import hashlib
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostics, Loc
from ..fonts.fontconfig import activate
from ..fonts.matching import undrawable
from ..fonts.registry import FontRegistry
from ..model import Catalog, Game, frozen_map
from ..project import Project
from ..readers import load_game
from ..readers.catalog import read_catalog
from ..readers.fonts import load_registry
from ..safety.budget import work_budget
from ..slugs import made_from_note
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


def load_catalog(project: Project, diags: Diagnostics, game_folder: Path | None = None) -> Catalog:
    """The catalogue of a game: the built-in layouts, papers and services, then the project's,
    then the game's own, each adding to (or replacing by name) the ones before."""
    if game_folder is None:
        return read_catalog(project.layouts_dir, diags, project.display)
    merged: Catalog | None = None
    for folder in project.game_layouts_dirs(game_folder):
        catalog = read_catalog(folder, diags, project.display)
        if merged is None:
            merged = catalog
            continue
        merged = Catalog(
            frozen_map({**merged.layouts, **catalog.layouts}),
            frozen_map({**merged.papers, **catalog.papers}),
            frozen_map({**merged.services, **catalog.services}),
        )
    return merged if merged is not None else Catalog(frozen_map(), frozen_map(), frozen_map())


def load_fonts(project: Project, diags: Diagnostics, game_folder: Path | None = None) -> FontRegistry | None:
    folder = project.fonts_dir if game_folder is None else project.game_fonts_dir(game_folder)
    registry = load_registry(folder, diags, project.display)
    if diags.has_errors:
        return None
    # faces cairo would draw with another file are refused when asked for (fonts.matching)
    return replace(registry, undrawable=frozen_map(undrawable(registry, fontconfig_dir(registry))))


def fontconfig_dir(registry: FontRegistry) -> Path:
    key = hashlib.sha256(str(registry.folder.resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"deckwright-fontconfig-{key}"


def prepare_fonts(
    project: Project, diags: Diagnostics, game_folder: Path | None = None
) -> FontRegistry | None:
    """Load the shipped fonts and point fontconfig at them (before cairo/weasyprint load)."""
    registry = load_fonts(project, diags, game_folder)
    if registry is None:
        return None
    activate(registry, fontconfig_dir(registry))
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
    check_art_files(project, game, diags)
    if fonts is None:  # `validate`: no text is laid out, yet an unknown icon is still an error
        check_icon_tokens(project, game, diags, ParseCache(cache_dir, read=use_cache))
    faces = None
    if fonts is not None and not diags.has_errors:
        from ..context.card_images import make_renderer  # the rendering stack, only when needed
        from ..render.card.faces import render_faces

        renderer = make_renderer(project, game, catalog.layouts, fonts, diags, cache_dir, use_cache)
        if renderer is not None:
            faces = render_faces(game, catalog.layouts, renderer, diags)
    return Checked(folder, game, explain_ids(game, diags), faces)


def check_art_files(project: Project, game: Game, diags: Diagnostics) -> None:
    """A warning for each art file that no card's id or `art:` names: a misspelt file name
    would otherwise leave a card without its art, silently."""
    from ..render.card.gameart import art_files

    named = {card.art for card in game.cards if card.art}
    ids = {card.id for card in game.cards}
    for name, path in art_files(project.game_art_dirs(game.folder, game.id)).items():
        if name in named or path.stem in ids:
            continue
        near = difflib.get_close_matches(path.stem, sorted(ids), n=1)
        hint = f" (did you mean {near[0]}{path.suffix}?)" if near else ""
        diags.warning(
            Loc(project.display(path)),
            f"art file {name!r} matches no card id{hint}; art is found as art/<card-id>.png|jpg|svg "
            "or named by a card's art: key",
        )


def check_icon_tokens(project: Project, game: Game, diags: Diagnostics, cache: ParseCache) -> None:
    """`{GOLD}` in a card's text with no icon GOLD in style.yaml: an error naming the card, the
    field and the known icons (a build finds the same when it lays the text out)."""
    from ..readers.style import load_style
    from ..render.card.textfit import TOKEN

    style = load_style(
        project.game_templates_dir(game.folder, game.id), Diagnostics(), project.display, cache
    )
    if style is None:
        return  # the build reports style.yaml's own problems
    known = ", ".join("{" + t + "}" for t in style.icons) or "none"
    for card in game.cards:
        for key, value in card.fields.items():
            if not isinstance(value, str):
                continue
            unknown = [t for t in dict.fromkeys(TOKEN.findall(value)) if t not in style.icons]
            if unknown:
                tokens = ", ".join("{" + t + "}" for t in unknown)
                diags.error(
                    card.loc_of(key),
                    f"card {card.id!r}: {key}: unknown icon {tokens} (icons in style.yaml: {known})",
                )


def explain_ids(game: Game, diags: Diagnostics) -> Diagnostics:
    """Messages about a card whose id was made from a name (or a cell) say so: the designer
    never typed that id."""
    made: dict[str, list[str]] = {}
    for card in game.cards:
        if card.id_from is not None and card.id_from not in made.get(card.id, []):
            made.setdefault(card.id, []).append(card.id_from)
    if not made:
        return diags
    explained = Diagnostics()
    for d in diags:
        notes = [made_from_note(i, src) for i, src in made.items() if f"{i!r}" in d.message]
        if notes and "was made from" not in d.message:
            d = replace(d, message=f"{d.message} {' '.join(notes[:3])}")
        explained.add(d)
    return explained
