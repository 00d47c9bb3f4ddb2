"""Draw CairoSVG's plain text runs in one cairo call instead of one call per letter.

CairoSVG 2.9 draws every `<text>` letter by letter: for each letter it measures the letter, moves,
and draws it alone, and it lays the element out twice (once to build an outline path for the
stroke, once to fill). On our cards that Python loop is most of the drawing time. The text
deckwright writes is simpler than what that loop serves: one run per element, at one x and y,
no per-letter positions, rotation, letter spacing or text path. For such a run cairo's own
`show_text` places the glyphs at the same advances the loop adds up (the toy text API does not
kern), so the pixels are the same, and a PDF gets one string per line instead of one per letter.

Anything else goes to CairoSVG's own drawer, unchanged. `install()` swaps the drawer in
CairoSVG's tag table, process-wide and idempotently, like the fontconfig and hint-metrics
settings `fonts.activate` makes before it.
"""

from __future__ import annotations

# Attributes (own or inherited) that need CairoSVG's per-letter layout.
_PER_LETTER = (
    "dx",
    "dy",
    "rotate",
    "letter-spacing",
    "display-anchor",
    "dominant-baseline",
    "alignment-baseline",
)


def install() -> None:
    """Make CairoSVG draw plain text runs with `draw_text` (the per-letter drawer stays the fallback)."""
    from cairosvg import surface

    if getattr(surface.text, "_deckwright_run", False):
        return
    letters = surface.text

    def text(svg_surface, node, draw_as_text: bool = False) -> None:
        if _is_plain_run(node):
            draw_run(svg_surface, node, draw_as_text)
        else:
            letters(svg_surface, node, draw_as_text)

    text._deckwright_run = True
    # Surface.draw looks the drawer up in TAGS and compares it with the module's `text` to
    # know when to fill text as text: both names must point at the new function.
    surface.TAGS["text"] = text
    surface.text = text


def _is_plain_run(node) -> bool:
    if node.tag != "text" or any(name in node for name in _PER_LETTER):
        return False
    if node.get_href() or (node.parent is not None and node.parent.get_href()):
        return False
    for axis in ("x", "y"):
        if axis in node and len(str(node[axis]).replace(",", " ").split()) > 1:
            return False
    # Gradients and patterns on text are sized from CairoSVG's per-letter bounding box.
    return not any(str(node.get(paint, "")).lstrip().startswith("url(") for paint in ("fill", "stroke"))


def draw_run(surface, node, draw_as_text: bool) -> None:
    """Draw `node.text` as one run, with the cursor effects CairoSVG's drawer has.

    CairoSVG calls the drawer twice per element: first without `draw_as_text` to build the path
    its stroke step strokes, then with it to fill. The path is built only when something uses
    it: a stroke, or a clip path (drawn with `stroke_and_fill` off). Without a stroke, CairoSVG
    strokes with a clear source, which draws nothing.
    """
    import cairocffi as cairo
    from cairosvg.helpers import size

    context = surface.context
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = getattr(cairo, f"font_slant_{node.get('font-style')}".upper(), cairo.FONT_SLANT_NORMAL)
    weight_name = node.get("font-weight")
    if weight_name and weight_name.isdigit() and int(weight_name) >= 550:
        weight_name = "bold"
    weight = getattr(cairo, f"font_weight_{weight_name}".upper(), cairo.FONT_WEIGHT_NORMAL)
    context.select_font_face(family, slant, weight)
    context.set_font_size(surface.font_size)

    given_x = size(surface, node["x"], "x") if "x" in node else None
    given_y = size(surface, node["y"], "y") if "y" in node else None
    string = node.text
    if not string:
        x = surface.cursor_position[0] if given_x is None else given_x
        y = surface.cursor_position[1] if given_y is None else given_y
        surface.cursor_position = (x, y)
        return
    # CairoSVG resets the accumulated dx/dy only when the letter's x/y is non-zero.
    if given_x:
        surface.cursor_d_position[0] = 0
    if given_y:
        surface.cursor_d_position[1] = 0
    x = surface.cursor_position[0] if given_x is None else given_x
    y = surface.cursor_position[1] if given_y is None else given_y

    x_bearing, _, width, _, x_advance, _ = context.text_extents(string)
    anchor = node.get("text-anchor")
    x_align = {"middle": -(width / 2 + x_bearing), "end": -(width + x_bearing)}.get(anchor, 0)
    dx, dy = surface.cursor_d_position
    context.move_to(x + dx + x_align, y + dy)
    stroke = node.get("stroke")
    if draw_as_text:
        context.show_text(string)
    elif (stroke and stroke != "none") or not surface.stroke_and_fill:  # stroked, or a clip path
        context.text_path(string)
    surface.cursor_position = (x + x_advance, y)
