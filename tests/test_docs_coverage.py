"""The documentation keeps up with the code: every key the data readers accept is in
docs/data-format.md, every reference and option of the rulebook's Markdown in docs/rulebook.md,
every output kind and every command and option of the command line in README.md.

The keys are collected from the code, so a new one is covered without touching this test: the
module-level tuples named `*_KEYS` and the literal tuples passed to `check_keys(...)` in every
module of deckwright.readers and in every other deckwright module that calls `check_keys`
(style.yaml and fonts.yaml are read outside readers/ today). A key counts as documented when
the doc shows it as code: `key` alone in backticks, or as a YAML key (`key:`) in a code block or
in backticks (`extends: <key>`, `{min: 6, max: 12}`).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import deckwright
import deckwright.readers
from conftest import REPO
from deckwright.cli import _parser
from deckwright.kinds import OUTPUT_KINDS
from deckwright.references.syntax import REF_OPTIONS

PACKAGE = Path(deckwright.__file__).resolve().parent
DATA_FORMAT = REPO / "docs" / "data-format.md"
RULEBOOK = REPO / "docs" / "rulebook.md"
README = REPO / "README.md"
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")


# ---- what the docs show as code -----------------------------------------------------------------


class Doc:
    """A Markdown file's code: its fenced blocks (comments dropped) and inline code spans."""

    def __init__(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        # a YAML comment starts at a # after a blank (not "#b3261e" in a quoted colour)
        self.blocks = [
            re.sub(r"(^|\s)#.*$", "", line) for b in FENCE.findall(text) for line in b.splitlines()
        ]
        self.spans = [s.strip() for s in SPAN.findall(FENCE.sub("", text))]

    def documents_key(self, key: str) -> bool:
        return key in self.spans or any(_yaml_key(key, s) for s in self.spans + self.blocks)

    def shows(self, pattern: str) -> bool:
        """Some code span matches the regular expression."""
        return any(re.search(pattern, s) for s in self.spans)


def _yaml_key(key: str, text: str) -> bool:
    """`key:` as a mapping key: at the start of a line (after indentation or a `- `), or after
    `{` or `,` in a flow mapping; the colon is followed by a blank or the end."""
    return re.search(rf"(?:^|[{{,]|-\s)\s*{re.escape(key)}:(?:\s|$)", text) is not None


# ---- the keys the readers accept ----------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _calls_check_keys(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "check_keys"
    ]


def reader_modules() -> list[str]:
    readers = [
        info.name
        for info in pkgutil.walk_packages(deckwright.readers.__path__, "deckwright.readers.")
        if not info.ispkg
    ]
    callers = [
        _module_name(path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if "check_keys(" in (text := path.read_text(encoding="utf-8")) and _calls_check_keys(ast.parse(text))
    ]
    return sorted({"deckwright.readers", *readers, *callers})


def accepted_keys() -> dict[str, tuple[str, ...]]:
    """Where each accepted key comes from ("module.NAME" or "module:line") -> the keys."""
    found: dict[str, tuple[str, ...]] = {}
    for name in reader_modules():
        module = importlib.import_module(name)
        for attr, value in sorted(vars(module).items()):
            if attr.endswith("_KEYS") and isinstance(value, tuple) and all(isinstance(k, str) for k in value):
                found[f"{name}.{attr}"] = value
        source = Path(module.__file__).read_text(encoding="utf-8")
        for call in _calls_check_keys(ast.parse(source)):
            allowed = call.args[2] if len(call.args) > 2 else None
            if isinstance(allowed, ast.Tuple):  # names and *spreads are constants, read above
                literal = tuple(e.value for e in allowed.elts if isinstance(e, ast.Constant))
                if literal:
                    found[f"{name}:{call.lineno}"] = literal
    return found


def test_the_readers_keys_are_found() -> None:
    """The collection sees the readers (a rename of check_keys or of the constants would
    otherwise make the coverage test pass on nothing)."""
    found = accepted_keys()
    everything = {key for keys in found.values() for key in keys}
    assert {"card_types", "double_sided", "extends", "expect", "symmetric", "corner_radius"} <= everything
    assert any(source.endswith("GAME_FILE_KEYS") for source in found)
    assert any(":" in source for source in found)  # literal tuples of check_keys calls
    assert len(everything) > 80


def test_every_key_the_readers_accept_is_documented() -> None:
    doc = Doc(DATA_FORMAT)
    missing = {
        source: [key for key in keys if not doc.documents_key(key)]
        for source, keys in accepted_keys().items()
    }
    missing = {source: keys for source, keys in missing.items() if keys}
    assert not missing, "keys the readers accept that docs/data-format.md does not show:\n" + "\n".join(
        f"  {source}: {', '.join(keys)}" for source, keys in sorted(missing.items())
    )


@pytest.mark.parametrize(
    ("text", "documented", "undocumented"),
    [
        ("Write `extends: <key>` to derive a row.\n", ["extends"], ["key"]),
        ("```yaml\nplayers: {min: 6, max: 12}  # host: 1\n```\n", ["players", "min", "max"], ["host"]),
        ('```yaml\n- id: x\n  fill: "#b3261e"\n```\n', ["id", "fill"], ["b3261e"]),
        ("the tgc product, the trim size, an extends chain\n", [], ["tgc", "trim", "extends"]),
        ("`trimmed` and `corner_radius_x`, `a-bleed: 1`\n", [], ["trim", "corner_radius", "bleed"]),
    ],
)
def test_what_counts_as_documented(tmp_path: Path, text: str, documented, undocumented) -> None:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    doc = Doc(path)
    assert [k for k in documented if not doc.documents_key(k)] == []
    assert [k for k in undocumented if doc.documents_key(k)] == []


def test_every_rulebook_reference_and_option_is_documented() -> None:
    """`{kind:...}` references and their `option=value`s, shown in docs/rulebook.md's code."""
    doc = Doc(RULEBOOK)
    assert REF_OPTIONS and all(REF_OPTIONS.values())
    missing = [f"{{{kind}:...}}" for kind in REF_OPTIONS if not doc.shows(rf"\{{{re.escape(kind)}:")]
    missing += sorted(
        {
            f"{option}="
            for options in REF_OPTIONS.values()
            for option in options
            if not doc.shows(rf"(?:^|[\s{{]){re.escape(option)}=")
        }
    )
    assert not missing, f"rulebook references and options docs/rulebook.md does not show: {missing}"


# ---- the command line and the output kinds ---------------------------------------------------------


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(subparsers) == 1
    return dict(subparsers[0].choices)


def options(parser: argparse.ArgumentParser) -> list[tuple[str, ...]]:
    """Each option's spellings (`-o`, `--output`); showing one of them documents it."""
    return [
        tuple(action.option_strings)
        for action in parser._actions
        if action.option_strings and not isinstance(action, argparse._HelpAction)
    ]


def test_every_command_is_documented_in_the_readme() -> None:
    doc = Doc(README)
    found = commands()
    assert {"build", "validate", "list"} <= set(found)
    missing = [name for name in found if not doc.shows(rf"^deckwright {re.escape(name)}(?:\s|$)")]
    assert not missing, f"commands README.md does not show as `deckwright COMMAND ...`: {missing}"


def test_every_option_is_documented_in_the_readme() -> None:
    doc = Doc(README)
    wanted = {"(all)": options(_parser())} | {name: options(p) for name, p in commands().items()}
    missing = {
        where: [
            "/".join(spellings)
            for spellings in found
            if not any(doc.shows(rf"(?<![\w-]){re.escape(o)}(?![\w-])") for o in spellings)
        ]
        for where, found in wanted.items()
    }
    missing = {where: found for where, found in missing.items() if found}
    assert not missing, f"options README.md does not show in backticks: {missing}"


def test_every_output_kind_is_documented_in_the_readme() -> None:
    doc = Doc(README)
    assert len(OUTPUT_KINDS) >= 7
    missing = [kind for kind in OUTPUT_KINDS if kind not in doc.spans]
    assert not missing, f"output kinds README.md does not show as `kind`: {missing}"
