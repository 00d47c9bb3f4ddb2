"""`deckwright publish tgc GAME` as one call: the game's last build read, its plan made, and —
unless it is a dry run — uploaded under the game's build lock, so no build rewrites the images
while they are being sent. The command line only prints what comes back."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..model import Catalog
from ..pipeline.load import check_game
from ..pipeline.lock import BuildLock, LockedError
from ..progress import Progress
from ..project import Project
from .client import Client
from .tgc import Outcome, PublishError, dry_run, publish, read_credentials


@dataclass
class PublishRun:
    game_id: str
    errors: list[str]  # the game cannot be read: located lines
    plan_lines: list[str]  # a dry run: the plan
    outcome: Outcome | None = None


def publish_game(
    project: Project,
    folder: Path,
    api_url: str,
    rate: float,
    credentials_file: Path | None,
    progress: Progress,
    proofed: bool = False,
    plan_only: bool = False,
) -> PublishRun:
    """Raises PublishError (with TGC's own message and what was being done)."""
    checked = check_game(project, folder, Catalog({}, {}, {}))
    if checked.game is None:
        return PublishRun(folder.name, [str(d) for d in checked.diags.errors], [])
    game = checked.game
    game_dir = project.game_build_dir(game.id)
    decks = {d.id: sum(c.copies for c in game.cards if c.type in d.types) for d in game.decks.values()}
    if plan_only:
        return PublishRun(game.id, [], dry_run(game_dir, game.info.name, api_url, decks).lines())
    credentials = read_credentials(os.environ, credentials_file)
    try:
        with BuildLock(project.build_dir, game.id):
            outcome = publish(
                game_dir,
                game.info.name,
                credentials,
                Client(api_url, rate=rate),
                progress,
                proofed=proofed,
                game_decks=decks,
            )
    except LockedError as exc:
        raise PublishError(str(exc)) from None
    return PublishRun(game.id, [], [], outcome)
