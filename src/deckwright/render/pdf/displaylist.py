"""A card face's drawing as a display list: the cairo calls CairoSVG made, to replay later.

Drawing a face with CairoSVG (parse the SVG, resolve styles, lay out text, then call cairo) costs
far more than the cairo calls themselves. A print-and-play PDF is drawn whole whenever one card
changes, so each face's calls are recorded once, stored (keyed by the face SVG, like its PNG),
and replayed into the face's recording surface on the next build: cairo gets the same calls in
the same order, so the PDF is the same to the byte.

Recording is sound only when every call that changes what is drawn is understood. The
recording context logs the calls it can serialise (paths, fills, strokes, clips, transforms,
colours, gradients, groups, font selection and text); the calls that only read state (extents,
the current point, the matrix) pass through, since replaying the same changes gives them the
same answers. Any other call (a surface as a source: embedded raster art, SVG patterns, masks)
marks the recording unusable, and that face is drawn live every time.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# Calls whose arguments are numbers and strings, replayed as they were made.
_PLAIN = (
    "append_path",  # its path is turned into lists, and back
    "arc",
    "arc_negative",
    "clip",
    "clip_preserve",
    "close_path",
    "curve_to",
    "fill",
    "fill_preserve",
    "line_to",
    "move_to",
    "new_path",
    "new_sub_path",
    "paint",
    "paint_with_alpha",
    "pop_group_to_source",
    "push_group",
    "push_group_with_content",
    "rectangle",
    "rel_curve_to",
    "rel_line_to",
    "rel_move_to",
    "reset_clip",
    "restore",
    "rotate",
    "save",
    "scale",
    "select_font_face",
    "set_antialias",
    "set_dash",
    "set_fill_rule",
    "set_font_size",
    "set_line_cap",
    "set_line_join",
    "set_line_width",
    "set_miter_limit",
    "set_operator",
    "set_source_rgb",
    "set_source_rgba",
    "set_tolerance",
    "show_text",
    "stroke",
    "stroke_preserve",
    "text_path",
    "translate",
    "identity_matrix",
)
# Calls with an object argument, stored as its values.
_OBJECT = ("transform", "set_matrix", "set_font_options", "set_source")
# Calls that only read state.
_READ = frozenset(
    {
        "clip_extents",
        "copy_clip_rectangle_list",
        "copy_path",
        "copy_path_flat",
        "device_to_user",
        "device_to_user_distance",
        "fill_extents",
        "font_extents",
        "get_antialias",
        "get_current_point",
        "get_dash",
        "get_dash_count",
        "get_fill_rule",
        "get_font_matrix",
        "get_font_options",
        "get_hairline",
        "get_line_cap",
        "get_line_join",
        "get_line_width",
        "get_matrix",
        "get_miter_limit",
        "get_operator",
        "get_tolerance",
        "glyph_extents",
        "has_current_point",
        "in_clip",
        "in_fill",
        "in_stroke",
        "path_extents",
        "stroke_extents",
        "text_extents",
        "user_to_device",
        "user_to_device_distance",
    }
)
_SCALARS = (int, float, str)
_REPLAYABLE = frozenset(_PLAIN + _OBJECT)


class DisplayListError(Exception):
    """A stored display list that cannot be read or replayed."""


@dataclass
class Drawing:
    """A face's display list and its sizes, in points."""

    width: float  # the SVG's own size, which its placement fits into the card's canvas
    height: float
    extents: list[float]  # the recording surface's (x, y, width, height)
    ops: list[Sequence[Any]]

    def dumps(self) -> bytes:
        data = [self.width, self.height, self.extents, self.ops]
        return json.dumps(data, separators=(",", ":")).encode("utf-8")

    @classmethod
    def loads(cls, data: bytes) -> Drawing:
        try:
            width, height, extents, ops = json.loads(data)
        except ValueError as exc:
            raise DisplayListError(f"unreadable display list: {exc}") from exc
        return cls(width, height, extents, ops)


def recording_class(base: type) -> type:
    """A subclass of the cairocffi context class `base` that logs its calls into `self.ops`.

    After drawing, `self.ops` is the display list, or None when a call was made that the list
    cannot hold. Every public method of cairo's context is either logged, read-only, or spoils
    the list: nothing changes the drawing unseen.
    """
    import cairocffi

    methods: dict[str, Callable] = {}
    for name in dir(cairocffi.Context):  # cairo's calls; `base` may add helpers of its own
        if name.startswith("_") or name in _READ or not callable(getattr(base, name)):
            continue
        if name in _PLAIN:
            methods[name] = _logged(base, name, _plain_args)
        elif name in _OBJECT:
            methods[name] = _logged(base, name, _ENCODE[name])
        else:
            methods[name] = _spoiling(base, name)
    methods["ops"] = None
    methods["patterns"] = ()
    methods["display_list"] = _display_list
    return type(f"Recording{base.__name__}", (base,), methods)


def _display_list(self) -> list[Sequence[Any]] | None:
    """The logged calls; None if a call could not be logged, or a gradient changed after use."""
    if self.ops is None or any(_pattern_args(p) != args for p, args in self.patterns):
        return None
    return self.ops


def _logged(base: type, name: str, encode: Callable[[Any, tuple], Sequence | None]) -> Callable:
    method = getattr(base, name)

    def call(self, *args, **kwargs):
        if self.ops is not None:
            encoded = None if kwargs else encode(self, args)
            if encoded is None:
                self.ops = None
            else:
                self.ops.append((name, *encoded))
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


def _spoiling(base: type, name: str) -> Callable:
    method = getattr(base, name)

    def call(self, *args, **kwargs):
        self.ops = None
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


def _plain_args(context, args: tuple) -> tuple | list | None:
    for arg in args:
        if type(arg) not in _SCALARS:
            return _nested_args(args)
    return args  # the common case, kept cheap: most calls draw


def _nested_args(args: tuple) -> list | None:
    """Arguments holding lists (a path, dashes), copied: the caller may change its own later."""
    out = []
    for arg in args:
        if type(arg) in _SCALARS:
            out.append(arg)
        elif isinstance(arg, (list, tuple)) and all(_plain_tree(a) for a in arg):
            out.append(json.loads(json.dumps(arg)))
        else:
            return None
    return out


def _plain_tree(value) -> bool:
    if type(value) in _SCALARS:
        return True
    return isinstance(value, (list, tuple)) and all(_plain_tree(v) for v in value)


def _matrix_args(context, args: tuple) -> list | None:
    if len(args) != 1:
        return None
    return [list(args[0].as_tuple())]


def _font_options_args(context, args: tuple) -> list | None:
    """The options as the values replay sets; None if those would not have the same effect
    (an option set that has no getter). A context class that changes the options it is given
    says how in `effective_font_options`."""
    options = args[0]
    values = (
        options.get_antialias(),
        options.get_subpixel_order(),
        options.get_hint_style(),
        options.get_hint_metrics(),
    )
    variations = options.get_variations()
    effective = getattr(context, "effective_font_options", lambda given: given)
    if effective(_font_options(values, variations)) != effective(options):
        return None
    return [list(values), variations]


@functools.cache
def _font_options(values: tuple[int, ...], variations: str | None):
    """cairo font options with these values (antialias, subpixel order, hint style, hint metrics)."""
    import cairocffi

    options = cairocffi.FontOptions()
    setters = (
        options.set_antialias,
        options.set_subpixel_order,
        options.set_hint_style,
        options.set_hint_metrics,
    )
    for setter, value in zip(setters, values, strict=True):
        setter(value)
    if variations is not None:
        options.set_variations(variations)
    return options


def _source_args(context, args: tuple) -> list | None:
    found = _pattern_args(args[0])
    if found is None:
        return None
    # cairo keeps the pattern, not a copy: a change after this call is checked at the end
    context.patterns = (*context.patterns, (args[0], found))
    return [found]


def _pattern_args(pattern) -> list | None:
    """A gradient or a plain colour as values; None for any other pattern (a surface)."""
    import cairocffi

    if isinstance(pattern, cairocffi.SolidPattern):
        return ["solid", list(pattern.get_rgba())]
    if isinstance(pattern, cairocffi.LinearGradient):
        kind, geometry = "linear", list(pattern.get_linear_points())
    elif isinstance(pattern, cairocffi.RadialGradient):
        kind, geometry = "radial", list(pattern.get_radial_circles())
    else:
        return None
    stops = [list(stop) for stop in pattern.get_color_stops()]
    return [
        kind,
        geometry,
        stops,
        pattern.get_extend(),
        pattern.get_filter(),
        list(pattern.get_matrix().as_tuple()),
    ]


_ENCODE = {
    "transform": _matrix_args,
    "set_matrix": _matrix_args,
    "set_font_options": _font_options_args,
    "set_source": _source_args,
}


def replay(context, ops: list[Sequence[Any]]) -> None:
    """Make the recorded calls on `context` (a cairocffi context of the recorded class's base).

    Raises DisplayListError for a list this module did not write (then `context` is spoilt)."""
    import cairocffi

    decode = _decoders()
    try:
        for op in ops:
            name = op[0]
            if name not in _REPLAYABLE:
                raise DisplayListError(f"not a recorded call: {name!r}")
            special = decode.get(name)
            if special is not None:
                special(context, op[1:])
            else:
                getattr(context, name)(*op[1:])
    except (TypeError, ValueError, IndexError, KeyError, cairocffi.CairoError) as exc:
        raise DisplayListError(f"display list does not replay: {exc}") from exc


@functools.cache
def _decoders() -> dict[str, Callable]:
    import cairocffi

    def matrix(values):
        return cairocffi.Matrix(*values)

    def font_options(context, args):  # CairoSVG sets them for every text element: made once
        values, variations = args
        context.set_font_options(_font_options(tuple(values), variations))

    def source(context, args):
        kind, *rest = args[0]
        if kind == "solid":
            context.set_source(cairocffi.SolidPattern(*rest[0]))
            return
        geometry, stops, extend, filter_, pattern_matrix = rest
        gradient = (cairocffi.LinearGradient if kind == "linear" else cairocffi.RadialGradient)(*geometry)
        for stop in stops:
            gradient.add_color_stop_rgba(*stop)
        gradient.set_extend(extend)
        gradient.set_filter(filter_)
        gradient.set_matrix(matrix(pattern_matrix))
        context.set_source(gradient)

    return {
        "transform": lambda context, args: context.transform(matrix(args[0])),
        "set_matrix": lambda context, args: context.set_matrix(matrix(args[0])),
        "set_font_options": font_options,
        "set_source": source,
        "append_path": lambda context, args: context.append_path([(kind, tuple(p)) for kind, p in args[0]]),
        "set_dash": lambda context, args: context.set_dash(*args),
    }
