"""The YAML loader: locations kept, bad files refused with a clear located message."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckwright.source import SourceError, YList, YMap, load, loads


def load_text(tmp_path: Path, text: str | bytes) -> object:
    path = tmp_path / "f.yaml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return load(path, "f.yaml")


def error_of(tmp_path: Path, text: str | bytes) -> SourceError:
    with pytest.raises(SourceError) as info:
        load_text(tmp_path, text)
    return info.value


def test_locations_of_keys_values_and_items() -> None:
    doc = loads("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml")
    assert isinstance(doc, YMap)
    assert (doc.key_loc("b").line, doc.key_loc("b").col) == (2, 1)
    items = doc["b"]
    assert isinstance(items, YList)
    assert (items.loc_of(0).line, items.loc_of(0).col) == (3, 5)
    assert items[1].loc_of("c").line == 4
    assert str(doc.loc_of("a")) == "f.yaml:1:4"


def test_dates_stay_text_and_scalars_typed() -> None:
    doc = loads("d: 2026-10-01\nn: 3\nf: 1.5\nb: true\nz: null\n", "f.yaml")
    assert doc == {"d": "2026-10-01", "n": 3, "f": 1.5, "b": True, "z": None}


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("a: [1, 2\nb: 3\n", (2, 2), "YAML syntax error"),
        ("a: 1\na: 2\n", (2, 1), "duplicate key 'a' (first at line 1, column 1)"),
        ("a:\n\tb: 1\n", (2, 1), "tab character in indentation"),
        ("x: !!python/object/apply:os.system ['true']\n", (1, 4), "is not allowed; refused"),
        ("a: !custom 1\n", (1, 4), "is not allowed; refused"),
        ("base: &b {x: 1}\nc:\n  <<: *b\n", (3, 3), "merge keys"),
    ],
)
def test_bad_yaml_is_located(tmp_path: Path, text: str, where: tuple[int, int], words: str) -> None:
    err = error_of(tmp_path, text)
    assert (err.loc.line, err.loc.col) == where
    assert words in err.message
    assert str(err).startswith(f"f.yaml:{where[0]}:{where[1]}: ")


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"x: !!python/object/apply:os.system ['touch {marker}']\n"
    error_of(tmp_path, text)
    assert not marker.exists()


def test_empty_missing_bom_and_non_utf8(tmp_path: Path) -> None:
    assert "empty" in error_of(tmp_path, "# only a comment\n").message
    assert "byte-order mark" in error_of(tmp_path, "\ufeffa: 1\n".encode()).message
    err = error_of(tmp_path, b"a: 1\nb: caf\xe9\n")
    assert "not valid UTF-8" in err.message
    assert (err.loc.line, err.loc.col) == (2, 7)
    with pytest.raises(SourceError, match="file not found"):
        load(tmp_path / "missing.yaml", "missing.yaml")


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    err = error_of(tmp_path, "\n".join(lines) + "\n")
    assert "expands to more than" in err.message


def test_deep_nesting_and_long_strings_are_refused(tmp_path: Path) -> None:
    assert "nesting" in error_of(tmp_path, "a: " + "[" * 200 + "]" * 200 + "\n").message
    assert "longer than" in error_of(tmp_path, "a: " + "x" * 200_001 + "\n").message
