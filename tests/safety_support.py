"""Helpers for the tests of issue 18 (tests/test_safety_*.py): a hostile game in a throwaway
project; the command line run in the test's process, or as a process of its own with a timeout
for the cases that used to hang (a hang then fails the test instead of stalling the suite); a
secret file outside the project that must never leak; and a record of build/<game>/ to show
that a refused build left it as it was."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, REPO, TempProject
from deckwright.cli import main

SECRET = "TOP-SECRET-7f3a9c"  # the content of the file outside the project
TIMEOUT = 120  # seconds: generous; each bounded case finishes in a few


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def errors(self) -> list[str]:
        return [line for line in (self.out + self.err).splitlines() if ": error: " in line]


class Hostile:
    """A project with one fixture game, and a secret file beside (outside) the project."""

    def __init__(self, tmp_path: Path, game: str = "mini") -> None:
        self.tmp = tmp_path
        self.project = TempProject(tmp_path / "project")
        self.root = self.project.root
        self.game = game
        self.folder = self.project.add_game(FIXTURES / game)
        self.templates = self.root / "templates" / game
        self.secret = tmp_path / "outside" / "secret.env"
        self.secret.parent.mkdir()
        self.secret.write_text(f"{SECRET}\nPASSWORD={SECRET}\n", encoding="utf-8")
        self.key_file = tmp_path / "cache-key"

    def run(self, *argv: str, timeout: float | None = None, key_file: Path | None = None) -> Run:
        """The command line on this project: in this process (fast), or with a `timeout` (for a
        case that used to hang or run for hours) or another cache `key_file`, as a process of
        its own. Either way no traceback, no internal error, no secret in the messages."""
        if timeout is None and key_file is None:
            result = self._run_here(argv)
        else:
            result = self._run_apart(argv, timeout or TIMEOUT, key_file or self.key_file)
        assert "Traceback" not in result.err, result.err
        assert "internal error" not in result.err, result.err
        assert SECRET not in result.out + result.err, "the secret leaked into a message"
        return result

    def _run_here(self, argv: tuple[str, ...]) -> Run:
        out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()  # export writes bytes
        saved = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = "1764460800"  # the PDFs' dates: same input, same bytes
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["--project", str(self.root), *argv])
        finally:
            if saved is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = saved
        out.flush()
        return Run(code, out.buffer.getvalue().decode("utf-8"), err.getvalue())

    def _run_apart(self, argv: tuple[str, ...], timeout: float, key_file: Path) -> Run:
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO / "src"),
            "SOURCE_DATE_EPOCH": "1764460800",
            "DECKWRIGHT_CACHE_KEY_FILE": str(key_file),
        }
        env.pop("DECKWRIGHT_DEBUG", None)
        proc = subprocess.run(
            [sys.executable, "-m", "deckwright", "--project", str(self.root), *argv],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.root,
            env=env,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    def path(self, relative: str) -> Path:
        return self.folder / relative

    def write(self, relative: str, text: str) -> Path:
        path = self.folder / relative
        path.write_text(text, encoding="utf-8")
        return path

    def edit_template(self, name: str, old: str, new: str) -> None:
        path = self.templates / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def outputs(self) -> dict[str, str]:
        """sha256 of every file under build/<game>/ (the build's own outputs)."""
        folder = self.root / "build" / self.game
        return {
            str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }

    def nothing_leaked(self) -> None:
        """No file the build wrote (outputs and cache alike) holds the secret."""
        for path in (self.root / "build").rglob("*"):
            if path.is_file():
                assert SECRET.encode() not in path.read_bytes(), f"the secret leaked into {path}"


def error_at(run: Run, where: str, *words: str) -> str:
    """The one error line located at `where` (a path, or path:line[:col]) holding `words`."""
    found = [e for e in run.errors if e.startswith(where) and all(w in e for w in words)]
    assert found, f"no error at {where} with {words}; errors:\n" + "\n".join(run.errors)
    return found[0]
