"""build/<game>/tgc/publish.json: what a publish has made on The Game Crafter, so that the next
run changes only what changed and a run cut short carries on without making anything twice.

Kept per API URL (a test against a local server does not forget the real game):
- `files`: an image's sha256 -> TGC's file id (an unchanged image is never uploaded again);
- `components`: a deck -> its TGC id, identity, name and back image hash;
- `members`: a card key (`deck/face`, `#2`... for the parts of a count above 99) -> its TGC id,
  its deck, name, face and back hashes and quantity;
- the folder, designer and game ids;
- `pending`: cards whose create was sent but whose answer did not arrive (a lost connection,
  a 5xx, the process stopped): before asking again, the publisher lists the deck's cards on
  TGC and adopts the ones that were made.
Saved after every request that makes or removes something. The build never writes this file
(it writes only the files it makes), so rebuilding keeps it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..writer import Writer

STATE_PATH = "tgc/publish.json"  # relative to build/<game>/
VERSION = 1


@dataclass
class Target:
    """What one API holds of this game."""

    folder_id: str | None = None
    designer_id: str | None = None
    game_id: str | None = None
    game_name: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    components: dict[str, dict[str, Any]] = field(default_factory=dict)
    members: dict[str, dict[str, Any]] = field(default_factory=dict)
    # deck -> {member key: record}: cards asked for whose answer has not come back (yet)
    pending: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)


class StateError(Exception):
    pass


class State:
    def __init__(self, game_dir: Path, api_url: str) -> None:
        self.writer = Writer(game_dir)
        self.path = game_dir / STATE_PATH
        self.api_url = api_url.rstrip("/")
        self.data: dict[str, Any] = {"version": VERSION, "targets": {}}
        if self.path.is_file():
            try:
                self.data = json.loads(self.path.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise StateError(f"{self.path}: not JSON ({exc}); move it away to publish afresh") from None
            if not isinstance(self.data, dict) or self.data.get("version") != VERSION:
                raise StateError(f"{self.path}: not a publish state of this deckwright version")
        raw = self.data.setdefault("targets", {}).get(self.api_url, {})
        self.target = Target(**raw)

    def save(self) -> None:
        self.data["targets"][self.api_url] = asdict(self.target)
        text = json.dumps(self.data, indent=1, sort_keys=True, ensure_ascii=False)
        self.writer.write_text(STATE_PATH, text + "\n")
