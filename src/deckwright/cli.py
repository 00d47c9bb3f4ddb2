"""The command line: the only module that parses arguments, prints and picks exit codes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostics
from .outputs.base import DUPLEX, PAPERS, BuildOptions
from .outputs.export import export_csv, export_json
from .pipeline import OUTPUT_KINDS, Checked, available_kinds, build_game, check_game, load_layouts
from .project import Project, find_root
from .writer import Writer

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
        help=f"comma-separated outputs to build ({', '.join(OUTPUT_KINDS)}; default: all)",
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
    return parser


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

    def check_all(self, names: Sequence[str]) -> tuple[list[Checked], Diagnostics]:
        shared = Diagnostics()
        self.layouts = load_layouts(self.project, shared)
        folders = self.folders(names)
        return [check_game(self.project, f, self.layouts) for f in folders], shared

    # -- commands --------------------------------------------------------------------------

    def list(self) -> int:
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

    def export(self) -> int:
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

    def build(self) -> int:
        args = self.args
        kinds = args.only or tuple(available_kinds())
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
        results, shared = self.check_all(args.games)
        for d in shared.sorted():
            print(d, file=sys.stderr)
        status = EXIT_ERRORS if shared.has_errors else EXIT_OK
        for r in results:
            for d in r.diags.errors:
                print(d, file=sys.stderr)
            if not r.ok or shared.has_errors:
                print(f"{r.folder.name}: not built ({len(r.diags.errors)} errors)", file=sys.stderr)
                status = EXIT_ERRORS
                continue
            built = build_game(self.project, r.game, self.layouts, options, kinds)
            for d in built.diags.sorted():
                if d.severity.value == "error" or not args.quiet:
                    print(d, file=sys.stderr)
            if not built.ok:
                print(f"{r.game.id}: build failed; build/{r.game.id}/ left as it was", file=sys.stderr)
                status = EXIT_ERRORS
            elif not args.quiet:
                print(
                    f"{r.game.id}: built {len(built.written)} files into build/{r.game.id}/ ({', '.join(kinds)})"
                )
        return status


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
        print("deckwright: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
