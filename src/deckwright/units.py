"""Lengths written as text ("63mm", "2.5in", "9pt", "1/8in") to PDF points, and back."""

from __future__ import annotations

import re
from fractions import Fraction

MM = 72 / 25.4  # points in a millimetre
POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": MM, "cm": 72.0 / 2.54}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:/\d+)?)\s*(pt|in|mm|cm)\s*$")


class UnitError(ValueError):
    pass


def to_points(text: str | int | float) -> float:
    """Parse a length; a bare number is points. Raises UnitError."""
    if isinstance(text, bool):
        raise UnitError(f"{text!r} is not a length")
    if isinstance(text, int | float):
        return float(text)
    match = _LENGTH.match(str(text))
    if not match:
        raise UnitError(f"{text!r} is not a length such as '63mm', '2.5in', '9pt' or '1/8in'")
    number, unit = match.groups()
    return float(Fraction(number)) * POINTS_PER[unit]


def mm(points: float) -> float:
    return points / POINTS_PER["mm"]


def inches(points: float) -> float:
    return points / 72.0


def pixels(points: float, dpi: int) -> float:
    return points / 72.0 * dpi
