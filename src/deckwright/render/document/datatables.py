"""Generated rulebook blocks: a `Selection` of cards or table rows as an HTML table or list.

Every cell comes from the data: a reference prints the card's current name, an enum its value,
a list of references its cards (repeats counted: "2 × Faithful"), and an unknown value a
visible "unknown" marked with a note that says what is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup, escape

from ...model import Card, FieldSpec, Game, Row, Unknown
from ...references.selection import Column, Selection, spec_of, value_of

EMPTY = Markup("")


class Notes:
    """The notes of the unknown values in one block; the same note gets the same number."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def mark(self, note: str) -> int:
        return self.numbers.setdefault(note or "The source does not give this value.", len(self.numbers) + 1)

    def html(self) -> Markup:
        if not self.numbers:
            return EMPTY
        items = "".join(
            f'<li value="{n}"><span class="unknown">unknown</span> {escape(note)}</li>'
            for note, n in self.numbers.items()
        )
        return Markup(f'<ol class="unknown-notes">{items}</ol>')


def unknown_html(value: Unknown, notes: Notes | None) -> Markup:
    """The visible placeholder: a numbered note in a block, an inline footnote elsewhere."""
    if notes is not None:
        n = notes.mark(value.note)
        return Markup(f'<span class="unknown">unknown</span><sup class="note-ref">{n}</sup>')
    note = escape(value.note or "not given")
    return Markup(f'<span class="unknown">unknown</span><span class="footnote">{note}</span>')


def enum_label(value: str) -> str:
    """An enum slug as printed: light-blue -> Light Blue."""
    return " ".join(word[:1].upper() + word[1:] for word in value.replace("_", "-").split("-"))


def text_html(value: str) -> Markup:
    lines = [escape(line) for line in value.strip("\n").split("\n")]
    return Markup("<br>").join(lines)


def format_value(game: Game, value: Any, spec: FieldSpec | None, notes: Notes | None = None) -> Markup:
    """One value as HTML, typed by its field spec."""
    if value is None:
        return EMPTY
    if isinstance(value, Unknown):
        return unknown_html(value, notes)
    if isinstance(value, bool):
        return Markup("Yes" if value else "No")
    if isinstance(value, tuple | list):
        return _format_list(game, value, spec.of if spec is not None else None, notes)
    kind = spec.type if spec is not None else None
    if kind == "ref" and isinstance(value, str):
        card = game.card(value)
        return escape(card.name) if card is not None else escape(value)
    if kind == "enum" and isinstance(value, str):
        return escape(enum_label(value))
    return text_html(str(value))


def _format_list(game: Game, items: Iterable[Any], of: FieldSpec | None, notes: Notes | None) -> Markup:
    items = list(items)
    if not items:
        return EMPTY
    if of is not None and of.type == "ref":
        counts: dict[Any, int] = {}
        for item in items:
            key = item if isinstance(item, str) else id(item)
            counts[key] = counts.get(key, 0) + 1
        shown, seen = [], set()
        for item in items:
            key = item if isinstance(item, str) else id(item)
            if key in seen:
                continue
            seen.add(key)
            html = format_value(game, item, of, notes)
            shown.append(Markup(f"{counts[key]} × ") + html if counts[key] > 1 else html)
        return Markup(", ").join(shown)
    if of is not None and of.type == "text":
        lis = "".join(f"<li>{format_value(game, item, of, notes)}</li>" for item in items)
        return Markup(f'<ul class="cell-list">{lis}</ul>')
    return Markup(", ").join(format_value(game, item, of, notes) for item in items)


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, tuple | list) and not value)


def _cell(game: Game, item: Card | Row, column: Column, notes: Notes) -> Markup:
    return format_value(game, value_of(item, column.name), spec_of(game, item, column.name, column), notes)


def _numeric(column: Column) -> bool:
    return (column.spec is not None and column.spec.type == "int") or column.name in ("count", "number")


def _classes(column: Column) -> str:
    css = f"col-{column.name.replace('_', '-')}"
    return f"{css} num" if _numeric(column) else css


def _groups(game: Game, selection: Selection) -> list[tuple[Markup | None, list[Card | Row]]]:
    """Consecutive items with the same group value, under that value."""
    if selection.group is None:
        return [(None, list(selection.items))]
    groups: list[tuple[Markup | None, list]] = []
    notes = Notes()
    for item in selection.items:
        label = _cell(game, item, selection.group, notes)
        if groups and groups[-1][0] == label:
            groups[-1][1].append(item)
        else:
            groups.append((label, [item]))
    return groups


def render_selection(game: Game, selection: Selection) -> Markup:
    """The block a `{table:...}` or `{cards:...}` reference stands for."""
    notes = Notes()
    ref = selection.ref
    if selection.layout == "table":
        body = _table(game, selection, notes)
    else:
        parts = []
        for label, items in _groups(game, selection):
            if label is not None:
                parts.append(f'<p class="group-heading">{label}</p>')
            if selection.layout == "terms":
                parts.append(_terms(game, selection, items, notes))
            else:
                parts.append(_list(game, selection, items, notes))
        body = Markup("".join(parts))
    caption = ""
    if selection.caption and selection.layout != "table":
        caption = f'<p class="block-caption">{escape(selection.caption)}</p>'
    kind = f"{ref.kind}:{ref.target}"
    return Markup(
        f'<div class="generated {selection.layout}" data-source="{escape(kind)}">'
        f"{caption}{body}{notes.html()}</div>"
    )


SHORT = 16  # a column whose cells are all this short never wraps
KEEP_TOGETHER = 8  # a table of this many rows or fewer is not split across pages


def _table(game: Game, selection: Selection, notes: Notes) -> Markup:
    columns = selection.columns
    cells = {id(item): [_cell(game, item, c, notes) for c in columns] for item in selection.items}
    classes = []
    for i, column in enumerate(columns):
        longest = max((len(Markup(row[i]).striptags()) for row in cells.values()), default=0)
        short = longest <= SHORT and max((len(w) for w in column.title.split()), default=0) <= SHORT
        classes.append(_classes(column) + (" short" if short else ""))
    titles = [escape(c.title) for c in columns]
    head = "".join(f'<th class="{css}" scope="col">{h}</th>' for h, css in zip(titles, classes, strict=True))
    rows = []
    position = {id(item): i for i, item in enumerate(selection.items)}
    for label, items in _groups(game, selection):
        if label is not None:
            rows.append(f'<tr class="group"><th colspan="{len(columns)}" scope="rowgroup">{label}</th></tr>')
        for item in items:
            cells_html = "".join(
                f'<td class="{css}">{html}</td>' for css, html in zip(classes, cells[id(item)], strict=True)
            )
            indent = ' class="indent"' if position[id(item)] in selection.indented else ""
            rows.append(f"<tr{indent}>{cells_html}</tr>")
    if not rows:
        rows.append(f'<tr class="empty"><td colspan="{len(columns)}">(none)</td></tr>')
    caption = f"<caption>{escape(selection.caption)}</caption>" if selection.caption else ""
    wide = any(c.spec is None or c.spec.type in ("text", "list") for c in columns)
    size = "wide" if wide else "narrow"
    if len(selection.items) <= KEEP_TOGETHER:
        size += " keep"
    body = "".join(rows)
    return Markup(
        f'<table class="data {size}">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def _parts(
    game: Game, item: Card | Row, columns: Iterable[Column], notes: Notes
) -> list[tuple[Column, Markup]]:
    """The non-empty values of an item, with their columns."""
    out = []
    for column in columns:
        value = value_of(item, column.name)
        if isinstance(value, bool):  # a flag: its heading when set, nothing when not
            if value:
                out.append((Column(column.name, column.title, column.spec), escape(column.title)))
        elif not _is_empty(value):
            out.append((column, _cell(game, item, column, notes)))
    return out


def _labelled(column: Column, html: Markup) -> Markup:
    if column.labelled:
        return Markup(f'<span class="label">{escape(column.title)}:</span> ') + html
    return html


def _is_block(html: Markup) -> bool:
    return html.startswith("<ul")


def _list(game: Game, selection: Selection, items: list, notes: Notes) -> Markup:
    tag = "ol" if selection.layout == "numbered" else "ul"
    position = {id(item): i for i, item in enumerate(selection.items)}
    lis = []
    for item in items:
        parts = _parts(game, item, selection.columns, notes)
        if not parts:
            continue
        (first_col, first), rest = parts[0], parts[1:]
        if rest:
            html = Markup(f'<strong class="lead">{_labelled(first_col, first)}</strong>')
            inline = [_labelled(c, h) for c, h in rest if not _is_block(h)]
            blocks = [h for c, h in rest if _is_block(h)]
            if inline:
                html += Markup(": ") + Markup(" ").join(inline)
            html += Markup("").join(blocks)
        else:
            html = _labelled(first_col, first)
        value = ""
        if tag == "ol" and selection.number_column:
            number = value_of(item, selection.number_column)
            if isinstance(number, int) and not isinstance(number, bool):
                value = f' value="{number}"'
        css = ' class="indent"' if position[id(item)] in selection.indented else ""
        lis.append(f"<li{value}{css}>{html}</li>")
    return Markup(f'<{tag} class="data-list">{"".join(lis)}</{tag}>')


def _terms(game: Game, selection: Selection, items: list, notes: Notes) -> Markup:
    entries = []
    for item in items:
        term = Markup(" ").join(h for _, h in _parts(game, item, selection.term, notes))
        paragraphs = []
        for column, html in _parts(game, item, selection.columns, notes):
            css = _classes(column)
            if _is_block(html):
                paragraphs.append(f'<div class="{css}">{_labelled(column, html)}</div>')
            else:
                paragraphs.append(f'<p class="{css}">{_labelled(column, html)}</p>')
        entries.append(f'<div class="entry"><dt>{term}</dt><dd>{"".join(paragraphs)}</dd></div>')
    return Markup(f'<dl class="data-terms">{"".join(entries)}</dl>')
