"""`build/<game>/tts/`: the game as a Tabletop Simulator saved object (`deckwright build GAME
--only tts`), from the same card images as the rest of the build.

TTS's custom deck format (../shared/reference/tabletop-simulator.md):
- A deck's faces go on sheets of up to 10 x 7 slots; the last slot holds the "hidden" card
  (we put the deck's back there and set `BackIsHidden`), so a sheet carries up to 69 faces. A
  sheet is at most 4096 px on a side: faces are scaled down to fit, never up; they are cut at
  the trim (the print bleed would show as a border on the table). Sheets are RGB PNGs.
- A card's id is sheet x 100 + slot; `DeckIDs` lists one id per physical copy and
  `ContainedObjects` one card per copy, with its name. Sheet numbers are unique in the file.
- Cards whose backs differ (double-sided cards) get a sheet of backs laid out like the faces
  (`UniqueBack`); otherwise the deck has one back image.
- Boards become custom tiles (face and back); a deck of one card is a single `Card`.
- Image URLs are `file:///` paths into build/<game>/tts/ (the local player only), or under
  `--tts-base-url` for images hosted elsewhere.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from PIL import Image

from ..context.base import BuildContext, Output
from ..context.card_images import face_pngs, faces, pixel_size
from ..model import Card, Layout
from ..render.image.png import encode_rgb

MAX_SIDE = 4096  # px, each side of a sheet
MAX_COLS, MAX_ROWS = 10, 7
MIN_GRID = 2  # TTS takes 2-10 columns and 2-7 rows
BOARD_SIDE = 4096  # px: a board's longest side, at most
POKER = (180.0, 252.0)  # pt: the card size TTS's scale 1 stands for
TILE_INCHES = 2.0  # a custom tile's longest side at scale 1 (TTS units are about an inch)


@dataclass(frozen=True)
class Slot:
    front: str  # face names
    back: str


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int

    @property
    def slots(self) -> int:
        return self.cols * self.rows


def grid_for(count: int) -> Grid:
    """The smallest TTS grid holding `count` faces and the hidden card after them."""
    needed = count + 1
    if needed > MAX_COLS * MAX_ROWS:
        raise ValueError(f"{count} faces do not fit one sheet")
    rows = max(MIN_GRID, math.ceil(needed / MAX_COLS))
    cols = max(MIN_GRID, math.ceil(needed / rows))
    return Grid(cols, rows)


def cell_size(face: tuple[int, int], grid: Grid) -> tuple[int, int]:
    """A face's size on a sheet: its own, or scaled down so the sheet stays within MAX_SIDE."""
    scale = min(1.0, MAX_SIDE / (grid.cols * face[0]), MAX_SIDE / (grid.rows * face[1]))
    return max(1, math.floor(face[0] * scale)), max(1, math.floor(face[1] * scale))


def trim_box(layout: Layout) -> tuple[int, int, int, int]:
    """The trimmed card inside its print image (bleed cut off), in the image's pixels."""
    width, height = pixel_size(layout)
    bx = round(width * layout.bleed / (layout.width + 2 * layout.bleed))
    by = round(height * layout.bleed / (layout.height + 2 * layout.bleed))
    return bx, by, width - bx, height - by


def build(ctx: BuildContext) -> list[Output]:
    game = ctx.game
    face_set = faces(ctx)
    if ctx.diags.has_errors:
        return []
    pngs = face_pngs(ctx)
    base = ctx.options.tts_base_url
    folder = (ctx.project.game_build_dir(game.id) / "tts").resolve()

    def url(name: str) -> str:
        return f"{base.rstrip('/')}/{name}" if base else (folder / name).as_uri()

    export = _Export(ctx, pngs, url)
    for deck in game.decks.values():
        # a card the renderer could not draw has no face (its error is reported already)
        drawn = face_set.front_of.keys() & face_set.back_of.keys()
        cards = [c for c in game.cards if c.type in deck.types and c.id in drawn]
        by_layout: dict[str, list[Card]] = {}
        for card in cards:
            by_layout.setdefault(game.card_types[card.type].layout, []).append(card)
        for layout_id, group in by_layout.items():
            layout = ctx.layouts[layout_id]
            name = deck.id if len(by_layout) == 1 else f"{deck.id}-{layout_id}"
            title = deck.title if len(by_layout) == 1 else f"{deck.title} ({layout.title})"
            slots = [(card, Slot(face_set.front_of[card.id], face_set.back_of[card.id])) for card in group]
            if layout.kind == "board":
                export.boards(name, layout, slots)
            else:
                export.deck(name, title, layout, slots)
    save = {
        "SaveName": "",
        "GameMode": "",
        "Date": "",
        "VersionNumber": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": export.objects,
    }
    text = json.dumps(save, indent=2, ensure_ascii=False) + "\n"
    return [*export.outputs, Output(f"tts/{game.id}.json", text.encode("utf-8"))]


class _Export:
    def __init__(self, ctx: BuildContext, pngs: dict[str, bytes], url: Callable[[str], str]) -> None:
        self.ctx, self.pngs, self.url = ctx, pngs, url
        self.outputs: list[Output] = []
        self.objects: list[dict] = []
        self.next_sheet = 1
        self.guids: set[str] = set()

    # -- decks -----------------------------------------------------------------------------

    def deck(self, name: str, title: str, layout: Layout, cards: Sequence[tuple[Card, Slot]]) -> None:
        backs = {slot.back for _, slot in cards}
        common_back = max(sorted(backs), key=lambda b: sum(s.back == b for _, s in cards))
        unique_back = len(backs) > 1
        distinct: list[Slot] = []
        for _, slot in cards:
            key = slot if unique_back else Slot(slot.front, common_back)
            if key not in distinct:
                distinct.append(key)
        per_sheet = MAX_COLS * MAX_ROWS - 1
        custom: dict[str, dict] = {}
        card_id: dict[Slot, int] = {}
        chunks = [distinct[i : i + per_sheet] for i in range(0, len(distinct), per_sheet)]
        for n, chunk in enumerate(chunks, 1):
            number = self.next_sheet
            self.next_sheet += 1
            stem = name if len(chunks) == 1 else f"{name}-{n}"
            grid = grid_for(len(chunk))
            face_file = self.sheet(f"{stem}.png", layout, grid, [s.front for s in chunk], common_back)
            if unique_back:
                back_file = self.sheet(
                    f"{stem}-backs.png", layout, grid, [s.back for s in chunk], common_back
                )
            else:
                back_file = self.single(f"{name}-back.png", layout, common_back, grid)
            custom[str(number)] = {
                "FaceURL": self.url(face_file),
                "BackURL": self.url(back_file),
                "NumWidth": grid.cols,
                "NumHeight": grid.rows,
                "BackIsHidden": True,
                "UniqueBack": unique_back,
                "Type": _card_type(layout),
            }
            for index, slot in enumerate(chunk):
                card_id[slot] = number * 100 + index
        transform = self.transform(layout)
        contained = []
        for card, slot in cards:
            key = slot if unique_back else Slot(slot.front, common_back)
            cid = card_id[key]
            sheet = str(cid // 100)
            for _ in range(card.copies):
                contained.append(
                    {
                        "GUID": self.guid(f"{name}/{card.id}/{len(contained)}"),
                        "Name": "Card",
                        "Transform": transform,
                        "Nickname": card.name,
                        "Description": "",
                        "GMNotes": card.id,
                        "CardID": cid,
                        "CustomDeck": {sheet: custom[sheet]},
                        "Hands": True,
                        "SidewaysCard": False,
                        "HideWhenFaceDown": True,
                    }
                )
        if len(contained) == 1:
            self.objects.append({**contained[0], "Description": title})
            return
        self.objects.append(
            {
                "GUID": self.guid(f"deck/{name}"),
                "Name": "DeckCustom",
                "Transform": transform,
                "Nickname": title,
                "Description": "",
                "GMNotes": "",
                "Hands": False,
                "SidewaysCard": False,
                "HideWhenFaceDown": True,
                "DeckIDs": [c["CardID"] for c in contained],
                "CustomDeck": custom,
                "ContainedObjects": contained,
            }
        )

    def transform(self, layout: Layout) -> dict[str, float]:
        """Face down, in a row; scaled so the card's shape is its real one (TTS stretches
        every custom card to a poker card at scale 1)."""
        return {
            "posX": 3.0 * len(self.objects),
            "posY": 1.0,
            "posZ": 0.0,
            "rotX": 0.0,
            "rotY": 180.0,
            "rotZ": 180.0,
            "scaleX": round(layout.width / POKER[0], 4),
            "scaleY": 1.0,
            "scaleZ": round(layout.height / POKER[1], 4),
        }

    # -- boards ----------------------------------------------------------------------------

    def boards(self, name: str, layout: Layout, cards: Sequence[tuple[Card, Slot]]) -> None:
        width, height = layout.width, layout.height
        scale = round(max(width, height) / 72 / TILE_INCHES, 4)
        for card, slot in cards:
            front = self.board_image(f"{name}-{slot.front}.png", layout, slot.front)
            back = self.board_image(f"{name}-{slot.back}.png", layout, slot.back)
            for copy in range(card.copies):
                self.objects.append(
                    {
                        "GUID": self.guid(f"board/{name}/{card.id}/{copy}"),
                        "Name": "Custom_Tile",
                        "Transform": {
                            **self.transform(layout),
                            "rotZ": 0.0,
                            "scaleX": scale,
                            "scaleZ": scale,
                        },
                        "Nickname": card.name,
                        "Description": "",
                        "GMNotes": card.id,
                        "CustomImage": {
                            "ImageURL": self.url(front),
                            "ImageSecondaryURL": self.url(back),
                            "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True},
                        },
                    }
                )

    # -- images ----------------------------------------------------------------------------

    def trimmed(self, layout: Layout, face: str, size: tuple[int, int]) -> Image.Image:
        """A face cut at the trim and scaled. Hamming, not Lanczos: the same look at the sizes a
        sheet shrinks to (about half), in half the time."""
        image = Image.open(io.BytesIO(self.pngs[face])).convert("RGB").crop(trim_box(layout))
        return image.resize(size, Image.Resampling.HAMMING)

    def _cached(self, name: str, parts: list[str], make: Callable[[], bytes]) -> str:
        """An image of the tts/ folder, from the cache when its faces have not changed."""
        digests = [hashlib.sha256(self.pngs[f]).hexdigest() if f in self.pngs else f for f in parts]
        data = self.ctx.cache.through("tts", f"tts:{name}", digests, make)
        if not any(o.path == f"tts/{name}" for o in self.outputs):
            self.outputs.append(Output(f"tts/{name}", data))
        return name

    def sheet(self, name: str, layout: Layout, grid: Grid, faces_: list[str], hidden: str) -> str:
        box = trim_box(layout)
        cw, ch = cell_size((box[2] - box[0], box[3] - box[1]), grid)

        def make() -> bytes:
            sheet = Image.new("RGB", (grid.cols * cw, grid.rows * ch), "white")
            slots = [*enumerate(faces_), (grid.slots - 1, hidden)]
            # Pillow decodes and resizes without the GIL: threads use every --jobs core
            with ThreadPoolExecutor(max(1, self.ctx.options.jobs)) as pool:
                cells = pool.map(lambda slot: self.trimmed(layout, slot[1], (cw, ch)), slots)
                for (index, _), cell in zip(slots, cells, strict=True):
                    sheet.paste(cell, ((index % grid.cols) * cw, (index // grid.cols) * ch))
            return encode_rgb(sheet)

        geometry = f"{layout.id}:{grid.cols}x{grid.rows}:{cw}x{ch}"
        return self._cached(name, [geometry, *faces_, "hidden", hidden], make)

    def single(self, name: str, layout: Layout, face: str, grid: Grid) -> str:
        box = trim_box(layout)
        size = cell_size((box[2] - box[0], box[3] - box[1]), grid)
        return self._cached(
            name,
            [f"{layout.id}:{size[0]}x{size[1]}", face],
            lambda: encode_rgb(self.trimmed(layout, face, size)),
        )

    def board_image(self, name: str, layout: Layout, face: str) -> str:
        box = trim_box(layout)
        w, h = box[2] - box[0], box[3] - box[1]
        scale = min(1.0, BOARD_SIDE / max(w, h))
        size = (max(1, math.floor(w * scale)), max(1, math.floor(h * scale)))
        return self._cached(
            name,
            [f"{layout.id}:{size[0]}x{size[1]}", face],
            lambda: encode_rgb(self.trimmed(layout, face, size)),
        )

    def guid(self, seed: str) -> str:
        """A stable six-hex-digit GUID, unique in the file."""
        n = 0
        while True:
            guid = hashlib.sha1(f"{seed}#{n}".encode()).hexdigest()[:6]
            if guid not in self.guids:
                self.guids.add(guid)
                return guid
            n += 1


def _card_type(layout: Layout) -> int:
    """TTS's card shape: 4 circle (a round token), 1 rectangle (square corners), else 0."""
    if layout.corner_radius * 2 >= min(layout.width, layout.height) - 0.01:
        return 4
    return 1 if layout.corner_radius == 0 else 0
