"""The commands that check and build games (and watch and serve them), on the project the
command line names. The pipeline (YAML, Jinja2, fonts, the validators) is imported inside the
commands that use it: an up-to-date `build` answers in the time Python takes to start."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..context.base import BuildOptions
from ..diagnostics import Diagnostics
from ..kinds import available_kinds
from ..project import Project, find_game, find_root, project_for
from ..writer import Writer

if TYPE_CHECKING:
    from ..pipeline.load import Checked

from .errors import EXIT_ERRORS, EXIT_OK, UsageError
from .printing import TerminalProgress, _print_outcome, _sources


class Cli:
    """The project a command works on, its games, and the commands that build and check them."""

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
        from ..pipeline.load import check_game, load_catalog, load_fonts, prepare_fonts

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

    def list(self) -> int:
        from ..model import Catalog
        from ..pipeline.load import check_game

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
        from ..pipeline.load import load_catalog
        from ..pipeline.new import new_game

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
        from ..pipeline.build import editor_check
        from ..pipeline.load import check_game, load_catalog, load_fonts

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
        from ..render.export import export_csv, export_json

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

    def watch(self) -> int:
        """Build, then rebuild after every change to the data, templates, layouts or fonts."""
        from ..pipeline.session import BuildSession

        args = self.args
        folders = self.folders(args.games)
        reads = BuildSession(self.project, BuildOptions())
        roots = sorted({root for f in folders for root in reads.roots(f, self.project_of(f))})
        ignored = [path for f in folders for path in self.project_of(f).written_inside_games]
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
        from ..watch import Listener

        listener = Listener(roots, ignored)  # before the build: a save during it is not lost
        self.build(staged=True)
        print("watching for changes (Ctrl-C to stop)", file=sys.stderr)
        for paths in listener:
            shown = ", ".join(self.project.display(p) for p in paths[:3])
            more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
            print(f"changed: {shown}{more}", file=sys.stderr)
            self.build(staged=True)
        return EXIT_OK

    def serve(self) -> int:
        """The studio: build, serve the gallery, rebuild in stages on every save."""
        import signal

        from ..studio.command import ServeError, serve

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
        from ..pipeline.session import BuildSession

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
