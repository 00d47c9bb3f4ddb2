"""Safe YAML loading that keeps the file, line and column of every value.

PyYAML composes a node graph that carries marks; we construct plain Python values from it
ourselves so that we can (a) keep a location for every key and value, (b) refuse duplicate keys,
tags outside the YAML core schema (no Python objects are ever constructed) and merge keys, and
(c) bound alias expansion, nesting depth and string length, so hostile input fails fast.

Mappings load as `YMap` (a dict) and sequences as `YList` (a list); both remember where they
and their items stand. Everything else is a plain str/int/float/bool/None.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from .cache import PickleStore, code_version, digest
from .diagnostics import Loc
from .safety.containment import ContainmentError, read_contained
from .safety.limits import MAX_FILE_BYTES

MAX_NODES = 200_000  # constructed values per file, aliases counted each time they expand
MAX_DEPTH = 64
MAX_SCALAR_CHARS = 100_000

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null", "timestamp")}


class SourceError(Exception):
    """The file cannot be read as YAML; carries the location of the problem."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(f"{loc}: {message}")
        self.loc = loc
        self.message = message


class YMap(dict):
    """A mapping that knows where it, its keys and its values are."""

    def __init__(self, loc: Loc) -> None:
        super().__init__()
        self.loc = loc
        self.key_locs: dict[Any, Loc] = {}
        self.value_locs: dict[Any, Loc] = {}

    def loc_of(self, key: Any) -> Loc:
        """Where the value of `key` is; the mapping itself when the key is absent."""
        return self.value_locs.get(key, self.loc)

    def key_loc(self, key: Any) -> Loc:
        return self.key_locs.get(key, self.loc)


class YList(list):
    """A sequence that knows where it and each item are."""

    def __init__(self, loc: Loc) -> None:
        super().__init__()
        self.loc = loc
        self.item_locs: list[Loc] = []

    def loc_of(self, index: int) -> Loc:
        return self.item_locs[index] if 0 <= index < len(self.item_locs) else self.loc


def loc_of(container: Any, key: Any, fallback: Loc) -> Loc:
    """The location of `container[key]` for a YMap or YList, else `fallback`."""
    if isinstance(container, YMap | YList):
        return container.loc_of(key)
    return fallback


def _decode(raw: bytes, path: str) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raise SourceError(
            Loc(path, 1, 1),
            "file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM",
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise SourceError(
            Loc(path, line, col),
            f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
        ) from None


_TAB_INDENT = re.compile(r"^( *)\t", re.MULTILINE)


def _check_tabs(text: str, path: str) -> None:
    match = _TAB_INDENT.search(text)
    if match:
        line = text.count("\n", 0, match.start()) + 1
        raise SourceError(
            Loc(path, line, len(match.group(1)) + 1),
            "tab character in indentation; YAML indents with spaces",
        )


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe composer, counting as it goes: an alias counts as every value it stands
    for, so an expansion bomb (or a flood of values) is refused while the file is still being
    read, at the alias that crosses the limit, before anything is expanded or built; and
    nesting is refused at its depth instead of exhausting Python's recursion."""

    def __init__(self, stream: str, path: str) -> None:
        super().__init__(stream)
        self._path = path
        self._total = 0
        self._depth = 0
        self._sizes: dict[int, int] = {}  # id(node) -> values it expands to

    def _refuse(self, mark: Any, message: str) -> SourceError:
        return SourceError(Loc(self._path, mark.line + 1, mark.column + 1), message)

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            mark = self.peek_event().start_mark
            node = super().compose_node(parent, index)
            # an alias to a node still being composed (recursive) counts once; the builder
            # refuses its endless nesting
            self._count(self._sizes.get(id(node), 1), mark)
            return node
        mark = self.peek_event().start_mark
        self._depth += 1
        try:
            if self._depth - 1 > MAX_DEPTH:
                raise self._refuse(mark, f"nesting deeper than {MAX_DEPTH} levels; refused")
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if isinstance(node, SequenceNode):
            children = node.value
        elif isinstance(node, MappingNode):
            children = [value for _, value in node.value]  # keys are scalars (or refused)
        else:
            children = []
        self._sizes[id(node)] = 1 + sum(self._sizes.get(id(c), 1) for c in children)
        self._count(1, mark)
        return node

    def _count(self, n: int, mark: Any) -> None:
        self._total += n
        if self._total > MAX_NODES:
            raise self._refuse(
                mark, f"document expands to more than {MAX_NODES} values (alias expansion?); refused"
            )


class _Builder:
    """Turns a composed node graph into YMap/YList/scalars, with limits."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.nodes = 0
        self._scalars = SafeConstructor()

    def loc(self, node: Node) -> Loc:
        mark = node.start_mark
        return Loc(self.path, mark.line + 1, mark.column + 1)

    def build(self, node: Node, depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise SourceError(
                self.loc(node),
                f"document expands to more than {MAX_NODES} values (alias expansion?); refused",
            )
        if depth > MAX_DEPTH:
            raise SourceError(self.loc(node), f"nesting deeper than {MAX_DEPTH} levels; refused")
        if isinstance(node, MappingNode):
            return self._mapping(node, depth)
        if isinstance(node, SequenceNode):
            return self._sequence(node, depth)
        return self._scalar(node)

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag not in _SCALAR_TAGS:
            raise SourceError(self.loc(node), f"tag {node.tag!r} is not allowed; refused")
        if len(node.value) > MAX_SCALAR_CHARS:
            raise SourceError(self.loc(node), f"value is longer than {MAX_SCALAR_CHARS} characters; refused")
        if node.tag == f"{_CORE}timestamp":
            # Dates stay as written: a printed "2026-10-01" is text, not a datetime.
            return node.value
        return self._scalars.construct_object(node)

    def _sequence(self, node: SequenceNode, depth: int) -> YList:
        if node.tag != f"{_CORE}seq":
            raise SourceError(self.loc(node), f"tag {node.tag!r} is not allowed; refused")
        out = YList(self.loc(node))
        for item in node.value:
            out.append(self.build(item, depth + 1))
            out.item_locs.append(self.loc(item))
        return out

    def _mapping(self, node: MappingNode, depth: int) -> YMap:
        if node.tag != f"{_CORE}map":
            raise SourceError(self.loc(node), f"tag {node.tag!r} is not allowed; refused")
        out = YMap(self.loc(node))
        for key_node, value_node in node.value:
            if key_node.tag == f"{_CORE}merge":
                raise SourceError(self.loc(key_node), "merge keys (<<) are not supported")
            if not isinstance(key_node, ScalarNode):
                raise SourceError(self.loc(key_node), "a mapping key must be a plain value")
            key = self._scalar(key_node)
            if not isinstance(key, str | int):
                raise SourceError(self.loc(key_node), f"key {key!r} must be text or a number")
            if key in out:
                first = out.key_locs[key]
                raise SourceError(
                    self.loc(key_node),
                    f"duplicate key {key!r} (first at line {first.line}, column {first.col})",
                )
            out.key_locs[key] = self.loc(key_node)
            out[key] = self.build(value_node, depth + 1)
            out.value_locs[key] = self.loc(value_node)
        return out


def loads(text: str, path: str) -> Any:
    """Parse one YAML document from text. Raises SourceError."""
    _check_tabs(text, path)
    loader = None
    try:
        loader = _BoundedLoader(text, path)
        node = loader.get_single_node()
    except ReaderError as exc:
        # a character YAML does not allow anywhere in a file: a raw control character, ...
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        kind = "a control character" if unicodedata.category(chr(code)) == "Cc" else "not printable"
        raise SourceError(
            Loc(path, line, col),
            f"character U+{code:04X} ({kind}) is not allowed in a YAML file; remove it",
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Loc(path, mark.line + 1, mark.column + 1) if mark else Loc(path)
        problem = exc.problem or exc.context or "invalid YAML"
        context = ""
        if exc.context and exc.problem:
            # where the unclosed thing started: an unclosed quote is reported at the end of the file
            start = exc.context_mark
            if start is not None and mark is not None and start.line != mark.line:
                context = f" ({exc.context} started at line {start.line + 1}, column {start.column + 1})"
            else:
                context = f" ({exc.context})"
        raise SourceError(loc, f"YAML syntax error: {problem}{context}") from None
    except yaml.YAMLError as exc:
        raise SourceError(Loc(path), f"YAML error: {exc}") from None
    except RecursionError:
        raise SourceError(Loc(path), "nesting too deep; refused") from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise SourceError(Loc(path), "file is empty")
    return _Builder(path).build(node)


class ParseCache:
    """Parsed files kept between builds: PyYAML's pure-Python parser (the one whose errors and
    marks we report) is the slowest part of loading a game, and a rebuild after an edit finds
    all files but one as they were.

    A parse is a function of the file's bytes, the path its locations name, and the parsing
    code: an entry is keyed by the first two, in a folder named for the last (deckwright's code
    and PyYAML's version), so a hit is exactly what parsing would give. Only files that parse
    are kept, in a `PickleStore`: one that cannot be read or written only means parsing again.
    With `read` off (`build --no-cache`), files are parsed afresh and the entries rewritten for
    the next build.
    """

    def __init__(self, cache_dir: Path, read: bool = True) -> None:
        self.folder = cache_dir / "yaml" / digest(yaml.__version__, code_version())[:16]
        self.store = PickleStore(self.folder)
        self.read = read

    def load(self, raw: bytes, shown: str) -> Any:
        name = digest(raw, shown)
        if self.read and (value := self.store.get(name)) is not None:
            return value
        value = loads(_decode(raw, shown), shown)
        self.store.put(name, value)
        return value


def load(
    path: Path,
    display: str | None = None,
    cache: ParseCache | None = None,
    roots: Iterable[Path] | None = None,
) -> Any:
    """Read and parse a YAML file; `display` is the path shown in messages. The file must lie
    (links followed) inside `roots`, by default the folder that holds it (safety/containment.py)."""
    shown = display or str(path)
    try:
        raw = read_contained(path, roots or (path.parent,), MAX_FILE_BYTES, shown)
    except ContainmentError as exc:
        raise SourceError(exc.loc, exc.message.removeprefix(f"{shown}: ")) from None
    if cache is not None:
        return cache.load(raw, shown)
    return loads(_decode(raw, shown), shown)
