"""Rules tables: literal rows, derived rows (`extends` + `add`), generated rows, computed columns.

Derivations are expanded here, once, so every later stage (checks, rulebook, exports) sees the
same full table the designer meant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostics, Loc
from ..expressions import ExpressionError, UnknownTouched, evaluate, expose
from ..model import FieldSpec, Row, Table, Unknown, frozen_map
from ..source import YList, YMap
from .common import (
    COLUMN,
    check_keys,
    check_slug,
    describe,
    expect_list,
    expect_map,
    get_str,
    to_value,
)
from .editor import read_editor
from .fields import read_field_specs

TABLE_KEYS = ("title", "key", "columns", "rows", "generate", "note", "source", "editor")
ROW_KEYS = ("extends", "add", "note")


def read_tables(doc: YMap, enums, diags: Diagnostics) -> list[Table]:
    check_keys(doc, "tables file", ("tables", "note"), diags, required=("tables",))
    m = expect_map(doc.get("tables"), doc.loc_of("tables"), "tables", diags)
    if m is None:
        return []
    tables = []
    for table_id, raw in m.items():
        if not check_slug(table_id, m.key_loc(table_id), "table id", diags):
            continue
        t = expect_map(raw, m.loc_of(table_id), f"table {table_id!r}", diags)
        if t is not None:
            table = _read_table(table_id, t, enums, diags)
            if table is not None:
                tables.append(table)
    return tables


def _read_table(table_id: str, t: YMap, enums, diags: Diagnostics) -> Table | None:
    what = f"table {table_id!r}"
    check_keys(t, what, TABLE_KEYS, diags, required=("title", "columns"))
    title = get_str(t, "title", what, diags)
    columns = read_field_specs(
        t.get("columns"), enums, diags, f"{what} column", t.loc_of("columns"), allow_expr=True
    )
    for name in columns:
        if not COLUMN.match(name):
            diags.error(
                t.loc_of("columns"),
                f"{what}: column name {name!r} must be lower_case_with_underscores",
            )
    key = t.get("key")
    if key is not None and key not in columns:
        diags.error(t.loc_of("key"), f"{what}: key column {key!r} is not among its columns")
        key = None
    if ("rows" in t) == ("generate" in t):
        diags.error(t.loc, f"{what} needs exactly one of 'rows' or 'generate'")
        return None
    if "generate" in t:
        raw_rows = _generated_rows(t, columns, what, diags)
    else:
        raw_rows = _literal_rows(t, columns, what, diags)
    rows = _expand(raw_rows, key, what, diags)
    rows = [_compute(row, columns, what, diags) for row in rows]
    if title is None:
        return None
    note = t.get("note")
    editor = read_editor(t["editor"], t.loc_of("editor"), columns, what, diags) if "editor" in t else None
    return Table(
        id=table_id,
        title=title,
        key=key,
        columns=frozen_map(columns),
        rows=tuple(rows),
        loc=t.loc,
        note=note if isinstance(note, str) else None,
        editor=editor,
    )


class _RawRow:
    """A row before expansion: given values, where they stand, and its derivation."""

    def __init__(self, loc: Loc) -> None:
        self.loc = loc
        self.values: dict[str, Any] = {}
        self.locs: dict[str, Loc] = {}
        self.extends: Any = None
        self.extends_loc: Loc = loc
        self.add: dict[str, tuple] = {}
        self.note: str | None = None


def _generated_rows(t: YMap, columns, what: str, diags: Diagnostics) -> list[_RawRow]:
    gen = expect_map(t["generate"], t.loc_of("generate"), f"{what}: generate", diags)
    if gen is None:
        return []
    if len(gen) != 1:
        diags.error(gen.loc, f"{what}: generate takes one column with a [first, last] range")
        return []
    ((column, bounds),) = gen.items()
    if column not in columns:
        diags.error(gen.key_loc(column), f"{what}: generate names no column {column!r}")
        return []
    ok = (
        isinstance(bounds, YList)
        and len(bounds) == 2
        and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
        and bounds[0] <= bounds[1]
        and bounds[1] - bounds[0] <= 10_000
    )
    if not ok:
        diags.error(
            gen.loc_of(column),
            f"{what}: generate range must be [first, last] whole numbers, first <= last, at most 10000 apart",
        )
        return []
    rows = []
    for value in range(bounds[0], bounds[1] + 1):
        row = _RawRow(gen.loc)
        row.values[column] = value
        row.locs[column] = gen.loc_of(column)
        rows.append(row)
    return rows


def _literal_rows(t: YMap, columns: Mapping[str, FieldSpec], what: str, diags) -> list[_RawRow]:
    items = expect_list(t["rows"], t.loc_of("rows"), f"{what}: rows", diags)
    if items is None:
        return []
    given_columns = [name for name, spec in columns.items() if spec.expr is None]
    rows = []
    for i, raw in enumerate(items):
        m = expect_map(raw, items.loc_of(i), f"{what} row {i + 1}", diags)
        if m is None:
            continue
        row_what = f"{what} row {i + 1}"
        check_keys(m, row_what, (*given_columns, *ROW_KEYS), diags)
        row = _RawRow(m.loc)
        for name, value in m.items():
            if name in given_columns:
                row.values[name] = to_value(value, m.loc_of(name), diags)
                row.locs[name] = m.loc_of(name)
        if isinstance(m.get("note"), str):
            row.note = m["note"]
        if "extends" in m:
            row.extends = m["extends"]
            row.extends_loc = m.loc_of("extends")
        if "add" in m:
            add = expect_map(m["add"], m.loc_of("add"), f"{row_what}: add", diags)
            for name, value in (add or {}).items():
                spec = columns.get(name)
                if spec is None or spec.type != "list":
                    diags.error(
                        add.key_loc(name),
                        f"{row_what}: add names {name!r}, which is not a list column",
                    )
                elif not isinstance(value, YList):
                    diags.error(
                        add.loc_of(name),
                        f"{row_what}: add.{name} must be a list, not {describe(value)}",
                    )
                else:
                    row.add[name] = to_value(value, add.loc_of(name), diags)
            if "extends" not in m:
                diags.error(m.key_loc("add"), f"{row_what}: 'add' needs 'extends'")
        rows.append(row)
    return rows


def _expand(raw_rows: list[_RawRow], key: str | None, what: str, diags) -> list[_RawRow]:
    by_key: dict[Any, _RawRow] = {}
    if key is not None:
        for row in raw_rows:
            k = row.values.get(key)
            if k is None:
                diags.error(row.loc, f"{what}: row has no value in its key column {key!r}")
            elif isinstance(k, Unknown) or not isinstance(k, str | int):
                diags.error(row.locs.get(key, row.loc), f"{what}: key {key!r} must be text or a number")
            elif k in by_key:
                first = by_key[k].loc
                diags.error(
                    row.locs.get(key, row.loc),
                    f"{what}: duplicate key {k!r} (first at line {first.line})",
                )
            else:
                by_key[k] = row
    done: dict[int, _RawRow] = {}

    def resolve(row: _RawRow, chain: tuple[int, ...]) -> _RawRow:
        if id(row) in done:
            return done[id(row)]
        if row.extends is None:
            done[id(row)] = row
            return row
        if key is None:
            diags.error(row.extends_loc, f"{what}: 'extends' needs the table to declare a 'key' column")
            done[id(row)] = row
            return row
        base = by_key.get(row.extends)
        if base is None:
            known = ", ".join(str(k) for k in by_key)
            diags.error(
                row.extends_loc,
                f"{what}: extends {row.extends!r}, but no row has that key ({known})",
            )
            done[id(row)] = row
            return row
        if id(base) in chain or base is row:
            diags.error(row.extends_loc, f"{what}: extends {row.extends!r} in a cycle")
            done[id(row)] = row
            return row
        base = resolve(base, (*chain, id(row)))
        merged = _RawRow(row.loc)
        merged.extends = row.extends
        for name, value in base.values.items():
            merged.values[name] = value
            merged.locs[name] = row.extends_loc
        merged.values.update(row.values)
        merged.locs.update(row.locs)
        for name, extra in row.add.items():
            current = merged.values.get(name, ())
            if isinstance(current, Unknown):
                merged.values[name] = current
            else:
                merged.values[name] = tuple(current) + tuple(extra)
        done[id(row)] = merged
        return merged

    return [resolve(row, ()) for row in raw_rows]


def _compute(raw: _RawRow, columns: Mapping[str, FieldSpec], what: str, diags) -> Row:
    values = dict(raw.values)
    locs = dict(raw.locs)
    for name, spec in columns.items():
        if name not in values and spec.has_default and spec.expr is None:
            values[name] = spec.default
            locs[name] = spec.loc
    for name, spec in columns.items():
        if spec.expr is None:
            continue
        names = {k: expose(v, k) for k, v in values.items()}
        try:
            values[name] = evaluate(spec.expr, names)
        except UnknownTouched as exc:
            values[name] = Unknown(f"computed from {exc.what}, which is unknown", spec.loc)
        except ExpressionError as exc:
            if not exc.repeated:  # a spent work budget is reported once
                diags.error(spec.loc, f"{what}: column {name!r}: {exc}")
            values[name] = Unknown(f"expression failed: {exc}", spec.loc)
        locs[name] = spec.loc
    return Row(
        values=frozen_map(values),
        loc=raw.loc,
        value_locs=frozen_map(locs),
        derived_from=raw.extends,
        note=raw.note,
    )
