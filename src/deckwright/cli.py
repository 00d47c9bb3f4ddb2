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
from .project import Project, find_game, find_root, project_for
from .watch import snapshot, wait_for_change
from .writer import Writer

if TYPE_CHECKING:
    from .pipeline.load import Checked

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

    new = sub.add_parser("new", help="start a game folder that builds at once with the starter theme")
    new.add_argument("path", type=Path, metavar="PATH", help="the game folder to make (must not hold a game)")
    new.add_argument(
        "--size", default="poker", metavar="LAYOUT", help="the cards' layout: poker, mini, tarot, square, ..."
    )
    new.add_argument(
        "--from-csv",
        type=Path,
        metavar="FILE",
        help="a spreadsheet saved as CSV: fields from its header, card types from a type column",
    )

    validate = sub.add_parser("validate", help="check games against their schema and rules")
    validate.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.add_argument("--strict", action="store_true", help="treat warnings as errors")
    validate.add_argument("--quiet", action="store_true", help="errors only, no warnings")
    validate.add_argument(
        "--verbose",
        action="store_true",
        help="also say where each game's templates, fonts, layouts and art come from",
    )

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
        "default: the game's build: outputs, else all but tts and press)",
    )
    build.add_argument(
        "--paper",
        choices=PAPERS,
        default=None,
        help="paper of the rulebook and of the print-and-play sheets "
        "(default: rulebook A4, sheets on the game's build: papers, else every paper)",
    )
    build.add_argument(
        "--margin",
        type=_margin,
        default=None,
        metavar="MM",
        help="print-and-play: the band along each paper edge the printer may leave blank "
        "(default: layouts/papers.yaml's margin, 5 mm); no mark or cut line comes closer",
    )
    build.add_argument("--booklet", action="store_true", help="also impose the rulebook as a booklet")
    build.add_argument("--duplex", choices=DUPLEX, default="long-edge", help="print-and-play flip edge")
    build.add_argument("--gutterfold", action="store_true", help="print-and-play without duplex")
    build.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="shift of every backs page in mm, from the alignment sheet (negative values work: -2,-1)",
    )
    build.add_argument("--ink-saver", action="store_true", help="drop full-bleed backgrounds")
    build.add_argument(
        "--tts-base-url",
        default=None,
        metavar="URL",
        help="Tabletop Simulator: the URL the tts/ images will be hosted under (default: file:/// paths)",
    )
    build.add_argument(
        "--icc",
        type=Path,
        default=None,
        metavar="FILE",
        help="press PDFs: the printer's CMYK ICC profile (default: the service's, else FOGRA39-based)",
    )
    build.add_argument(
        "--press-images",
        action="store_true",
        help="press: also each face as a CMYK TIFF for the CMYK services",
    )
    build.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")
    build.add_argument("--no-cache", action="store_true", help="render everything afresh")
    build.add_argument("--quiet", action="store_true", help="print errors only")
    build.add_argument(
        "--verbose", action="store_true", help="list the last build's warnings on an up-to-date build"
    )
    build.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="write the outputs here (one game at a time)"
    )

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

    publish = sub.add_parser("publish", help="make or update a built game on a print service")
    publish.add_argument("service", choices=("tgc",), help="tgc: The Game Crafter, over its API")
    publish.add_argument("game", metavar="GAME")
    publish.add_argument("--dry-run", action="store_true", help="print the plan; touch no network")
    publish.add_argument(
        "--api-url", default=None, help="the API's base URL (default: $TGC_API_URL, else TGC's public API)"
    )
    publish.add_argument(
        "--credentials",
        type=Path,
        default=None,
        metavar="FILE",
        help="a file of TGC_API_KEY_ID=, TGC_USERNAME=, TGC_PASSWORD= lines (default: the environment)",
    )
    publish.add_argument(
        "--proofed", action="store_true", help="mark the uploaded images as proofed (checked by you)"
    )
    publish.add_argument(
        "--rate", type=float, default=3.0, help="requests per second (at most 3 against TGC itself)"
    )
    publish.add_argument("--quiet", action="store_true", help="print errors only")

    preflight = sub.add_parser("preflight", help="check a PDF as a print shop would, page by page")
    preflight.add_argument("file", type=Path, metavar="FILE.pdf")
    preflight.add_argument(
        "--service", default=None, metavar="NAME", help="check against a print service's press rules"
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


def _margin(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--margin takes millimetres, e.g. 5") from None
    if not 0 <= value <= 25:
        raise argparse.ArgumentTypeError("--margin must be between 0 and 25 mm")
    return value


class Cli:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        out = getattr(args, "out", None)
        self.out = out.resolve() if out is not None else None
        root = args.project.resolve() if args.project else find_root(Path.cwd())
        here = find_game(Path.cwd()) if not args.project else None
        if here is not None and not (root / "cards").is_dir():
            self.project = project_for(here, self.out)  # a game folder on its own
        else:
            self.project = Project(root, out=self.out)

    def project_of(self, folder: Path) -> Project:
        """The project a game sits in: this one for its cards/, else the game's own."""
        if folder.resolve().parent == self.project.cards_dir.resolve() and not self.project.standalone:
            return self.project
        return project_for(folder, self.out)

    def folders(self, names: Sequence[str]) -> list[Path]:
        if not names:
            here = find_game(Path.cwd())
            if here is not None:  # inside a game folder: that game
                return [here]
            folders = list(self.project.game_folders().values())
            if not folders:
                raise UsageError(
                    f"no game here ({Path.cwd()}) and no games under {self.project.cards_dir}; "
                    "name a game folder, or start one with: deckwright new PATH"
                )
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
        results = []
        loaded: dict[tuple, tuple] = {}
        for folder in folders:
            project = self.project_of(folder)
            key = (tuple(project.game_layouts_dirs(folder)), project.game_fonts_dir(folder))
            if key not in loaded:
                catalog = load_catalog(project, shared, folder)
                fonts = (prepare_fonts if activate_fonts else load_fonts)(project, shared, folder)
                loaded[key] = (catalog, fonts)
            catalog, fonts = loaded[key]
            results.append(check_game(project, folder, catalog, fonts))
        return results, shared

    # -- commands --------------------------------------------------------------------------

    def list(self) -> int:
        from .model import Catalog
        from .pipeline.load import check_game

        nothing = Catalog({}, {}, {})
        games = self.project.game_folders()
        here = find_game(Path.cwd())
        if not games and here is not None:
            games = {here.name: here}
        if not games:
            raise UsageError(
                f"no project or game folder here ({Path.cwd()}); "
                "use --project DIR, or start a game with: deckwright new PATH"
            )
        for game_id, folder in games.items():
            checked = check_game(self.project_of(folder), folder, nothing)
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

    def new(self) -> int:
        from .pipeline.load import load_catalog
        from .pipeline.new import new_game

        args = self.args
        folder = args.path.resolve()
        if (folder / "game.yaml").exists():
            raise UsageError(f"{folder} already holds a game (game.yaml); choose a new folder")
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder} is a file, not a folder")
        diags = Diagnostics()
        catalog = load_catalog(project_for(folder), diags, folder)
        cards = [lid for lid, layout in catalog.layouts.items() if layout.kind == "card"]
        if args.size not in catalog.layouts:
            raise UsageError(f"no layout {args.size!r} (card layouts: {', '.join(cards)})")
        made = new_game(folder, args.size, args.from_csv, diags)
        for d in diags.sorted():
            print(d, file=sys.stderr)
        if made is None or diags.has_errors:
            return EXIT_ERRORS
        writer = Writer(folder)
        for name, text in sorted(made.files.items()):
            writer.write_text(name, text)
        for name, source in sorted(made.copies.items()):
            writer.write_bytes(name, source.read_bytes())
        types = ", ".join(made.types)
        print(
            f"{folder}: a new game with {made.cards} cards ({types}) on {args.size} cards.\n"
            f"  cd {folder}\n  deckwright build        # cards in build/cards/, print-and-play in build/\n"
            f"  art: put art/<card-id>.png; colours and fonts: templates/style.yaml",
            file=sys.stderr,
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
                if self.args.verbose:
                    for line in _sources(self.project_of(r.folder), r.folder):
                        print(f"  {line}", file=sys.stderr)
        failed = errors > 0 or (self.args.strict and warnings > 0)
        return EXIT_ERRORS if failed else EXIT_OK

    def check(self) -> int:
        from .pipeline.build import editor_check
        from .pipeline.load import check_game, load_catalog, load_fonts

        shared = Diagnostics()
        folders = self.folders(self.args.games)
        first = folders[0]
        catalog = load_catalog(self.project_of(first), shared, first)
        fonts = load_fonts(self.project_of(first), shared, first)
        for d in shared.sorted():
            print(d, file=sys.stderr)
        if fonts is None:
            return EXIT_ERRORS
        status = EXIT_ERRORS if shared.has_errors else EXIT_OK
        for folder in folders:
            project = self.project_of(folder)
            checked = check_game(project, folder, catalog)
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
            report, built = editor_check(project, checked, catalog, fonts)
            for d in built.diags.sorted():
                print(d, file=sys.stderr)
            for finding in report.findings:
                print(finding.line())
            counts = ", ".join(f"{kind} {len(found)}" for kind, found in report.by_kind().items() if found)
            print(
                f"{game.id}: {len(report.findings)} findings ({counts or 'none'}), "
                f"{len(report.acknowledged)} acknowledged; "
                f"see {project.display(project.game_build_dir(game.id) / 'check.html')}",
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
        project = self.project_of(folder)
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
                writer.write_bytes(output.path, output.data)
            page = f"{project.display(out_dir / 'diff' / 'index.html')}"
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
        project = self.project_of(folder)
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

    def changelog(self) -> int:
        from .editions.commands import run_changelog
        from .editions.compare import CompareError

        args = self.args
        folder = self.folders([args.game])[0]
        project = self.project_of(folder)
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

    def publish(self) -> int:
        """Upload the game's last build to The Game Crafter (or print the plan)."""
        from .publish.client import DEFAULT_API_URL, MAX_RATE
        from .publish.run import publish_game
        from .publish.tgc import PublishError, summary

        args = self.args
        api_url = args.api_url or os.environ.get("TGC_API_URL") or DEFAULT_API_URL
        if args.rate <= 0 or (args.rate > MAX_RATE and api_url.rstrip("/") == DEFAULT_API_URL):
            raise UsageError(f"--rate must be above 0, and at most {MAX_RATE:g} against TGC's own API")
        progress = TerminalProgress(sys.stderr, quiet=args.quiet)
        folder = self.folders([args.game])[0]
        try:
            run = publish_game(
                self.project_of(folder),
                folder,
                api_url,
                args.rate,
                args.credentials,
                progress,
                proofed=args.proofed,
                plan_only=args.dry_run,
            )
        except PublishError as exc:
            print(f"deckwright: error: {exc}", file=sys.stderr)
            return EXIT_ERRORS
        for line in run.errors:
            print(line, file=sys.stderr)
        if run.errors:
            return EXIT_ERRORS
        for line in run.plan_lines:
            print(line)
        if run.outcome is not None and not args.quiet:
            for skipped in run.outcome.plan.skipped:
                print(skipped.line())
            print(
                f"{run.game_id}: published to {api_url} as game {run.outcome.game_id}: {summary(run.outcome)}"
            )
        return EXIT_OK

    def preflight(self) -> int:
        """Colour spaces, ink coverage, bleed, fonts, boxes and image resolution of a PDF."""
        from .pipeline.load import load_catalog
        from .preflight import Rules, preflight

        rules = Rules()
        if self.args.service is not None:
            diags = Diagnostics()
            services = load_catalog(self.project, diags).services
            for d in diags.sorted():
                print(d, file=sys.stderr)
            found = services.get(self.args.service)
            if found is None or found.press is None:
                known = ", ".join(s for s, v in services.items() if v.press is not None) or "none"
                raise UsageError(
                    f"no print service {self.args.service!r} with press rules (services: {known})"
                )
            spec = found.press
            rules = Rules(found.id, spec.colour, spec.ink_limit, spec.bleed)
        path = self.args.file
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
        report = preflight(data, rules)
        for line in report.lines(str(path)):
            print(line)
        against = f" against {rules.service}" if rules.service else ""
        state = "passed" if report.ok else f"FAILED ({len(report.errors)} errors)"
        print(f"{path}: preflight{against} {state}, {report.pages} pages", file=sys.stderr)
        return EXIT_OK if report.ok else EXIT_ERRORS

    def watch(self) -> int:
        """Build, then rebuild after every change to the data, templates, layouts or fonts."""
        from .pipeline.session import BuildSession

        args = self.args
        folders = self.folders(args.games)
        reads = BuildSession(self.project, BuildOptions())
        roots = sorted({root for f in folders for root in reads.roots(f, self.project_of(f))})
        # a game on its own builds into its own folder: its outputs are not changes to watch
        ignored = [self.project_of(f).build_dir for f in folders if self.project_of(f).standalone]
        for extra in (
            "booklet",
            "duplex",
            "gutterfold",
            "back_offset",
            "ink_saver",
            "tts_base_url",
            "margin",
            "icc",
            "press_images",
        ):
            setattr(args, extra, getattr(BuildOptions(), extra))
        args.paper, args.no_cache, args.quiet = None, False, False
        state = snapshot(roots, ignored)
        self.build(staged=True)
        print("watching for changes (Ctrl-C to stop)", file=sys.stderr)
        while True:
            paths, state = wait_for_change(roots, state, args.interval, ignored=ignored)
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
        projects = {self.project_of(folder) for folder in folders}
        if len(projects) > 1:
            raise UsageError("serve shows the games of one project at a time: name games of one project")
        project = projects.pop()
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
            serve(project, folders, options, args.host, args.port, lambda line: print(line, flush=True))
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
            paper=args.paper or "a4",
            pnp_papers=(args.paper,) if args.paper else None,
            margin=args.margin,
            icc=str(args.icc.resolve()) if args.icc else None,
            press_images=args.press_images,
            duplex=args.duplex,
            gutterfold=args.gutterfold,
            back_offset=args.back_offset,
            ink_saver=args.ink_saver,
            booklet=args.booklet,
            jobs=args.jobs or os.cpu_count() or 1,
            use_cache=not args.no_cache,
            tts_base_url=args.tts_base_url,
        )
        folders = self.folders(args.games)
        if self.out is not None and len(folders) > 1:
            raise UsageError("--out takes one game at a time (name the game)")
        progress = TerminalProgress(sys.stderr, quiet=args.quiet)
        session = BuildSession(self.project, options, kinds, progress, staged=staged)
        status = EXIT_OK
        for folder in folders:
            # one game's failure never stops the others; the exit code reports it
            project = self.project_of(folder)
            outcome = session.build(folder, project)
            _print_outcome(outcome, args.quiet, getattr(args, "verbose", False), project)
            if not outcome.ok:
                status = EXIT_ERRORS
        return status


def _sources(project: Project, folder: Path) -> list[str]:
    """Where a game's templates, fonts, layouts and art come from (`validate --verbose`)."""
    from .project import DEFAULTS

    def shown(path: Path) -> str:
        try:  # not resolved: the built-in folders may be links into a checkout
            return f"built in ({path.relative_to(DEFAULTS.parent.parent)})"
        except ValueError:
            return str(path.resolve())

    from .readers.style import load_style

    templates = project.game_templates_dir(folder, folder.name)
    style = load_style(templates, Diagnostics(), project.display)
    theme = f", then the {style.theme} theme (built in)" if style is not None and style.theme else ""
    art = [str(p.resolve()) for p in project.game_art_dirs(folder, folder.name) if p.is_dir()]
    return [
        f"templates: {shown(templates)}{theme}",
        f"fonts: {shown(project.game_fonts_dir(folder))}",
        f"layouts: {', '.join(shown(p) for p in project.game_layouts_dirs(folder))}",
        f"art: {', '.join(art) or 'none yet (' + str((folder / 'art').resolve()) + ')'}",
        f"outputs: {project.game_build_dir(folder.name)}",
    ]


def _print_outcome(outcome, quiet: bool, verbose: bool = False, project: Project | None = None) -> None:
    """What became of one game: its findings, then one line."""
    from .pipeline.session import State

    for d in outcome.shared.sorted():
        print(d, file=sys.stderr)
    _print_diagnostics(outcome.checked, quiet)
    _print_diagnostics(outcome.diags, quiet)
    name, game_id = outcome.folder.name, outcome.game_id
    # the real folder: relative to the project inside one, else in full
    out_dir = outcome.out_dir or (project.game_build_dir(game_id) if project else Path("build", game_id))
    shown = project.display(out_dir) if project is not None and not project.standalone else str(out_dir)
    where = shown.rstrip(os.sep) + os.sep
    if outcome.state is State.UP_TO_DATE:
        if not quiet:
            print(f"{name}: up to date (nothing changed since the last build)")
            if outcome.replayed:
                count = len(outcome.replayed)
                more = "" if verbose else " (--verbose lists them)"
                print(
                    f"{name}: {count} warning{'s' if count != 1 else ''} from the last build{more}",
                    file=sys.stderr,
                )
                if verbose:
                    for line in outcome.replayed:
                        print(line, file=sys.stderr)
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
            f"(set DECKWRIGHT_DEBUG=1 for the traceback); {where} left as it was",
            file=sys.stderr,
        )
    elif outcome.state is State.FAILED:
        print(f"{game_id}: build failed; {where} left as it was", file=sys.stderr)
    elif not quiet:
        removed = f"; {len(outcome.removed)} no longer made, removed" if outcome.removed else ""
        print(
            f"{game_id}: {outcome.written} files in {where} "
            f"({outcome.renders} rendered, {outcome.cache_hits} from cache{removed})"
        )


# Options whose value may start with a minus sign ("--back-offset -2,-1"): argparse takes such a
# value for an option unless it looks like a plain negative number, so it is joined to its
# option ("--back-offset=-2,-1") before parsing.
_SIGNED_VALUES = ("--back-offset",)


def _join_signed_values(argv: Sequence[str]) -> list[str]:
    out: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        if args[i] in _SIGNED_VALUES and i + 1 < len(args) and args[i + 1].startswith("-"):
            out.append(f"{args[i]}={args[i + 1]}")
            i += 2
            continue
        if args[i] == "--":
            out += args[i:]
            break
        out.append(args[i])
        i += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(_join_signed_values(sys.argv[1:] if argv is None else argv))
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
