"""`publish` and `preflight`: a game's build sent to a print service, and a press PDF checked
against one."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostics

if TYPE_CHECKING:
    pass

from .app import Cli
from .errors import EXIT_ERRORS, EXIT_OK, UsageError
from .printing import TerminalProgress


def publish(cli: Cli) -> int:
    """Upload the game's last build to The Game Crafter (or print the plan)."""
    from ..publish.client import DEFAULT_API_URL, MAX_RATE
    from ..publish.run import publish_game
    from ..publish.tgc import PublishError, summary

    args = cli.args
    api_url = args.api_url or os.environ.get("TGC_API_URL") or DEFAULT_API_URL
    if args.rate <= 0 or (args.rate > MAX_RATE and api_url.rstrip("/") == DEFAULT_API_URL):
        raise UsageError(f"--rate must be above 0, and at most {MAX_RATE:g} against TGC's own API")
    progress = TerminalProgress(sys.stderr, quiet=args.quiet)
    folder = cli.folders([args.game])[0]
    try:
        run = publish_game(
            cli.project_of(folder),
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
        print(f"{run.game_id}: published to {api_url} as game {run.outcome.game_id}: {summary(run.outcome)}")
    return EXIT_OK


def preflight(cli: Cli) -> int:
    """Colour spaces, ink coverage, bleed, fonts, boxes and image resolution of a PDF."""
    from ..pipeline.load import load_catalog
    from ..preflight import Rules, preflight

    rules = Rules()
    if cli.args.service is not None:
        diags = Diagnostics()
        services = load_catalog(cli.project, diags).services
        for d in diags.sorted():
            print(d, file=sys.stderr)
        found = services.get(cli.args.service)
        if found is None or found.press is None:
            known = ", ".join(s for s, v in services.items() if v.press is not None) or "none"
            raise UsageError(f"no print service {cli.args.service!r} with press rules (services: {known})")
        spec = found.press
        rules = Rules(found.id, spec.colour, spec.ink_limit, spec.bleed)
    path = cli.args.file
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
