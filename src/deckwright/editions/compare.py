"""A game in two versions, each from a git revision, the working tree or a folder, compared.

`Side` names where a version comes from; `open_version` materialises it (a revision into a
temporary folder) and loads it; `compare` diffs two loaded versions and works out what the
change means for print. Problems that stop a comparison (an unknown revision, no git
repository, a game that is not in a revision) are `CompareError`, for the command line's usage
error.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from ..fonts.registry import FontRegistry
from ..project import Project, find_root
from .change import Change
from .diff import SIMILARITY, diff_games
from .diff_cards import rename_pairs
from .faces import FacePair, PrintImpact, face_pairs, print_impact
from .gitrev import Checkout, GitError, Repo
from .versions import Version, load_version


class CompareError(Exception):
    pass


@dataclass(frozen=True)
class Side:
    """Where a version comes from: a git revision, a folder, or (neither) the working tree."""

    rev: str | None = None
    path: Path | None = None

    @property
    def is_working_tree(self) -> bool:
        return self.rev is None and self.path is None


def open_version(
    side: Side, project: Project, folder: Path, stack: ExitStack, fonts: FontRegistry | None
) -> Version:
    """Load the game of `folder` as `side` has it; a checkout is closed with `stack`."""
    cache_dir = project.build_dir / ".cache"
    if side.path is not None:
        path = side.path.resolve()
        if not (path / "game.yaml").is_file() and (path / "cards" / folder.name / "game.yaml").is_file():
            path = path / "cards" / folder.name  # a project folder: its copy of the game
        if not (path / "game.yaml").is_file():
            raise CompareError(
                f"{side.path} is not a game folder (no game.yaml) nor a project holding {folder.name}"
            )
        root, faces_cache = find_root(path), None
        if path.parent != root / "cards" or path.name != folder.name:
            root = _lend_project(path, project, folder.name, stack)
            path, faces_cache = root / "cards" / folder.name, root / ".scratch-cache"
        return load_version(str(side.path), Project(root), path, cache_dir, fonts, faces_cache)
    if side.rev is None:
        return load_version("the working tree", project, folder, cache_dir, fonts)
    try:
        game_rel = folder.resolve().relative_to(project.root.resolve()).as_posix()
    except ValueError:
        raise CompareError(
            f"{folder} is outside the project {project.root}: compare it with --from-path"
        ) from None
    try:
        repo = Repo.of(project.root)
        templates = project.game_templates_dir(folder, folder.name).resolve()
        try:
            templates_rel = templates.relative_to(project.root.resolve()).as_posix()
        except ValueError:
            templates_rel = f"templates/{folder.name}"
        checkout = Checkout(repo, side.rev, game_rel, templates_rel)
    except GitError as exc:
        raise CompareError(str(exc)) from None
    stack.callback(checkout.close)
    if not checkout.has_game:
        raise CompareError(f"revision {side.rev} has no game {game_rel} (no {game_rel}/game.yaml)")
    label = side.rev if checkout.commit.startswith(side.rev) else f"{side.rev} ({checkout.commit[:7]})"
    faces_cache = checkout.scratch / ".cache"
    return load_version(label, Project(checkout.root), checkout.game_folder, cache_dir, fonts, faces_cache)


def _lend_project(game: Path, project: Project, game_id: str, stack: ExitStack) -> Path:
    """A temporary project holding a copy of a loose game folder under its game's id, drawn
    with the current project's layouts, templates and art (a loose folder has none of its own)."""
    root = Path(tempfile.mkdtemp(prefix="deckwright-path-"))
    stack.callback(shutil.rmtree, root, True)
    shutil.copytree(game, root / "cards" / game_id, symlinks=True)
    for part in ("layouts", "templates", "art"):
        if (project.root / part).exists():
            (root / part).symlink_to(project.root / part)
    return root


@dataclass
class Comparison:
    old: Version
    new: Version
    changes: list[Change]
    pairs: list[FacePair] = field(default_factory=list)
    impact: PrintImpact = field(default_factory=PrintImpact)

    @property
    def game_id(self) -> str:
        return self.new.game.id

    @property
    def labels(self) -> tuple[str, str]:
        return (self.old.label, self.new.label)

    @property
    def changed(self) -> bool:
        return bool(self.changes or self.pairs)


def compare(
    old: Version, new: Version, fonts: FontRegistry | None, similarity: float = SIMILARITY
) -> Comparison:
    """The changes from `old` to `new` (both loaded), and with faces what they mean for print."""
    changes = diff_games(old.game, new.game, similarity)
    renamed = {b.id: a.id for a, b in rename_pairs(old.game, new.game, similarity)}
    pairs = face_pairs(old, new, renamed) if old.faces is not None and new.faces is not None else []
    impact = print_impact(old, new, changes, pairs, fonts)
    return Comparison(old, new, changes, pairs, impact)
