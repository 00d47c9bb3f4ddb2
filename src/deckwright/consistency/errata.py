"""Errata: a game's errata rows, and each row's current text against the official wording.

A table declares itself the game's errata table with `editor: {errata: {...}}` (see
docs/data-format.md). The official wording of a card is the card field the declaration names as
`reference` (default `text`); a row is compared with every card it names that holds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Loc
from ..model import Card, ErrataSpec, Game, Row, Table, Unknown
from .finding import Finding
from .texts import Text, card_label, row_key
from .words import compare, diff_text, word_diff


@dataclass(frozen=True)
class Erratum:
    """One errata row, read through its table's declaration."""

    table: Table
    row: Row
    spec: ErrataSpec
    card: str  # the card cell as written, else the cards' names
    cards: tuple[Card, ...]
    numbers: tuple[str, ...]
    printed: str | Unknown | None
    current: str | Unknown | None  # the current text, less the declared kind markers
    kind: str | Unknown | None

    @property
    def remark(self) -> bool:
        """The current cell is a remark (e.g. "No change — …"), not a card text."""
        return isinstance(self.kind, str) and self.kind in self.spec.remark_kinds

    def loc_of(self, role: str) -> Loc:
        return self.row.loc_of(self.spec.columns.get(role, ""))

    def official(self, card: Card) -> tuple[str, Loc] | None:
        """The official wording the game holds for the card, where it is, if any."""
        value = card.fields.get(self.spec.reference)
        if isinstance(value, str):
            return value, card.loc_of(self.spec.reference)
        return None


def errata_tables(game: Game) -> list[Table]:
    return [t for t in game.tables.values() if t.editor is not None and t.editor.errata is not None]


def errata(game: Game) -> list[Erratum]:
    """Every errata row of the game, in table and row order."""
    entries = []
    for table in errata_tables(game):
        spec = table.editor.errata
        for row in table.rows:
            entries.append(_entry(game, table, spec, row))
    return entries


def _get(row: Row, spec: ErrataSpec, role: str) -> Any:
    column = spec.columns.get(role)
    return row.get(column) if column else None


def _entry(game: Game, table: Table, spec: ErrataSpec, row: Row) -> Erratum:
    refs = _get(row, spec, "cards")
    ids = refs if isinstance(refs, tuple) else (refs,) if isinstance(refs, str) else ()
    cards = tuple(c for c in (game.card(i) for i in ids if isinstance(i, str)) if c is not None)
    written = _get(row, spec, "card")
    card = written if isinstance(written, str) else ", ".join(c.name for c in cards)
    numbers = _get(row, spec, "numbers")
    if isinstance(numbers, tuple):
        shown = tuple(str(n) for n in numbers if not isinstance(n, Unknown))
    elif numbers is not None and not isinstance(numbers, Unknown):
        shown = (str(numbers),)
    else:
        shown = tuple(
            str(c.number) for c in cards if c.number not in (None, "") and not isinstance(c.number, Unknown)
        )
    current = _get(row, spec, "current")
    if isinstance(current, str):
        current = strip_markers(current, spec.markers)
    return Erratum(
        table=table,
        row=row,
        spec=spec,
        card=card,
        cards=cards,
        numbers=shown,
        printed=_get(row, spec, "printed"),
        current=current,
        kind=_get(row, spec, "kind"),
    )


def strip_markers(text: str, markers: tuple[str, ...]) -> str:
    """The text less a declared marker it ends with ("… gain +2 MP. (clarity only)")."""
    for marker in markers:
        if text.rstrip().endswith(marker):
            return text.rstrip()[: -len(marker)].rstrip()
    return text


def errata_findings(game: Game) -> tuple[list[Finding], list[str]]:
    """Each errata row's current text against the official wording; and what agreed."""
    findings: list[Finding] = []
    agreed: list[str] = []
    for entry in errata(game):
        if entry.remark or not isinstance(entry.current, str):
            continue
        for card in entry.cards:
            official = entry.official(card)
            if official is None:
                continue
            text, loc = official
            verdict = compare(entry.current, text)
            name = card_label(card)
            if verdict == "identical":
                agreed.append(f"{entry.table.title}: {name} — the current text is the official wording")
                continue
            ops = word_diff(entry.current, text)
            how = "only in punctuation or spacing" if verdict == "punctuation" else "in words"
            column = entry.spec.columns["current"]
            findings.append(
                Finding(
                    kind="errata",
                    key=f"{entry.table.id}/{card.id}",
                    message=(
                        f"{name}: the errata's current text differs {how} from the card's official "
                        f"wording (its {entry.spec.reference}): {diff_text(ops)}"
                    ),
                    sides=(
                        Text(
                            f"table:{entry.table.id}/{row_key(entry.table, entry.row)}.{column}",
                            f"{entry.table.title} — {name}, {column}",
                            entry.current,
                            entry.loc_of("current"),
                            game.folder,
                        ).side(),
                        Text(
                            f"card:{card.id}.{entry.spec.reference}",
                            f"{name}, {entry.spec.reference} (official wording)",
                            text,
                            loc,
                            game.folder,
                        ).side(),
                    ),
                    diff=ops,
                )
            )
    return findings, agreed
