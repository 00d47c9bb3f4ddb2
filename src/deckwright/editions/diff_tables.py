"""Rules tables and declared checks compared, row by row."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ..model import Game, Row, Table
from .change import Change, describe_values, plain, same, same_key, show, text_change


def _row_id(table: Table, row: Row, index: int) -> str:
    if table.key is not None and row.get(table.key) is not None:
        return str(row.get(table.key))
    return str(index + 1)


def table_changes(old: Game, new: Game) -> Iterator[Change]:
    for table_id in sorted(set(old.tables) | set(new.tables), key=lambda t: _table_order(old, new, t)):
        a, b = old.tables.get(table_id), new.tables.get(table_id)
        if a is None:
            yield Change(
                "table-added",
                f"table:{table_id}",
                f"table {b.title!r} ({table_id}) added, {len(b.rows)} rows",
                b.loc,
                new=plain(b.rows),
            )
            continue
        if b is None:
            yield Change(
                "table-removed",
                f"table:{table_id}",
                f"table {a.title!r} ({table_id}) removed",
                a.loc,
                old=plain(a.rows),
            )
            continue
        for name in ("title", "key", "columns"):
            x, y = getattr(a, name), getattr(b, name)
            if not same(x, y):
                what = describe_values(x, y) if name != "columns" else _columns_change(a, b)
                yield Change(
                    "table",
                    f"table:{table_id}.{name}",
                    f"{b.title}: {name}: {what}",
                    b.loc,
                    field=name,
                    old=plain(x),
                    new=plain(y),
                )
        yield from _row_changes(a, b)


def _table_order(old: Game, new: Game, table_id: str) -> tuple:
    table = new.tables.get(table_id) or old.tables[table_id]
    return (table.loc.path, table.loc.line)


def _columns_change(a: Table, b: Table) -> str:
    added = [c for c in b.columns if c not in a.columns]
    removed = [c for c in a.columns if c not in b.columns]
    changed = [c for c in b.columns if c in a.columns and not same(a.columns[c], b.columns[c])]
    parts = [
        f"{what} {', '.join(cols)}"
        for what, cols in (("added", added), ("removed", removed), ("changed", changed))
        if cols
    ]
    return "; ".join(parts) or "reordered"


def _row_changes(a: Table, b: Table) -> Iterator[Change]:
    keyed = a.key is not None and a.key == b.key
    if keyed:
        old_rows = {_row_id(a, r, i): r for i, r in enumerate(a.rows)}
        new_rows = {_row_id(b, r, i): r for i, r in enumerate(b.rows)}
        pairs = [(old_rows.get(k), r, k) for k, r in new_rows.items()]
        pairs += [(r, None, k) for k, r in old_rows.items() if k not in new_rows]
    else:
        pairs = []
        ka = [same_key(r.values) for r in a.rows]
        kb = [same_key(r.values) for r in b.rows]
        matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            olds, news = list(a.rows[i1:i2]), list(b.rows[j1:j2])
            common = min(len(olds), len(news)) if tag == "replace" else 0
            for n in range(common):
                pairs.append((olds[n], news[n], str(j1 + n + 1)))
            for n, row in enumerate(news[common:], j1 + common):
                pairs.append((None, row, str(n + 1)))
            for n, row in enumerate(olds[common:], i1 + common):
                pairs.append((row, None, str(n + 1)))
    for x, y, key in pairs:
        label = (
            f"{b.title} #{key}" if not keyed or isinstance((y or x).get(b.key), int) else f"{b.title}, {key}"
        )
        subject = f"table:{b.id}/{key}"
        if x is None:
            yield Change(
                "row-added",
                subject,
                f"{label}: row added: {_row_text(b, y)}",
                y.loc,
                field=None,
                new=plain(y.values),
            )
        elif y is None:
            yield Change(
                "row-removed", subject, f"{label}: row removed: {_row_text(a, x)}", x.loc, old=plain(x.values)
            )
        else:
            for column in dict.fromkeys([*b.columns, *y.values, *x.values]):
                p, q = x.get(column), y.get(column)
                if same(p, q):
                    continue
                yield Change(
                    "row",
                    f"{subject}.{column}",
                    f"{label}: {column}: {describe_values(p, q)}",
                    y.loc_of(column),
                    field=column,
                    old=plain(p),
                    new=plain(q),
                    words=text_change(p, q),
                )


def _row_text(table: Table, row: Row, limit: int = 120) -> str:
    text = ", ".join(f"{k}={show(v)}" for k, v in row.values.items())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_changes(old: Game, new: Game) -> Iterator[Change]:
    a_map = {c.id: c for c in old.checks}
    b_map = {c.id: c for c in new.checks}
    for check in new.checks:
        before = a_map.get(check.id)
        if before is None:
            yield Change(
                "check-added",
                f"check:{check.id}",
                f"check {check.id!r} added: {check.expect}",
                check.loc,
                new=check.expect,
            )
            continue
        for name in ("iterate", "expect", "message", "severity"):
            x, y = getattr(before, name), getattr(check, name)
            if x != y:
                yield Change(
                    "check",
                    f"check:{check.id}.{name}",
                    f"check {check.id!r}: {name}: {describe_values(x, y)}",
                    check.expect_loc if name == "expect" and check.expect_loc else check.loc,
                    field=name,
                    old=x,
                    new=y,
                    words=text_change(x, y),
                )
    for check in old.checks:
        if check.id not in b_map:
            yield Change(
                "check-removed",
                f"check:{check.id}",
                f"check {check.id!r} removed: {check.expect}",
                check.loc,
                old=check.expect,
            )


# -- rulebook ----------------------------------------------------------------------------------
