"""The `tts` output: Tabletop Simulator deck sheets and saved object (`build --only tts`)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image, ImageChops, ImageStat

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from deckwright.kinds import DEFAULT_KINDS, OUTPUT_KINDS
from deckwright.outputs.tts import MAX_SIDE, cell_size, grid_for

BLEED_PX = 37.5  # 1/8 in at 300 DPI, from the TGC reference (not from deckwright's code)
DECK_KEYS = {"Name", "Transform", "Nickname", "DeckIDs", "CustomDeck", "ContainedObjects", "GUID"}
SHEET_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


def build(root: Path, game: str, *extra: str) -> None:
    code = main(["--project", str(root), "build", game, "--jobs", "1", "--quiet", *extra])
    assert code == 0


@pytest.fixture(scope="module")
def pnp_mini(tmp_path_factory) -> Path:
    """pnp-mini (poker and mini cards, a double-sided type, two boards, chits, a marker)."""
    project = TempProject(tmp_path_factory.mktemp("tts") / "project")
    project.add_game(FIXTURES / "pnp-mini")
    build(project.root, "pnp-mini", "--only", "cards,tts")
    return project.root / "build" / "pnp-mini"


def saved(game_dir: Path, game: str = "pnp-mini") -> dict:
    return json.loads((game_dir / "tts" / f"{game}.json").read_text(encoding="utf-8"))


def local(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


def cards_of(save: dict) -> list[dict]:
    """Every physical card or tile of the save."""
    found = []
    for obj in save["ObjectStates"]:
        found.extend(obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj])
    return found


def test_the_saved_object_has_the_structure_tts_loads(pnp_mini: Path) -> None:
    save = saved(pnp_mini)
    assert {"SaveName", "ObjectStates"} <= save.keys() and save["SaveName"] == ""
    names = Counter(obj["Name"] for obj in save["ObjectStates"])
    # heroes, mentors, omens, chits: decks; the marker alone: a card; two boards: tiles
    assert names == {"DeckCustom": 4, "Card": 1, "Custom_Tile": 2}
    sheets_seen: set[str] = set()
    for obj in save["ObjectStates"]:
        if obj["Name"] == "Custom_Tile":
            image = obj["CustomImage"]
            assert local(image["ImageURL"]).is_file() and local(image["ImageSecondaryURL"]).is_file()
            continue
        if obj["Name"] == "DeckCustom":
            assert obj.keys() >= DECK_KEYS
            assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
            assert obj["Transform"]["rotZ"] == 180  # face down
        for number, sheet in obj["CustomDeck"].items():
            assert number.isdigit() and sheet.keys() >= SHEET_KEYS
            assert 2 <= sheet["NumWidth"] <= 10 and 2 <= sheet["NumHeight"] <= 7
            assert local(sheet["FaceURL"]).is_file() and local(sheet["BackURL"]).is_file()
            sheets_seen.add(number)
        for card in obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]:
            assert card["Name"] == "Card"
            sheet = str(card["CardID"] // 100)
            assert list(card["CustomDeck"]) == [sheet]
            slots = card["CustomDeck"][sheet]["NumWidth"] * card["CustomDeck"][sheet]["NumHeight"]
            assert card["CardID"] % 100 < slots - 1  # never the hidden card's slot
    assert sorted(map(int, sheets_seen)) == list(range(1, len(sheets_seen) + 1))  # unique in the file
    objects = save["ObjectStates"]
    guids = [o["GUID"] for o in objects] + [c["GUID"] for o in objects for c in o.get("ContainedObjects", [])]
    assert len(guids) == len(set(guids))
    mentors = next(o for o in save["ObjectStates"] if o.get("Nickname") == "Mentor cards")
    assert all(s["UniqueBack"] for s in mentors["CustomDeck"].values())  # double-sided


def test_every_physical_card_appears_once(pnp_mini: Path) -> None:
    counts = Counter(card["GMNotes"] for card in cards_of(saved(pnp_mini)))
    assert counts == {
        "aldric": 3, "brena": 2, "corvin": 1, "dalla": 2, "evrard": 1, "fenwick": 2,
        "galen": 1, "hester": 1, "ivory": 2, "jasper": 1, "great-board": 1, "score-board": 1,
        "kindle": 5, "lumen": 3, "marshal": 1,
    }  # fmt: skip


def _thumb(image: Image.Image) -> Image.Image:
    return image.convert("RGB").resize((24, 32), Image.Resampling.BOX)


def _trimmed(png: Path) -> Image.Image:
    image = Image.open(png)
    b = round(BLEED_PX)
    return image.crop((b, b, image.width - b, image.height - b))


def test_each_card_shows_its_own_face_and_the_hidden_slot_the_back(pnp_mini: Path) -> None:
    candidates = {p.stem: _thumb(_trimmed(p)) for p in (pnp_mini / "cards").glob("*.png")}
    checked = 0
    for obj in saved(pnp_mini)["ObjectStates"]:
        if obj["Name"] != "DeckCustom":
            continue
        for card in obj["ContainedObjects"]:
            sheet = card["CustomDeck"][str(card["CardID"] // 100)]
            image = Image.open(local(sheet["FaceURL"]))
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            w, h = image.width // cols, image.height // rows
            slot = card["CardID"] % 100
            cell = _thumb(
                image.crop(
                    ((slot % cols) * w, (slot // cols) * h, (slot % cols + 1) * w, (slot // cols + 1) * h)
                )
            )

            def distance(name: str, cell=cell) -> float:
                return sum(ImageStat.Stat(ImageChops.difference(cell, candidates[name])).mean)

            assert min(candidates, key=distance) == f"{card['GMNotes']}-front"
            checked += 1
        heroes_sheet = obj["CustomDeck"][next(iter(obj["CustomDeck"]))]
        if obj["Nickname"] == "Hero cards":
            image = Image.open(local(heroes_sheet["FaceURL"]))
            cols, rows = heroes_sheet["NumWidth"], heroes_sheet["NumHeight"]
            w, h = image.width // cols, image.height // rows
            hidden = _thumb(image.crop((image.width - w, image.height - h, image.width, image.height)))
            assert (
                min(
                    candidates,
                    key=lambda n: sum(ImageStat.Stat(ImageChops.difference(hidden, candidates[n])).mean),
                )
                == "back-hero"
            )
    assert checked == 11 + 2 + 3 + 8


def test_sheets_are_rgb_within_4096_px_and_fit_their_grid(pnp_mini: Path) -> None:
    for obj in saved(pnp_mini)["ObjectStates"]:
        for sheet in obj.get("CustomDeck", {}).values():
            image = Image.open(local(sheet["FaceURL"]))
            assert image.mode == "RGB" and max(image.size) <= MAX_SIDE
            assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
            if sheet["UniqueBack"]:
                assert Image.open(local(sheet["BackURL"])).size == image.size


def test_grids_hold_the_faces_and_the_hidden_card() -> None:
    assert (grid_for(1).cols, grid_for(1).rows) == (2, 2)
    assert (grid_for(5).cols, grid_for(5).rows) == (3, 2)
    assert (grid_for(69).cols, grid_for(69).rows) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70)
    grid = grid_for(69)
    w, h = cell_size((750, 1050), grid)
    assert w * 10 <= MAX_SIDE and h * 7 <= MAX_SIDE and abs(w / h - 750 / 1050) < 0.01
    assert cell_size((100, 140), grid) == (100, 140)  # small faces are not scaled up


def test_a_deck_of_more_than_69_faces_takes_two_sheets(mini: TempProject) -> None:
    (mini.path("mini", "checks.yaml")).unlink()
    spells = "".join(
        f'  - {{id: s{i:02d}, name: "Spell {i}", text: "Spell {i}.", caster: ann}}\n' for i in range(70)
    )
    path = mini.path("mini", "spells.yaml")
    path.write_text(path.read_text(encoding="utf-8") + spells, encoding="utf-8")
    build(mini.root, "mini", "--only", "tts", "--tts-base-url", "https://example.org/game/")
    save = saved(mini.root / "build" / "mini", "mini")
    (deck,) = save["ObjectStates"]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert first["FaceURL"] == "https://example.org/game/main-1.png"
    assert second["FaceURL"] == "https://example.org/game/main-2.png"
    ids = Counter(deck["DeckIDs"])
    assert len(ids) == 4 + 70 and sum(ids.values()) == 10 + 70
    assert max(i for i in ids if i < 200) == 168 and min(i for i in ids if i >= 200) == 200


def test_tts_is_made_only_when_asked_for() -> None:
    assert "tts" in OUTPUT_KINDS and "tts" not in DEFAULT_KINDS
