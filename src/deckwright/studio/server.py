"""The studio's web server: a Starlette app run by uvicorn in a thread.

It serves the page and its assets, the event stream, the JSON views, and the build outputs of
the games it was started for, from build/<game>/ and nothing else: every file path is checked
part by part (no `..`, no hidden file, no absolute path), resolved (symlinks followed) and must
still be a file inside its game's build folder. Folders are never listed. Only GET and HEAD are
answered (anything else: 405), and, when bound to the loopback address, only requests naming
the loopback host (a page elsewhere cannot reach it through DNS rebinding).
"""

from __future__ import annotations

import threading
import time
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from . import images, views
from .events import Broker
from .live import GameLive, Studio

STATIC = ("index.html", "studio.css", "studio.js")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
NO_STORE = {"Cache-Control": "no-cache"}
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)


class ReadOnly:
    """GET and HEAD only, for every path (a 405 before any routing)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            response = PlainTextResponse("method not allowed", 405, headers={"Allow": "GET, HEAD"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def safe_path(root: Path, relative: str) -> Path | None:
    """`relative` inside `root` as an existing file, or None: no empty, `.`, `..` or hidden
    part, no backslash or NUL, and after resolving symlinks still inside `root`."""
    parts = relative.split("/")
    for part in parts:
        if not part or part.startswith(".") or "\\" in part or "\x00" in part or ":" in part:
            return None
    base = root.resolve()
    try:
        path = base.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


def create_app(studio: Studio, broker: Broker, allowed_hosts: list[str] | None = None) -> Starlette:
    def game_of(request: Request) -> GameLive:
        live = studio.games.get(request.path_params["game"])
        if live is None:
            raise _NotFound
        return live

    async def page(request: Request) -> Response:
        return Response(
            _static("index.html"),
            media_type="text/html; charset=utf-8",
            headers={**NO_STORE, "Content-Security-Policy": PAGE_POLICY, "X-Frame-Options": "DENY"},
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC[1:]:
            return _not_found()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(_static(name), media_type=f"{kind}; charset=utf-8", headers=NO_STORE)

    async def events(request: Request) -> Response:
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(broker.stream(), media_type="text/event-stream", headers=headers)

    def api_state(request: Request) -> Response:
        return JSONResponse(views.state(studio), headers=NO_STORE)

    def api_cards(request: Request) -> Response:
        live = game_of(request)
        q = request.query_params
        try:
            offset = int(q.get("offset", "0"))
        except ValueError:
            offset = 0
        result = views.cards(studio, live, q.get("q", ""), q.get("type", ""), q.get("deck", ""), offset)
        return JSONResponse(result, headers=NO_STORE)

    def api_card(request: Request) -> Response:
        live = game_of(request)
        found = views.card(studio, live, request.path_params["card"])
        return JSONResponse(found, headers=NO_STORE) if found else _not_found()

    def api_pages(request: Request) -> Response:
        live = game_of(request)
        pdf = _pnp_file(studio, live, request.path_params["file"])
        if pdf is None:
            return _not_found()
        v = f"{pdf.stat().st_mtime_ns:x}"
        return JSONResponse({"file": pdf.name, "pages": images.page_count(pdf), "v": v}, headers=NO_STORE)

    def files(request: Request) -> Response:
        live = game_of(request)
        path = safe_path(studio.build_dir(live), request.path_params["path"])
        if path is None:
            return _not_found()
        return FileResponse(path, headers=NO_STORE)

    def preview(request: Request) -> Response:
        live = game_of(request)
        png = live.previews.get(request.path_params["name"])
        if png is None:
            return _not_found()
        return Response(png, media_type="image/png", headers=NO_STORE)

    def thumb(request: Request) -> Response:
        live = game_of(request)
        name = request.path_params["name"]
        version = live.faces.get(name)
        png = live.previews.get(name)
        if png is None and version is not None:
            path = safe_path(studio.build_dir(live), f"cards/{name}.png")
            png = path.read_bytes() if path is not None else None
        if png is None:
            return _not_found()
        data = images.thumbnail((live.id, name, version, len(png)), png)
        return Response(data, media_type="image/png", headers=NO_STORE)

    def pnp_page(request: Request) -> Response:
        live = game_of(request)
        pdf = _pnp_file(studio, live, request.path_params["file"])
        if pdf is None:
            return _not_found()
        data = images.page_png(pdf, request.path_params["page"] - 1)
        return Response(data, media_type="image/png", headers=NO_STORE) if data else _not_found()

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/api/state", api_state, methods=["GET"]),
        Route("/api/games/{game}/cards", api_cards, methods=["GET"]),
        Route("/api/games/{game}/cards/{card}", api_card, methods=["GET"]),
        Route("/api/games/{game}/pages/{file}", api_pages, methods=["GET"]),
        Route("/files/{game}/{path:path}", files, methods=["GET"]),
        Route("/preview/{game}/{name}.png", preview, methods=["GET"]),
        Route("/thumb/{game}/{name}.png", thumb, methods=["GET"]),
        Route("/pages/{game}/{file}/{page:int}.png", pnp_page, methods=["GET"]),
    ]
    middleware = [Middleware(ReadOnly)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(
        routes=routes, middleware=middleware, exception_handlers={_NotFound: lambda r, e: _not_found()}
    )


class _NotFound(Exception):
    pass


def _not_found() -> Response:
    return PlainTextResponse("not found", 404)


def _pnp_file(studio: Studio, live: GameLive, name: str) -> Path | None:
    if not (name.startswith("pnp-") and name.endswith(".pdf")):
        return None
    return safe_path(studio.build_dir(live), name)


class ServerThread:
    """uvicorn in a daemon thread: the main thread watches and builds (it forks render
    processes, which must not happen from a thread holding the event loop's locks)."""

    def __init__(self, app: Starlette, host: str, port: int) -> None:
        import uvicorn

        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="deckwright-serve", daemon=True)
        self.failed: BaseException | None = None

    def _run(self) -> None:
        try:
            self.server.run()
        except BaseException as exc:  # uvicorn exits (SystemExit) when it cannot bind
            self.failed = exc

    def start(self, timeout: float = 10.0) -> bool:
        """Start listening; False when the server could not (the port is taken)."""
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    @property
    def port(self) -> int:
        for server in self.server.servers:
            for sock in server.sockets:
                return sock.getsockname()[1]
        return self.server.config.port

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
