"""The command line's arguments: every command and option, and the types that read them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..context.base import DUPLEX, PAPERS
from ..kinds import OUTPUT_KINDS

if TYPE_CHECKING:
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
    watch.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")

    serve = sub.add_parser("serve", help="a live card gallery in the browser that follows every save")
    serve.add_argument("games", nargs="*", metavar="GAME", help="game ids or folders (default: all)")
    serve.add_argument("--port", type=int, default=8400, metavar="N", help="port (default 8400; 0: any free)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    serve.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: cores)")
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
