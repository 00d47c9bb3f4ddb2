"""The command line: the only package that parses arguments, prints and picks exit codes.

- `parser`: every command and option; `app`: the project and the commands that check and build
  games; `editions` and `services`: the commands of deckwright.editions and deckwright.publish /
  preflight; `printing`: what the commands print; `errors`: exit codes and usage errors.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from . import editions, services
from .app import Cli
from .errors import EXIT_OK, EXIT_USAGE, UsageError
from .parser import _join_signed_values, _parser

# Commands that are functions of their own module; every other command is a method of Cli.
COMMANDS: dict[str, Callable[[Cli], int]] = {
    "diff": editions.diff,
    "errata": editions.errata,
    "changelog": editions.changelog,
    "publish": services.publish,
    "preflight": services.preflight,
}

__all__ = ["COMMANDS", "Cli", "_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(_join_signed_values(sys.argv[1:] if argv is None else argv))
    try:
        cli = Cli(args)
        return COMMANDS[args.command](cli) if args.command in COMMANDS else getattr(cli, args.command)()
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
