"""Display lists (render/displaylist.py): what a recording holds, and what spoils it."""

from __future__ import annotations

import cairocffi

from deckwright.render.pdf.displaylist import Drawing, recording_class, replay

Recording = recording_class(cairocffi.Context)


def _context() -> cairocffi.Context:
    context = Recording(cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, 100, 100)))
    context.ops = []
    return context


def test_drawing_calls_are_logged_and_reads_are_not() -> None:
    context = _context()
    with context:  # save and restore
        context.translate(10, 5)
        context.move_to(0, 0)
        context.line_to(20, 20)
        assert context.get_current_point() == (20, 20)
        context.set_dash([2, 1], 0.5)
        context.stroke()
    ops = context.display_list()
    assert [op[0] for op in ops] == [
        "save",
        "translate",
        "move_to",
        "line_to",
        "set_dash",
        "stroke",
        "restore",
    ]


def test_a_surface_source_spoils_the_list() -> None:
    context = _context()
    context.rectangle(0, 0, 10, 10)
    context.set_source_surface(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 2, 2))
    context.fill()
    assert context.display_list() is None


def test_a_gradient_changed_after_use_spoils_the_list() -> None:
    context = _context()
    gradient = cairocffi.LinearGradient(0, 0, 0, 100)
    gradient.add_color_stop_rgb(0, 1, 0, 0)
    context.set_source(gradient)
    context.paint()
    assert context.display_list() is not None
    gradient.add_color_stop_rgb(1, 0, 0, 1)  # cairo draws with the pattern as it is now
    assert context.display_list() is None


def test_a_replayed_list_records_the_same_calls() -> None:
    context = _context()
    gradient = cairocffi.RadialGradient(50, 50, 0, 50, 50, 40)
    gradient.add_color_stop_rgba(0, 1, 1, 1, 0.5)
    gradient.add_color_stop_rgba(1, 0, 0, 0, 1)
    context.set_source(gradient)
    context.arc(50, 50, 40, 0, 6.2832)
    context.fill_preserve()
    context.set_matrix(cairocffi.Matrix(2, 0, 0, 2, 1, 1))
    context.append_path(context.copy_path())
    context.select_font_face("Inter", cairocffi.FONT_SLANT_NORMAL, cairocffi.FONT_WEIGHT_BOLD)
    context.set_font_options(cairocffi.FontOptions(hint_metrics=cairocffi.HINT_METRICS_OFF))
    context.show_text("Aldric")
    drawing = Drawing(100, 100, [0, 0, 100, 100], context.display_list())
    again = _context()
    replay(again, Drawing.loads(drawing.dumps()).ops)
    assert Drawing(100, 100, [0, 0, 100, 100], again.display_list()).dumps() == drawing.dumps()
