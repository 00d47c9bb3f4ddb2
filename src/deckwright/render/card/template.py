"""Card faces and backs as SVG, from Jinja2 templates found by convention.

`<type>-front.svg.j2` draws a card type's face; its back is `<type>-back.svg.j2`, else the
deck's `<deck>-back.svg.j2`, else the game's `back.svg.j2`. A game's template folder is
`<game folder>/templates/` when it has one (a self-contained game such as
examples/peer-deck), else `templates/<game>/`.
Templates get the card, the game, the layout geometry, the game's style (`style.yaml`) and
helpers that measure text with the font that draws it (`text()`), draw icons and art, and
show unknown values as visible placeholders. Autoescape is on and undefined names are errors.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket
from markupsafe import Markup

from ...cache import checked, code_version, digest, unchecked
from ...diagnostics import Loc
from ...fonts.registry import FONTS_FILE
from ...model import Card, CardType, Deck, Game, Layout, Style, Unknown
from ...safety.images import embed_problems
from ...safety.templates import TemplateTimeout, deadline, sandboxed_environment
from ...writer import Writer
from .art import ArtLibrary
from .facecache import FaceCache
from .geometry import Box, CardGeometry
from .textsvg import TextPainter

FRONT, BACK = "front", "back"
NO_ART = "no-art"  # a Problem's severity for an art slot the card has no art for


@dataclass(frozen=True)
class Problem:
    """Something a render found wrong with the data: overflow, a missing glyph, low-res art."""

    severity: str  # error | warning
    loc: Loc
    message: str


@dataclass
class Rendered:
    svg: str
    template: str
    problems: list[Problem] = field(default_factory=list)


class StrictUndefined(jinja2.StrictUndefined):
    """Undefined names are errors; a missing card field says which fields the card has."""

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> Any:
        owner = self._undefined_obj
        if isinstance(owner, CardView) and self._undefined_name is not None:
            known = ", ".join(["id", "name", "count", "number", "type", *sorted(owner.fields)])
            raise jinja2.UndefinedError(
                f"a {owner.type} card has no field {self._undefined_name!r} (it has: {known})"
            )
        return super()._fail_with_undefined_error(*args, **kwargs)

    __str__ = __iter__ = __len__ = __bool__ = __eq__ = __ne__ = __hash__ = _fail_with_undefined_error
    __add__ = __radd__ = __getattr__ = __getitem__ = __call__ = _fail_with_undefined_error


class CardView:
    """What a template sees of a card: its fields as attributes, unknowns kept as Unknown."""

    def __init__(self, card: Card, card_type: CardType) -> None:
        self._card = card
        self.id = card.id
        self.name = card.name
        self.count = card.count
        self.number = card.number
        self.type = card.type
        self.type_title = card_type.title
        self.fields = card.fields

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"card {self.__dict__.get('id')!r} has no field {name!r}")

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def template_names(card_type: CardType, deck: Deck | None, side: str) -> list[str]:
    """Candidate template names (in the game's template folder) for a side, most specific first."""
    names = [f"{card_type.id}-{side}.svg.j2"]
    if side == BACK:
        if deck is not None:
            names.append(f"{deck.back or deck.id}-back.svg.j2")
        names.append("back.svg.j2")
    return names


class CardRenderer:
    """Renders one game's cards to SVG text."""

    def __init__(
        self,
        game_dir: Path,
        shared_dir: Path,
        game: Game,
        layouts: Mapping[str, Layout],
        style: Style,
        painter: TextPainter,
        art: ArtLibrary,
        display: Callable[[Path], str] = str,
        cache_dir: Path | None = None,
        cache_reads: bool = True,
        theme_dirs: tuple[Path, ...] = (),
    ) -> None:
        """`theme_dirs`: a built-in theme's folder, for the templates `game_dir` lacks.
        `cache_dir` keeps compiled templates and rendered sides between builds (build/.cache);
        without `cache_reads` (`build --no-cache`) they are made afresh and kept."""
        self.game = game
        self.display = display  # how messages show a path
        self.layouts = layouts
        self.style = style
        self.painter = painter
        self.art = art
        self.game_dir = game_dir
        self.timed_out = False
        self.template_dirs = [game_dir, *theme_dirs]
        self.env = sandboxed_environment(
            # A game's own templates first, then its theme's; `_shared/...` from the project's
            # templates folder.
            [*self.template_dirs, shared_dir],
            display,
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            bytecode_cache=TemplateCache(cache_dir, cache_reads) if cache_dir is not None else None,
        )
        self.env.tests["unknown"] = lambda v: isinstance(v, Unknown)
        # Boards print rules tables (team sizes by player count, ...): rows as plain mappings.
        self.tables = {
            table_id: [dict(row.values) for row in table.rows] for table_id, table in game.tables.items()
        }
        self.env.filters["fmt"] = _fmt
        self.face_cache = None
        # A preview painter (`serve`) draws overflow marks: its sides are never kept.
        if cache_dir is not None and not painter.preview:
            fonts = painter.registry
            font_files = [
                fonts.folder / FONTS_FILE,
                *(p for f in fonts.fonts.values() for p in f.faces.values()),
            ]
            self.face_cache = FaceCache(
                cache_dir, game, [*self.template_dirs, shared_dir], font_files, cache_reads
            )

    def find_template(self, card_type: CardType, side: str) -> str | None:
        deck = self.game.deck_of_type(card_type.id)
        names = template_names(card_type, deck, side)
        for folder in self.template_dirs:
            for name in names:
                if (folder / name).is_file():
                    return name
            # a theme draws any card type with its generic `card-<side>.svg.j2`
            names = [f"card-{side}.svg.j2"]
        return None

    def render(self, card: Card, side: str) -> Rendered:
        """Render one side; raises jinja2.TemplateError for the pipeline to report."""
        card_type = self.game.card_types[card.type]
        name = self.find_template(card_type, side)
        if name is None:
            raise jinja2.TemplateNotFound(
                " or ".join(template_names(card_type, self.game.deck_of(card), side))
            )
        layout = self.layouts[card_type.layout]
        key = self._cache_key(card, side, name, layout)
        cached = self.face_cache.get(key) if key is not None else None
        if cached is not None:
            return cached
        problems: list[Problem] = []
        looked_up: list[str] = []
        context = self._context(card, card_type, layout, problems, looked_up)
        try:
            with deadline():  # a template loop cannot run for hours
                svg = self.env.get_template(name).render(**context)
        except TemplateTimeout:
            self.timed_out = True  # render_faces stops: every other card would wait as long
            raise
        # what CairoSVG would fetch or decode, checked now: a located error, not a failed drawing
        for problem in embed_problems(svg):
            problems.append(Problem("error", card.loc, f"card {card.id!r}: {side} ({name}): {problem}"))
        rendered = Rendered(svg=svg, template=name, problems=problems)
        if key is not None:
            self.face_cache.put(key, rendered, looked_up)
        return rendered

    def _cache_key(self, card: Card, side: str, template: str, layout: Layout) -> str | None:
        """The key of a side in the face cache; None when it is not kept (no cache, or art)."""
        if self.face_cache is None or self.art.find(self.game.id, card.id) is not None:
            return None
        return self.face_cache.key(card, side, template, layout)

    def _context(
        self,
        card: Card,
        card_type: CardType,
        layout: Layout,
        problems: list[Problem],
        looked_up: list[str],
    ) -> dict[str, Any]:
        """What a template sees; the ids it passes to `find_card` are added to `looked_up`."""
        geom = CardGeometry(layout)

        def text(value: Any, box: Box, style: str, field: str = "", **options: Any) -> Markup:
            where = card.loc_of(field) if field else card.loc
            result = self.painter.paint(value, box, self.style.text_style(style), **options)
            for issue in result.issues:
                problems.append(
                    Problem(
                        issue.severity,
                        where,
                        f"card {card.id!r}: {field or style}: {issue.message}",
                    )
                )
            return Markup(result.svg)

        def art(box: Box) -> Markup:
            result = self.art.image(self.game.id, card.id, box)
            if result.source is None:  # an art slot without art: one summary line per build
                problems.append(Problem(NO_ART, card.loc, card.id))
            for issue in result.issues:
                problems.append(Problem(issue.severity, card.loc, f"card {card.id!r}: art: {issue.message}"))
            return Markup(result.svg)

        def find_card(card_id: str) -> CardView | None:
            if not isinstance(card_id, str):
                return None
            looked_up.append(card_id)
            other = self.game.card(card_id)
            return CardView(other, self.game.card_types[other.type]) if other else None

        def icon(token: str, x: float, y: float, size: float) -> Markup:
            return Markup(self.painter.icon(token, x, y, size))

        return {
            "card": CardView(card, card_type),
            "game": self.game.info,
            "tables": self.tables,
            "geom": geom,
            "layout": layout,
            "style": self.style,
            "colors": self.style.colors,
            "text": text,
            "art": art,
            "icon": icon,
            "find_card": find_card,
            "Box": Box,
        }


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between builds: compiling a game's templates costs more CPU than
    rendering all its cards with them.

    Jinja checks every entry against its template's source and file name; the folder name
    covers what else shapes the compiled code (Jinja's version, and deckwright's own code, which
    sets the Environment's options). It is only a cache: an entry that cannot be read or written
    just means compiling again.
    """

    def __init__(self, cache_dir: Path, read: bool = True) -> None:
        """With `read` off (`build --no-cache`), templates are compiled afresh and kept."""
        folder = cache_dir / "templates" / digest(jinja2.__version__, code_version())[:16]
        with contextlib.suppress(OSError):  # unwritable: entries are not kept, that is all
            folder.mkdir(parents=True, exist_ok=True)
        super().__init__(str(folder), "%s.jinja")
        self.read = read

    def load_bytecode(self, bucket: Bucket) -> None:
        """Compiled code runs when loaded: only an entry signed with this machine's cache key
        (cache.checked) is loaded; anything else is compiled again."""
        if not self.read:
            return
        try:
            data = unchecked(Path(self._get_cache_filename(bucket)).read_bytes())
            if data is not None:
                bucket.bytecode_from_string(data)
        except Exception:  # missing, or damaged (Jinja itself discards only some kinds)
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        path = Path(self._get_cache_filename(bucket))
        with contextlib.suppress(OSError):
            Writer(path.parent, durable=False).write_bytes(path.name, checked(bucket.bytecode_to_string()))


def _fmt(value: float) -> str:
    """Numbers in SVG attributes: short, stable, no float noise."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
