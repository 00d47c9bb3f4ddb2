"""What a publish has to do: the build's TGC manifest read into components and cards, compared
with what the last publish left on TGC (publish.json).

A component is one deck of the manifest, made as its product's shape says (a deck of cards, a
punch-out set, a board set; or, for one-sided boards, one component per card). A member is one
distinct face with its quantity: TGC takes 1-99 of a card, so 250 copies become members of 99,
99 and 52, keyed `deck/face`, `deck/face#2`, `deck/face#3`.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalogue import Product
from .state import Target

MANIFEST = "manifest.csv"
MAX_QUANTITY = 99


class PlanError(Exception):
    pass


@dataclass(frozen=True)
class Image:
    path: str  # relative to build/<game>/tgc/
    sha: str


@dataclass(frozen=True)
class Member:
    key: str
    deck: str
    name: str
    face: Image
    back: Image | None  # its own back: None when it has its set's back (or prints one side)
    quantity: int

    def record(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "name": self.name,
            "face": self.face.sha,
            "back": self.back.sha if self.back else None,
            "quantity": self.quantity,
        }


@dataclass(frozen=True)
class Component:
    deck: str
    product: Product
    back: Image | None  # the set's back (None for one-sided products)
    members: tuple[Member, ...]

    def record(self) -> dict[str, Any]:
        return {
            "identity": self.product.identity,
            "endpoint": self.product.shape.set.endpoint,
            "back": self.back.sha if self.back else None,
        }


@dataclass(frozen=True)
class Skipped:
    deck: str
    product: str
    cards: int
    reason: str

    def line(self) -> str:
        return f"not uploaded: {self.deck} ({self.cards} cards, {self.product}): {self.reason}"


@dataclass
class Wanted:
    """The game as the build made it."""

    components: dict[str, Component] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)

    def images(self) -> dict[str, Image]:
        found: dict[str, Image] = {}
        for comp in self.components.values():
            if comp.back is not None:
                found.setdefault(comp.back.sha, comp.back)
            for m in comp.members:
                for image in (m.face, m.back):
                    if image is not None:
                        found.setdefault(image.sha, image)
        return found

    def members(self) -> dict[str, Member]:
        return {m.key: m for comp in self.components.values() for m in comp.members}


def read_build(tgc_dir: Path, catalogue: dict[str, Product]) -> Wanted:
    """The manifest and its images; PlanError when the build is missing or incomplete."""
    manifest = tgc_dir / MANIFEST
    if not manifest.is_file():
        raise PlanError(f"{manifest} does not exist: build the game's TGC images first")
    with manifest.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    hashes: dict[str, Image] = {}

    def image(rel: str) -> Image:
        if rel not in hashes:
            path = (tgc_dir / rel).resolve()
            if tgc_dir.resolve() not in path.parents or not path.is_file():
                raise PlanError(f"{manifest}: image {rel!r} is missing; build the game again")
            hashes[rel] = Image(rel, hashlib.sha256(path.read_bytes()).hexdigest())
        return hashes[rel]

    by_deck: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_deck.setdefault(row["deck"], []).append(row)
    wanted = Wanted()
    for deck, deck_rows in by_deck.items():
        name = deck_rows[0]["product"]
        product = catalogue.get(name)
        cards = sum(int(r["quantity"]) for r in deck_rows)
        if product is None or product.shape is None:
            if not name:  # the build lists it without a product; its note says why
                note = deck_rows[0].get("note") or ""
                reason = note.partition("not exported: ")[2] or "no TGC product"
                name = "no TGC product"
            else:
                reason = product.reason if product else "deckwright does not know TGC's API for this product"
            wanted.skipped.append(Skipped(deck, name, cards, reason))
            continue
        wanted.components[deck] = _component(deck, product, deck_rows, image)
    return wanted


def not_built(wanted: Wanted, game_decks: Mapping[str, int]) -> list[Skipped]:
    """The game's decks (deck -> physical cards) that the build's manifest leaves out."""
    listed = set(wanted.components) | {s.deck for s in wanted.skipped}
    return [
        Skipped(
            deck,
            "no TGC product",
            cards,
            "its layout names no Game Crafter product (see the build's warning)",
        )
        for deck, cards in game_decks.items()
        if cards and deck not in listed
    ]


def _component(deck: str, product: Product, rows: list[dict[str, str]], image) -> Component:
    shape = product.shape
    back = None
    if shape.set is not None:
        # the deck's back is the one most of its cards have; the others carry their own
        counts = Counter(r["back"] for r in rows)
        back = image(min(counts, key=lambda b: (-counts[b], b)))
    members: list[Member] = []
    for row in rows:
        face = image(row["face"])
        own_back = None
        if shape.set is not None and row["back"] != back.path:
            own_back = image(row["back"])
        stem = Path(row["face"]).stem.removesuffix("-front")
        quantity = int(row["quantity"])
        for part, start in enumerate(range(0, quantity, MAX_QUANTITY)):
            key = f"{deck}/{stem}" + (f"#{part + 1}" if part else "")
            count = min(MAX_QUANTITY, quantity - start)
            members.append(Member(key, deck, stem, face, own_back, count))
    return Component(deck, product, back, tuple(members))


@dataclass
class Plan:
    uploads: list[Image] = field(default_factory=list)
    make_folder: bool = False
    make_game: bool = False
    rename_game: bool = False
    create_components: list[Component] = field(default_factory=list)
    update_components: list[Component] = field(default_factory=list)
    delete_components: list[str] = field(default_factory=list)  # decks
    create_members: list[Member] = field(default_factory=list)
    update_members: list[Member] = field(default_factory=list)
    delete_members: list[str] = field(default_factory=list)  # keys
    kept_members: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return (
            len(self.uploads)
            + self.make_folder
            + self.make_game
            + self.rename_game
            + len(self.create_components)
            + len(self.update_components)
            + len(self.delete_components)
            + len(self.create_members)
            + len(self.update_members)
            + len(self.delete_members)
        )

    def lines(self) -> list[str]:
        """The plan, one line per kind of change, with counts."""
        out = [f"upload {len(self.uploads)} images"]
        if self.make_folder or self.make_game:
            out.append("create the game" + (" and its folder" if self.make_folder else ""))
        if self.rename_game:
            out.append("rename the game")
        for verb, comps in (("create", self.create_components), ("update", self.update_components)):
            if comps:
                out.append(f"{verb} {len(comps)} components: {', '.join(c.deck for c in comps)}")
        if self.delete_components:
            decks = ", ".join(self.delete_components)
            out.append(f"delete {len(self.delete_components)} components: {decks}")
        out.append(
            f"cards: create {len(self.create_members)}, update {len(self.update_members)}, "
            f"delete {len(self.delete_members)}, unchanged {self.kept_members}"
        )
        out.extend(s.line() for s in self.skipped)
        out.extend(self.notes)
        return out


def make_plan(wanted: Wanted, target: Target, game_name: str) -> Plan:
    plan = Plan(skipped=list(wanted.skipped))
    plan.uploads = [img for sha, img in sorted(wanted.images().items()) if sha not in target.files]
    plan.make_folder = target.folder_id is None
    plan.make_game = target.game_id is None
    plan.rename_game = not plan.make_game and target.game_name != game_name
    replaced: set[str] = set()  # decks made afresh: their old members went with them
    for deck, comp in wanted.components.items():
        if comp.product.shape.set is None:
            plan.notes.append(
                f"not uploaded: the backs of {deck} ({comp.product.identity}): TGC prints its face only"
            )
            continue
        old = target.components.get(deck)
        if old is None:
            plan.create_components.append(comp)
        elif old["identity"] != comp.product.identity or old["endpoint"] != comp.product.shape.set.endpoint:
            plan.delete_components.append(deck)
            plan.create_components.append(comp)
            replaced.add(deck)
        elif old["back"] != (comp.back.sha if comp.back else None):
            plan.update_components.append(comp)
    plan.delete_components.extend(sorted(deck for deck in target.components if deck not in wanted.components))
    gone = set(plan.delete_components)
    wanted_members = wanted.members()
    for key, member in wanted_members.items():
        old = target.members.get(key)
        if old is None or old["deck"] in replaced or old["deck"] != member.deck:
            plan.create_members.append(member)
        elif {k: old.get(k) for k in member.record()} != member.record():
            plan.update_members.append(member)
        else:
            plan.kept_members += 1
    for key, old in sorted(target.members.items()):
        # members of a deleted set go with it; one-sided components (no set) are deleted alone
        if old["deck"] in gone and old["deck"] in target.components:
            continue
        if key not in wanted_members or old["deck"] in replaced or old["deck"] != wanted_members[key].deck:
            plan.delete_members.append(key)
    return plan
