"""`diff`, `errata --since` and `changelog`: two versions of a game compared (deckwright.editions)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..writer import Writer

if TYPE_CHECKING:
    pass

from .app import Cli
from .errors import EXIT_ERRORS, EXIT_OK, UsageError
from .printing import _print_problems


def diff(cli: Cli) -> int:
    from ..editions import report
    from ..editions.commands import run_compare
    from ..editions.compare import CompareError, Side

    args = cli.args
    folder = cli.folders([args.game])[0]
    project = cli.project_of(folder)
    old = Side(path=args.from_path) if args.from_path else Side(rev=args.from_rev or "HEAD")
    try:
        result = run_compare(
            project,
            folder,
            old,
            Side(rev=args.to_rev),
            page=not args.no_page,
            similarity=args.similarity,
        )
    except CompareError as exc:
        raise UsageError(str(exc)) from None
    _print_problems(result.problems)
    comparison, page = result.comparison, None
    if result.outputs:
        out_dir = project.game_build_dir(comparison.game_id)
        writer = Writer(out_dir)
        for output in result.outputs:
            writer.write_bytes(output.path, output.content())
        page = f"{project.display(out_dir / 'diff' / 'index.html')}"
    if args.format == "json":
        print(report.as_json(comparison, page))
    else:
        for line in report.lines(comparison):
            print(line)
    print(report.summary(comparison, page), file=sys.stderr)
    return EXIT_ERRORS if comparison.changed else EXIT_OK


def errata(cli: Cli) -> int:
    from ..editions.commands import run_errata
    from ..editions.compare import CompareError

    args = cli.args
    folder = cli.folders([args.game])[0]
    if args.output not in (None, "-"):
        target = Path(args.output).resolve()
        if target == folder.resolve() or folder.resolve() in target.parents:
            raise UsageError(
                f"the draft is not written into the game's folder ({args.output}): review it first"
            )
    project = cli.project_of(folder)
    try:
        draft = run_errata(project, folder, args.since)
    except CompareError as exc:
        raise UsageError(str(exc)) from None
    _print_problems(draft.problems)
    if args.output == "-":
        sys.stdout.write(draft.text)
        where = "stdout"
    elif args.output is None:
        out_dir = project.game_build_dir(folder.name)
        Writer(out_dir).write_text("errata-draft.yaml", draft.text)
        where = project.display(out_dir / "errata-draft.yaml")
    else:
        target = Path(args.output).resolve()
        Writer(target.parent).write_text(target.name, draft.text)
        where = args.output
    covered = f", {draft.covered} already in the errata" if draft.covered else ""
    print(
        f"{folder.name}: {draft.drafted} errata drafted for cards printed in {draft.label}{covered}; "
        f"review {where}",
        file=sys.stderr,
    )
    return EXIT_OK


def changelog(cli: Cli) -> int:
    from ..editions.commands import run_changelog
    from ..editions.compare import CompareError

    args = cli.args
    folder = cli.folders([args.game])[0]
    project = cli.project_of(folder)
    try:
        log = run_changelog(project, folder, args.since, args.to_rev)
    except CompareError as exc:
        raise UsageError(str(exc)) from None
    _print_problems(log.problems)
    out_dir = project.game_build_dir(folder.name)
    Writer(out_dir).write_text("changelog.md", log.markdown)
    for path, text in log.chapters:
        Writer(path.parent).write_text(path.name, text)
        print(f"{project.display(path)}: changelog filled in between its markers", file=sys.stderr)
    print(
        f"{folder.name}: {log.changes} changes from {log.since} to {log.to}; "
        f"see {project.display(out_dir / 'changelog.md')}",
        file=sys.stderr,
    )
    return EXIT_OK
