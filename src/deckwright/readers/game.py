"""`game.yaml`: identity, enumerations, card types, decks and build settings."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..kinds import OUTPUT_KINDS
from ..model import (
    STANDARD_CARD_KEYS,
    BuildSettings,
    CardType,
    Deck,
    GameInfo,
    Unknown,
    frozen_map,
)
from ..source import YMap
from .common import (
    check_keys,
    check_slug,
    describe,
    expect_list,
    expect_map,
    get_bool,
    get_int,
    get_str,
    is_unknown_marker,
    to_value,
)
from .fields import read_field_specs

GAME_FILE_KEYS = ("game", "enums", "card_types", "decks", "build")
BUILD_KEYS = ("outputs", "papers")
REQUIRED_INFO = ("id", "name", "edition", "players")
OPTIONAL_INFO = (
    "version",
    "date",
    "tagline",
    "source",
    "notes",
    "epigraph",
    "set",
    "subtitle",
    "host",
    "play_time",
)
INFO_KEYS = (*REQUIRED_INFO, *OPTIONAL_INFO)
PLAYERS_KEYS = ("min", "max", "note", "sweet_spot", "host")
CARD_TYPE_KEYS = ("title", "layout", "fields", "double_sided", "back_fields", "back", "note")
DECK_KEYS = ("title", "types", "back", "note")


def read_info(m: YMap, folder_id: str, diags: Diagnostics) -> GameInfo | None:
    what = "game"
    check_keys(m, what, INFO_KEYS, diags, required=REQUIRED_INFO)
    game_id = get_str(m, "id", what, diags)
    valid_id = game_id is not None and check_slug(game_id, m.loc_of("id"), "game id", diags)
    if valid_id and game_id != folder_id:
        diags.error(m.loc_of("id"), f"game id {game_id!r} must equal its folder name {folder_id!r}")
    players = expect_map(m.get("players"), m.loc_of("players"), "game: players", diags)
    pmin = pmax = None
    if players is not None:
        check_keys(players, "game: players", PLAYERS_KEYS, diags, required=("min", "max"))
        pmin = get_int(players, "min", "game: players", diags)
        pmax = get_int(players, "max", "game: players", diags)
        if pmin is not None and pmax is not None and not 1 <= pmin <= pmax:
            diags.error(players.loc, f"game: players must satisfy 1 <= min <= max ({pmin}..{pmax})")
    name = get_str(m, "name", what, diags)
    edition = _text_or_unknown(m, "edition", diags)
    optional = {k: _text_or_unknown(m, k, diags) for k in OPTIONAL_INFO if k in m}
    if None in (game_id, name, edition, pmin, pmax):
        return None
    extra = {k: v for k, v in optional.items() if k not in ("version", "date", "tagline", "source", "notes")}
    if players is not None:
        extra.update({f"players_{k}": v for k, v in players.items() if k not in ("min", "max")})
    return GameInfo(
        id=game_id,
        name=name,
        edition=edition,
        players_min=pmin,
        players_max=pmax,
        loc=m.loc,
        version=optional.get("version"),
        date=optional.get("date"),
        tagline=optional.get("tagline"),
        source=optional.get("source"),
        notes=optional.get("notes"),
        extra=frozen_map(extra),
    )


def _text_or_unknown(m: YMap, key: str, diags: Diagnostics) -> str | Unknown | None:
    """Identity texts may be unknown (a seed without an edition); the rest must be text."""
    if is_unknown_marker(m.get(key)):
        return to_value(m[key], m.loc_of(key), diags)
    return get_str(m, key, "game", diags)


def read_enums(raw, loc, diags: Diagnostics) -> dict[str, tuple[str, ...]]:
    m = expect_map(raw, loc, "enums", diags)
    if m is None:
        return {}
    enums: dict[str, tuple[str, ...]] = {}
    for name, values in m.items():
        items = expect_list(values, m.loc_of(name), f"enum {name!r}", diags)
        if items is None:
            continue
        seen: set[str] = set()
        for i, v in enumerate(items):
            if not check_slug(v, items.loc_of(i), f"enum {name!r} value", diags):
                continue
            if v in seen:
                diags.error(items.loc_of(i), f"enum {name!r} lists {v!r} twice")
            seen.add(v)
        enums[name] = tuple(v for v in items if isinstance(v, str))
    return enums


def read_card_types(raw, loc, enums, diags: Diagnostics) -> dict[str, CardType]:
    m = expect_map(raw, loc, "card_types", diags)
    if m is None:
        return {}
    types: dict[str, CardType] = {}
    for type_id, spec in m.items():
        if not check_slug(type_id, m.key_loc(type_id), "card type id", diags):
            continue
        what = f"card type {type_id!r}"
        t = expect_map(spec, m.loc_of(type_id), what, diags)
        if t is None:
            continue
        check_keys(t, what, CARD_TYPE_KEYS, diags, required=("title", "layout"))
        title = get_str(t, "title", what, diags)
        layout = get_str(t, "layout", what, diags)
        fields = read_field_specs(
            t.get("fields", YMap(t.loc)),
            enums,
            diags,
            f"{what} field",
            t.loc_of("fields"),
            reserved=STANDARD_CARD_KEYS,
        )
        double_sided = get_bool(t, "double_sided", what, diags)
        back_fields = {}
        if "back_fields" in t:
            if not double_sided:
                diags.error(t.key_loc("back_fields"), f"{what}: back_fields needs double_sided: true")
            back_fields = read_field_specs(
                t["back_fields"],
                enums,
                diags,
                f"{what} back field",
                t.loc_of("back_fields"),
                reserved=STANDARD_CARD_KEYS,
            )
            for name in back_fields:
                if name in fields:
                    diags.error(t.loc_of("back_fields"), f"{what}: field {name!r} is declared on both sides")
        if title is None or layout is None:
            continue
        types[type_id] = CardType(
            id=type_id,
            title=title,
            layout=layout,
            fields=frozen_map(fields),
            loc=t.loc,
            double_sided=double_sided,
            back_fields=frozen_map(back_fields),
        )
    return types


def read_decks(raw, loc, card_types, diags: Diagnostics) -> dict[str, Deck]:
    m = expect_map(raw, loc, "decks", diags)
    if m is None:
        return {}
    decks: dict[str, Deck] = {}
    claimed: dict[str, str] = {}
    for deck_id, spec in m.items():
        if not check_slug(deck_id, m.key_loc(deck_id), "deck id", diags):
            continue
        what = f"deck {deck_id!r}"
        d = expect_map(spec, m.loc_of(deck_id), what, diags)
        if d is None:
            continue
        check_keys(d, what, DECK_KEYS, diags, required=("title", "types"))
        title = get_str(d, "title", what, diags)
        types = expect_list(d.get("types"), d.loc_of("types"), f"{what}: types", diags)
        if title is None or types is None:
            continue
        for i, type_id in enumerate(types):
            if type_id not in card_types:
                diags.error(types.loc_of(i), f"{what}: no card type {type_id!r}")
            elif type_id in claimed:
                diags.error(
                    types.loc_of(i),
                    f"{what}: card type {type_id!r} is already in deck {claimed[type_id]!r}",
                )
            else:
                claimed[type_id] = deck_id
        back = d.get("back")
        # `back` names a template (`<back>-back.svg.j2`) and the back's image files: a slug,
        # like every other id, so it cannot climb out of a folder
        if "back" in d and not check_slug(back, d.loc_of("back"), f"{what}: back", diags):
            back = None
        decks[deck_id] = Deck(deck_id, title, tuple(types), d.loc, back if isinstance(back, str) else None)
    return decks


def read_build(raw, loc, diags: Diagnostics) -> BuildSettings:
    """game.yaml `build:` (optional): the outputs and print-and-play papers built by default.

    Paper ids are checked against layouts/papers.yaml when the print-and-play is built."""
    m = expect_map(raw, loc, "build", diags)
    if m is None:
        return BuildSettings()
    check_keys(m, "build", BUILD_KEYS, diags)
    outputs = _names(m, "outputs", OUTPUT_KINDS, diags)
    papers = _names(m, "papers", None, diags)
    return BuildSettings(outputs=outputs, papers=papers, loc=m.loc)


def _names(m: YMap, key: str, allowed: tuple[str, ...] | None, diags: Diagnostics) -> tuple[str, ...] | None:
    if key not in m:
        return None
    items = expect_list(m[key], m.loc_of(key), f"build: {key}", diags)
    if items is None:
        return None
    names: list[str] = []
    for i, value in enumerate(items):
        if not isinstance(value, str):
            diags.error(items.loc_of(i), f"build: {key} must list names, not {describe(value)}")
        elif allowed is not None and value not in allowed:
            diags.error(items.loc_of(i), f"build: {key}: no output {value!r} (one of {', '.join(allowed)})")
        elif value in names:
            diags.error(items.loc_of(i), f"build: {key} lists {value!r} twice")
        else:
            names.append(value)
    if not names:
        diags.error(m.loc_of(key), f"build: {key} must name at least one")
    return tuple(names)
