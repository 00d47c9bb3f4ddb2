"""What `deckwright diff`, `errata` and `changelog` do, between parsing and printing: the command
line calls these, prints what they give back and picks the exit code."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from ..context.base import Output
from ..diagnostics import Diagnostics
from ..pipeline.load import load_fonts, prepare_fonts
from ..project import Project
from .compare import CompareError, Comparison, Side, compare, open_version
from .diff import SIMILARITY


@dataclass
class Compared:
    """A comparison, the files to write for it (relative to build/<game>/), and the problems
    each version has (as (label, diagnostics))."""

    comparison: Comparison | None
    outputs: list[Output] = field(default_factory=list)
    problems: list[tuple[str, Diagnostics]] = field(default_factory=list)


def run_compare(
    project: Project,
    folder: Path,
    old_side: Side,
    new_side: Side,
    faces: bool = True,
    page: bool = True,
    similarity: float = SIMILARITY,
) -> Compared:
    """Load both versions, compare them; with `page`, draw the changed faces and make the page.
    Raises CompareError when the versions cannot be had."""
    shared = Diagnostics()
    fonts = None
    if faces:
        fonts = (prepare_fonts if page else load_fonts)(project, shared)
    with ExitStack() as stack:
        old = open_version(old_side, project, folder, stack, fonts)
        new = open_version(new_side, project, folder, stack, fonts)
        problems = [
            (label, d)
            for label, d in (("", shared), (old.label, old.diags), (new.label, new.diags))
            if len(d)
        ]
        if old.game is None or new.game is None:
            missing = old if old.game is None else new
            raise CompareError(f"the game cannot be read in {missing.label}: {_first_error(missing.diags)}")
        result = Compared(compare(old, new, fonts, similarity), problems=problems)
        if page:
            from .page import diff_page

            name = new.game.info.name
            page_diags = Diagnostics()
            result.outputs = diff_page(
                project,
                new.game.id,
                f"{name} — what changed",
                result.comparison.labels,
                result.comparison.changes,
                result.comparison.pairs,
                result.comparison.impact,
                page_diags,
            )
            if len(page_diags):
                result.problems.append(("", page_diags))
    return result


def _first_error(diags: Diagnostics) -> str:
    errors = diags.errors
    return str(errors[0]) if errors else "it has errors"


@dataclass
class ErrataDraft:
    text: str  # the draft YAML
    drafted: int  # rows to review
    covered: int  # changed texts the errata already hold
    label: str  # the edition, as the draft names it
    problems: list[tuple[str, Diagnostics]] = field(default_factory=list)


def run_errata(project: Project, folder: Path, since: str) -> ErrataDraft:
    """Draft errata for the cards printed at revision `since` whose text changed in the working
    tree. Raises CompareError when the revision cannot be had or either version cannot be read."""
    from .errata_draft import draft_entries, draft_yaml

    with ExitStack() as stack:
        old = open_version(Side(rev=since), project, folder, stack, None)
        new = open_version(Side(), project, folder, stack, None)
    for version in (old, new):
        if version.game is None:
            raise CompareError(f"the game cannot be read in {version.label}: {_first_error(version.diags)}")
    problems = [(v.label, v.diags) for v in (old, new) if v.diags.has_errors]
    entries = draft_entries(old.game, new.game)
    label = since
    text = draft_yaml(new.game, entries, old.label, label)
    drafted = sum(e.status != "covered" for e in entries)
    return ErrataDraft(text, drafted, len(entries) - drafted, old.label, problems)


@dataclass
class Changelog:
    markdown: str  # build/<game>/changelog.md
    since: str
    to: str
    changes: int
    chapters: list[tuple[Path, str]] = field(default_factory=list)  # rulebook chapters to rewrite
    problems: list[tuple[str, Diagnostics]] = field(default_factory=list)


def previous_edition(project: Project, game_id: str, to_rev: str | None) -> str:
    """The newest tag `<game-id>/*` before the new edition (see editions.changelog)."""
    from .gitrev import GitError, Repo

    pattern = f"{game_id}/*"
    try:
        repo = Repo.of(project.root)
        if to_rev is None:
            start = repo.commit("HEAD")
        else:
            commit = repo.commit(to_rev)
            if not repo.has_parent(commit):
                raise CompareError(f"{to_rev} is the first commit: no edition before it; give --since")
            start = f"{commit}^"
    except GitError as exc:
        raise CompareError(str(exc)) from None
    tag = repo.describe(start, pattern)
    if tag is None:
        where = "HEAD" if to_rev is None else f"{to_rev}"
        raise CompareError(
            f"no tag {pattern} before {where}: tag each edition (git tag {game_id}/NAME) or give --since"
        )
    return tag


def run_changelog(project: Project, folder: Path, since: str | None, to_rev: str | None) -> Changelog:
    from .changelog import changelog_markdown, fill_chapter

    with ExitStack() as stack:
        game_id = folder.name
        since = since or previous_edition(project, game_id, to_rev)
        old = open_version(Side(rev=since), project, folder, stack, None)
        new = open_version(Side(rev=to_rev), project, folder, stack, None)
        for version in (old, new):
            if version.game is None:
                raise CompareError(
                    f"the game cannot be read in {version.label}: {_first_error(version.diags)}"
                )
        comparison = compare(old, new, None)
        title = new.game.info.name
        markdown = changelog_markdown(title, old.label, new.label, comparison.changes)
        result = Changelog(markdown, old.label, new.label, len(comparison.changes))
        result.problems = [(v.label, v.diags) for v in (old, new) if v.diags.has_errors]
        if to_rev is None:  # only the working tree's chapters are rewritten
            for chapter in new.game.rulebook:
                filled = fill_chapter(chapter.text, since, comparison.changes)
                if filled is not None and filled != chapter.text:
                    result.chapters.append((project.root / chapter.path, filled))
    return result
