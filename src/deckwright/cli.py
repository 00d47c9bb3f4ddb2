"""The command line: the only module that parses arguments, prints and picks exit codes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .context.base import DUPLEX, PAPERS, BuildOptions
from .diagnostics import Diagnostics
from .kinds import OUTPUT_KINDS, available_kinds
from .project import Project, find_root
from .watch import snapshot, wait_for_change
from .writer import Writer

if TYPE_CHECKING:
    from .pipeline import Checked

# The pipeline (YAML, Jinja2, fonts, the validators) is imported inside the commands that use
# it: an up-to-date `build` answers in the time Python takes to start.

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="deckwright",
        description="Validate game databases and build their print files.",
    )
    parser.add_argument("--version", action="version", version=f"deckwright {__version__}")
    parser.add_argument(
        "--project", type=Path, default=None, help="project folder (default: found from here)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sub.add_parser("list", help="list the games of the project")

    validate = sub.add_parser("validate", help="check games against their schema and rules")
    validate.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.add_argument("--strict", action="store_true", help="treat warnings as errors")
    validate.add_argument("--quiet", action="store_true", help="errors only, no warnings")

    check = sub.add_parser("check", help="the editor's check: every place where a game's texts disagree")
    check.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    check.add_argument("--strict", action="store_true", help="exit 1 when there are findings")

    export = sub.add_parser("export", help="write a game's normalised database")
    export.add_argument("game", metavar="GAME")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")

    build = sub.add_parser("build", help="validate, then render a game's print files")
    build.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    build.add_argument(
        "--only",
        type=_kinds,
        default=None,
        metavar="KINDS",
        help=f"comma-separated outputs to build ({', '.join(OUTPUT_KINDS)}; "
        "default: the game's build: outputs, else all)",
    )
    build.add_argument("--paper", choices=PAPERS, default="a4", help="rulebook paper size")
    build.add_argument("--booklet", action="store_true", help="also impose the rulebook as a booklet")
    build.add_argument("--duplex", choices=DUPLEX, default="long-edge", help="print-and-play flip edge")
    build.add_argument("--gutterfold", action="store_true", help="print-and-play without duplex")
    build.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="shift of every backs page in mm, from the alignment sheet",
    )
    build.add_argument("--ink-saver", action="store_true", help="drop full-bleed backgrounds")
    build.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")
    build.add_argument("--no-cache", action="store_true", help="render everything afresh")
    build.add_argument("--quiet", action="store_true", help="print errors only")

    diff = sub.add_parser(
        "diff", help="what changed in a game between two versions (git revisions or folders)"
    )
    diff.add_argument("game", metavar="GAME")
    old = diff.add_mutually_exclusive_group()
    old.add_argument(
        "--from", dest="from_rev", metavar="REV", help="the old version: a git revision (default: HEAD)"
    )
    old.add_argument(
        "--from-path",
        type=Path,
        metavar="FOLDER",
        help="the old version: a game folder, or a project holding it",
    )
    diff.add_argument(
        "--to",
        dest="to_rev",
        metavar="REV",
        help="the new version: a git revision (default: the working tree)",
    )
    diff.add_argument("--format", choices=("text", "json"), default="text")
    diff.add_argument(
        "--no-page", action="store_true", help="do not draw the faces nor write build/<game>/diff/"
    )
    diff.add_argument(
        "--similarity",
        type=_ratio,
        default=0.9,
        metavar="R",
        help="a new id whose text matches a removed card's this much (0-1) is a rename (default 0.9)",
    )

    errata = sub.add_parser(
        "errata", help="draft errata for printed cards whose text changed since a revision"
    )
    errata.add_argument("game", metavar="GAME")
    errata.add_argument(
        "--since", required=True, metavar="REV", help="the revision of the printed edition (a tag, a commit)"
    )
    errata.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write the draft (default: build/<game>/errata-draft.yaml; '-': stdout)",
    )

    changelog = sub.add_parser(
        "changelog", help="the changes since the previous edition's tag, as build/<game>/changelog.md"
    )
    changelog.add_argument("game", metavar="GAME")
    changelog.add_argument(
        "--since", metavar="REV", help="the previous edition (default: the newest tag GAME/* before --to)"
    )
    changelog.add_argument(
        "--to", dest="to_rev", metavar="REV", help="the new edition (default: the working tree)"
    )

    watch = sub.add_parser("watch", help="rebuild a game whenever its files change")
    watch.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    watch.add_argument("--only", type=_kinds, default=None, metavar="KINDS", help="outputs to rebuild")
    watch.add_argument("--interval", type=float, default=0.5, help="seconds between looks")
    watch.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")

    serve = sub.add_parser("serve", help="a live card gallery in the browser that follows every save")
    serve.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    serve.add_argument("--port", type=int, default=8400, metavar="N", help="port (default 8400; 0: any free)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    serve.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")
    return parser


def _print_diagnostics(diags: Diagnostics, quiet: bool) -> None:
    """Findings in file order on stderr; warnings only when not --quiet."""
    for d in diags.sorted():
        if d.severity.value == "error" or not quiet:
            print(d, file=sys.stderr)


def _print_problems(problems) -> None:
    """Each version's errors (its warnings are `validate`'s business); those of another version
    than the working tree say which."""
    for label, diags in problems:
        for d in diags.sorted():
            if d.severity.value != "error":
                continue
            print(f"{d} (in {label})" if label and label != "the working tree" else d, file=sys.stderr)


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in OUTPUT_KINDS]
    if unknown or not kinds:
        choices = ", ".join(OUTPUT_KINDS)
        raise argparse.ArgumentTypeError(
            f"unknown output {', '.join(unknown) or '(none)'}; choose from {choices}"
        )
    return kinds


def _ratio(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError("--similarity takes a number above 0 and at most 1, e.g. 0.9")
    return value


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("--back-offset takes X,Y in millimetres, e.g. 0.5,-1") from None
    if abs(x) > 10 or abs(y) > 10:
        raise argparse.ArgumentTypeError("--back-offset is limited to 10 mm each way")
    return (x, y)


class Cli:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        root = args.project.resolve() if args.project else find_root(Path.cwd())
        self.project = Project(root)

    def folders(self, names: Sequence[str]) -> list[Path]:
        if not names:
            folders = list(self.project.game_folders().values())
            if not folders:
                raise UsageError(f"no games under {self.project.cards_dir}")
            return folders
        found = []
        for name in names:
            folder = self.project.resolve_game(name)
            if folder is None:
                known = ", ".join(self.project.game_folders()) or "none"
                raise UsageError(f"no game {name!r} (games: {known}; or give a game folder)")
            found.append(folder)
        return found

    def check_all(
        self, names: Sequence[str], activate_fonts: bool = False
    ) -> tuple[list[Checked], Diagnostics]:
        """Load and validate games; fonts are activated for cairo when a build follows."""
        from .pipeline.load import check_game, load_catalog, load_fonts, prepare_fonts

        shared = Diagnostics()
        folders = self.folders(names)
        catalog = load_catalog(self.project, shared)
        fonts = (prepare_fonts if activate_fonts else load_fonts)(self.project, shared)
        return [check_game(self.project, f, catalog, fonts) for f in folders], shared

    # -- commands --------------------------------------------------------------------------

    def list(self) -> int:
        from .model import Catalog
        from .pipeline.load import check_game

        nothing = Catalog({}, {}, {})
        for game_id, folder in self.project.game_folders().items():
            checked = check_game(self.project, folder, nothing)
            info = checked.game.info if checked.game else None
            if info is None:
                print(f"{game_id}\t(cannot be read: run 'deckwright validate {game_id}')")
                continue
            copies = sum(c.copies for c in checked.game.cards)
            print(
                f"{game_id}\t{info.name} — {info.edition}\t"
                f"{info.players_min}-{info.players_max} players\t{copies} cards"
            )
        return EXIT_OK

    def validate(self) -> int:
        results, shared = self.check_all(self.args.games)
        everything = [*shared, *(d for r in results for d in r.diags)]
        errors = sum(d.severity.value == "error" for d in everything)
        warnings = len(everything) - errors
        if self.args.format == "json":
            payload = {
                "games": [{"game": r.folder.name, "ok": not r.diags.has_errors} for r in results],
                "diagnostics": [d.as_dict() for d in everything],
                "errors": errors,
                "warnings": warnings,
            }
            print(json.dumps(payload, ensure_ascii=False, indent=2))
        else:
            for d in [*shared.sorted(), *(d for r in results for d in r.diags.sorted())]:
                if self.args.quiet and d.severity.value != "error":
                    continue
                print(d)
            for r in results:
                state = "ok" if not r.diags.has_errors else "FAILED"
                n_err, n_warn = len(r.diags.errors), len(r.diags.warnings)
                print(f"{r.folder.name}: {state} ({n_err} errors, {n_warn} warnings)", file=sys.stderr)
        failed = errors > 0 or (self.args.strict and warnings > 0)
        return EXIT_ERRORS if failed else EXIT_OK

    def check(self) -> int:
        from .pipeline.build import editor_check
        from .pipeline.load import check_game, load_catalog, load_fonts

        shared = Diagnostics()
        catalog = load_catalog(self.project, shared)
        fonts = load_fonts(self.project, shared)
        folders = self.folders(self.args.games)
        for d in shared.sorted():
            print(d, file=sys.stderr)
        if fonts is None:
            return EXIT_ERRORS
        status = EXIT_ERRORS if shared.has_errors else EXIT_OK
        for folder in folders:
            checked = check_game(self.project, folder, catalog)
            if not checked.ok:
                for d in checked.diags.errors:
                    print(d, file=sys.stderr)
                n_err = len(checked.diags.errors)
                print(
                    f"{folder.name}: not checked ({n_err} errors; see deckwright validate)", file=sys.stderr
                )
                status = EXIT_ERRORS
                continue
            game = checked.game
            report, built = editor_check(self.project, checked, catalog, fonts)
            for d in built.diags.sorted():
                print(d, file=sys.stderr)
            for finding in report.findings:
                print(finding.line())
            counts = ", ".join(f"{kind} {len(found)}" for kind, found in report.by_kind().items() if found)
            print(
                f"{game.id}: {len(report.findings)} findings ({counts or 'none'}), "
                f"{len(report.acknowledged)} acknowledged; see build/{game.id}/check.html",
                file=sys.stderr,
            )
            if built.diags.has_errors or (self.args.strict and report.findings):
                status = EXIT_ERRORS
        return status

    def export(self) -> int:
        from .render.export import export_csv, export_json

        results, shared = self.check_all([self.args.game])
        result = results[0]
        problems = [*shared.errors, *result.diags.errors]
        if result.game is None or problems:
            for d in problems:
                print(d, file=sys.stderr)
            return EXIT_ERRORS
        data = export_json(result.game) if self.args.format == "json" else export_csv(result.game)
        if self.args.output is None:
            sys.stdout.buffer.write(data)
        else:
            out = self.args.output.resolve()
            Writer(out.parent).write_bytes(out.name, data)
            print(f"wrote {out}", file=sys.stderr)
        return EXIT_OK

    def diff(self) -> int:
        from .editions import report
        from .editions.commands import run_compare
        from .editions.compare import CompareError, Side

        args = self.args
        folder = self.folders([args.game])[0]
        old = Side(path=args.from_path) if args.from_path else Side(rev=args.from_rev or "HEAD")
        try:
            result = run_compare(
                self.project,
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
            writer = Writer(self.project.build_dir / comparison.game_id)
            for output in result.outputs:
                writer.write_bytes(output.path, output.data)
            page = f"build/{comparison.game_id}/diff/index.html"
        if args.format == "json":
            print(report.as_json(comparison, page))
        else:
            for line in report.lines(comparison):
                print(line)
        print(report.summary(comparison, page), file=sys.stderr)
        return EXIT_ERRORS if comparison.changed else EXIT_OK

    def errata(self) -> int:
        from .editions.commands import run_errata
        from .editions.compare import CompareError

        args = self.args
        folder = self.folders([args.game])[0]
        if args.output not in (None, "-"):
            target = Path(args.output).resolve()
            if target == folder.resolve() or folder.resolve() in target.parents:
                raise UsageError(
                    f"the draft is not written into the game's folder ({args.output}): review it first"
                )
        try:
            draft = run_errata(self.project, folder, args.since)
        except CompareError as exc:
            raise UsageError(str(exc)) from None
        _print_problems(draft.problems)
        if args.output == "-":
            sys.stdout.write(draft.text)
            where = "stdout"
        elif args.output is None:
            Writer(self.project.build_dir / folder.name).write_text("errata-draft.yaml", draft.text)
            where = f"build/{folder.name}/errata-draft.yaml"
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

    def changelog(self) -> int:
        from .editions.commands import run_changelog
        from .editions.compare import CompareError

        args = self.args
        folder = self.folders([args.game])[0]
        try:
            log = run_changelog(self.project, folder, args.since, args.to_rev)
        except CompareError as exc:
            raise UsageError(str(exc)) from None
        _print_problems(log.problems)
        Writer(self.project.build_dir / folder.name).write_text("changelog.md", log.markdown)
        for path, text in log.chapters:
            Writer(path.parent).write_text(path.name, text)
            print(f"{self.project.display(path)}: changelog filled in between its markers", file=sys.stderr)
        print(
            f"{folder.name}: {log.changes} changes from {log.since} to {log.to}; "
            f"see build/{folder.name}/changelog.md",
            file=sys.stderr,
        )
        return EXIT_OK

    def watch(self) -> int:
        """Build, then rebuild after every change to the data, templates, layouts or fonts."""
        args = self.args
        folders = self.folders(args.games)
        roots = [*folders, self.project.layouts_dir, self.project.templates_dir, self.project.fonts_dir]
        for extra in ("paper", "booklet", "duplex", "gutterfold", "back_offset", "ink_saver"):
            setattr(args, extra, getattr(BuildOptions(), extra))
        args.no_cache, args.quiet = False, False
        state = snapshot(roots)
        self.build(staged=True)
        print("watching for changes (Ctrl-C to stop)", file=sys.stderr)
        while True:
            paths, state = wait_for_change(roots, state, args.interval)
            shown = ", ".join(self.project.display(p) for p in paths[:3])
            more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
            print(f"changed: {shown}{more}", file=sys.stderr)
            self.build(staged=True)

    def serve(self) -> int:
        """The studio: build, serve the gallery, rebuild in stages on every save."""
        import signal

        from .studio.command import ServeError, serve

        args = self.args
        folders = self.folders(args.games)
        if not 0 <= args.port <= 65535:
            raise UsageError("--port takes a number from 0 to 65535")
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(
                f"deckwright: warning: serving on {args.host}: anyone who can reach this machine "
                "can see the games and their build files (there is no login)",
                file=sys.stderr,
            )

        def interrupt(signum, frame):  # a terminated server stops like a Ctrl-C: cleanly
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, interrupt)
        options = BuildOptions(jobs=args.jobs or os.cpu_count() or 1)
        try:
            serve(self.project, folders, options, args.host, args.port, lambda line: print(line, flush=True))
        except ServeError as exc:
            print(f"deckwright: error: {exc}", file=sys.stderr)
            return EXIT_ERRORS
        return EXIT_OK

    def build(self, staged: bool = False) -> int:
        """`staged` (watch): each game's card images are written first, then its print files,
        then its documents (pipeline/staged.py)."""
        from .pipeline.session import BuildSession

        args = self.args
        # () leaves the choice to each game: its game.yaml `build: outputs`, else every kind
        kinds = args.only or ()
        missing = [k for k in kinds if k not in available_kinds()]
        if missing:
            raise UsageError(f"this version cannot build {', '.join(missing)} yet")
        options = BuildOptions(
            paper=args.paper,
            duplex=args.duplex,
            gutterfold=args.gutterfold,
            back_offset=args.back_offset,
            ink_saver=args.ink_saver,
            booklet=args.booklet,
            jobs=args.jobs or os.cpu_count() or 1,
            use_cache=not args.no_cache,
        )
        folders = self.folders(args.games)
        progress = TerminalProgress(sys.stderr, quiet=args.quiet)
        session = BuildSession(self.project, options, kinds, progress, staged=staged)
        status = EXIT_OK
        for folder in folders:
            # one game's failure never stops the others; the exit code reports it
            outcome = session.build(folder)
            _print_outcome(outcome, args.quiet)
            if not outcome.ok:
                status = EXIT_ERRORS
        return status


def _print_outcome(outcome, quiet: bool) -> None:
    """What became of one game: its findings, then one line."""
    from .pipeline.session import State

    for d in outcome.shared.sorted():
        print(d, file=sys.stderr)
    _print_diagnostics(outcome.checked, quiet)
    _print_diagnostics(outcome.diags, quiet)
    name, game_id = outcome.folder.name, outcome.game_id
    if outcome.state is State.UP_TO_DATE:
        if not quiet:
            print(f"{name}: up to date (nothing changed since the last build)")
    elif outcome.state is State.INVALID:
        if outcome.checked.errors:
            print(f"{name}: not built ({len(outcome.checked.errors)} errors)", file=sys.stderr)
    elif outcome.state is State.LOCKED:
        print(f"deckwright: error: {outcome.error}", file=sys.stderr)
    elif outcome.state is State.CRASHED:
        if os.environ.get("DECKWRIGHT_DEBUG"):
            print(outcome.trace, file=sys.stderr, end="")
        print(
            f"deckwright: internal error while building {name}: {outcome.error} "
            f"(set DECKWRIGHT_DEBUG=1 for the traceback); build/{name}/ left as it was",
            file=sys.stderr,
        )
    elif outcome.state is State.FAILED:
        print(f"{game_id}: build failed; build/{game_id}/ left as it was", file=sys.stderr)
    elif not quiet:
        print(
            f"{game_id}: {outcome.written} files in build/{game_id}/ "
            f"({outcome.renders} rendered, {outcome.cache_hits} from cache)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        cli = Cli(args)
        return getattr(cli, args.command)()
    except UsageError as exc:
        print(f"deckwright: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        if args.command in ("watch", "serve"):
            return EXIT_OK
        print("deckwright: interrupted", file=sys.stderr)
        return 130


class TerminalProgress:
    """A bar per stage on a terminal; one line per stage when output is not a terminal."""

    WIDTH = 28

    def __init__(self, stream, quiet: bool = False) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()
        self.stage, self.total, self.done = "", 0, 0

    def start(self, stage: str, total: int) -> None:
        self.stage, self.total, self.done = stage, total, 0
        self._draw()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def finish(self, summary: str = "") -> None:
        if self.quiet:
            return
        end = "\r\x1b[K" if self.tty else ""
        print(f"{end}{self.stage}: {summary}", file=self.stream, flush=True)

    def step(self, message: str) -> None:
        if not self.quiet:
            print(message, file=self.stream, flush=True)

    def _draw(self) -> None:
        if self.quiet or not self.tty or self.total <= 0:
            return
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        print(f"\r{self.stage} [{bar}] {self.done}/{self.total}", end="", file=self.stream, flush=True)


if __name__ == "__main__":
    sys.exit(main())
