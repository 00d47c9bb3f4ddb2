"""Editions: `deckwright diff`, `errata --since` and `changelog` on a small game kept in a
temporary git repository (three commits of the mini fixture), compared through the loader."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from deckwright.diagnostics import Diagnostics
from deckwright.editions.changelog import END, START, fill_chapter
from deckwright.editions.diff_rulebook import paragraphs
from deckwright.editions.errata_draft import propose_kind
from deckwright.outputs.errata import lines as errata_lines
from deckwright.pipeline.load import check_game, load_catalog

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Editor",
    "GIT_AUTHOR_EMAIL": "editor@example.org",
    "GIT_COMMITTER_NAME": "Editor",
    "GIT_COMMITTER_EMAIL": "editor@example.org",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}

ERRATA = """\
tables:
  errata:
    title: Errata
    key: card
    editor:
      errata: {}
    columns:
      card: {type: str}
      cards: {type: list, of: {type: ref, to: [hero, spell]}}
      printed: {type: text}
      current: {type: text}
      kind: {type: enum, values: [wording, rules-change, clarification]}
    rows:
      - card: Ann
        cards: [ann]
        printed: "Draw a card."
        current: "Draw 1 card."
        kind: wording
  tips:
    title: Tips
    key: id
    columns:
      id: {type: str}
      text: {type: text}
    rows:
      - {id: start, text: "Shuffle the main deck."}
      - {id: turn, text: "Play one card a turn."}
      - {id: end, text: "The game ends when the deck runs out."}
"""

RULES = f"""\
# Rules

Each player takes {{card:ann}} or {{card:cy}}.

Play one card a turn.

# Changes

{START}
{END}
"""


def git(root: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.rstrip("\n")


def commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class Repo:
    """The mini game in git: v1 (tagged mini/v1), v2 (edits of every kind), v3 (a card's new
    id with the same text)."""

    def __init__(self, root: Path) -> None:
        self.project = TempProject(root)
        self.root = root
        self.project.add_game(FIXTURES / "mini")
        game = root / "cards" / "mini"
        (game / "errata.yaml").write_text(ERRATA, encoding="utf-8")
        (game / "rulebook").mkdir()
        (game / "rulebook" / "01-rules.md").write_text(RULES, encoding="utf-8")
        (root / ".gitignore").write_text("build/\n", encoding="utf-8")
        git(root, "init", "-q", "-b", "main")
        self.v1 = commit(root, "v1")
        git(root, "tag", "mini/v1")
        edit = self.project.replace
        edit("mini", "heroes.yaml", 'text: "Draw 1 card."', 'text: "Draw 2 cards."')
        edit("mini", "heroes.yaml", "name: Cy\n", "name: Cyra\n")
        edit("mini", "heroes.yaml", "name: Ann\n    count: 2", "name: Ann\n    count: 3")
        edit("mini", "spells.yaml", "count: 4", "count: 3")
        edit("mini", "errata.yaml", "Play one card a turn.", "Play up to two cards a turn.")
        edit("mini", "errata.yaml", '      - {id: end, text: "The game ends when the deck runs out."}\n', "")
        edit(
            "mini",
            "errata.yaml",
            "      - {id: start,",
            '      - {id: score, text: "Count your heroes."}\n      - {id: start,',
        )
        edit(
            "mini",
            "checks.yaml",
            'message: "the main deck has 10 cards',
            'message: "the main deck holds 10 cards',
        )
        edit("mini", "rulebook/01-rules.md", "Play one card a turn.", "Play up to two cards a turn.")
        self.v2 = commit(root, "v2")
        edit("mini", "spells.yaml", "id: zap", "id: zap-bolt")
        self.v3 = commit(root, "v3")


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Repo:
    return Repo(tmp_path_factory.mktemp("editions") / "project")


def test_nothing_changed_exits_0(repo: Repo, capsys) -> None:
    code, out, err = run(capsys, "--project", str(repo.root), "diff", "mini", "--no-page")
    assert code == 0, err
    assert out == ""
    assert "0 changes (none)" in err


def test_each_kind_of_change(repo: Repo, capsys) -> None:
    code, out, err = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from", "mini/v1", "--to", repo.v2
    )
    assert code == 1, err
    lines = out.splitlines()
    # path:line: kind: message, each at the new version's place
    assert all(re.match(r"^cards/mini/[\w./-]+:\d+: [a-z-]+: ", line) for line in lines), out
    heroes = (repo.root / "cards/mini/heroes.yaml").read_text().splitlines()
    text_line = next(n for n, line in enumerate(heroes, 1) if "Draw 2 cards." in line)
    assert f"cards/mini/heroes.yaml:{text_line}: field: Ann: text: Draw [-1 card.-] {{+2 cards.+}}" in lines
    assert any(re.search(r": card-renamed: cy: renamed “Cy” → “Cyra”$", line) for line in lines)
    assert any(line.endswith("count: Ann: count 2 → 3") for line in lines)
    assert any(line.endswith("count: Zap: count 4 → 3") for line in lines)
    assert any(
        line.endswith("row: Tips, turn: text: Play [-one card-] {+up to two cards+} a turn.")
        for line in lines
    )
    assert any("row-added: Tips, score: row added" in line for line in lines)
    assert any("row-removed: Tips, end: row removed" in line for line in lines)
    assert any("check: check 'deck-size': message:" in line and "[-has-] {+holds+}" in line for line in lines)
    paragraph = [line for line in lines if ": paragraph: " in line]
    assert paragraph == [
        "cards/mini/rulebook/01-rules.md:5: paragraph: 01-rules.md, paragraph 3 changed: "
        "Play [-one card-] {+up to two cards+} a turn."
    ]
    # what it means for print: two fronts, the deck (counts too), the TGC images, the rulebook
    prints = [line.split(": print: ", 1)[1] for line in lines if ": print: " in line]
    assert prints[0] == "card images: 2 faces change: ann-front, cy-front"
    assert "decks: main (2 faces and card counts)" in prints
    tgc = next(p for p in prints if p.startswith("TGC images"))
    assert "tgc/main/ann-front.png (changed)" in tgc and "tgc/manifest.csv (changed)" in tgc
    assert "zap-front" not in tgc
    assert any(p.startswith("print-and-play: pnp-a4.pdf") for p in prints)
    rulebook = [p for p in prints if p.startswith("rulebook: ")]
    assert rulebook == [
        "rulebook: chapters changed: cards/mini/rulebook/01-rules.md",
        "rulebook: cards/mini/rulebook/01-rules.md:3 prints changed data: {card:cy}",  # the name
    ]


def test_the_page_shows_old_new_and_difference(repo: Repo, capsys) -> None:
    code, _, _ = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from", "mini/v1", "--to", repo.v2
    )
    assert code == 1
    folder = repo.root / "build/mini/diff"
    html = (folder / "index.html").read_text(encoding="utf-8")
    for side in ("old", "new", "diff"):
        assert f'src="faces/ann-front-{side}.png"' in html
        assert (folder / f"faces/ann-front-{side}.png").is_file()
    assert "zap-front" not in html  # an unchanged face is not shown
    assert "<del>1 card.</del> <ins>2 cards.</ins>" in html  # the word diff beside the faces
    old = Image.open(folder / "faces/ann-front-old.png").convert("RGB")
    new = Image.open(folder / "faces/ann-front-new.png").convert("RGB")
    delta = Image.open(folder / "faces/ann-front-diff.png").convert("RGB")
    assert old.size == new.size == delta.size
    assert old.tobytes() != new.tobytes()
    colours = dict((colour, n) for n, colour in delta.getcolors(delta.size[0] * delta.size[1]))
    red = colours.get((220, 20, 60), 0)
    assert 50 < red < delta.size[0] * delta.size[1] // 5  # the changed words, not the whole card
    # the name was drawn in the same place in both: no red where the title is
    top = delta.crop((0, 0, delta.size[0], delta.size[1] // 12))
    assert (220, 20, 60) not in {colour for _, colour in top.getcolors(top.size[0] * top.size[1])}


def test_a_new_id_with_the_same_text_is_a_rename(repo: Repo, capsys) -> None:
    code, out, _ = run(
        capsys,
        "--project",
        str(repo.root),
        "diff",
        "mini",
        "--from",
        repo.v2,
        "--to",
        repo.v3,
        "--format",
        "json",
    )
    assert code == 1
    payload = json.loads(out)
    kinds = [(c["kind"], c["card"], c["old_card"]) for c in payload["changes"]]
    assert kinds == [("card-renamed", "zap-bolt", "zap")]
    assert [f["name"] for f in payload["faces"]] == []  # the face draws no id: it looks the same
    # a stricter rule than the texts' likeness is no rename
    code, out, _ = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from", repo.v1, "--to", repo.v3, "--no-page"
    )
    assert "card-renamed: Zap (zap) is now Zap (zap-bolt)" in out
    assert "card-added" not in out and "card-removed" not in out


def test_different_text_under_a_new_id_is_added_and_removed(repo: Repo, capsys, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(repo.root / "cards/mini", old)
    spells = (old / "spells.yaml").read_text(encoding="utf-8").replace("id: zap-bolt", "id: zap")
    (old / "spells.yaml").write_text(spells, encoding="utf-8")
    # the same text under the old id: a rename
    code, out, _ = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from-path", str(old), "--no-page"
    )
    assert code == 1
    assert out.splitlines() == [
        "cards/mini/spells.yaml:3: card-renamed: Zap (zap) is now Zap (zap-bolt): "
        "a new id with the same text",
        # the face looks the same, but the TGC files are named by id
        "cards/mini/game.yaml:2: print: TGC images: tgc/main/zap-bolt-front.png (added), "
        "tgc/manifest.csv (changed), tgc/main/zap-front.png (removed)",
    ]
    # another text: a card removed and one added
    (old / "spells.yaml").write_text(spells.replace("Deal 2 damage.", "Discard your hand."), encoding="utf-8")
    code, out, _ = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from-path", str(old), "--no-page"
    )
    assert code == 1
    assert re.search(
        r"^cards/mini/spells\.yaml:3: card-added: Zap \(spell, zap-bolt\) added, count 3$", out, re.M
    )
    assert re.search(r"^cards/mini/spells\.yaml:3: card-removed: Zap \(spell, zap\) removed", out, re.M)
    # identical folders: exit 0
    code, out, _ = run(
        capsys, "--project", str(repo.root), "diff", "mini", "--from-path", str(repo.root), "--no-page"
    )
    assert (code, out) == (0, "")


def test_working_tree_edits_are_compared_without_touching_git(repo: Repo, capsys) -> None:
    heroes = repo.root / "cards/mini/heroes.yaml"
    before = heroes.read_text(encoding="utf-8")
    status = git(repo.root, "status", "--porcelain")
    try:
        heroes.write_text(before.replace('text: "Heal 2."', 'text: "Heal 3."'), encoding="utf-8")
        code, out, _ = run(capsys, "--project", str(repo.root), "diff", "mini", "--no-page")
        assert code == 1
        assert out.splitlines()[0].endswith("field: Cyra: text: Heal [-2.-] {+3.+}")
        assert git(repo.root, "status", "--porcelain") == " M cards/mini/heroes.yaml"
        assert git(repo.root, "rev-parse", "HEAD") == repo.v3
    finally:
        heroes.write_text(before, encoding="utf-8")
    assert git(repo.root, "status", "--porcelain") == status


def test_usage_errors_exit_2(repo: Repo, capsys, temp_project: TempProject) -> None:
    code, out, err = run(capsys, "--project", str(repo.root), "diff", "mini", "--from", "no-such-tag")
    assert (code, out) == (2, "")
    assert "unknown revision 'no-such-tag'" in err and "Traceback" not in err
    code, _, err = run(capsys, "--project", str(repo.root), "errata", "mini", "--since", "v9")
    assert code == 2 and "unknown revision 'v9'" in err
    temp_project.add_game(FIXTURES / "mini")  # a project that is not in git
    code, _, err = run(capsys, "--project", str(temp_project.root), "diff", "mini")
    assert code == 2
    assert "is not in a git repository" in err
    code, _, err = run(capsys, "--project", str(repo.root), "diff", "mini", "--from-path", "/nonexistent")
    assert code == 2 and "not a game folder" in err


def test_errata_draft_in_the_games_format(repo: Repo, capsys, tmp_path: Path) -> None:
    code, out, err = run(
        capsys, "--project", str(repo.root), "errata", "mini", "--since", "mini/v1", "-o", "-"
    )
    assert code == 0, err
    assert "1 errata drafted for cards printed in mini/v1" in err
    assert out.splitlines()[4] == "rows:"
    assert "proposed kind rules-change (a number changed: 1 → 2)" in out
    assert "the row at cards/mini/errata.yaml:14 gives this printed text as its current text" in out
    assert '  - card: "Ann (printed mini/v1)"' in out  # the key "Ann" is the earlier printing's
    assert 'printed: "Draw 1 card."' in out and 'current: "Draw 2 cards."' in out
    assert "Cyra" not in out  # a new name is no rules text
    # the editor pastes the rows: the game validates and the errata outputs list them
    copy = TempProject(tmp_path / "copy")
    copy.add_game(repo.root / "cards/mini", templates=repo.root / "templates/mini")
    table = copy.path("mini", "errata.yaml")
    rows = out.split("rows:\n", 1)[1]
    block = "".join("    " + line + "\n" for line in rows.splitlines())  # under the table's rows:
    text = table.read_text(encoding="utf-8").replace("  tips:\n", block + "  tips:\n", 1)
    table.write_text(text, encoding="utf-8")
    diags = Diagnostics()
    checked = check_game(copy.project, copy.root / "cards/mini", load_catalog(copy.project, diags))
    assert checked.ok, [str(d) for d in checked.diags.errors]
    drafted = [line for line in errata_lines(checked.game) if line.card == "Ann (printed mini/v1)"]
    assert [(d.printed, d.current, d.change) for d in drafted] == [
        ("Draw 1 card.", "Draw 2 cards.", "rules change")
    ]
    # by default the draft goes to build/; never into the game's folder
    code, _, err = run(capsys, "--project", str(repo.root), "errata", "mini", "--since", "mini/v1")
    assert code == 0 and (repo.root / "build/mini/errata-draft.yaml").is_file()
    target = repo.root / "cards/mini/errata.yaml"
    before = target.read_bytes()
    code, _, err = run(
        capsys, "--project", str(repo.root), "errata", "mini", "--since", "mini/v1", "-o", str(target)
    )
    assert code == 2 and "not written into the game's folder" in err
    assert target.read_bytes() == before


def test_errata_already_in_the_table_are_not_drafted(repo: Repo, capsys) -> None:
    code, out, err = run(capsys, "--project", str(repo.root), "errata", "mini", "--since", repo.v2, "-o", "-")
    assert code == 0
    assert "0 errata drafted" in err and "Nothing to draft." in out  # v3 renamed an id only


def test_proposed_kinds() -> None:
    assert propose_kind("Draw 1 card.", "Draw 2 cards.")[0] == "rules"
    assert propose_kind("Heal 2 damage", "Heal 2 damage.")[0] == "wording"
    assert propose_kind("Heal 2 damage.", "Heal 2 damage (to a hero you choose).")[0] == "clarification"
    assert propose_kind("Heal 2 damage.", "Do not heal 2 damage.")[0] == "rules"  # a negation added
    assert propose_kind("Gain the card.", "Gain a card.")[0] == "wording"
    assert propose_kind("Discard a card.", "Draw a card.")[0] == "rules"


def test_changelog_since_the_previous_editions_tag(repo: Repo, capsys) -> None:
    chapter = repo.root / "cards/mini/rulebook/01-rules.md"
    before = chapter.read_text(encoding="utf-8")
    try:
        code, _, err = run(capsys, "--project", str(repo.root), "changelog", "mini")
        assert code == 0, err
        log = (repo.root / "build/mini/changelog.md").read_text(encoding="utf-8")
        assert log.startswith("# Mini & Co — changes since mini/v1 (")
        assert "## Cards\n\n### Cards renamed\n\n" in log
        assert "- Ann (text): Draw ~~1 card.~~ **2 cards.**" in log
        assert "### Counts\n\n- Ann: count 2 → 3\n" in log
        assert "## Rules tables" in log and "## Checks" in log and "## Rulebook" in log
        filled = chapter.read_text(encoding="utf-8")
        assert filled.startswith(before.split(START)[0])  # the designer's part stays
        assert "Changes since mini/v1." in filled and "### Cards" in filled
        # the filled chapter is valid rulebook prose
        diags = Diagnostics()
        checked = check_game(
            repo.project.project, repo.root / "cards/mini", load_catalog(repo.project.project, diags)
        )
        assert checked.ok, [str(d) for d in checked.diags.errors]
    finally:
        chapter.write_text(before, encoding="utf-8")
    # --to a tagged commit: the edition before it; none before the first
    code, _, err = run(capsys, "--project", str(repo.root), "changelog", "mini", "--to", "mini/v1")
    assert code == 2 and "no edition before it" in err


def test_fill_chapter_needs_both_markers() -> None:
    assert fill_chapter("# Rules\n\nNo markers.\n", "v1", []) is None
    filled = fill_chapter(f"# Changes\n\n{START}\nold text\n{END}\n", "v1", [])
    assert filled == f"# Changes\n\n{START}\n\nChanges since v1.\n\nNo changes.\n\n{END}\n"


def test_paragraphs_carry_their_first_line() -> None:
    assert paragraphs("# A\n\none\ntwo\n\n\nthree\n") == [(1, "# A"), (3, "one\ntwo"), (7, "three")]


def test_a_kind_the_table_marks_in_the_current_cell_is_marked() -> None:
    from deckwright.editions.errata_draft import _marker

    assert _marker(("(clarity only)",), "clarity-only") == " (clarity only)"
    assert _marker(("(clarity only)",), "rules-change") == ""


def test_a_game_without_errata_table_gets_a_whole_table_file(mini: TempProject) -> None:
    from deckwright.editions.errata_draft import draft_entries, draft_yaml

    diags = Diagnostics()
    layouts = load_catalog(mini.project, diags)
    printed = check_game(mini.project, mini.root / "cards/mini", layouts).game
    mini.replace("mini", "spells.yaml", "Deal 2 damage.", "Deal 2 damage to one hero.")
    current = check_game(mini.project, mini.root / "cards/mini", layouts).game
    entries = draft_entries(printed, current)
    assert [(e.card.id, e.kind, e.status) for e in entries] == [("zap", "rules", "new")]  # "one"
    draft = draft_yaml(current, entries, "v1", "v1")
    assert "save it as mini/errata.yaml" in draft
    mini.path("mini", "errata.yaml").write_text(draft, encoding="utf-8")
    checked = check_game(mini.project, mini.root / "cards/mini", layouts)
    assert checked.ok, [str(d) for d in checked.diags.errors]
    assert [(r.card, r.printed, r.current, r.change) for r in errata_lines(checked.game)] == [
        ("Zap", "Deal 2 damage.", "Deal 2 damage to one hero.", "rules change")
    ]
