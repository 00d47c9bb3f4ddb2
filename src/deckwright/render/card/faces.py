"""Every distinct card face of a game, front and back, as SVG — the input of every card output.

A card's front is its own face. Its back is its own face when the card type is double-sided
(a Mentor's Transformed side); otherwise cards share the back of their type or deck, drawn once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from ...diagnostics import Diagnostics, Loc
from ...model import Card, Game, Layout
from .template import BACK, FRONT, NO_ART, CardRenderer, Problem, template_names


@dataclass(frozen=True)
class Face:
    """One image to print: a file stem, its SVG, and the layout it is drawn for."""

    name: str
    svg: str
    layout: Layout
    template: str


@dataclass
class FaceSet:
    faces: dict[str, Face] = field(default_factory=dict)
    front_of: dict[str, str] = field(default_factory=dict)  # card id -> face name
    back_of: dict[str, str] = field(default_factory=dict)

    def add(self, face: Face) -> None:
        self.faces[face.name] = face


def _back_stem(renderer: CardRenderer, type_id: str) -> str:
    template = renderer.find_template(renderer.game.card_types[type_id], BACK) or "back"
    stem = template.rsplit("/", 1)[-1].removesuffix(".svg.j2")
    return stem if stem.startswith("back") else f"back-{stem.removesuffix('-back')}"


def shared_back_names(renderer: CardRenderer) -> dict[str, str]:
    """Face name of the shared back of each card type that is not double-sided.

    One back template may serve card types of different sizes (a game-wide `back.svg.j2` for
    cards and chits): it is then drawn once per layout, named `<back>-<layout>`.
    """
    game = renderer.game
    single = [t for t in game.card_types.values() if not t.double_sided]
    layouts_of: dict[str, set[str]] = {}
    for card_type in single:
        layouts_of.setdefault(_back_stem(renderer, card_type.id), set()).add(card_type.layout)
    names = {}
    for card_type in single:
        stem = _back_stem(renderer, card_type.id)
        names[card_type.id] = stem if len(layouts_of[stem]) == 1 else f"{stem}-{card_type.layout}"
    return names


def render_faces(
    game: Game, layouts: Mapping[str, Layout], renderer: CardRenderer, diags: Diagnostics
) -> FaceSet:
    """Render every face; template errors and text problems go to `diags`."""
    result = FaceSet()
    missing = _missing_templates(game, renderer, diags)
    backs = shared_back_names(renderer)
    failed: set[tuple[Loc, str, str]] = set()
    no_art: list[str] = []
    for card in game.cards:
        if renderer.timed_out:  # reported once; the other cards would wait as long
            break
        card_type = game.card_types[card.type]
        if card_type.id in missing or card.count == 0:  # count 0: kept in the data, not printed
            continue
        layout = layouts[card_type.layout]
        front = _render(renderer, card, FRONT, f"{card.id}-front", layout, diags, failed, no_art)
        if front is not None:
            result.add(front)
            result.front_of[card.id] = front.name
        back_name = f"{card.id}-back" if card_type.double_sided else backs[card_type.id]
        if back_name not in result.faces:
            back = _render(renderer, card, BACK, back_name, layout, diags, failed, no_art)
            if back is None:
                continue
            result.add(back)
        result.back_of[card.id] = back_name
    if no_art:
        ids = list(dict.fromkeys(no_art))
        shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
        folder = renderer.display(game.folder / "art")
        diags.warning(
            Loc(renderer.display(game.folder / "game.yaml")),
            f"{len(ids)} card{'s' if len(ids) != 1 else ''} with an art slot but no art: {shown} "
            f"(add {folder}/<card-id>.png, .jpg or .svg)",
            code="no-art",
        )
    return result


def _missing_templates(game: Game, renderer: CardRenderer, diags: Diagnostics) -> set[str]:
    """Card types lacking a front or back template: one error per type, not per card."""
    missing = set()
    for card_type in game.card_types.values():
        for side in (FRONT, BACK):
            if renderer.find_template(card_type, side) is None:
                names = template_names(card_type, game.deck_of_type(card_type.id), side)
                looked = " or ".join(renderer.display(renderer.game_dir / n) for n in names)
                diags.error(card_type.loc, f"card type {card_type.id!r} has no {side} template ({looked})")
                missing.add(card_type.id)
    return missing


def _render(
    renderer: CardRenderer,
    card: Card,
    side: str,
    name: str,
    layout: Layout,
    diags: Diagnostics,
    failed: set[tuple[Loc, str, str]],
    no_art: list[str] | None = None,
) -> Face | None:
    try:
        rendered = renderer.render(card, side)
    except jinja2.TemplateNotFound as exc:
        diags.error(card.loc, f"card {card.id!r}: no {side} template (looked for {exc.name})")
        return None
    except jinja2.TemplateSyntaxError as exc:
        path = Path(exc.filename) if exc.filename else renderer.game_dir / (exc.name or "?")
        diags.error(Loc(renderer.display(path), exc.lineno or 1), f"template error: {exc.message}")
        return None
    except Exception as exc:  # any error raised while a template runs is the template's
        where = _template_frame(exc, renderer) or getattr(exc, "loc", None)  # a refused file
        if isinstance(exc, jinja2.TemplateError) and exc.message:
            message = exc.message
        elif isinstance(exc, KeyError) and exc.args:
            message = str(exc.args[0])  # str(KeyError) would quote the message
        else:
            message = str(exc)
        failure = (where or card.loc, side, message)
        if failure not in failed:  # one line per template error, not one per card
            failed.add(failure)
            diags.error(where or card.loc, f"card {card.id!r}: {side} template failed: {message}")
        return None
    _report([p for p in rendered.problems if p.severity != NO_ART], diags)
    if no_art is not None:
        no_art.extend(p.message for p in rendered.problems if p.severity == NO_ART)
    return Face(name, rendered.svg, layout, rendered.template)


def _template_frame(exc: BaseException, renderer: CardRenderer) -> Loc | None:
    """The template file and line an error was raised at, from the traceback."""
    tb = exc.__traceback__
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            found = Loc(renderer.display(Path(filename)), tb.tb_lineno)
        tb = tb.tb_next
    return found


def _report(problems: list[Problem], diags: Diagnostics) -> None:
    for p in problems:
        if p.severity == "error":
            diags.error(p.loc, p.message)
        else:
            diags.warning(p.loc, p.message)
