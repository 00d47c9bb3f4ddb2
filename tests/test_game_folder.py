"""A designer's own game folder, outside any project: `deckwright new`, spreadsheets, ids from
names, art by file name, build folders that hold what the last build made, and every bad input
reported with its message, location and exit code (issue 13)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from conftest import REPO
from deckwright.cli import main
from deckwright.project import DEFAULTS

# Several card types in one spreadsheet, names in several scripts, German Excel's separator.
CARAVAN = (
    "Name;Type;Cost;Text;Flavour;Count \n"
    "Händler Günther;Trader;2;Gain {G}{G}.;Ein ehrlicher Mann.;2\n"
    "Łódź Spices;Good;1;Worth {G} at the end of the game.;;3\n"
    "Ἑρμῆς;Hero;5;{A}{A}. Draw a card {C}.;The messenger.;1\n"
    "Rosenöl;Good;3;Worth {G}{G}.;;2\n"
    "Rosen-L;Good;2;Worth {G}, and another {G} with Rosenöl.;;1\n"
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def art_png(path: Path, size=(720, 440)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, (120, 90, 60)).save(path)


@pytest.fixture
def caravan(tmp_path: Path, capsys, monkeypatch) -> Path:
    """A game made with `deckwright new --from-csv`, from a folder outside the repository."""
    assert REPO not in tmp_path.parents
    source = tmp_path / "sheets" / "caravan.csv"
    source.parent.mkdir()
    source.write_text(CARAVAN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "new", "caravan", "--size", "mini", "--from-csv", str(source))
    assert code == 0, err
    assert "5 cards (trader, good, hero) on mini cards" in err
    return tmp_path / "caravan"


def test_new_game_from_a_spreadsheet_builds_anywhere(caravan: Path, tmp_path: Path, capsys, monkeypatch):
    game = (caravan / "game.yaml").read_text(encoding="utf-8")
    assert "id: caravan" in game
    for type_id in ("trader:", "good:", "hero:"):
        assert type_id in game
    assert "layout: mini" in game
    assert "flavour: {type: str, required: false}" in game
    art_png(caravan / "art" / "handler-gunther.png")
    art_png(caravan / "art" / "lodz-spice.png")  # a typo: matches no card

    monkeypatch.chdir(caravan)
    code, out, err = run(capsys, "build")  # no argument: the game of the current folder
    assert code == 0, err
    build = caravan / "build"
    assert f"caravan: 15 files in {build}{'/'}" in out
    assert re.search(
        r"^art/lodz-spice\.png:1:1: warning: art file 'lodz-spice\.png' matches no card id "
        r"\(did you mean lodz-spices\.png\?\)",
        err,
        re.M,
    )
    assert re.search(
        r"^game\.yaml:1:1: warning: 4 cards with an art slot but no art: "
        r"lodz-spices, ermes, rosenol, rosen-l ",
        err,
        re.M,
    )
    cards = sorted(p.name for p in (build / "cards").iterdir())
    ids = ["ermes", "handler-gunther", "lodz-spices", "rosen-l", "rosenol"]
    assert cards == sorted(
        ["back-card.png", "back-card.svg"] + [f"{i}-front.{e}" for i in ids for e in ("png", "svg")]
    )
    assert "data:image/png;base64" in (build / "cards" / "handler-gunther-front.svg").read_text()
    assert "data:image/png;base64" not in (build / "cards" / "ermes-front.svg").read_text()
    assert (build / "pnp-a4.pdf").is_file() and (build / "proofs").is_dir()
    assert not (REPO / "build" / "caravan").exists()

    # up to date: the last build's warnings are still told, in one line or in full
    code, out, err = run(capsys, "build")
    assert code == 0 and "caravan: up to date" in out
    assert "caravan: 2 warnings from the last build (--verbose lists them)" in err
    code, out, err = run(capsys, "build", "--verbose")
    assert "matches no card id" in err

    # from elsewhere, by path; then a card is deleted: its images leave the build folder
    monkeypatch.chdir(tmp_path)
    (build / "notes.txt").write_text("mine", encoding="utf-8")
    (caravan / "cards.csv").write_text(
        "\n".join(line for line in CARAVAN.splitlines() if not line.startswith("Rosen-L")) + "\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "build", "caravan", "--only", "cards")
    assert code == 0, err
    assert "2 no longer made, removed" in out
    left = sorted(p.name for p in (build / "cards").iterdir())
    assert "rosen-l-front.png" not in left and "rosen-l-front.svg" not in left
    assert "rosenol-front.png" in left
    assert (build / "notes.txt").read_text(encoding="utf-8") == "mine"  # not made by a build: kept
    assert (build / "pnp-a4.pdf").is_file()  # made by a build of another kind: kept
    assert (caravan / "cards.csv").is_file() and (caravan / "art" / "lodz-spice.png").is_file()

    # --out: another folder, named in the messages
    out_dir = tmp_path / "elsewhere"
    code, out, err = run(capsys, "build", str(caravan), "--only", "cards", "--out", str(out_dir))
    assert code == 0, err
    assert f"files in {out_dir}/" in out
    assert (out_dir / "cards" / "ermes-front.png").is_file()


def test_new_game_starts_with_the_sample_and_any_layout(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "new", "deck", "--size", "nope")
    assert code == 2
    assert "no layout 'nope' (card layouts: poker," in err
    code, _, err = run(capsys, "new", "deck", "--size", "square")
    assert code == 0, err
    code, _, err = run(capsys, "new", "deck")
    assert code == 2 and "already holds a game" in err
    code, _, err = run(capsys, "build", "deck", "--only", "cards")
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "deck" / "build" / "cards").glob("*.png"))
    assert names == ["back-card.png", "market-stall-front.png", "raider-front.png", "town-guard-front.png"]
    with Image.open(tmp_path / "deck" / "build" / "cards" / "raider-front.png") as img:
        assert img.size == (1125, 1125)  # a 3.5 in square card with 1/8 in bleed at 300 DPI
    code, _, err = run(capsys, "validate", "deck", "--verbose")
    assert code == 0
    templates = str((tmp_path / "deck" / "templates").resolve())
    assert f"templates: {templates}, then the starter theme (built in)" in err
    assert "fonts: built in (deckwright/defaults/fonts)" in err
    assert "layouts: built in (deckwright/defaults/layouts)" in err


def test_project_option_with_a_relative_game_path(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "windbasar")[0] == 0
    monkeypatch.chdir(tmp_path / "windbasar" / "art")
    code, out, err = run(capsys, "--project", str(REPO), "validate", "..")
    assert code == 0, out + err
    assert "windbasar: ok" in err


def test_list_outside_any_project_or_game_is_a_usage_error(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "list")
    assert code == 2
    assert "no project or game folder here" in err and "deckwright new PATH" in err
    run(capsys, "new", "solo")
    monkeypatch.chdir(tmp_path / "solo")
    code, out, _ = run(capsys, "list")
    assert code == 0 and out.startswith("solo\tSolo — Playtest 1\t2-4 players\t6 cards")


# -- bad inputs: message, location, exit code --------------------------------------------------


def make(tmp_path: Path, capsys, monkeypatch, csv_text: str | bytes, name: str = "g") -> Path:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", name)[0] == 0
    path = tmp_path / name / "cards.csv"
    if isinstance(csv_text, bytes):
        path.write_bytes(csv_text)
    else:
        path.write_text(csv_text, encoding="utf-8")
    return tmp_path / name


def test_unknown_icon_is_an_error_in_validate_and_build(tmp_path, capsys, monkeypatch):
    make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\nMint,2,Gain {GOLD}.,,1\n")
    code, out, err = run(capsys, "validate", "g", "--strict")
    assert code == 1
    message = "card 'mint': text: unknown icon {GOLD} (icons in style.yaml: {G}, {A}, {D}, {C}, {T})"
    assert f"cards.csv:2:8: error: {message}" in out
    code, out, err = run(capsys, "build", "g", "--only", "cards")
    assert code == 1
    assert f"cards.csv:2:8: error: {message}" in err


def test_a_face_that_cannot_be_drawn_is_an_error_at_its_style(tmp_path, capsys, monkeypatch):
    game = make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\nMint,2,Gain {G}.,,1\n")
    style = game / "templates" / "style.yaml"
    text = style.read_text(encoding="utf-8")
    style.write_text(text.replace("title: {font: libertine", "title: {font: eb-garamond"), encoding="utf-8")
    line = next(i for i, s in enumerate(style.read_text().splitlines(), 1) if s.startswith("  title:"))
    code, _, err = run(capsys, "build", "g", "--only", "cards")
    assert code == 1
    assert (
        f"templates/style.yaml:{line}:10: error: text style 'title': font 'EB Garamond': its bold face "
        "(EBGaramond12-Bold.otf) cannot be drawn: the font matching cairo uses picks "
        "EBGaramond12-Regular.otf instead (the file covers too few characters); "
        "faces that draw: regular, italic"
    ) in err
    style.write_text(text.replace("flavor: {font: libertine", "flavor: {font: gamaliel"), encoding="utf-8")
    code, _, err = run(capsys, "build", "g", "--only", "cards")
    assert code == 1
    assert "text style 'flavor': font 'Gamaliel' has no italic face (faces: regular)" in err


def test_header_typo_is_one_error_at_the_header(tmp_path, capsys, monkeypatch):
    make(tmp_path, capsys, monkeypatch, "name,cots,text,flavor,count\nA,1,x,,1\nB,2,y,,1\nC,3,z,,1\n")
    code, out, _ = run(capsys, "validate", "g")
    assert code == 1
    errors = [line for line in out.splitlines() if ": error: " in line]
    assert errors == [
        "cards.csv:1:6: error: unknown column 'cots' (did you mean `cost`?): not a field of card type "
        "'card' (accepted: id, name, count, number, note, art, cost, text, flavor)",
    ]
    make(tmp_path, capsys, monkeypatch, "name,text,flavor,count\nA,x,,1\n", name="nocost")
    code, out, _ = run(capsys, "validate", "nocost")
    assert code == 1
    assert [line for line in out.splitlines() if ": error: " in line] == [
        "cards.csv:1:1: error: no column 'cost', which every card card needs "
        "(columns: name, text, flavor, count)"
    ]


def test_header_cells_are_trimmed_and_separators_detected(tmp_path, capsys, monkeypatch):
    make(tmp_path, capsys, monkeypatch, "name ; cost;text\t;flavor;count \nA;1;x;;2\nB;2;y;;1\n")
    code, out, err = run(capsys, "validate", "g")
    assert code == 0, out + err
    code, out, _ = run(capsys, "export", "g", "--format", "json")
    cards = json.loads(out)["cards"]
    assert [(c["id"], c["count"], c["fields"]["cost"]) for c in cards] == [("a", 2, 1), ("b", 1, 2)]
    make(tmp_path, capsys, monkeypatch, "name\tcost\ttext\tflavor\tcount\nA\t1\tx\t\t2\n", name="tabs")
    assert run(capsys, "validate", "tabs")[0] == 0


def test_windows_1252_is_reported_at_its_line_with_the_fix(tmp_path, capsys, monkeypatch):
    data = "name,cost,text,flavor,count\nMint,1,Gain.,,1\nRosenöl,2,Worth.,,1\n".encode("cp1252")
    make(tmp_path, capsys, monkeypatch, data)
    code, out, _ = run(capsys, "validate", "g")
    assert code == 1
    assert (
        "cards.csv:3:6: error: the file is not UTF-8 (byte 0xf6; likely Windows-1252 (Excel's plain "
        "'CSV'); the line reads 'Rosenöl,2,Worth.,,1' in it): save it as 'CSV UTF-8'"
    ) in out


def test_ids_from_names_are_transliterated_and_say_so(tmp_path, capsys, monkeypatch):
    make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\nRosenöl,1,x,,1\nRosenol,2,y,,1\n")
    code, out, _ = run(capsys, "validate", "g")
    assert code == 1
    assert re.search(
        r"^cards\.csv:3:1: error: duplicate card id 'rosenol' \(first defined at cards\.csv:2:1\) "
        r"\(the id 'rosenol' was made from 'Rosenöl' and from 'Rosenol'\)$",
        out,
        re.M,
    ), out
    make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\n!!!,1,x,,1\n", name="empty")
    code, out, _ = run(capsys, "validate", "empty")
    assert code == 1
    assert re.search(r"^cards\.csv:2:1: error: .*card id.* \(the id '' was made from '!!!'\)", out, re.M), out


def test_count_zero_stays_in_the_data_and_is_not_printed(tmp_path, capsys, monkeypatch):
    make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\nKept,1,x,,2\nCut,2,y,,0\n")
    code, out, err = run(capsys, "validate", "g")
    assert code == 0, out
    assert "g: ok (0 errors, 1 warnings)" in err  # the art slot without art
    code, out, _ = run(capsys, "export", "g", "--format", "json")
    assert [(c["id"], c["count"]) for c in json.loads(out)["cards"]] == [("kept", 2), ("cut", 0)]
    code, _, err = run(capsys, "build", "g", "--only", "cards")
    assert code == 0, err
    assert not (tmp_path / "g" / "build" / "cards" / "cut-front.png").exists()
    assert (tmp_path / "g" / "build" / "cards" / "kept-front.png").exists()
    make(tmp_path, capsys, monkeypatch, "name,cost,text,flavor,count\nBad,1,x,,-1\n", name="neg")
    code, out, _ = run(capsys, "validate", "neg")
    assert code == 1
    assert (
        "cards.csv:2:10: error: card 'bad': count must be a whole number >= 0 (0: not printed), "
        "not the number -1 (the id 'bad' was made from 'Bad')"
    ) in out


def test_defaults_ship_layouts_fonts_and_the_starter_theme():
    for part in ("layouts/products.yaml", "fonts/fonts.yaml", "templates/_shared/card.svg.j2"):
        assert (DEFAULTS / part).is_file(), part
    for part in ("card-front.svg.j2", "card-back.svg.j2", "style.yaml"):
        assert (DEFAULTS / "templates" / "starter" / part).is_file(), part
    # the package's defaults are the repository's own files, not copies
    assert (DEFAULTS / "fonts").resolve() == (REPO / "fonts").resolve()


def test_a_spreadsheet_that_is_not_utf8_stops_new_at_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sheet = tmp_path / "export.csv"
    sheet.write_bytes("Name;Cost\nMint;1\nGrüntee;2\n".encode("cp1252"))
    code, _, err = run(capsys, "new", "g", "--from-csv", str(sheet))
    assert code == 1
    assert f"{sheet}:3:3: error: the file is not UTF-8 (byte 0xfc; likely Windows-1252" in err
    assert not (tmp_path / "g").exists()


def test_a_row_of_an_unknown_type_and_art_named_in_a_column(tmp_path, capsys, monkeypatch):
    csv_text = "name,type,cost,text,art\nMint,Spell,1,Gain.,portrait.png\nSage,Spel,2,Draw.,\n"
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(csv_text.replace("Spel,", "Spell,"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "g", "--from-csv", str(sheet))[0] == 0
    art_png(tmp_path / "g" / "art" / "portrait.png")
    (tmp_path / "g" / "cards.csv").write_text(csv_text, encoding="utf-8")
    code, out, _ = run(capsys, "validate", "g")
    assert code == 1
    assert "cards.csv:3:6: error: no card type 'Spel' (known: spell (Spell))" in out
    (tmp_path / "g" / "cards.csv").write_text(csv_text.replace("Spel,", "Spell,"), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "g")
    code, out, err = run(capsys, "build", ".", "--only", "cards")
    assert code == 0, err
    assert "matches no card" not in err
    assert "data:image/png;base64" in (tmp_path / "g" / "build" / "cards" / "mint-front.svg").read_text()
