"""Raw YAML files of a game folder -> the model. One module per kind of file."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import BuildSettings, Game, frozen_map
from ..safety.limits import MAX_TOTAL_COUNT
from ..source import ParseCache, SourceError, YMap, load
from .cards import read_card_file
from .checks import read_checks
from .common import check_keys, expect_map
from .game import GAME_FILE_KEYS, read_build, read_card_types, read_decks, read_enums, read_info
from .rulebook import RULEBOOK_DIR, read_rulebook
from .tables import read_tables

GAME_FILE = "game.yaml"
# Files a later stage owns; the loader leaves them alone.
OTHER_FILES = ("acknowledged.yaml",)


def display_path(path: Path, root: Path | None) -> str:
    """Paths in messages are relative to the project root when they can be; a link is shown by
    its own name, not by where it leads."""
    if root is not None:
        try:
            return str((path.parent.resolve() / path.name).relative_to(root.resolve()))
        except ValueError:
            pass
    return str(path)


def load_game(
    folder: Path, diags: Diagnostics, root: Path | None = None, cache: ParseCache | None = None
) -> Game | None:
    """Read every YAML file of a game folder; None when the game cannot be assembled.
    `cache` keeps parsed files between builds."""
    game_path = folder / GAME_FILE
    shown = display_path(game_path, root)
    if not game_path.is_file():
        diags.error(Loc(shown), f"no {GAME_FILE} in {display_path(folder, root)}")
        return None
    documents: list[tuple[str, YMap]] = []
    unreadable = False
    for path in sorted(folder.glob("*.yaml")):
        if path.name in OTHER_FILES:
            continue
        name = display_path(path, root)
        try:
            doc = load(path, name, cache)
        except SourceError as exc:
            diags.error(exc.loc, exc.message)
            unreadable = True
            continue
        m = expect_map(doc, Loc(name), "a game file's top level", diags)
        if m is not None:
            documents.append((path.name, m))

    game_doc = next((m for n, m in documents if n == GAME_FILE), None)
    if game_doc is None:
        return None
    check_keys(game_doc, GAME_FILE, GAME_FILE_KEYS, diags, required=("game", "card_types"))
    info_raw = expect_map(game_doc.get("game"), game_doc.loc_of("game"), "game", diags)
    info = read_info(info_raw, folder.name, diags) if info_raw is not None else None
    enums = read_enums(game_doc.get("enums", YMap(game_doc.loc)), game_doc.loc_of("enums"), diags)
    card_types = read_card_types(game_doc.get("card_types"), game_doc.loc_of("card_types"), enums, diags)
    decks = read_decks(game_doc.get("decks", YMap(game_doc.loc)), game_doc.loc_of("decks"), card_types, diags)
    build = (
        read_build(game_doc["build"], game_doc.loc_of("build"), diags)
        if "build" in game_doc
        else BuildSettings()
    )

    cards, tables, checks = [], {}, []
    for name, doc in documents:
        if name == GAME_FILE:
            continue
        kinds = [k for k in ("cards", "tables", "checks") if k in doc or (k == "cards" and "csv" in doc)]
        if len(kinds) != 1:
            found = ", ".join(kinds) or "none of them"
            diags.error(doc.loc, f"a game file holds exactly one of cards, tables or checks (found {found})")
            continue
        if kinds == ["cards"]:
            cards.extend(read_card_file(doc, card_types, diags, folder, lambda p: display_path(p, root)))
        elif kinds == ["tables"]:
            for table in read_tables(doc, enums, diags):
                if table.id in tables:
                    diags.error(
                        table.loc,
                        f"table {table.id!r} is defined twice (first at {tables[table.id].loc})",
                    )
                else:
                    tables[table.id] = table
        else:
            checks.extend(read_checks(doc, diags))
    _check_total_count(cards, diags)
    rulebook = read_rulebook(folder / RULEBOOK_DIR, diags, lambda p: display_path(p, root))
    if info is None or unreadable:
        # A file that cannot be read leaves every reference into it dangling: report the
        # files' own problems now, and the cross-file checks once they can be read.
        return None
    return Game(
        info=info,
        folder=folder,
        enums=frozen_map(enums),
        card_types=frozen_map(card_types),
        decks=frozen_map(decks),
        cards=tuple(cards),
        tables=frozen_map(tables),
        checks=tuple(checks),
        files=tuple(n for n, _ in documents),
        rulebook=rulebook,
        build=build,
    )


def _check_total_count(cards: list, diags: Diagnostics) -> None:
    """All copies of all cards together stay within MAX_TOTAL_COUNT (each print-and-play
    slot is one copy); the error stands at the card that crosses it."""
    total = 0
    for card in cards:
        total += card.count if isinstance(card.count, int) else 0
        if total > MAX_TOTAL_COUNT:
            diags.error(
                card.loc_of("count"),
                f"card {card.id!r}: the game's cards come to more than {MAX_TOTAL_COUNT} copies "
                "(the limit of copies of all cards together)",
            )
            return
