"""What a change means for print: which faces look different, and so which card images, decks,
Game Crafter images, print-and-play pages and rulebook chapters change.

A face changed when its SVG did: the SVG is everything its PNG, its TGC image and its place on a
print-and-play sheet are drawn from, so this catches template and style edits as well as data.
The TGC set is worked out by the TGC output itself, run with each face's PNG stood in for by its
SVG's digest (a PNG is a function of its SVG and size); the print-and-play pages by planning
each paper's book (`SheetBook`, as `deckwright build` does) and comparing the pages' drawings,
without drawing a PDF.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..fonts.registry import FontRegistry
from ..kinds import OUTPUT_KINDS
from ..model import Game, Layout
from ..render.card.faces import FaceSet
from .change import Change
from .versions import Version


@dataclass(frozen=True)
class FacePair:
    """One face in both versions (an SVG is None where the face does not exist)."""

    name: str  # the new version's face name (the old one's for a removed face)
    old_name: str | None
    old_svg: str | None
    new_svg: str | None
    layout: Layout
    cards: tuple[str, ...]  # the cards (new ids) printed with this face

    @property
    def state(self) -> str:
        if self.old_svg is None:
            return "added"
        if self.new_svg is None:
            return "removed"
        return "changed"


def face_pairs(old: Version, new: Version, renamed: dict[str, str]) -> list[FacePair]:
    """Every face whose SVG differs between the versions; `renamed` maps new card ids to old."""
    a, b = old.faces or FaceSet(), new.faces or FaceSet()
    old_of: dict[str, str] = {}  # new face name -> old face name
    users: dict[str, list[str]] = {}
    for card in new.game.cards:
        before = renamed.get(card.id, card.id)
        for mine, theirs in ((b.front_of, a.front_of), (b.back_of, a.back_of)):
            name = mine.get(card.id)
            if name is None:
                continue
            users.setdefault(name, []).append(card.id)
            if before in theirs:
                old_of.setdefault(name, theirs[before])
    for name in b.faces:
        if name not in old_of and name in a.faces:
            old_of[name] = name
    pairs = []
    for name, face in b.faces.items():
        old_name = old_of.get(name)
        old_svg = a.faces[old_name].svg if old_name in a.faces else None
        if old_svg != face.svg:
            pairs.append(FacePair(name, old_name, old_svg, face.svg, face.layout, tuple(users.get(name, ()))))
    matched = set(old_of.values())
    for name, face in a.faces.items():
        if name not in matched:
            pairs.append(FacePair(name, name, face.svg, None, face.layout, ()))
    return pairs


@dataclass
class PrintImpact:
    """The print files a change touches, as lines for people."""

    faces: list[str] = field(default_factory=list)  # face names whose images change
    decks: list[str] = field(default_factory=list)
    tgc: list[str] = field(default_factory=list)  # files under tgc/
    pnp: list[str] = field(default_factory=list)  # one line per PDF: which pages
    rulebook: list[str] = field(default_factory=list)
    errata: bool = False

    def lines(self) -> list[str]:
        out = []
        if self.faces:
            out.append(f"card images: {len(self.faces)} faces change: {', '.join(self.faces)}")
        if self.decks:
            out.append(f"decks: {', '.join(self.decks)}")
        if self.tgc:
            out.append(f"TGC images: {', '.join(self.tgc)}")
        out += [f"print-and-play: {line}" for line in self.pnp]
        out += [f"rulebook: {line}" for line in self.rulebook]
        if self.errata:
            out.append("errata: errata.md, errata.csv and errata.pdf change (the errata table changed)")
        return out

    def as_dict(self) -> dict:
        return {
            "faces": self.faces,
            "decks": self.decks,
            "tgc": self.tgc,
            "pnp": self.pnp,
            "rulebook": self.rulebook,
            "errata": self.errata,
        }


def _outputs(game: Game) -> tuple[str, ...]:
    return game.build.outputs or OUTPUT_KINDS


def print_impact(
    old: Version, new: Version, changes: list[Change], pairs: list[FacePair], fonts: FontRegistry | None
) -> PrintImpact:
    impact = PrintImpact(faces=[p.name for p in pairs])
    game = new.game
    changed_faces = {p.name for p in pairs}
    changed_cards = {c.card or c.old_card for c in changes if c.group == "cards"}
    new_id = {c.old_card: c.card for c in changes if c.kind == "card-renamed" and c.field == "id"}
    for deck in game.decks.values():
        ids = {c.id for c in game.cards if c.type in deck.types}
        old_deck = old.game.decks.get(deck.id)
        old_ids = {new_id.get(c.id, c.id) for c in old.game.cards if old_deck and c.type in old_deck.types}
        faces = (
            {n for cid in ids for n in (new.faces.front_of.get(cid), new.faces.back_of.get(cid))}
            if new.faces
            else set()
        )
        why = []
        if faces & changed_faces:
            why.append(f"{len(faces & changed_faces)} faces")
        if (ids ^ old_ids) or any(c in changed_cards for c in ids if _count_changed(changes, c)):
            why.append("card counts")
        if why:
            impact.decks.append(f"{deck.id} ({' and '.join(why)})")
    if old.faces is not None and new.faces is not None and fonts is not None:
        if "tgc" in _outputs(game):
            impact.tgc = _changed_files("tgc", old, new, fonts)
        if "pnp" in _outputs(game):
            impact.pnp = _pnp_pages(old, new, fonts)
    if "rulebook" in _outputs(game):
        impact.rulebook = _rulebook(new.game, changes)
    if "errata" in _outputs(game):
        errata_tables = {
            t.id for t in game.tables.values() if t.editor is not None and t.editor.errata is not None
        }
        impact.errata = any(
            c.subject.split("/")[0].split(".")[0].removeprefix("table:") in errata_tables
            for c in changes
            if c.group == "tables"
        )
    return impact


def _count_changed(changes: list[Change], card_id: str) -> bool:
    return any(c.card == card_id and c.kind in ("count", "card-added", "card-removed") for c in changes)


def _dry_outputs(kind: str, version: Version, fonts: FontRegistry) -> dict[str, bytes]:
    """An output's files, each face's PNG stood in for by its SVG's digest."""
    import importlib

    from ..cache import RenderCache
    from ..context.base import BuildContext, BuildOptions

    diags = Diagnostics()
    ctx = BuildContext(
        version.project,
        version.game,
        version.catalog,
        BuildOptions(),
        diags,
        fonts,
        RenderCache(version.project.build_dir / ".cache", "", enabled=False),
        kinds=(kind,),
    )
    ctx.shared["faces"] = version.faces
    ctx.shared["face-pngs"] = {
        name: hashlib.sha256(face.svg.encode("utf-8")).digest() for name, face in version.faces.faces.items()
    }
    module = importlib.import_module(f"deckwright.outputs.{kind}")
    return {o.path: o.content() for o in module.build(ctx)}


def _changed_files(kind: str, old: Version, new: Version, fonts: FontRegistry) -> list[str]:
    a, b = _dry_outputs(kind, old, fonts), _dry_outputs(kind, new, fonts)
    out = [
        f"{path} ({'added' if path not in a else 'changed'})" for path in sorted(b) if a.get(path) != b[path]
    ]
    return out + [f"{path} (removed)" for path in sorted(a) if path not in b]


def _pnp_pages(old: Version, new: Version, fonts: FontRegistry) -> list[str]:
    """For each paper's print-and-play PDF, the pages whose drawing changes."""
    from ..context.base import BuildOptions
    from ..outputs.pnp.book import SheetBook, Variant
    from ..render.pdf.painter import SheetFace, SheetFont

    font = SheetFont.from_registry(fonts)
    lines = []
    papers = new.catalog.papers
    chosen = new.game.build.papers
    for paper_id, paper in papers.items():
        if chosen is not None and paper_id not in chosen:
            continue
        books = []
        for version in (old, new):
            faces = version.faces.faces
            book = SheetBook(
                version.game,
                version.layouts,
                version.faces,
                paper,
                Variant(""),
                font,
                lambda name, _ink, faces=faces: SheetFace.of(faces[name].svg),
                BuildOptions(),
            )
            pages = book.render()
            total = len(pages)
            books.append(
                [
                    (_page_content(p, n, total), planned.section)
                    for n, (p, planned) in enumerate(zip(pages, book.planned, strict=True), 1)
                ]
            )
        before, after = books
        matcher = difflib.SequenceMatcher(None, [k for k, _ in before], [k for k, _ in after], autojunk=False)
        kept = sum(block.size for block in matcher.get_matching_blocks())
        changed = sorted(
            n + 1
            for tag, _, _, j1, j2 in matcher.get_opcodes()
            if tag in ("replace", "insert")
            for n in range(j1, j2)
        )
        removed = (
            len(before)
            - kept
            - sum(min(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag == "replace")
        )
        if not changed and not removed:
            continue
        name = f"pnp-{paper_id}.pdf"
        if len(before) != len(after):
            count = f"{len(before)} → {len(after)} pages; every page's footer count changes"
        else:
            count = f"{len(after)} pages"
        shown = _pages(changed, after)
        gone = f"; {removed} pages of the old book are gone" if removed else ""
        lines.append(f"{name} ({count}): {len(changed)} pages change: {shown}{gone}")
    return lines


def _page_content(page, number: int, total: int) -> str:
    """What a page draws, less its footer's "page N of M" (which every added page changes)."""
    tail = f" · page {number} of {total}"
    items = tuple(
        tuple(v.removesuffix(tail) if isinstance(v, str) else v for v in item) for item in page.items
    )
    return repr((page.width, page.height, items, page.trim, page.bleed))


def _pages(numbers: list[int], book: list[tuple[str, str]]) -> str:
    """Page numbers as ranges ("1-2, 7-30"), then the sections they are in."""
    ranges: list[list[int]] = []
    for n in numbers:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    shown = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
    sections = "; ".join(dict.fromkeys(book[n - 1][1] for n in numbers))
    return f"{shown} ({sections})"


def _rulebook(game: Game, changes: Iterable[Change]) -> list[str]:
    """Chapters changed, and the data references in the rulebook that print changed data."""
    out = []
    chapters = sorted({c.loc.path for c in changes if c.group == "rulebook"})
    if chapters:
        out.append(f"chapters changed: {', '.join(chapters)}")
    fields = {(c.card, c.field) for c in changes if c.group == "cards" and c.card}
    cards = {card for card, _ in fields}
    types = {card.type for card in game.cards if card.id in cards}
    tables = {
        c.subject.removeprefix("table:").split("/")[0].split(".")[0] for c in changes if c.group == "tables"
    }
    for chapter in game.rulebook:
        for ref in chapter.refs:
            hit = (
                # {card:x} prints the card's name, or the field it names
                (ref.kind == "card" and (ref.target, ref.options.get("field", "name")) in fields)
                or (ref.kind == "cards" and set(ref.target.split(",")) & types)
                or (ref.kind == "table" and ref.target in tables)
            )
            if hit:
                out.append(f"{ref.loc.path}:{ref.loc.line} prints changed data: {ref.source}")
    return out
