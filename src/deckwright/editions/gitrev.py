"""A git revision of the project as a folder, without touching the working tree or the index.

`git archive REV -- paths` streams the files the revision holds into a temporary folder: the
game's data and what its faces are drawn with (templates, layouts, fonts, art), so the old
version is loaded and rendered exactly as the current one is. Errors are `GitError`, whose
message is for the user (an unknown revision, not a git repository, git missing).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

# What the old version of a game needs beside its own folder (relative to the project root).
PROJECT_PARTS = ("layouts", "templates/_shared")  # the fonts are the current project's


class GitError(Exception):
    pass


def _git(repo: Path, *args: str, binary: bool = False) -> str | bytes:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            check=False,
            env=_environment(),
        )
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {args[0]} failed")
    return done.stdout if binary else done.stdout.decode("utf-8", "replace")


def _environment() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["LC_ALL"] = "C"  # messages are matched and shown as git writes them in English
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


@dataclass(frozen=True)
class Repo:
    """The git repository a project lives in; `prefix` is the project root inside it."""

    top: Path
    prefix: str  # "" or "sub/dir/"

    @classmethod
    def of(cls, folder: Path) -> Repo:
        try:
            top = _git(folder, "rev-parse", "--show-toplevel").strip()
        except GitError:
            raise GitError(
                f"{folder} is not in a git repository (use --from-path to compare two folders)"
            ) from None
        top_path = Path(top).resolve()
        rel = folder.resolve().relative_to(top_path).as_posix()
        return cls(top_path, "" if rel == "." else rel + "/")

    def commit(self, rev: str) -> str:
        """The full commit id a revision names; GitError when there is none."""
        try:
            return _git(
                self.top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
            ).strip()
        except GitError:
            raise GitError(f"unknown revision {rev!r} (not a commit, tag or branch of {self.top})") from None

    def exists(self, commit: str, path: str) -> bool:
        try:
            _git(self.top, "cat-file", "-e", f"{commit}:{self.prefix}{path}")
        except GitError:
            return False
        return True

    def describe(self, rev: str, pattern: str) -> str | None:
        """The newest tag matching `pattern` that `rev` contains (None when there is none)."""
        try:
            return _git(self.top, "describe", "--tags", "--abbrev=0", "--match", pattern, rev).strip() or None
        except GitError:
            return None

    def has_parent(self, commit: str) -> bool:
        try:
            _git(self.top, "rev-parse", "--verify", "--quiet", f"{commit}^")
        except GitError:
            return False
        return True

    def subject(self, commit: str) -> str:
        return _git(self.top, "log", "-1", "--format=%h %s", commit).strip()

    def materialise(self, commit: str, paths: list[str], into: Path) -> Path:
        """The revision's files under `paths` (relative to the project root, those it has)
        extracted into `into`; returns the project root there."""
        present = [f"{self.prefix}{p}" for p in paths if self.exists(commit, p)]
        if present:
            data = _git(self.top, "archive", "--format=tar", commit, "--", *present, binary=True)
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                tar.extractall(into, filter="data")
        root = into / self.prefix if self.prefix else into
        root.mkdir(parents=True, exist_ok=True)
        return root


class Checkout:
    """A revision of a project materialised in a temporary folder; removed on `close()`."""

    def __init__(self, repo: Repo, rev: str, game_rel: str, templates_rel: str) -> None:
        self.repo = repo
        self.rev = rev
        self.commit = repo.commit(rev)
        self._tmp = Path(tempfile.mkdtemp(prefix="deckwright-rev-"))
        self.scratch = self._tmp / ".scratch"  # beside the files, for what a build keeps
        parts = [*PROJECT_PARTS, game_rel, templates_rel, f"art/{Path(game_rel).name}"]
        try:
            self.root = repo.materialise(self.commit, sorted(set(parts)), self._tmp / "tree")
        except BaseException:
            self.close()
            raise
        self.game_folder = self.root / game_rel

    @property
    def has_game(self) -> bool:
        return (self.game_folder / "game.yaml").is_file()

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
