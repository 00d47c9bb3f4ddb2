"""The command line: the only module that parses arguments, prints and picks exit codes."""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .context.base import DUPLEX, PAPERS, BuildOptions
from .diagnostics import Diagnostics
from .kinds import DEFAULT_KINDS, OUTPUT_KINDS, available_kinds
from .lock import BuildLock, LockedError
from .project import Project, find_root
from .uptodate import input_digest, is_up_to_date, record
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
        "default: the game's build: outputs, else all but press)",
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
    return parser


def _print_diagnostics(diags: Diagnostics, quiet: bool) -> None:
    """Findings in file order on stderr; warnings only when not --quiet."""
    for d in diags.sorted():
        if d.severity.value == "error" or not quiet:
            print(d, file=sys.stderr)


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in OUTPUT_KINDS]
    if unknown or not kinds:
        choices = ", ".join(OUTPUT_KINDS)
        raise argparse.ArgumentTypeError(
            f"unknown output {', '.join(unknown) or '(none)'}; choose from {choices}"
        )
    return kinds


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
        from .pipeline import check_game, load_fonts, load_layouts, prepare_fonts

        """Load and validate games; fonts are activated for cairo when a build follows."""
        shared = Diagnostics()
        folders = self.folders(names)
        self.layouts = load_layouts(self.project, shared)
        self.fonts = (prepare_fonts if activate_fonts else load_fonts)(self.project, shared)
        return [check_game(self.project, f, self.layouts, self.fonts) for f in folders], shared

    # -- commands --------------------------------------------------------------------------

    def list(self) -> int:
        from .pipeline import check_game

        for game_id, folder in self.project.game_folders().items():
            checked = check_game(self.project, folder, {})
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
        from . import consistency
        from .outputs.check import check_page
        from .pipeline import check_game, load_layouts

        shared = Diagnostics()
        layouts = load_layouts(self.project, shared)
        folders = self.folders(self.args.games)
        for d in shared.sorted():
            print(d, file=sys.stderr)
        status = EXIT_ERRORS if shared.has_errors else EXIT_OK
        for folder in folders:
            checked = check_game(self.project, folder, layouts)
            if not checked.ok:
                for d in checked.diags.errors:
                    print(d, file=sys.stderr)
                n_err = len(checked.diags.errors)
                print(
                    f"{folder.name}: not checked ({n_err} errors; see deckwright validate)", file=sys.stderr
                )
                status = EXIT_ERRORS
                continue
            game, diags = checked.game, Diagnostics()
            report = consistency.run(game, diags, self.project.display)
            page = check_page(self.project, game, report, diags)
            for d in diags.sorted():
                print(d, file=sys.stderr)
            for finding in report.findings:
                print(finding.line())
            if page is not None:
                Writer(self.project.build_dir / game.id).write_bytes("check.html", page)
            counts = ", ".join(f"{kind} {len(found)}" for kind, found in report.by_kind().items() if found)
            print(
                f"{game.id}: {len(report.findings)} findings ({counts or 'none'}), "
                f"{len(report.acknowledged)} acknowledged; see build/{game.id}/check.html",
                file=sys.stderr,
            )
            if diags.has_errors or (self.args.strict and report.findings):
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

    def preflight(self) -> int:
        """Colour spaces, ink coverage, bleed, fonts, boxes and image resolution of a PDF."""
        from .preflight import Rules, preflight
        from .press_model import read_press_services  # TEMPORARY: the lead's services model

        rules = Rules()
        if self.args.service is not None:
            diags = Diagnostics()
            services = read_press_services(self.project.layouts_dir, diags, self.project.display)
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
        args = self.args
        folders = self.folders(args.games)
        roots = [*folders, self.project.layouts_dir, self.project.templates_dir, self.project.fonts_dir]
        for extra in (
            "booklet",
            "duplex",
            "gutterfold",
            "back_offset",
            "ink_saver",
            "margin",
            "icc",
            "press_images",
        ):
            setattr(args, extra, getattr(BuildOptions(), extra))
        args.paper, args.no_cache, args.quiet = None, False, False
        state = snapshot(roots)
        self.build()
        print("watching for changes (Ctrl-C to stop)", file=sys.stderr)
        while True:
            paths, state = wait_for_change(roots, state, args.interval)
            shown = ", ".join(self.project.display(p) for p in paths[:3])
            more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
            print(f"changed: {shown}{more}", file=sys.stderr)
            self.build()

    def build(self) -> int:
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
        )
        folders = self.folders(args.games)
        shared = Diagnostics()
        # layouts and fonts are loaded (fonts activated for cairo) when a game needs building
        self.layouts = self.fonts = None
        status = EXIT_OK
        for folder in folders:
            # one game's failure never stops the others; the exit code reports it
            status = max(status, self._build_game(folder, options, kinds, shared))
        return status

    def _build_game(
        self, folder: Path, options: BuildOptions, kinds: Sequence[str], shared: Diagnostics
    ) -> int:
        """One game, from validation to written files; a bug in it never stops the others."""
        try:
            return self._build_one(folder, options, kinds, shared)
        except Exception as exc:
            if os.environ.get("DECKWRIGHT_DEBUG"):
                traceback.print_exc()
            print(
                f"deckwright: internal error while building {folder.name}: {type(exc).__name__}: {exc} "
                f"(set DECKWRIGHT_DEBUG=1 for the traceback); build/{folder.name}/ left as it was",
                file=sys.stderr,
            )
            return EXIT_ERRORS

    def _build_one(
        self, folder: Path, options: BuildOptions, kinds: Sequence[str], shared: Diagnostics
    ) -> int:
        args, project = self.args, self.project
        roots = [
            folder,
            project.game_templates_dir(folder, folder.name),
            project.templates_dir / "_shared",
            project.layouts_dir,
            project.fonts_dir,
            project.art_dir / folder.name,
            *([Path(options.icc)] if options.icc else []),  # a changed printer profile rebuilds
        ]
        inputs = input_digest(roots, options, kinds)
        if options.use_cache and is_up_to_date(project.build_dir, folder.name, inputs):
            if not args.quiet:
                print(f"{folder.name}: up to date (nothing changed since the last build)")
            return EXIT_OK
        from .pipeline import build_game, check_game, load_layouts, prepare_fonts

        if self.layouts is None:
            self.layouts = load_layouts(project, shared)
            self.fonts = prepare_fonts(project, shared)
            for d in shared.sorted():
                print(d, file=sys.stderr)
        if shared.has_errors or self.fonts is None:
            return EXIT_ERRORS
        checked = check_game(project, folder, self.layouts, self.fonts, use_cache=options.use_cache)
        _print_diagnostics(checked.diags, args.quiet)
        if not checked.ok:
            print(f"{folder.name}: not built ({len(checked.diags.errors)} errors)", file=sys.stderr)
            return EXIT_ERRORS
        game_id = checked.game.id
        kinds = kinds or [k for k in available_kinds() if k in (checked.game.build.outputs or DEFAULT_KINDS)]
        progress = TerminalProgress(sys.stderr, quiet=args.quiet)
        try:
            with BuildLock(project.build_dir, game_id):
                built = build_game(project, checked, self.layouts, self.fonts, options, kinds, progress)
                if built.ok:
                    record(project.build_dir, game_id, inputs, built.written)
        except LockedError as exc:
            print(f"deckwright: error: {exc}", file=sys.stderr)
            return EXIT_ERRORS
        _print_diagnostics(built.diags, args.quiet)
        if not built.ok:
            print(f"{game_id}: build failed; build/{game_id}/ left as it was", file=sys.stderr)
            return EXIT_ERRORS
        if not args.quiet:
            print(
                f"{game_id}: {len(built.written)} files in build/{game_id}/ "
                f"({built.renders} rendered, {built.cache_hits} from cache)"
            )
        return EXIT_OK


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
        if args.command == "watch":
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
