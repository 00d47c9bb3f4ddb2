"""The one way deckwright makes a Jinja2 environment: sandboxed, with a confined loader and a
short, reviewed list of what a template may call.

A template is data from the game's author, like its YAML: it may lay out and format what it is
given, never reach Python. So:

- Jinja2's `SandboxedEnvironment` runs every template: no attribute starting with `_`
  (`cycler.__init__.__globals__`, `self.__init__`), no internal attributes of functions, frames
  or generators, `str.format` checked. Not the immutable variant: the reference templates build
  their own lookup dicts and lists (`{% set _ = teams.update(...) %}`).
- On top of Jinja's rules, nothing of a file path (`.read_text()`, `.open()`) and no module is
  reachable, whatever object a template is handed.
- The globals are `SAFE_GLOBALS` (range, dict, namespace), not Jinja's defaults: `lipsum`,
  `cycler` and `joiner` are gone. The filters are Jinja's built-in ones (each checked by the
  sandbox) plus the few each caller adds (`fmt`, `value`); the tests are Jinja's plus `unknown`.
- `ConfinedLoader` serves only files inside the template folders it is given (links followed
  and checked), never an absolute name or `..`, each a regular file read with a size limit.
"""

from __future__ import annotations

import os
import signal
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePath
from typing import Any

import jinja2
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment, safe_range

from ..diagnostics import Loc
from . import limits
from .containment import ContainmentError, read_contained, resolved_roots
from .limits import MAX_FILE_BYTES, MAX_NUMBER_BITS, MAX_TEMPLATE_SEQUENCE

# Everything a template may call besides its caller's own helpers (text(), art(), icon() ...).
SAFE_GLOBALS: dict[str, Any] = {
    "range": safe_range,  # the sandbox's range: at most 100 000 items
    "dict": dict,
    "namespace": jinja2.utils.Namespace,
}


class TemplateRefused(jinja2.TemplateError):
    """A template name or file that the loader refuses to serve (not a TemplateNotFound: no
    fallback to another name may hide it); `loc` names the file."""

    def __init__(self, name: str, message: str, loc: Loc | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.loc = loc


class ConfinedLoader(jinja2.BaseLoader):
    """Templates from `folders` in order, each file inside one of `folders` once links are
    followed, a regular file of at most MAX_FILE_BYTES. `display` shows a path in messages."""

    def __init__(self, folders: Sequence[Path], display: Callable[[Path], str] = str) -> None:
        self.folders = [Path(f) for f in folders]
        self.roots = resolved_roots(self.folders)
        self.display = display

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if template.startswith(("/", "\\")) or PurePath(template).is_absolute() or "\\" in template:
            raise TemplateRefused(template, f"template {template!r}: refused: an absolute path")
        try:
            pieces = split_template_path(template)  # refuses `..`
        except jinja2.TemplateNotFound:
            message = f"template {template!r}: refused: a path that leaves its folder"
            raise TemplateRefused(template, message) from None
        for folder in self.folders:
            path = folder.joinpath(*pieces)
            if not (path.exists() or path.is_symlink()):
                continue
            shown = self.display(path)
            try:
                raw = read_contained(path, self.roots, MAX_FILE_BYTES, shown)
            except ContainmentError as exc:
                raise TemplateRefused(template, f"template {exc.message}", exc.loc) from None
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise TemplateRefused(template, f"template {shown}: not UTF-8", Loc(shown)) from None
            mtime = _mtime(path)
            return source, os.path.normpath(path), lambda p=path, m=mtime: _mtime(p) == m
        raise jinja2.TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        found = set()
        for folder in self.folders:
            for root, _, files in os.walk(folder):
                for name in files:
                    found.add(Path(root, name).relative_to(folder).as_posix())
        return sorted(found)


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


class Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, no path or module reachable from a template, and bounded `*` and `**`
    (a single huge operation runs in C, where no timer can stop it)."""

    intercepted_binops = frozenset(["*", "**"])

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, PurePath | types.ModuleType) or isinstance(value, types.ModuleType):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        made = _made_by(operator, left, right)
        if made is not None:
            raise jinja2.sandbox.SecurityError(made)
        return super().call_binop(context, operator, left, right)


def _made_by(operator: str, left: Any, right: Any) -> str | None:
    """Why `left operator right` is too large to compute, or None."""
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if (
                isinstance(seq, str | list | tuple)
                and isinstance(n, int)
                and len(seq) * n > MAX_TEMPLATE_SEQUENCE
            ):
                return f"{len(seq) * n} items made with '*' is above the limit of {MAX_TEMPLATE_SEQUENCE}"
    if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0:
        bits = left.bit_length() * right
        if bits > MAX_NUMBER_BITS:
            return f"a power of about {bits} bits is above the limit of {MAX_NUMBER_BITS}"
    return None


class TemplateTimeout(jinja2.TemplateError):
    """A template render ran out of time (MAX_TEMPLATE_SECONDS)."""


@contextmanager
def deadline(seconds: float | None = None) -> Iterator[None]:
    """Raise TemplateTimeout inside whatever runs here once `seconds` have passed: a template
    loop (`{% for i in range(99999) %}{% for j in range(99999) %}`) cannot run for hours. Python
    runs signal handlers in the main thread only; elsewhere (no caller renders there) it does
    nothing. The exception is raised where the template is, so its error names the line."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    seconds = limits.MAX_TEMPLATE_SECONDS if seconds is None else seconds

    def expired(signum: int, frame: Any) -> None:
        raise TemplateTimeout(
            f"the template ran for more than {seconds} s (the limit of one template render); refused"
        )

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def sandboxed_environment(
    folders: Sequence[Path], display: Callable[[Path], str] = str, **options: Any
) -> Sandbox:
    """A sandboxed environment loading from `folders` (searched in order); `options` are
    Jinja's (autoescape, undefined, trim_blocks, bytecode_cache ...)."""
    env = Sandbox(loader=ConfinedLoader(folders, display), **options)
    env.globals.clear()
    env.globals.update(SAFE_GLOBALS)
    return env


def raised_at(exc: BaseException) -> tuple[Path, int] | None:
    """The template file and line an error was raised at (Jinja rewrites a render's traceback
    to name them), innermost first; None when no template frame is in it."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            found = (Path(filename), tb.tb_lineno)
        tb = tb.tb_next
    return found


class TemplateFailed(jinja2.TemplateError):
    """Any error raised while a template ran (a division by zero, endless recursion, the time
    limit, the sandbox's refusal), with the template file and line it was raised at."""

    def __init__(self, message: str, where: tuple[Path, int] | None) -> None:
        super().__init__(message)
        self.where = where


def render(template: jinja2.Template, **context: Any) -> str:
    """`template` rendered within the time limit; any failure is a TemplateFailed (a syntax
    error found on loading stays a TemplateSyntaxError, which names its own line)."""
    try:
        with deadline():
            return template.render(**context)
    except jinja2.TemplateSyntaxError:
        raise
    except RecursionError:  # its traceback is as deep as the recursion: not walked
        raise TemplateFailed("the template calls itself without end (recursion)", None) from None
    except Exception as exc:  # whatever a template raises is the template's to report
        message = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message else str(exc)
        if not isinstance(exc, jinja2.TemplateError):
            message = f"{type(exc).__name__}: {message}"
        raise TemplateFailed(message, raised_at(exc)) from None
