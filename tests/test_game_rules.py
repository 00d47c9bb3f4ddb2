"""The three games' own count rules, proven on their real data.

Each case copies a game from cards/ into a temp project, makes one violation of a rule that
issue 2 lists under "Counts and tables" (a count, a row, a derivation or a rule expression), and
asserts that validation reports it as an error of the declared check that guards the rule, at the
card, table row or check the rule is about. The unmutated games validate with no errors.
Validation runs without rendering (`fit=False`), and each distinct file is parsed once (below),
so the whole file takes seconds.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from conftest import GAMES, REPO, TempProject, messages
from deckwright.source import load

# Every case re-reads a whole game and the layouts, and the YAML parser is most of that time; but
# a case changes one or two files. So a file is parsed once per distinct (shown path, bytes), the
# two things the real parse depends on, and each read gets a fresh copy of the result.
_PARSED: dict[tuple[str | None, bytes], object] = {}


def _fresh(value):
    """A copy of a parsed document: new containers (with their own location records), shared
    immutable scalars and locations."""
    if isinstance(value, dict | list):
        out = copy.copy(value)
        out.__dict__.update({k: copy.copy(v) for k, v in vars(value).items() if isinstance(v, dict | list)})
        if isinstance(value, dict):
            out.update((k, _fresh(v)) for k, v in value.items())
        else:
            out[:] = [_fresh(v) for v in value]
        return out
    return value


def _load_once(path: Path, display: str | None = None, cache: object = None):
    """`load`, each file parsed once per test session (the build's parse cache is not used)."""
    try:
        key = (display, path.read_bytes())
    except OSError:
        return load(path, display)  # the real reader reports it
    if key not in _PARSED:
        _PARSED[key] = load(path, display)  # a SourceError is raised, not kept
    return _fresh(_PARSED[key])


@pytest.fixture(autouse=True)
def _parse_each_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("deckwright.readers") and getattr(module, "load", None) is load:
            monkeypatch.setattr(module, "load", _load_once)


LM = "light-and-mist"
MC = "midnight-congregation"
LVD = "light-vs-darkness"

Edit = tuple[str, str, str]  # (file, old text occurring exactly once, new text)
Where = tuple[
    str, str
]  # (file, anchor): the finding's line is where the anchor first occurs, after the edits


class Finding(NamedTuple):
    """An error a violation must produce: its message contains `expected` (and `detail`, e.g.
    which row of a generated table) and, when `where` is given, it is reported at that line."""

    expected: str
    where: Where | None = None
    detail: str = ""


def case(name: str, edits: list[Edit] | Edit, *findings: Finding):
    """One violation: `edits` applied in order to a copy of the game, then every finding."""
    edits = [edits] if isinstance(edits, tuple) else edits
    return pytest.param(edits, findings, id=name)


def check(check_id: str) -> str:
    return f"[check {check_id}]"


def at_check(check_id: str) -> Where:
    """A check without `for:` reports at its own entry in checks.yaml."""
    return ("checks.yaml", f"- id: {check_id}")


def line_of(temp_project: TempProject, game: str, where: Where) -> str:
    """`cards/<game>/<file>:<line>:` of the line where the anchor text first occurs in the file."""
    file, anchor = where
    text = temp_project.path(game, file).read_text(encoding="utf-8")
    assert anchor in text, f"{anchor!r} is not in {file}"
    return f"cards/{game}/{file}:{text.count(chr(10), 0, text.index(anchor)) + 1}:"


def assert_reported(temp_project: TempProject, game: str, edits: list[Edit], findings) -> None:
    temp_project.add_game(REPO / "cards" / game)
    for file, old, new in edits:
        temp_project.replace(game, file, old, new)
    errors = messages(temp_project.check(game, fit=False))
    for expected, where, detail in findings:
        prefix = line_of(temp_project, game, where) if where else ""
        assert any(expected in e and detail in e and e.startswith(prefix) for e in errors), (
            f"expected an error containing {expected!r} {detail!r}" + (f" at {prefix}" if prefix else ""),
            errors,
        )


@pytest.mark.parametrize("game", GAMES)
def test_real_game_validates_clean(temp_project: TempProject, game: str) -> None:
    temp_project.add_game(REPO / "cards" / game)
    assert messages(temp_project.check(game, fit=False)) == []


# ------------------------------------------------------------------------------ Light & Mist
TP = "tables-players.yaml"  # role-setup, mission-teams, failure-thresholds
ROW_6 = "roles: [pastor, watchman, faithful, faithful, false-teacher, deceiver]"
ROW_8 = "sower-of-division, disguiser]\n      - players: 9"  # row 8's roles (first-playtest has them too)
ROW_9_ADD = "add: {roles: [encourager]}"
ROW_12_ADD = "extends: 11\n        add: {roles: [deceiver]}"
ROW_12 = (
    "      - players: 12\n        watchers: 7\n        deceivers: 5\n"
    '        as_written: "11-player roles + Deceiver"\n'
    "        extends: 11\n        add: {roles: [deceiver]}\n"
)
FAITHFUL_COUNT = "count: 3\n    faction: watcher"
THRESHOLDS = (TP, "generate: {players: [6, 12]}")  # generated rows report at their `generate:`
M4_RULE = 'm4: {type: int, expr: "1 if players == 6 else 2"}'

LIGHT_AND_MIST = [
    # for every count 6-12, Watchers + Deceivers = players
    case(
        "watchers-plus-deceivers-6",
        (TP, "watchers: 4\n        deceivers: 2", "watchers: 4\n        deceivers: 3"),
        Finding(check("role-table-factions-add-up"), (TP, "- players: 6")),
    ),
    case(
        "watchers-plus-deceivers-11",
        (TP, "watchers: 7\n        deceivers: 4", "watchers: 6\n        deceivers: 4"),
        Finding(check("role-table-factions-add-up"), (TP, "- players: 11")),
    ),
    case(
        "role-table-lacks-12",
        (TP, ROW_12, ""),
        Finding(check("role-table-covers-player-range"), at_check("role-table-covers-player-range")),
    ),
    # the expanded recommended roles match both numbers (one role per player, per faction)
    case(
        "row-6-deals-a-role-short",
        (TP, ROW_6, "roles: [pastor, watchman, faithful, faithful, false-teacher]"),
        Finding(check("role-table-one-role-per-player"), (TP, "- players: 6")),
    ),
    case(
        "row-11-derivation-adds-two",
        (TP, "add: {roles: [faithful]}", "add: {roles: [faithful, faithful]}"),
        Finding(check("role-table-one-role-per-player"), (TP, "- players: 11")),
    ),
    case(
        "row-9-derivation-adds-a-deceiver",
        (TP, ROW_9_ADD, "add: {roles: [deceiver]}"),
        Finding(check("role-table-watcher-roles"), (TP, "- players: 9")),
        Finding(check("role-table-deceiver-roles"), (TP, "- players: 9")),
    ),
    case(
        "row-12-derivation-adds-a-pastor",
        (TP, ROW_12_ADD, "extends: 11\n        add: {roles: [pastor]}"),
        Finding(check("role-table-watcher-roles"), (TP, "- players: 12")),
        Finding(check("role-table-deceiver-roles"), (TP, "- players: 12")),
        Finding(check("roles-cover-every-player-count"), ("roles.yaml", "- id: pastor")),
    ),
    case(
        "row-8-swaps-a-deceiver-for-a-watcher",
        (TP, ROW_8, ROW_8.replace("disguiser", "intercessor")),
        Finding(check("role-table-deceiver-roles"), (TP, "- players: 8")),
    ),
    case(
        "row-6-deals-the-unplayable-seeker",
        (TP, ROW_6, ROW_6.replace("deceiver]", "seeker]")),
        Finding(check("role-table-uses-playable-roles"), (TP, "- players: 6")),
    ),
    # the role cards cover the most of each role any count needs
    case(
        "faithful-cards-too-few",
        ("roles.yaml", FAITHFUL_COUNT, "count: 2\n    faction: watcher"),
        Finding(check("roles-cover-every-player-count"), ("roles.yaml", "- id: faithful")),
        Finding(check("role-cards-for-largest-game"), at_check("role-cards-for-largest-game")),
    ),
    case(
        "deceiver-cards-too-few",
        ("roles.yaml", "count: 2\n    faction: deceiver", "count: 1\n    faction: deceiver"),
        Finding(check("roles-cover-every-player-count"), ("roles.yaml", "- id: deceiver")),
    ),
    # team sizes exist for every count and fit the player count
    case(
        "team-sizes-lack-10",
        (TP, "      - {players: 10, extends: 8}\n", ""),
        Finding(check("team-sizes-cover-player-range"), at_check("team-sizes-cover-player-range")),
    ),
    case(
        "team-larger-than-the-players",
        (
            TP,
            'as_written: "6", m1: 2, m2: 3, m3: 4, m4: 3, m5: 4}',
            'as_written: "6", m1: 2, m2: 3, m3: 4, m4: 3, m5: 7}',
        ),
        Finding(check("team-sizes-fit-the-players"), (TP, "{players: 6, as_written")),
    ),
    case(
        "empty-team-in-a-derived-row",
        (TP, 'as_written: "8–10", m1: 3,', 'as_written: "8–10", m1: 0,'),
        Finding(check("team-sizes-fit-the-players"), (TP, "{players: 9, extends: 8}")),
    ),
    # mission 4 needs 2 Sabotage at 7-12 and 1 at 6 (the generated failure-threshold table)
    case(
        "mission-4-rule-says-2-at-6",
        (TP, M4_RULE, 'm4: {type: int, expr: "2"}'),
        Finding(check("mission-4-threshold"), THRESHOLDS, "6 players:"),
    ),
    case(
        "mission-4-rule-says-1-at-12",
        (TP, M4_RULE, 'm4: {type: int, expr: "1"}'),
        Finding(check("mission-4-threshold"), THRESHOLDS, "12 players:"),
    ),
    case(
        "mission-4-rule-off-by-one-player",
        (TP, M4_RULE, 'm4: {type: int, expr: "1 if players <= 7 else 2"}'),
        Finding(check("mission-4-threshold"), THRESHOLDS, "7 players:"),
    ),
    case(
        "thresholds-lack-12",
        (TP, "generate: {players: [6, 12]}", "generate: {players: [6, 11]}"),
        Finding(check("thresholds-cover-player-range"), at_check("thresholds-cover-player-range")),
    ),
    # reference integrity
    case(
        "role-table-names-no-card",
        (TP, ROW_8, ROW_8.replace("disguiser", "disguisor")),
        Finding("refers to 'disguisor', which is no card of this game", (TP, "disguisor")),
    ),
    case(
        "duplicate-scripture-id",
        ("scripture.yaml", "id: speak-truth", "id: test-everything"),
        Finding("duplicate card id 'test-everything' (first defined at"),
    ),
]


@pytest.mark.parametrize(("edits", "findings"), LIGHT_AND_MIST)
def test_light_and_mist_rules(temp_project: TempProject, edits: list[Edit], findings) -> None:
    assert_reported(temp_project, LM, edits, findings)


# ---------------------------------------------------------------------- The Midnight Congregation
CANDLE = '    count: 3\n    action: "The next High Priest nominee is 1 seat to the right'
EXTRA_COMPONENT = (
    'cards:\n  - id: a-sixteenth-relic\n    name: "A Sixteenth Relic"\n    count: 3\n'
    '    action: "The next High Priest nominee is 4 seats to the left of the current High Priest."\n'
    "    action_kind: seat-shift\n\n"
)
ST = "tables-setup.yaml"  # faction-split, power-by-count (generated from the design rules)
# A generated table's rows report at its `generate:` line (these anchors start there).
SPLIT = (ST, "generate: {players: [5, 13]}\n    columns:\n      players: {type: int}\n      townsfolk")
POWERS_BY_COUNT = (ST, "generate: {players: [5, 13]}\n    columns:\n      players: {type: int}\n      medium")
TOWNSFOLK = 'townsfolk: {type: int, expr: "floor(players / 2)"}'
CULTISTS = 'cultists: {type: int, expr: "ceil(ceil(players / 2) / 2)"}'
HERETICS = 'heretics: {type: int, expr: "floor(ceil(players / 2) / 2)"}'
ORACLE = 'oracle: {type: int, expr: "1 if players >= 7 else 0"}'
CONGREGANTS = "players - 1 - (1 if players >= 7 else 0)"


def board(size: str, field: str, value: int, new: int) -> Edit:
    """Set one field of one god board (the three boards repeat the same lines)."""
    players = {"small": "5–7", "medium": "8–10", "large": "11–13"}[size]
    lines = [
        f'players_as_written: "{players} players"',
        "quirk_slots: 1",
        "judgment_slots: 1",
        "devotion_track_min: 0",
        "devotion_track_max: 8",
        "disruption_track_min: 0",
        "disruption_track_max: 8",
        "chaos_counter_min: 0",
        "chaos_counter_max: 3",
        "ritual_slots_min: 5",
        "ritual_slots_max: 8",
    ]
    old = "\n    ".join(lines)
    assert f"{field}: {value}" in lines, field
    return ("boards.yaml", old, old.replace(f"{field}: {value}", f"{field}: {new}"))


def count_of(file: str, card_id: str, old: int, new: int, game: str = MC) -> Edit:
    """Change a card's count: the `count:` line right below `- id: <card_id>` and its name."""
    text = (REPO / "cards" / game / file).read_text(encoding="utf-8")
    start = text.index(f"- id: {card_id}\n")
    block = text[start : text.index("\n", text.index(f"count: {old}", start)) + 1]
    assert block.count("\n") == 3, block  # id, name, count
    return (file, block, block.replace(f"count: {old}", f"count: {new}"))


MIDNIGHT_CONGREGATION = [
    # 45 components = 15 types x 3
    case(
        "a-component-with-4-copies",
        ("components.yaml", CANDLE, CANDLE.replace("3", "4", 1)),
        Finding(check("component-total"), at_check("component-total")),
        Finding(check("component-copies"), ("components.yaml", "- id: the-unhallowed-candle")),
    ),
    case(
        "a-sixteenth-component-type",
        ("components.yaml", "cards:\n", EXTRA_COMPONENT),
        Finding(check("component-types"), at_check("component-types")),
    ),
    # 10 Quirks; 11 Judgments with one Silence
    case(
        "a-second-copy-of-a-quirk",
        ("quirks.yaml", 'number: "Q1"', 'number: "Q1"\n    count: 2'),
        Finding(check("quirk-total"), at_check("quirk-total")),
    ),
    case(
        "a-second-copy-of-a-judgment",
        ("judgments.yaml", 'number: "J3"', 'number: "J3"\n    count: 2'),
        Finding(check("judgment-total"), at_check("judgment-total")),
    ),
    case(
        "no-silence-card",
        ("judgments.yaml", "disposition: silence", "disposition: omen"),
        Finding(check("judgment-one-silence"), at_check("judgment-one-silence")),
    ),
    case(
        "two-silence-cards",
        ("judgments.yaml", 'number: "J1"\n    disposition: wrath', 'number: "J1"\n    disposition: silence'),
        Finding(check("judgment-one-silence"), at_check("judgment-one-silence")),
    ),
    # faction cards 6/4/3
    case(
        "faction-cards-7-4-2",
        [
            count_of("factions.yaml", "faction-townsfolk", 6, 7),
            count_of("factions.yaml", "faction-heretic", 3, 2),
        ],
        Finding(check("faction-cards"), at_check("faction-cards")),
    ),
    case(
        "faction-cards-5-4-3",
        count_of("factions.yaml", "faction-townsfolk", 6, 5),
        Finding(check("faction-card-total"), at_check("faction-card-total")),
    ),
    # each faction's role cards equal its faction cards
    case(
        "townsfolk-roles-6-cultist-roles-3",
        [count_of("roles.yaml", "role-townsman", 5, 6), count_of("roles.yaml", "role-cultist", 3, 2)],
        Finding(
            check("roles-match-factions"),
            at_check("roles-match-factions"),
            "townsfolk has 7 role cards but 6 faction cards",
        ),
    ),
    case(
        "a-fourteenth-role-card",
        count_of("roles.yaml", "role-heretic", 2, 3),
        Finding(check("role-card-total"), at_check("role-card-total")),
    ),
    # one Marshal, Custodian and Defiler
    case(
        "two-marshals",
        count_of("roles.yaml", "role-marshal", 1, 2),
        Finding(check("special-roles-named"), at_check("special-roles-named")),
        Finding(
            check("one-special-role-per-faction"), at_check("one-special-role-per-faction"), "townsfolk has 2"
        ),
    ),
    case(
        "defiler-not-special",
        ("roles.yaml", "faction: heretic\n    special: true\n", "faction: heretic\n"),
        Finding(
            check("one-special-role-per-faction"), at_check("one-special-role-per-faction"), "heretic has 0"
        ),
    ),
    case(
        "defiler-and-custodian-change-places",
        [
            (
                "roles.yaml",
                "count: 1\n    faction: cultist\n    special: true",
                "count: 1\n    faction: heretic",
            ),
            (
                "roles.yaml",
                "count: 1\n    faction: heretic\n    special: true",
                "count: 1\n    faction: cultist\n    special: true",
            ),
        ],
        Finding(check("special-roles-named"), at_check("special-roles-named")),
    ),
    # power cards 10 Congregant + Oracle + Inquisitor + Medium
    case(
        "nine-congregants-two-oracles",
        [count_of("powers.yaml", "power-congregant", 10, 9), count_of("powers.yaml", "power-oracle", 1, 2)],
        Finding(check("power-cards"), at_check("power-cards")),
    ),
    # for every count 5-13 the faction split the design rule produces fits the cards
    case(
        "split-rule-townsfolk-rounded-up",
        (ST, TOWNSFOLK, TOWNSFOLK.replace("floor", "ceil")),
        Finding(check("faction-split-adds-up"), SPLIT, "5 players:"),
    ),
    case(
        "split-rule-outsiders-outnumber-by-2",
        [
            (ST, TOWNSFOLK, TOWNSFOLK.replace('/ 2)"', '/ 2) - 1"')),
            (ST, CULTISTS, CULTISTS.replace('/ 2)"', '/ 2) + 1"')),
        ],
        Finding(check("faction-split-balance"), SPLIT, "5 players:"),
    ),
    case(
        "split-rule-heretics-get-the-extra-member",
        [
            (ST, CULTISTS, CULTISTS.replace("cultists", "heretics")),
            (ST, HERETICS, HERETICS.replace("heretics", "cultists")),
        ],
        Finding(check("faction-split-cultists-over-heretics"), SPLIT, "5 players:"),
        Finding(check("faction-split-fits-faction-cards"), SPLIT, "13 players need 6/3/4"),
    ),
    case(
        "split-rule-no-heretic-at-5",
        [
            (ST, CULTISTS, CULTISTS.replace('/ 2)"', '/ 2) if players > 5 else 3"')),
            (ST, HERETICS, HERETICS.replace('/ 2)"', '/ 2) if players > 5 else 0"')),
        ],
        Finding(check("faction-split-every-faction-present"), SPLIT, "5 players:"),
    ),
    case(
        "split-past-13-needs-7-townsfolk",
        (*SPLIT, SPLIT[1].replace("13", "14")),
        Finding(
            check("faction-split-fits-faction-cards"),
            (ST, SPLIT[1].replace("13", "14")),
            "14 players need 7/4/3",
        ),
    ),
    case(
        "split-lacks-13",
        (*SPLIT, SPLIT[1].replace("13", "12")),
        Finding(check("faction-split-covers-player-range"), at_check("faction-split-covers-player-range")),
    ),
    case(
        "two-heretic-faction-cards",
        count_of("factions.yaml", "faction-heretic", 3, 2),
        Finding(check("faction-split-fits-faction-cards"), SPLIT, "13 players need 6/4/3"),
    ),
    case(
        "one-ordinary-heretic-role",
        count_of("roles.yaml", "role-heretic", 2, 1),
        Finding(check("faction-split-fits-role-cards"), SPLIT, "13 players:"),
    ),
    # the power cards by count follow the scaling
    case(
        "oracle-from-8-players",
        [(ST, ORACLE, ORACLE.replace("7", "8")), (ST, CONGREGANTS, CONGREGANTS.replace("7", "8"))],
        Finding(check("power-by-count-scaling"), POWERS_BY_COUNT, "7 players:"),
    ),
    case(
        "inquisitor-from-9-players",
        [(ST, '>= 10 else 0"}', '>= 9 else 0"}'), (ST, "(1 if players >= 10", "(1 if players >= 9")],
        Finding(check("power-by-count-scaling"), POWERS_BY_COUNT, "9 players:"),
    ),
    case(
        "one-power-card-too-many-per-player",
        (ST, CONGREGANTS, CONGREGANTS.replace("players - 1 -", "players -")),
        Finding(check("power-by-count-adds-up"), POWERS_BY_COUNT, "5 players:"),
    ),
    case(
        "nine-congregants",
        count_of("powers.yaml", "power-congregant", 10, 9),
        Finding(check("power-by-count-fits-cards"), POWERS_BY_COUNT, "13 players need 10 Congregant"),
    ),
    case(
        "powers-by-count-lack-13",
        (*POWERS_BY_COUNT, POWERS_BY_COUNT[1].replace("13", "12")),
        Finding(check("power-by-count-covers-player-range"), at_check("power-by-count-covers-player-range")),
    ),
    case(
        "power-cards-left-over-at-13",
        count_of("powers.yaml", "power-congregant", 10, 11),
        Finding(check("power-cards-all-used-at-max"), at_check("power-cards-all-used-at-max")),
    ),
    # 8 resolution tokens
    case(
        "seven-resolution-tokens",
        count_of("tokens.yaml", "resolution-token", 8, 7),
        Finding(check("resolution-tokens-eight"), at_check("resolution-tokens-eight")),
        Finding(check("resolution-tokens-per-slot"), at_check("resolution-tokens-per-slot")),
    ),
    # track and counter ranges agree with the board
    case(
        "devotion-track-shorter-than-the-ritual",
        board("small", "devotion_track_max", 8, 7),
        Finding(check("tracks-match-ritual"), ("boards.yaml", "- id: god-board-small")),
    ),
    case(
        "disruption-track-from-1",
        board("medium", "disruption_track_min", 0, 1),
        Finding(check("tracks-match-ritual"), ("boards.yaml", "- id: god-board-medium")),
    ),
    case(
        "ritual-track-of-9-slots",
        board("large", "ritual_slots_max", 8, 9),
        Finding(check("tracks-match-ritual"), ("boards.yaml", "- id: god-board-large")),
        Finding(check("resolution-tokens-per-slot"), at_check("resolution-tokens-per-slot")),
    ),
    case(
        "chaos-counter-to-4",
        board("small", "chaos_counter_max", 3, 4),
        Finding(check("chaos-counter"), ("boards.yaml", "- id: god-board-small")),
    ),
    case(
        "ritual-track-from-6",
        board("medium", "ritual_slots_min", 5, 6),
        Finding(check("ritual-default-fits"), ("boards.yaml", "- id: god-board-medium")),
    ),
    # reference integrity
    case(
        "incompatibility-one-sided",
        ("judgments.yaml", "incompatible_with: [q9-greldo]", "incompatible_with: []"),
        Finding(
            "but 'j2-the-watchful' does not list 'q9-greldo' back",
            ("quirks.yaml", "incompatible_with: [j2-the-watchful]"),
        ),
    ),
    case(
        "incompatibility-one-sided-the-other-way",
        ("quirks.yaml", "incompatible_with: [j2-the-watchful]", "incompatible_with: []"),
        Finding(
            "but 'q9-greldo' does not list 'j2-the-watchful' back",
            ("judgments.yaml", "incompatible_with: [q9-greldo]"),
        ),
    ),
    case(
        "incompatibility-misspelt",
        ("quirks.yaml", "incompatible_with: [j2-the-watchful]", "incompatible_with: [j2-the-watchfull]"),
        Finding(
            "refers to 'j2-the-watchfull', which is no card of this game",
            ("quirks.yaml", "incompatible_with: [j2-the-watchfull]"),
        ),
    ),
    case(
        "duplicate-quirk-id",
        ("quirks.yaml", "- id: q10-seraphis", "- id: q9-greldo"),
        Finding("duplicate card id 'q9-greldo' (first defined at cards/midnight-congregation/quirks.yaml:"),
    ),
]


@pytest.mark.parametrize(("edits", "findings"), MIDNIGHT_CONGREGATION)
def test_midnight_congregation_rules(temp_project: TempProject, edits: list[Edit], findings) -> None:
    assert_reported(temp_project, MC, edits, findings)


# ------------------------------------------------------------------------------ Light VS Darkness
PURPLE = (
    '      - color: purple\n        name: "Purple"\n        letter: "P"\n'
    '        spirit_aspect: "Fear of the Lord"\n'
    '        play_style: "Awe and holiness, banishing, sealing effects."\n'
)
ESTHER = "disciplines: [watch-in-prayer, solitude, communion-celebration]"
PRIDE = 'name: "Pride"\n    atk: 5\n    hp: 5\n    mp: 7'


def lvd_count(file: str, card_id: str, old: int, new: int) -> Edit:
    return count_of(file, card_id, old, new, LVD)


def rule_value(rule: str, old: int, new: int) -> Edit:
    """Change a number of the deck-rules table (the numbers the checks read)."""
    row = f"- rule: {rule}\n        value: "
    return ("rules.yaml", f"{row}{old}\n", f"{row}{new}\n")


def disciplines_of_esther(new: str) -> Edit:
    return ("mentors.yaml", ESTHER, f"disciplines: [{new}]")


LIGHT_VS_DARKNESS = [
    # 7 colours, one Mentor each
    case(
        "six-colours", ("colors.yaml", PURPLE, ""), Finding(check("seven-colors"), at_check("seven-colors"))
    ),
    case(
        "rules-say-8-colours",
        rule_value("colors", 7, 8),
        Finding(check("seven-colors"), at_check("seven-colors")),
    ),
    case(
        "two-red-mentors-no-orange",
        ("mentors.yaml", "number: 12\n    color: orange", "number: 12\n    color: red"),
        Finding(check("one-mentor-per-color"), ("colors.yaml", "- color: red")),
        Finding(check("one-mentor-per-color"), ("colors.yaml", "- color: orange")),
    ),
    case(
        "two-copies-of-a-mentor",
        ("mentors.yaml", 'name: "Esther the Queen"\n', 'name: "Esther the Queen"\n    count: 2\n'),
        Finding(check("mentor-total"), at_check("mentor-total")),
    ),
    # 49 Basic Anointing = 7 per colour
    case(
        "fifty-basic-anointing",
        lvd_count("basic-anointing.yaml", "basic-anointing-red", 7, 8),
        Finding(check("basic-anointing-total"), at_check("basic-anointing-total")),
        Finding(
            check("basic-anointing-is-seven-times-seven"), at_check("basic-anointing-is-seven-times-seven")
        ),
    ),
    case(
        "49-basic-anointing-8-red-6-orange",
        [
            lvd_count("basic-anointing.yaml", "basic-anointing-red", 7, 8),
            lvd_count("basic-anointing.yaml", "basic-anointing-orange", 7, 6),
        ],
        Finding(check("basic-anointing-per-color"), ("colors.yaml", "- color: orange")),
    ),
    # 21 Disciplines = 2 each of 10 + 1 Prayer of the Righteous
    case(
        "two-prayers-of-the-righteous",
        lvd_count("disciplines.yaml", "prayer-of-the-righteous", 1, 2),
        Finding(check("discipline-total"), at_check("discipline-total")),
        Finding(
            check("discipline-total-is-three-per-mentor"), at_check("discipline-total-is-three-per-mentor")
        ),
    ),
    case(
        "21-disciplines-1-fasting-2-prayers",
        [
            lvd_count("disciplines.yaml", "fasting", 2, 1),
            lvd_count("disciplines.yaml", "prayer-of-the-righteous", 1, 2),
        ],
        Finding(
            check("discipline-two-each-of-ten-plus-one"), at_check("discipline-two-each-of-ten-plus-one")
        ),
        Finding(check("discipline-copies-match-mentors"), ("disciplines.yaml", "- id: fasting")),
    ),
    # every Mentor has 3 Disciplines that each make its colour
    case(
        "mentor-with-two-disciplines",
        disciplines_of_esther("watch-in-prayer, solitude"),
        Finding(
            "card 'esther-the-queen': 'disciplines' needs at least 3 items, has 2",
            ("mentors.yaml", ESTHER.replace(", communion-celebration", "")),
        ),
    ),
    case(
        "mentor-with-four-disciplines",
        disciplines_of_esther("watch-in-prayer, solitude, communion-celebration, prayer-of-the-righteous"),
        Finding(
            "card 'esther-the-queen': 'disciplines' takes at most 3 items, has 4",
            ("mentors.yaml", "prayer-of-the-righteous]"),
        ),
    ),
    case(
        "mentor-with-a-discipline-twice",
        disciplines_of_esther("watch-in-prayer, solitude, solitude"),
        Finding(check("mentor-has-three-disciplines"), ("mentors.yaml", "- id: esther-the-queen")),
    ),
    case(
        "red-mentor-with-fasting",
        disciplines_of_esther("fasting, solitude, communion-celebration"),
        Finding(check("mentor-disciplines-make-its-color"), ("mentors.yaml", "- id: esther-the-queen")),
    ),
    # each Discipline's copies equal the Mentors that use it
    case(
        "esther-takes-prayer-for-watch-in-prayer",
        disciplines_of_esther("prayer-of-the-righteous, solitude, communion-celebration"),
        Finding(
            check("discipline-copies-match-mentors"), ("disciplines.yaml", "- id: prayer-of-the-righteous")
        ),
        Finding(check("discipline-copies-match-mentors"), ("disciplines.yaml", "- id: watch-in-prayer")),
    ),
    # 15 Strongholds whose MP total 106
    case(
        "sixteen-strongholds",
        ("strongholds.yaml", 'name: "Pride"\n', 'name: "Pride"\n    count: 2\n'),
        Finding(check("stronghold-total"), at_check("stronghold-total")),
    ),
    case(
        "stronghold-mp-total-107",
        ("strongholds.yaml", PRIDE, PRIDE.replace("mp: 7", "mp: 8")),
        Finding(check("stronghold-mp-total"), at_check("stronghold-mp-total")),
    ),
    case(
        "rules-say-105-mp",
        rule_value("total-stronghold-mp", 106, 105),
        Finding(check("stronghold-mp-total"), at_check("stronghold-mp-total")),
    ),
    # Core 7 + 3 + 10 = 20 and deck 20 + 16 = 36
    case(
        "core-with-11-living-truths",
        rule_value("core-identity-living-truths", 10, 11),
        Finding(check("core-is-7-plus-3-plus-10"), at_check("core-is-7-plus-3-plus-10")),
    ),
    case(
        "core-of-21",
        rule_value("core-size", 20, 21),
        Finding(check("core-is-7-plus-3-plus-10"), at_check("core-is-7-plus-3-plus-10")),
    ),
    case(
        "deck-of-37",
        rule_value("deck-size", 36, 37),
        Finding(check("deck-is-core-plus-draft"), at_check("deck-is-core-plus-draft")),
    ),
    case(
        "draft-of-17",
        rule_value("drafted", 16, 17),
        Finding(check("deck-is-core-plus-draft"), at_check("deck-is-core-plus-draft")),
    ),
    # reference integrity
    case(
        "mentor-discipline-misspelt",
        disciplines_of_esther("watch-in-prayer, solitud, communion-celebration"),
        Finding("refers to 'solitud', which is no card of this game", ("mentors.yaml", "solitud,")),
    ),
    case(
        "mentor-discipline-is-a-stronghold",
        disciplines_of_esther("watch-in-prayer, pride, communion-celebration"),
        Finding("refers to 'pride', a stronghold card; expected discipline", ("mentors.yaml", "pride,")),
    ),
    case(
        "duplicate-stronghold-id",
        ("strongholds.yaml", "- id: occult", "- id: grief"),
        Finding("duplicate card id 'grief' (first defined at cards/light-vs-darkness/strongholds.yaml:"),
    ),
]


@pytest.mark.parametrize(("edits", "findings"), LIGHT_VS_DARKNESS)
def test_light_vs_darkness_rules(temp_project: TempProject, edits: list[Edit], findings) -> None:
    assert_reported(temp_project, LVD, edits, findings)
