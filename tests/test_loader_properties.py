"""Property-based: the loader and the validator never raise, whatever they are given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from deckwright.diagnostics import Diagnostics
from deckwright.readers import load_game
from deckwright.readers.catalog import read_catalog
from deckwright.source import SourceError, loads
from deckwright.validate import validate_game

YAML_ALPHABET = st.sampled_from(
    [*"abcxyz019 -:,[]{}#&*!|>'\"%@`?\n\t\\.", "\ufeff", "\x07", "\x85", "é", "中", "\u200f"]
)


@settings(max_examples=200, deadline=None)
@given(st.text(YAML_ALPHABET, max_size=80))
def test_loader_raises_only_source_errors(text: str) -> None:
    try:
        loads(text, "f.yaml")
    except SourceError as exc:
        assert exc.loc.path == "f.yaml" and exc.loc.line >= 1 and exc.loc.col >= 1
        assert "\n" not in exc.message


KEYS = st.sampled_from(
    [
        *("id", "name", "count", "number", "note", "side", "power", "text", "rivals", "caster"),
        *("unknown", "type", "cards", "tables", "checks", "extends", "x"),
    ]
)
IDS = st.sampled_from(["ann", "bob", "cy", "zap", "dan", "Ann", "a b", "", "../x"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=True, allow_infinity=True),
    IDS,
    st.sampled_from(["light", "dark", "hero", "spell", "Heal 2.", "{R}", "{unknown}", "2026-10-01"]),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=12,
)
UNKNOWN = st.builds(lambda note: {"unknown": note}, st.one_of(st.text(max_size=8), VALUES))


def _hero(value: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(value, UNKNOWN, VALUES)


# mostly hero-shaped cards, so that generated files reach the schema, references and checks
CARD = st.one_of(
    st.fixed_dictionaries(
        {"id": IDS, "name": st.one_of(st.text(max_size=10), VALUES)},
        optional={
            "count": _hero(st.integers(-2, 5)),
            "side": _hero(st.sampled_from(["light", "dark", "grey"])),
            "power": _hero(st.integers(-1, 11)),
            "text": _hero(st.text(max_size=30)),
            "rivals": _hero(st.lists(IDS, max_size=3)),
            "number": _hero(st.one_of(st.integers(), st.text(max_size=4))),
            "x": VALUES,
        },
    ),
    st.dictionaries(KEYS, VALUES, max_size=8),
)
CARD_FILE = st.fixed_dictionaries(
    {"type": st.sampled_from(["hero", "hero", "spell", "nope", 3])},
    optional={"cards": st.one_of(st.lists(CARD, max_size=5), VALUES), "x": VALUES},
)
DOCUMENTS = st.one_of(CARD_FILE, VALUES).map(lambda doc: yaml.safe_dump(doc, allow_unicode=True))


@pytest.fixture(scope="module")
def scratch_game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scratch") / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    return folder


LAYOUTS = read_catalog(REPO / "layouts", Diagnostics(), str).layouts


def _load_and_validate(folder: Path, text: str) -> None:
    (folder / "heroes.yaml").write_text(text, encoding="utf-8")
    diags = Diagnostics()
    game = load_game(folder, diags, folder.parent)
    if game is not None:
        validate_game(game, LAYOUTS, diags)
    for d in diags:
        assert d.loc.path and d.loc.line >= 1, d


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DOCUMENTS)
def test_load_and_validate_never_raise_on_generated_structures(scratch_game: Path, text: str) -> None:
    _load_and_validate(scratch_game, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(YAML_ALPHABET, max_size=120).map(lambda t: "type: hero\ncards:\n  - " + t))
def test_load_and_validate_never_raise_on_generated_text(scratch_game: Path, text: str) -> None:
    _load_and_validate(scratch_game, text)
