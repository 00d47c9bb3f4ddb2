"""Card files: `type:` plus a list of `cards:`; fields are checked later against the schema."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..diagnostics import Diagnostics, Loc
from ..model import Card, CardType, Unknown, frozen_map
from ..safety.limits import MAX_COUNT, MAX_ID_CHARS
from ..source import YMap
from .common import check_keys, check_slug, describe, expect_list, expect_map, to_value
from .csv_cards import ID_SOURCE, read_csv_rows

CARD_FILE_KEYS = ("type", "cards", "note")
CSV_FILE_KEYS = ("type", "csv", "columns", "id", "note")
# Keys of a card that are not fields of its type.
NOT_FIELDS = ("id", "name", "count", "number", "note", "art", ID_SOURCE)


def read_card_file(
    doc: YMap,
    card_types: Mapping[str, CardType],
    diags: Diagnostics,
    folder: Path | None = None,
    display=str,
) -> list[Card]:
    from_csv = "csv" in doc
    if from_csv:
        check_keys(doc, "card file", CSV_FILE_KEYS, diags, required=("csv",))
        if "type" not in doc:  # the CSV's type column says each row's type
            items = read_csv_rows(doc, None, folder or Path("."), diags, display, card_types)
            cards = []
            for m in items:
                row_type = card_types.get(m.get("type"))
                if row_type is None:
                    known = ", ".join(f"{t.id} ({t.title})" for t in card_types.values())
                    diags.error(m.loc_of("type"), f"no card type {m.get('type')!r} (known: {known})")
                    continue
                del m["type"]
                card = _read_card(m, row_type, diags)
                if card is not None:
                    cards.append(card)
            return cards
    else:
        check_keys(doc, "card file", CARD_FILE_KEYS, diags, required=("type", "cards"))
    type_id = doc.get("type")
    card_type = card_types.get(type_id) if isinstance(type_id, str) else None
    if card_type is None and "type" in doc:
        known = ", ".join(sorted(card_types)) or "none declared in game.yaml"
        diags.error(doc.loc_of("type"), f"no card type {type_id!r} (known: {known})")
    if card_type is None:
        return []
    if from_csv:
        items = read_csv_rows(doc, card_type, folder or Path("."), diags, display)
        return [c for c in (_read_card(m, card_type, diags) for m in items) if c is not None]
    items = expect_list(doc.get("cards"), doc.loc_of("cards"), "cards", diags)
    if items is None:
        return []
    cards = []
    for i, raw in enumerate(items):
        m = expect_map(raw, items.loc_of(i), f"card #{i + 1}", diags)
        if m is not None:
            card = _read_card(m, card_type, diags)
            if card is not None:
                cards.append(card)
    return cards


def _read_card(m: YMap, card_type: CardType, diags: Diagnostics) -> Card | None:
    card_id = m.get("id")
    name = m.get("name")
    if not isinstance(card_id, str):
        diags.error(m.loc_of("id"), f"a {card_type.id} card needs an 'id' (text), not {describe(card_id)}")
        return None
    # the id names the card's files (art/<game>/<id>.png, build/<game>/cards/<id>-front.png):
    # a slug cannot climb out of a folder; the card is kept so that references still resolve
    if check_slug(card_id, m.loc_of("id"), "card id", diags) and len(card_id) > MAX_ID_CHARS:
        diags.error(
            m.loc_of("id"),
            f"card id {card_id[:40]}...: {len(card_id)} characters is above the limit of "
            f"{MAX_ID_CHARS} (it names the card's files)",
        )
    if not isinstance(name, str) or not name.strip():
        diags.error(m.loc_of("name"), f"card {card_id!r} needs a 'name' (text), not {describe(name)}")
        name = card_id
    count = _read_count(m, card_id, diags)
    fields = {}
    locs: dict[str, Loc] = {}
    for key, raw in m.items():
        locs[key] = m.loc_of(key)
        if key not in NOT_FIELDS:
            fields[key] = to_value(raw, m.loc_of(key), diags)
    all_specs = {**card_type.fields, **card_type.back_fields}
    for key, spec in all_specs.items():
        if key not in fields and spec.has_default:
            fields[key] = spec.default
    number = m.get("number")
    number = to_value(number, m.loc_of("number"), diags) if number is not None else None
    note = m.get("note")
    art = m.get("art")
    if art is not None and (not isinstance(art, str) or not _plain_file(art)):
        diags.error(m.loc_of("art"), f"card {card_id!r}: art names a file in art/, such as {card_id}.png")
        art = None
    id_from = m.get(ID_SOURCE)
    return Card(
        id=card_id,
        type=card_type.id,
        name=name,
        count=count,
        fields=frozen_map(fields),
        loc=m.loc,
        field_locs=frozen_map(locs),
        key_locs=frozen_map({key: m.key_loc(key) for key in m}),
        number=number,
        note=note if isinstance(note, str) else None,
        art=art,
        id_from=id_from if isinstance(id_from, str) else None,
    )


def _plain_file(name: str) -> bool:
    """A file name in an art folder: no folder climbing, no absolute path."""
    parts = name.replace("\\", "/").split("/")
    return bool(name.strip()) and not name.startswith("/") and ".." not in parts


def _read_count(m: YMap, card_id: str, diags: Diagnostics) -> int | Unknown:
    if "count" not in m:
        return 1
    value = to_value(m["count"], m.loc_of("count"), diags)
    if isinstance(value, Unknown):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_COUNT:
        diags.error(
            m.loc_of("count"),
            f"card {card_id!r}: count {value} is above the limit of {MAX_COUNT} copies of one card",
        )
        return 1
    # 0: a card cut for now, kept in the data, exports and checks, not printed
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    diags.error(
        m.loc_of("count"),
        f"card {card_id!r}: count must be a whole number >= 0 (0: not printed), not {describe(value)}",
    )
    return 1
