"""YAML limits read directly: alias bombs, deep nesting and Python tags, refused fast and small."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from deckwright.source import SourceError, loads
from robustness_support import (
    ALIAS_BOMB,
)


@pytest.mark.parametrize(
    "text",
    [
        ALIAS_BOMB + "\n",
        "a: &a [" + ",".join(["x"] * 1000) + "]\nb: [" + ",".join(["*a"] * 1000) + "]\n",
        "a: &a [*a]\n",  # an alias to itself
    ],
)
def test_alias_expansion_is_refused_quickly_in_bounded_memory(text: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(SourceError) as info:
            loads(text, "f.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000
    assert "refused" in info.value.message


@pytest.mark.parametrize(
    ("text", "col"),
    [
        ("a: " + "[" * 5000, 4 + 64),  # a's value is level 1, at column 4; level 65 is refused
        ("a: " + "{a: " * 5000, 4 + 4 * 63 + 1),  # the key of the mapping at level 64
        ("- " * 5000, 1 + 2 * 65),  # the top level is 0
    ],
)
def test_nesting_beyond_pythons_recursion_limit_is_refused_where_it_gets_too_deep(
    text: str, col: int
) -> None:
    with pytest.raises(SourceError) as info:
        loads(text + "\n", "f.yaml")
    assert str(info.value) == f"f.yaml:1:{col}: nesting deeper than 64 levels; refused"


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for tag in ("python/object/apply:os.system", "python/object/new:os.system", "python/name:os.system"):
        with pytest.raises(SourceError, match="is not allowed; refused"):
            loads(f"x: !!{tag} ['touch {marker}']\n", "f.yaml")
    assert not marker.exists()
