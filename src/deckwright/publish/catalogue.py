"""tgc_products.yaml: how The Game Crafter's API makes each of our products."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CATALOGUE = Path(__file__).with_name("tgc_products.yaml")


@dataclass(frozen=True)
class Endpoint:
    endpoint: str  # e.g. "deck", posted to /api/deck
    back: str | None = None  # the field holding a back image's file id
    parent: str | None = None  # a member's field naming its set (or the game)
    face: str | None = None  # a member's field holding its face image's file id


@dataclass(frozen=True)
class Shape:
    name: str
    member: Endpoint
    set: Endpoint | None = None  # None: every card is a component of the game on its own
    same_back: Mapping[str, str] = field(default_factory=dict)
    own_back: Mapping[str, str] = field(default_factory=dict)
    bulk_path: str | None = None
    bulk_size: int = 1
    list_path: str | None = None  # the set's relationship that lists its members


@dataclass(frozen=True)
class Product:
    name: str  # as layouts/products.yaml and the manifest name it
    shape: Shape | None
    identity: str | None
    reason: str | None = None  # why it is not uploaded (shape None)


def load_catalogue(path: Path = CATALOGUE) -> dict[str, Product]:
    """Every product the publisher knows. The file ships with deckwright: a mistake in it is a
    bug, reported as an exception, not a user's error."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    shapes = {}
    for name, raw in data["shapes"].items():
        bulk = raw.get("bulk") or {}
        shapes[name] = Shape(
            name,
            Endpoint(**raw["member"]),
            Endpoint(**raw["set"]) if raw.get("set") else None,
            dict(raw.get("same_back") or {}),
            dict(raw.get("own_back") or {}),
            bulk.get("path"),
            int(bulk.get("size", 1)),
            raw.get("list"),
        )
    products = {}
    for name, raw in data["products"].items():
        if raw.get("upload", True):
            products[name] = Product(name, shapes[raw["shape"]], raw["identity"])
        else:
            products[name] = Product(name, None, raw.get("identity"), raw["reason"])
    return products
