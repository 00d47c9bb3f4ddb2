"""`deckwright serve`: start the server, build, then rebuild on every save until stopped.

The command line prints; this module reports through `say`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ..context.base import BuildOptions
from ..project import Project


class ServeError(Exception):
    pass


def serve(
    project: Project,
    folders: Sequence[Path],
    options: BuildOptions,
    host: str,
    port: int,
    say: Callable[[str], None],
    stop: threading.Event | None = None,
) -> None:
    """Serve until `stop` is set or KeyboardInterrupt (Ctrl-C, or SIGTERM turned into it)."""
    from ..watch import Listener
    from .events import Broker
    from .live import Studio
    from .server import LOOPBACK, ServerThread, create_app

    stop = stop or threading.Event()
    broker = Broker()
    studio = Studio(project, folders, options, broker.publish)
    studio.prepare()  # fonts are pointed at before cairo loads; problems show on the page
    allowed = list(LOOPBACK) if host in LOOPBACK else None
    server = ServerThread(create_app(studio, broker, allowed), host, port)
    if not server.start():
        detail = f": {server.failed}" if server.failed and str(server.failed) not in ("", "1") else ""
        raise ServeError(f"cannot listen on {host}:{port} (is the port in use?){detail}")
    shown = f"[{host}]" if ":" in host else host
    say(f"serving {', '.join(studio.games)} at http://{shown}:{server.port}/ (Ctrl-C to stop)")
    try:
        # before the build: a save during it counts
        listener = Listener(studio.roots(), project.written_inside_games, stop=stop)
        studio.rebuild()
        _summary(studio, say)
        for paths in listener:
            shown = [p for p in paths if p.exists()] or paths  # not an editor's short-lived temp file
            changed = ", ".join(project.display(p) for p in shown[:3])
            more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
            say(f"changed: {changed}{more}")
            layouts = any(p == project.layouts_dir or project.layouts_dir in p.parents for p in paths)
            studio.rebuild(studio.affected(paths), layouts_changed=layouts)
            _summary(studio, say)
    finally:
        broker.close()
        server.stop()


def _summary(studio, say: Callable[[str], None]) -> None:
    for live in studio.games.values():
        errors = sum(d.severity.value == "error" for d in live.diagnostics)
        state = {"ok": "built", "errors": f"{errors} errors (print files not written)"}.get(
            live.state, live.state
        )
        stages = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in live.stage_seconds.items())
        say(f"{live.id}: {state} in {live.seconds:.2f}s ({stages})")
