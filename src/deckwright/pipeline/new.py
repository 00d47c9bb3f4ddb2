"""`deckwright new PATH`: a game folder that builds at once with the built-in starter theme.

From a spreadsheet (`--from-csv`), the header gives the fields and a `type` column the card
types; the CSV is copied in and read as it is. Without one, a small sample deck shows every
part of the theme: title, type line, cost corner, rules text with inline icons, art slot and
back. The game's `templates/style.yaml` is a copy of the theme's, so colours and fonts are
restyled there without touching SVG. Nothing here writes: the files are returned as text.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..diagnostics import Diagnostics, Loc
from ..project import THEMES
from ..readers import spreadsheet
from ..readers.csv_cards import STANDARD_COLUMNS
from ..slugs import make_slug

STARTER = THEMES / "starter"
# Accent colours the card types get in order: distinct in hue and in lightness.
PALETTE = ("#8c3b2e", "#2f5f8a", "#4f7a38", "#6b4c9a", "#a0701c", "#2d6e6a", "#7a3b63", "#4a4a4a")
_INT = re.compile(r"^-?\d+$")
SAMPLE_CSV = """name,cost,text,flavor,count
Market Stall,2,"Gain {G}{G}. If you have another Market card, draw a card {C}.",Everything has a price.,3
Town Guard,3,"{D}{D}
When an opponent attacks you, you may discard this card to block the attack.",,2
Raider,4,"{A}{A}{A}. When Raider enters play, each other player loses {G}.",They came at dawn.,1
"""


@dataclass
class NewGame:
    files: dict[str, str] = field(default_factory=dict)  # path in the game folder -> text
    copies: dict[str, Path] = field(default_factory=dict)  # path in the game folder -> file copied in
    folders: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    cards: int = 0


def new_game(folder: Path, layout: str, csv_path: Path | None, diags: Diagnostics) -> NewGame | None:
    """The files of a new game in `folder` (which must not hold a game yet); None on errors."""
    game_id = make_slug(folder.name) or "my-game"
    title = folder.name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    if csv_path is not None:
        shown = str(csv_path)
        try:
            data = csv_path.read_bytes()
        except OSError as exc:
            diags.error(Loc(shown), f"cannot read the spreadsheet: {exc.strerror or exc}")
            return None
        text = spreadsheet.decode(data, shown, diags)
        if text is None:
            return None
        csv_name = "cards.csv"
    else:
        shown, text, csv_name = "cards.csv", SAMPLE_CSV, "cards.csv"
    lines = text.splitlines()
    if not lines:
        diags.error(Loc(shown), "the spreadsheet is empty: it needs a header line")
        return None
    sep = spreadsheet.separator(lines[0])
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    header = [cell.strip() for cell in rows[0]]
    body = [r for r in rows[1:] if any(c.strip() for c in r)]
    keys = [_key(column) for column in header]
    if "name" not in keys:
        diags.error(Loc(shown, 1, 1), f"the spreadsheet needs a 'name' column (columns: {', '.join(header)})")
        return None
    for index, key in enumerate(keys):
        if not key:
            diags.error(Loc(shown, 1, 1), f"header cell {index + 1} ({header[index]!r}) names no field")
            return None
    field_names = [k for k in keys if k not in (*STANDARD_COLUMNS, "type")]
    types: dict[str, str] = {}  # id -> title
    if "type" in keys:
        at = keys.index("type")
        for row in body:
            value = row[at].strip() if at < len(row) else ""
            if value and make_slug(value) not in types:
                types[make_slug(value) or "card"] = value
    if not types:
        types = {"card": "Card"}
    fields = {}
    for name in field_names:
        every = [r[keys.index(name)].strip() if keys.index(name) < len(r) else "" for r in body]
        cells = [c for c in every if c]
        if cells and all(_INT.match(c) for c in cells):
            spec = {"type": "int"}
        elif any("\n" in c or len(c) > 40 for c in cells) or name in ("text", "rules", "body"):
            spec = {"type": "text"}
        else:
            spec = {"type": "str"}
        # a field every card fills is required (a card without it is a mistake), else optional
        fields[name] = spec if cells and len(cells) == len(every) else {**spec, "required": False}
    card_types = {
        type_id: {"title": type_title, "layout": layout, "fields": {k: dict(v) for k, v in fields.items()}}
        for type_id, type_title in types.items()
    }
    game = {
        "game": {
            "id": game_id,
            "name": title,
            "edition": "Playtest 1",
            "players": {"min": 2, "max": 4},
        },
        "card_types": card_types,
        "decks": {"deck": {"title": "Deck", "types": list(types)}},
        "build": {"outputs": ["cards", "proofs", "pnp"]},
    }
    result = NewGame(types=list(types), cards=len(body))
    result.files["game.yaml"] = (
        "# The game: its card types (fields from the spreadsheet's header) and decks.\n"
        "# Every key is explained in deckwright's docs/data-format.md.\n"
        + yaml.safe_dump(game, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    )
    card_file: dict = {"csv": csv_name}
    if "type" not in keys:
        card_file = {"type": next(iter(types)), **card_file}
    if "id" in keys and header[keys.index("id")] != "id":
        card_file["id"] = header[keys.index("id")]
    columns = {c: k for c, k in zip(header, keys, strict=True) if c != k and k != "id"}
    if columns:
        card_file["columns"] = columns
    result.files["cards.yaml"] = (
        "# The cards are the rows of the spreadsheet; without an id column, ids are made from names.\n"
        + yaml.safe_dump(card_file, sort_keys=False, allow_unicode=True)
    )
    if csv_path is not None:
        result.copies[csv_name] = csv_path
    else:
        result.files[csv_name] = text
    result.files["templates/style.yaml"] = _style(list(types))
    result.files["art/README.md"] = (
        "Put each card's art here, named after its id: `<card-id>.png`, `.jpg` or `.svg`\n"
        "(`deckwright export . --format csv` lists the ids), or name the file in the card's\n"
        "`art` column. 300 DPI at print size is best: about 825 x 480 px for a poker card's slot.\n"
    )
    result.files[".gitignore"] = "build/\n"
    return result


def _key(column: str) -> str:
    """A header cell as a field name: `Cost` -> cost, `Flavour text` -> flavour_text."""
    key = make_slug(column).replace("-", "_")
    return key if key[:1].isalpha() else (f"f_{key}" if key else "")


def _style(type_ids: list[str]) -> str:
    """The starter theme's style.yaml, with an accent colour per card type."""
    text = (STARTER / "style.yaml").read_text(encoding="utf-8")
    lines = [
        f'  {t}: "{PALETTE[i % len(PALETTE)]}"   # the {t} cards\' accent' for i, t in enumerate(type_ids)
    ]
    return text.replace("colors:\n", "colors:\n" + "\n".join(lines) + "\n", 1)
