"""The editor's check: each kind of finding on the `quill` fixture, which agrees as written.

Every test changes one side of one comparison and expects exactly that finding; the fixture as
written must give none.
"""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import FIXTURES, REPO, TempProject, messages
from deckwright import consistency
from deckwright.cli import main
from deckwright.consistency.words import pairs, ranges
from deckwright.diagnostics import Diagnostics
from deckwright.pipeline.load import Checked, check_game, load_catalog


@pytest.fixture
def quill(temp_project: TempProject) -> TempProject:
    temp_project.add_game(FIXTURES / "quill")
    shared = temp_project.root / "templates" / "_shared"
    shutil.copytree(REPO / "templates" / "_shared", shared, dirs_exist_ok=True)
    return temp_project


def checked_game(project: TempProject, game: str = "quill") -> Checked:
    """Load and validate the data only: the editor's check needs no card templates."""
    diags = Diagnostics()
    catalog = load_catalog(project.project, diags)
    return check_game(project.project, project.root / "cards" / game, catalog)


def report(project: TempProject, game: str = "quill") -> consistency.Report:
    checked = checked_game(project, game)
    assert checked.ok, messages(checked)
    diags = Diagnostics()
    result = consistency.run(checked.game, diags, project.project.display)
    assert not diags.has_errors, [str(d) for d in diags]
    return result


def found(project: TempProject, kind: str | None = None) -> dict[str, consistency.Finding]:
    return {f.key: f for f in report(project).findings if kind is None or f.kind == kind}


def test_the_fixture_agrees_with_itself(quill: TempProject) -> None:
    result = report(quill)
    assert [f.line() for f in result.findings] == []
    assert any("Peek" in fact for fact in result.facts)  # errata current text = official wording
    assert any("Mend" in fact for fact in result.facts)  # ... once "(clarity only)" is set aside


# --- errata against the official wording -----------------------------------------------------


def test_errata_differs_in_words(quill: TempProject) -> None:
    quill.replace("quill", "spells.yaml", "then put them back.", "then shuffle the deck.")
    (finding,) = found(quill, "errata").values()
    assert finding.key == "errata/s1-peek"
    assert "differs in words" in finding.message
    assert "[-put them back.-] {+shuffle the deck.+}" in finding.message
    assert [s.loc.path for s in finding.sides] == ["cards/quill/tables.yaml", "cards/quill/spells.yaml"]
    assert ("delete", "put them back.") in finding.diff and ("insert", "shuffle the deck.") in finding.diff
    assert re.match(
        r"cards/quill/tables\.yaml:\d+: errata: .*\(see cards/quill/spells\.yaml:\d+\)", finding.line()
    )


def test_errata_differs_only_in_punctuation(quill: TempProject) -> None:
    quill.replace("quill", "spells.yaml", '"Heal 2 damage."', '"Heal 2  damage!"')
    finding = found(quill, "errata")["errata/s2-mend"]
    assert "only in punctuation or spacing" in finding.message


def test_errata_remark_rows_are_not_compared(quill: TempProject) -> None:
    # Gust's "No change — …" cell is a remark (remark_kinds), not a text to compare.
    quill.replace("quill", "spells.yaml", "Move the Wind Token 1 space.", "Move the Wind Token 2 spaces.")
    assert "errata/s3-gust" not in found(quill)


# --- numbers against texts and data -----------------------------------------------------------


def test_note_number_against_card_text(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "looking at 3 cards", "looking at five cards")
    finding = found(quill, "numbers")["table:notes/1|s1-peek|card"]
    assert "“five cards”" in finding.message and "“3 cards”" in finding.message
    assert finding.sides[1].loc.path == "cards/quill/spells.yaml"
    note, card = finding.sides
    assert note.text[slice(*note.marks[0])] == "five cards"
    assert card.text[slice(*card.marks[0])] == "3 cards"


def test_note_number_against_card_data(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "its 2 uses", "its three uses")
    finding = found(quill, "numbers")["table:notes/1|s1-peek|use|uses_per_game"]
    assert "uses_per_game is 2" in finding.message


def test_note_number_words_count_as_numbers(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "its 2 uses", "its two uses")
    quill.replace("quill", "tables.yaml", "looking at 3 cards", "looking at three cards")
    assert found(quill, "numbers") == {}


def test_a_noun_counted_twice_is_left_alone(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "looking at 3 cards", "looking at 3 cards or even 5 cards")
    assert found(quill, "numbers") == {}


def test_range_in_prose_against_a_card_type(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "ritual track (0–6)", "ritual track (0–8)")
    finding = found(quill, "numbers")["table:rules/board.text|board.ritual_track"]
    assert "“0–8”" in finding.message and "0–6" in finding.message
    assert finding.sides[1].loc.path == "cards/quill/board.yaml"


def test_range_in_a_row_against_its_own_columns(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", 'players: "2–4"', 'players: "2–5"')
    assert list(found(quill, "numbers")) == ["table:modes/standard.players|players"]


def test_pairs_and_ranges_heuristics() -> None:
    said = [
        (p.number, p.head)
        for p in pairs("peek at 5 cards; the 6th card; gain +2 MP; one-use; 48.0% of 27-B/6")
    ]
    assert said == [(5, "card"), (1, "use")]
    (r,) = ranges("the Devotion track (0–8), and")
    assert (r.low, r.high, r.before) == (0, 8, ("devotion", "track"))


# --- limits the data can exceed ---------------------------------------------------------------


def test_limit_respects_exclusive_cards(quill: TempProject) -> None:
    # Growth + Bounty would reach 3 + 2 + 2 = 7 > 6, but the two are incompatible.
    assert found(quill, "limits") == {}
    quill.replace("quill", "gods.yaml", "incompatible_with: [b1-bounty]", "incompatible_with: []")
    quill.replace("quill", "boons.yaml", "incompatible_with: [o1-growth]", "incompatible_with: []")
    finding = found(quill, "limits")["steps|steps"]
    assert "O1 Growth + B1 Bounty reaches 7 (3 + 2 + 2)" in finding.message
    assert "more than the 6 ritual track spaces and the 6 Step Markers" in finding.message
    assert {s.loc.path for s in finding.sides} == {
        "cards/quill/tables.yaml",
        "cards/quill/board.yaml",
        "cards/quill/pieces.yaml",
    }


def test_limit_against_the_smallest_bound(quill: TempProject) -> None:
    quill.replace("quill", "pieces.yaml", "count: 6", "count: 5")
    finding = found(quill, "limits")["steps|steps"]
    assert "reaches 6" in finding.message and "more than the 5 Step Markers" in finding.message
    assert "ritual track spaces" not in finding.message.split("more than")[1]


def test_limit_with_an_unknown_contribution(quill: TempProject) -> None:
    quill.replace(
        "quill",
        "tables.yaml",
        "{id: b2-haste, cards: [b2-haste], steps: 1}",
        '{id: b2-haste, cards: [b2-haste], steps: {unknown: "Haste prints no limit."}}',
    )
    finding = found(quill, "limits")["steps|steps"]
    assert "B2 Haste sets no limit (Haste prints no limit.)" in finding.message


def test_limit_declaration_errors_are_reported(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "type: board, field: ritual_track_max", "type: bored, field: x")
    checked = checked_game(quill)
    diags = Diagnostics()
    consistency.run(checked.game, diags)
    assert any("no card type 'bored'" in str(d) for d in diags.errors)


# --- text lint --------------------------------------------------------------------------------


def test_cut_off_sentence(quill: TempProject) -> None:
    quill.replace("quill", "spells.yaml", "Play it with S2 if you like.", "Play it with S2 if")
    finding = found(quill, "lint")["cut-off card:s3-gust.text"]
    assert finding.message.endswith("ends mid-sentence: “…space. Play it with S2 if”")


def test_unfinished_fragments_are_not_cut_off(quill: TempProject) -> None:
    # Texts of a kind that never end with punctuation (the modes' players: "2–4") are fragments.
    quill.replace("quill", "tables.yaml", 'players: "2–4"', 'players: "2–4 and the"')
    assert not [k for k in found(quill, "lint") if k.startswith("cut-off")]


def test_unmatched_brackets_and_quotes(quill: TempProject) -> None:
    quill.replace("quill", "gods.yaml", '"Nothing happens."', "'Nothing (really) “happens.'")
    quill.replace("quill", "boons.yaml", '"The ritual grows once."', "'The \"ritual grows once.'")
    keys = set(found(quill, "lint"))
    assert keys == {"unmatched “ card:o2-calm.text", 'unmatched " card:b2-haste.text'}


def test_term_spelled_two_ways(quill: TempProject) -> None:
    quill.replace("quill", "gods.yaml", "Nothing happens.", "The colour fades.")
    quill.replace("quill", "boons.yaml", "The ritual grows once.", "The ritual grows once; the color fades.")
    finding = found(quill, "lint")["spelling color/colour"]
    assert "“colour” (1×)" in finding.message and "“color” (1×)" in finding.message
    assert {s.loc.path for s in finding.sides} == {"cards/quill/gods.yaml", "cards/quill/boons.yaml"}


def test_doubled_space(quill: TempProject) -> None:
    quill.replace("quill", "gods.yaml", "Nothing happens.", "Nothing  happens.")
    assert list(found(quill, "lint")) == ["double-space card:o2-calm.text"]


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("Play it with S4 if you like.", "reference S4 card:s3-gust.text"),
        ("Play it with Spell 9 if you like.", "reference Spell 9 card:s3-gust.text"),
        ("Play it with S2 (Peek) if you like.", "reference S2 card:s3-gust.text"),
        ("Play it with Peek (S7) if you like.", "reference S7 card:s3-gust.text"),
        ("Play it with Peek (S2) if you like.", "reference s1-peek(S2) card:s3-gust.text"),
        ("Play it with Spell 2 - Mend, see table:nope.", "reference table:nope card:s3-gust.text"),
    ],
)
def test_references_to_nothing(quill: TempProject, written: str, key: str) -> None:
    quill.replace("quill", "spells.yaml", "Play it with S2 if you like.", written)
    assert list(found(quill, "lint")) == [key]


def test_component_called_by_a_name_it_does_not_have(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "Move the Wind Token when", "Move the wind marker when")
    finding = found(quill, "lint")["component-name wind marker"]
    assert "“wind marker” names no component of the game (it has the Wind Token)" in finding.message


# --- acknowledgements -------------------------------------------------------------------------


def test_acknowledged_findings_are_set_aside(quill: TempProject) -> None:
    quill.replace("quill", "gods.yaml", "Nothing happens.", "Nothing  happens.")
    quill.path("quill", "acknowledged.yaml").write_text(
        "acknowledged:\n"
        "  - kind: lint\n"
        '    key: "double-space card:o2-calm.text"\n'
        '    reason: "As printed; the next print run fixes it."\n',
        encoding="utf-8",
    )
    result = report(quill)
    assert result.findings == ()
    ((finding, ack),) = result.acknowledged
    assert finding.key == ack.key and ack.reason == "As printed; the next print run fixes it."


def test_an_acknowledgement_that_matches_nothing_is_reported(quill: TempProject) -> None:
    quill.path("quill", "acknowledged.yaml").write_text(
        "acknowledged:\n  - kind: lint\n    key: cut-off card:nope.text\n    reason: old\n", encoding="utf-8"
    )
    (finding,) = report(quill).findings
    assert finding.kind == "acknowledgement"
    assert finding.line().startswith("cards/quill/acknowledged.yaml:2: acknowledgement: ")


def test_a_bad_acknowledgement_file_is_an_error(quill: TempProject) -> None:
    quill.path("quill", "acknowledged.yaml").write_text(
        "acknowledged:\n  - kind: lint\n    key: x\n", encoding="utf-8"
    )
    checked = checked_game(quill)
    diags = Diagnostics()
    consistency.run(checked.game, diags, quill.project.display)
    assert [str(d) for d in diags.errors] == [
        "cards/quill/acknowledged.yaml:2:5: error: acknowledgement #1 is missing required key 'reason'"
    ]


# --- the command line -------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_command_exit_codes_and_page(quill: TempProject, capsys) -> None:
    root = str(quill.root)
    code, out, err = run(capsys, "--project", root, "check", "--strict")
    assert (code, out) == (0, "")
    assert "quill: 0 findings (none)" in err
    quill.replace("quill", "gods.yaml", "Nothing happens.", "Nothing  happens.")
    code, out, err = run(capsys, "--project", root, "check")
    assert code == 0
    assert re.fullmatch(r"cards/quill/gods\.yaml:\d+: lint: .* \[double-space card:o2-calm\.text\]\n", out)
    assert "quill: 1 findings (lint 1)" in err
    page = (quill.root / "build" / "quill" / "check.html").read_text(encoding="utf-8")
    assert "double-space card:o2-calm.text" in page and "<mark>  </mark>" in page
    code, *_ = run(capsys, "--project", root, "check", "--strict", "quill")
    assert code == 1
    code, _, err = run(capsys, "--project", root, "check", "nope")
    assert code == 2 and "no game 'nope'" in err


def test_check_page_escapes_game_text(quill: TempProject, capsys) -> None:
    quill.replace("quill", "gods.yaml", '"Nothing happens."', '"Nothing <b>happens</b>.  Really."')
    code, *_ = run(capsys, "--project", str(quill.root), "check")
    page = (quill.root / "build" / "quill" / "check.html").read_text(encoding="utf-8")
    assert code == 0
    assert "&lt;b&gt;happens&lt;/b&gt;" in page and "<b>happens</b>" not in page


def test_editor_declarations_are_validated(quill: TempProject) -> None:
    quill.replace("quill", "tables.yaml", "current: current\n", "current: draft\n")
    quill.replace("quill", "tables.yaml", "editor: {about: subject}", "editor: {about: text, extra: 1}")
    errors = messages(checked_game(quill))
    assert any("editor.errata: current names no column 'draft'" in e for e in errors), errors
    assert any("about names 'text', which is no ref column" in e for e in errors), errors
    assert any("unknown key 'extra' in table 'notes': editor" in e for e in errors), errors
