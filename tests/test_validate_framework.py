"""The validator on a small synthetic game: every kind of finding, located."""

from __future__ import annotations

import pytest

from conftest import TempProject, messages
from deckwright.model import Unknown


def test_mini_game_is_clean_and_unknowns_are_warnings(mini: TempProject) -> None:
    checked = mini.check("mini")
    assert messages(checked) == []
    warnings = messages(checked, "warning")
    assert warnings == [
        "cards/mini/heroes.yaml:14:11: warning: card 'bob': 'text' is unknown: "
        "The source prints no text for Bob.",
        # the hero template has an art slot; the fixture has no art: one line for all of them
        "cards/mini/game.yaml:1:1: warning: 3 cards with an art slot but no art: ann, bob, cy "
        "(add cards/mini/art/<card-id>.png, .jpg or .svg)",
    ]


def test_derived_generated_and_computed_rows(mini: TempProject) -> None:
    game = mini.check("mini").game
    setup = game.tables["setup"]
    assert [r.values["heroes"] for r in setup.rows] == [
        ("ann", "ann", "bob"),
        ("ann", "ann", "bob", "cy"),
        ("ann", "ann", "bob", "cy", "cy"),
    ]
    assert [r.values["total"] for r in setup.rows] == [3, 4, 5]
    assert setup.rows[2].derived_from == 4
    split = game.tables["split"]
    assert [(r.values["players"], r.values["light"], r.values["dark"]) for r in split.rows] == [
        (3, 2, 1),
        (4, 2, 2),
        (5, 3, 2),
    ]
    assert isinstance(game.card("bob").fields["text"], Unknown)
    assert game.card("cy").fields["rivals"] == ()  # the declared default


# (file, old, new, expected message fragment) — each declared check must catch its violation.
CHECK_VIOLATIONS = [
    ("spells.yaml", "count: 4", "count: 5", "the main deck has 10 cards, not 11 [check deck-size]"),
    (
        "tables.yaml",
        "{players: 3, light: 2, dark: 1,",
        "{players: 3, light: 2, dark: 2,",
        "tables.yaml:12:9: error: 3 players: light + dark must equal players [check sides-add-up]",
    ),
    (
        "tables.yaml",
        "add: {heroes: [cy]}\n      - players: 5",
        "add: {heroes: [cy, cy]}\n      - players: 5",
        "4 players: 5 heroes listed [check heroes-match-players]",
    ),
    (
        "heroes.yaml",
        "count: 3",
        "count: 1",
        "heroes.yaml:16:5: error: hero cy: 1 cards cannot cover the setup table",
    ),
    (
        "tables.yaml",
        'dark: {type: int, expr: "floor(players / 2)"}',
        'dark: {type: int, expr: "ceil(players / 2) + 1"}',
        "3 players: the rule gives light 0 < dark 3 [check light-majority]",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), CHECK_VIOLATIONS)
def test_each_declared_check_catches_its_violation(
    mini: TempProject, file: str, old: str, new: str, expected: str
) -> None:
    mini.replace("mini", file, old, new)
    errors = messages(mini.check("mini"))
    assert any(expected in e for e in errors), errors


SCHEMA_VIOLATIONS = [
    (
        "heroes.yaml",
        "    power: 3\n",
        "    power: 3\n    powr: 4\n",
        "heroes.yaml:8:5: error: card 'ann': unknown key 'powr' for a hero card "
        "(accepted: id, name, count, number, note, art, side, power, text, rivals)",
    ),
    ("heroes.yaml", "id: cy", "id: bob", "duplicate card id 'bob' (first defined at"),
    ("spells.yaml", "caster: ann", "caster: anne", "'caster' refers to 'anne', which is no card"),
    ("spells.yaml", "caster: ann", "caster: zap", "refers to 'zap', a spell card; expected hero"),
    ("heroes.yaml", "rivals: [ann]", "rivals: []", "lists 'bob' in 'rivals', but 'bob' does not"),
    (
        "heroes.yaml",
        "side: dark",
        "side: grey",
        "'side' is 'grey', which is not one of: light, dark",
    ),
    ("heroes.yaml", "power: 4", "power: 10", "'power' must be at most 9, not 10"),
    ("heroes.yaml", "power: 4", "power: four", "'power' must be a whole number"),
    ("heroes.yaml", "    power: 1\n", "", "card 'cy': 'power' is required"),
    ("heroes.yaml", "count: 2", "count: -2", "count must be a whole number >= 0 (0: not printed)"),
    ("tables.yaml", "extends: 4", "extends: 7", "extends 7, but no row has that key (3, 4, 5)"),
    ("tables.yaml", "players: 5\n", "players: 4\n", "duplicate key 4 (first at line 13)"),
    ("heroes.yaml", "type: hero", "type: heroes", "no card type 'heroes' (known: hero, spell)"),
    (
        "game.yaml",
        "layout: poker\n    fields:\n      text",
        "layout: pokr\n    fields:\n      text",
        "no layout 'pokr' in layouts/",
    ),
    ("checks.yaml", 'expect: "count() == 10"', 'expect: "count() == "', "syntax error"),
    (
        "checks.yaml",
        'expect: "count() == 10"',
        "expect: \"cards('heros')\"",
        "no card type 'heros'",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), SCHEMA_VIOLATIONS)
def test_schema_and_reference_errors(mini: TempProject, file: str, old: str, new: str, expected: str) -> None:
    mini.replace("mini", file, old, new)
    errors = messages(mini.check("mini"))
    assert any(expected in e for e in errors), errors


def test_check_touching_an_unknown_warns_instead_of_passing(mini: TempProject) -> None:
    mini.replace("mini", "heroes.yaml", "power: 4", 'power: {unknown: "not printed"}')
    mini.replace(
        "mini",
        "checks.yaml",
        "expect: \"known(card('bob').text) or True\"",
        "expect: \"card('bob').power > 0\"",
    )
    checked = mini.check("mini")
    assert messages(checked) == []
    assert any(
        "check 'bob-text' cannot be evaluated: bob.power is unknown" in w
        for w in messages(checked, "warning")
    )


def test_checks_wait_until_schema_errors_are_fixed(mini: TempProject) -> None:
    mini.replace("mini", "spells.yaml", "caster: ann", "caster: nobody")
    mini.replace("mini", "spells.yaml", "count: 4", "count: 5")
    checked = mini.check("mini")
    errors = messages(checked)
    assert not any("[check deck-size]" in e for e in errors)
    assert any("declared checks were not run" in w for w in messages(checked, "warning"))


def test_expressions_cannot_reach_python_internals(mini: TempProject) -> None:
    mini.replace(
        "mini",
        "checks.yaml",
        'expect: "count() == 10"',
        "expect: \"card('ann').__class__.__name__ == 'x'\"",
    )
    errors = messages(mini.check("mini"))
    assert any("check 'deck-size'" in e and "not available" in e for e in errors), errors


@pytest.mark.parametrize(
    ("expect", "fragment"),
    [
        ("sum(range(10**12)) > 0", "range of 1000000000000 items is too long"),
        ("10 ** 10 ** 10 > 0", "exponent"),
    ],
)
def test_hostile_expressions_fail_fast_with_a_message(mini: TempProject, expect: str, fragment: str) -> None:
    mini.replace("mini", "checks.yaml", 'expect: "count() == 10"', f'expect: "{expect}"')
    errors = messages(mini.check("mini", fit=False))
    assert any("check 'deck-size'" in e and fragment in e for e in errors), errors
