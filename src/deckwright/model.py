"""The typed, frozen model of a game database.

Card types are declared in each game's data, so a card's own fields live in a mapping checked
against its `CardType` schema; everything structural (games, types, decks, tables, checks) is a
dataclass. Values the source does not give are `Unknown`, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .diagnostics import Loc

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # what every id looks like: lower-case words and hyphens

STANDARD_CARD_KEYS = ("id", "name", "count", "number", "note", "art")
FIELD_TYPES = ("str", "text", "int", "bool", "enum", "ref", "list")


@dataclass(frozen=True, slots=True)
class Unknown:
    """A value the source does not give; `note` says what is missing."""

    note: str
    loc: Loc

    def __str__(self) -> str:
        return "unknown"


def frozen_map(data: Mapping | None = None) -> Mapping:
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    type: str
    loc: Loc
    required: bool = True
    default: Any = None
    has_default: bool = False
    values: tuple[str, ...] = ()  # enum
    to: tuple[str, ...] = ()  # ref
    of: FieldSpec | None = None  # list
    min: int | None = None
    max: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    symmetric: bool = False
    expr: str | None = None  # computed table column
    title: str | None = None


@dataclass(frozen=True, slots=True)
class CardType:
    id: str
    title: str
    layout: str
    fields: Mapping[str, FieldSpec]
    loc: Loc
    double_sided: bool = False
    back_fields: Mapping[str, FieldSpec] = field(default_factory=frozen_map)


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    title: str
    types: tuple[str, ...]
    loc: Loc
    back: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    type: str
    name: str
    count: int | Unknown
    fields: Mapping[str, Any]
    loc: Loc
    field_locs: Mapping[str, Loc]
    number: str | int | None = None
    note: str | None = None
    key_locs: Mapping[str, Loc] = field(default_factory=frozen_map)  # where each key is written
    art: str | None = None  # the art file the card names (`art:`), else found by its id
    id_from: str | None = None  # the text (a name, a cell) the id was made from, for messages

    @property
    def copies(self) -> int:
        """Physical copies to print: an unknown count prints one."""
        return self.count if isinstance(self.count, int) else 1

    def loc_of(self, name: str) -> Loc:
        return self.field_locs.get(name, self.loc)

    def key_loc(self, name: str) -> Loc:
        return self.key_locs.get(name, self.loc_of(name))

    def get(self, name: str, default: Any = None) -> Any:
        if name in STANDARD_CARD_KEYS or name == "type":
            return getattr(self, name)
        return self.fields.get(name, default)


@dataclass(frozen=True, slots=True)
class Row:
    """One table row after derivations are expanded and computed columns filled."""

    values: Mapping[str, Any]
    loc: Loc
    value_locs: Mapping[str, Loc]
    derived_from: Any = None  # the key of the row this one extends, if any
    note: str | None = None

    def loc_of(self, name: str) -> Loc:
        return self.value_locs.get(name, self.loc)

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)


@dataclass(frozen=True, slots=True)
class ErrataSpec:
    """A table holding the game's errata: which column plays which role (`editor: errata:`)."""

    columns: Mapping[str, str]  # role (card, cards, numbers, printed, current, kind) -> column
    reference: str  # the card field that holds the official wording
    markers: tuple[str, ...]  # words a current-text cell ends with that name the kind, not the text
    remark_kinds: tuple[str, ...]  # kinds whose current cell is a remark, not a card text
    loc: Loc


@dataclass(frozen=True, slots=True)
class LimitBound:
    """What bounds a limited quantity: a card field (the smallest among a type's cards)."""

    what: str
    field: str
    loc: Loc
    type: str | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class LimitSpec:
    """A quantity cards add to, and what bounds it (`editor: limit:`)."""

    quantity: str
    cards: str  # the column: cards a row's contribution comes with (none: the base)
    contributions: tuple[str, ...]  # int columns, one reading each
    at_most: Mapping[str, int | str]  # card type -> most cards of it in play (int or expression)
    exclusive: str | None  # the card field listing cards it cannot be combined with
    bounds: tuple[LimitBound, ...]
    loc: Loc


@dataclass(frozen=True, slots=True)
class EditorSpec:
    """What the editor's check (`deckwright check`) reads a table as (table key `editor:`)."""

    loc: Loc
    errata: ErrataSpec | None = None
    about: str | None = None  # the column naming the cards each row's texts speak about
    limit: LimitSpec | None = None


@dataclass(frozen=True, slots=True)
class Acknowledgement:
    """An editor's-check finding an editor has accepted (`acknowledged.yaml`), with the reason."""

    kind: str
    key: str
    reason: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    title: str
    key: str | None
    columns: Mapping[str, FieldSpec]
    rows: tuple[Row, ...]
    loc: Loc
    note: str | None = None
    editor: EditorSpec | None = None  # what the editor's check reads this table as

    def row(self, key: Any) -> Row | None:
        if self.key is None:
            return None
        for r in self.rows:
            if r.values.get(self.key) == key:
                return r
        return None


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    expect: str
    message: str
    loc: Loc
    iterate: str | None = None  # "name in expression"
    severity: str = "error"
    expect_loc: Loc | None = None


@dataclass(frozen=True, slots=True)
class RulebookRef:
    """A `{kind:target option=value ...}` reference in rulebook prose, where it stands."""

    kind: str  # card | cards | table
    target: str  # a card id, a table id, or card type ids joined by ","
    options: Mapping[str, str]
    source: str  # the reference exactly as written, braces included
    loc: Loc


@dataclass(frozen=True, slots=True)
class RulebookFile:
    """One Markdown file of a game's rulebook (`cards/<game>/rulebook/NN-name.md`)."""

    name: str  # the file name, which orders the files
    path: str  # as messages show it
    text: str
    refs: tuple[RulebookRef, ...]


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    name: str
    edition: str | Unknown
    players_min: int
    players_max: int
    loc: Loc
    version: str | Unknown | None = None
    date: str | Unknown | None = None
    tagline: str | Unknown | None = None
    source: str | None = None
    notes: str | None = None
    extra: Mapping[str, Any] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class BuildSettings:
    """game.yaml `build:`: what `deckwright build` makes for this game when not told (`--only`).

    `outputs`: the output kinds (None: kinds.DEFAULT_KINDS, all but tts); `papers`: the
    print-and-play papers, ids of layouts/papers.yaml (None: all). A print-and-play-only game
    need not export TGC images."""

    outputs: tuple[str, ...] | None = None
    papers: tuple[str, ...] | None = None
    loc: Loc | None = None


@dataclass(frozen=True, slots=True)
class Game:
    info: GameInfo
    folder: Path
    enums: Mapping[str, tuple[str, ...]]
    card_types: Mapping[str, CardType]
    decks: Mapping[str, Deck]
    cards: tuple[Card, ...]
    tables: Mapping[str, Table]
    checks: tuple[Check, ...]
    files: tuple[str, ...]
    rulebook: tuple[RulebookFile, ...] = ()
    build: BuildSettings = BuildSettings()
    _index: Mapping[str, Card] = field(default_factory=frozen_map, repr=False, compare=False)

    def __post_init__(self) -> None:
        # First definition wins; duplicates are reported by the validator.
        index: dict[str, Card] = {}
        for c in self.cards:
            index.setdefault(c.id, c)
        object.__setattr__(self, "_index", MappingProxyType(index))

    @property
    def id(self) -> str:
        return self.info.id

    def card(self, card_id: str) -> Card | None:
        return self._index.get(card_id)

    def cards_of(self, type_id: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.type == type_id)

    def deck_of(self, card: Card) -> Deck | None:
        return self.deck_of_type(card.type)

    def deck_of_type(self, type_id: str) -> Deck | None:
        for deck in self.decks.values():
            if type_id in deck.types:
                return deck
        return None


@dataclass(frozen=True, slots=True)
class Layout:
    """A physical product: sizes in points; the safe zone is inset from the trim."""

    id: str
    title: str
    kind: str  # card | token | board
    width: float
    height: float
    bleed: float
    safe: float
    corner_radius: float
    loc: Loc


@dataclass(frozen=True, slots=True)
class Paper:
    """A sheet of paper, portrait, in points; `margin` is the band a printer may not print."""

    id: str
    title: str
    width: float
    height: float
    margin: float
    loc: Loc


@dataclass(frozen=True, slots=True)
class PressSpec:
    """A print service's press PDF: one card per page with full bleed, no marks."""

    page_order: str  # back-front | front-back | fronts-then-backs
    bleed: float  # points
    colour: str  # rgb | cmyk
    ink_limit: int | None  # total area coverage in percent
    icc: str | None  # the printer's profile, None: deckwright's default
    loc: Loc


@dataclass(frozen=True, slots=True)
class ServiceProduct:
    """What a print service calls a layout, and the image size it asks for (bleed included)."""

    layout: str
    product: str
    pixels: tuple[int, int] | None
    loc: Loc


@dataclass(frozen=True, slots=True)
class Service:
    """A print service (The Game Crafter, DriveThruCards, ...), from layouts/services.yaml."""

    id: str
    title: str
    dpi: int
    products: Mapping[str, ServiceProduct]  # by layout id
    press: PressSpec | None
    loc: Loc


@dataclass(frozen=True, slots=True)
class Catalog:
    """The physical products a project knows (layouts/): layouts, papers and print services."""

    layouts: Mapping[str, Layout]
    papers: Mapping[str, Paper]
    services: Mapping[str, Service]


# ---- a game's look: style.yaml --------------------------------------------------------------

SHAPES = (
    "circle",
    "square",
    "diamond",
    "triangle",
    "hexagon",
    "pentagon",
    "star",
    "drop",
    "shield",
    "octagon",
)
MIN_TEXT_PT = 6.0


@dataclass(frozen=True)
class TextStyle:
    name: str
    font: str
    size: float
    min_size: float
    weight: str = "normal"
    style: str = "normal"
    line_height: float = 1.2
    fill: str = "#000000"
    align: str = "start"  # start | middle | end
    valign: str = "top"  # top | middle | bottom
    lines: int | None = None  # at most this many lines (1: a title)
    loc: Loc | None = field(default=None, compare=False, repr=False)  # where style.yaml defines it


@dataclass(frozen=True)
class Icon:
    token: str
    shape: str
    fill: str
    stroke: str
    label: str
    label_fill: str
    width: float  # advance as a fraction of the font size
    title: str


class Style:
    def __init__(
        self,
        colors: Mapping[str, str],
        text: Mapping[str, TextStyle],
        icons: Mapping[str, Icon],
        icon_font: TextStyle | None,
        theme: str = "",
    ) -> None:
        self.colors = dict(colors)
        self.text = dict(text)
        self.icons = dict(icons)
        self.icon_font = icon_font
        self.theme = theme  # a built-in theme whose templates fill in what the game's folder lacks

    def text_style(self, name: str) -> TextStyle:
        if name not in self.text:
            raise KeyError(f"style.yaml has no text style {name!r} (has: {', '.join(self.text)})")
        return self.text[name]
