"""`deckwright serve` without a browser: the staged build, the preview of text that does not
fit, and what the server refuses to serve (paths outside the build outputs, methods but GET)."""

from __future__ import annotations

import http.client
import io
import json
import os
from pathlib import Path

import pytest

from conftest import TempProject
from deckwright.context.base import BuildOptions
from deckwright.diagnostics import Diagnostics
from deckwright.pipeline.staged import build_staged, plan

LONG = "Deal 2 damage to every hero in play and again. " * 30


def test_the_stages_put_card_faces_first_and_documents_last() -> None:
    kinds = ["cards", "tgc", "proofs", "pnp", "rulebook", "errata", "check"]
    assert plan(kinds) == [
        ("faces", ["cards"]),
        ("print", ["tgc", "proofs", "pnp"]),
        ("documents", ["rulebook", "errata", "check"]),
    ]
    assert plan(["pnp", "cards"]) == [("faces", ["cards"]), ("print", ["pnp"])]
    assert plan(["a-new-kind", "cards"]) == [("faces", ["cards"]), ("documents", ["a-new-kind"])]


def test_a_staged_build_writes_the_card_images_before_the_print_files(mini: TempProject) -> None:
    from deckwright.pipeline.load import load_catalog, prepare_fonts

    project, shared = mini.project, Diagnostics()
    catalog, fonts = load_catalog(project, shared), prepare_fonts(project, shared)
    checked = mini.check("mini")
    out = project.build_dir / "mini"
    seen = []

    def on_stage(stage: str, state: str, written: list[str]) -> None:
        seen.append(
            (stage, state, (out / "cards" / "zap-front.png").is_file(), (out / "pnp-a4.pdf").is_file())
        )

    built = build_staged(
        project, checked, catalog, fonts, BuildOptions(), ["cards", "pnp", "check"], on_stage=on_stage
    )
    assert built.ok, [str(d) for d in built.diags]
    assert seen == [
        ("faces", "building", False, False),
        ("faces", "done", True, False),  # the faces are on disk before the PDFs are drawn
        ("print", "building", True, False),
        ("print", "done", True, True),
        ("documents", "building", True, True),
        ("documents", "done", True, True),
    ]
    assert (out / "check.html").is_file()


def test_with_two_jobs_the_documents_are_built_beside_the_print_files(mini: TempProject) -> None:
    from deckwright.pipeline.load import load_catalog, prepare_fonts

    project, shared = mini.project, Diagnostics()
    catalog, fonts = load_catalog(project, shared), prepare_fonts(project, shared)
    checked = mini.check("mini")
    seen = []
    built = build_staged(
        project,
        checked,
        catalog,
        fonts,
        BuildOptions(jobs=2),
        ["cards", "pnp", "check"],
        on_stage=lambda stage, state, written: seen.append((stage, state, written)),
    )
    assert built.ok, [str(d) for d in built.diags]
    assert [(stage, state) for stage, state, _ in seen] == [
        ("faces", "building"),
        ("faces", "done"),
        ("print", "building"),
        ("documents", "building"),  # in a forked process, while this one draws the PDFs
        ("print", "done"),
        ("documents", "done"),
    ]
    assert seen[-1][2] == ["check.html"]  # the child's files, written by this process
    out = project.build_dir / "mini"
    assert {p.name for p in out.iterdir() if p.is_file()} >= {"pnp-a4.pdf", "pnp-letter.pdf", "check.html"}
    assert built.renders >= 5  # four fronts and the back, counted once


def _red_pixels(png: bytes) -> int:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        data = image.convert("RGB").reduce(4).tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 200 and data[i + 1] < 120 and data[i + 2] < 120)


def test_the_preview_marks_the_lines_that_do_not_fit_and_print_does_not(mini: TempProject) -> None:
    from deckwright.context.card_images import make_renderer, pixel_size
    from deckwright.pipeline.load import load_catalog, load_fonts
    from deckwright.render.card.template import FRONT
    from deckwright.render.image.raster import svg_to_png

    mini.replace("mini", "spells.yaml", 'text: "Deal 2 damage."', f'text: "{LONG}"')
    checked = mini.check("mini")
    assert any("does not fit" in str(d) for d in checked.diags.errors)
    project, diags = mini.project, Diagnostics()
    catalog, fonts = load_catalog(project, diags), load_fonts(project, diags)
    game = checked.game
    zap = game.card("zap")
    cache = project.build_dir / ".cache"
    plain = make_renderer(project, game, catalog.layouts, fonts, diags, cache).render(zap, FRONT).svg
    marked = make_renderer(project, game, catalog.layouts, fonts, diags, cache, preview=True).render(
        zap, FRONT
    )
    assert "overflow-line" not in plain
    assert marked.svg.count('class="overflow-line"') == 8  # "8 lines below the box"
    assert marked.problems and "does not fit" in marked.problems[0].message  # still an error
    size = pixel_size(checked.faces.faces["zap-front"].layout)
    assert _red_pixels(svg_to_png(marked.svg, *size)) > 1000
    assert _red_pixels(svg_to_png(plain, *size)) == 0
    # a card that fits draws the same in both modes; the preview is never kept in the face cache
    ann = game.card("ann")
    again = make_renderer(project, game, catalog.layouts, fonts, diags, cache, preview=True)
    assert (
        again.render(ann, FRONT).svg
        == make_renderer(project, game, catalog.layouts, fonts, diags, cache).render(ann, FRONT).svg
    )
    assert (
        "overflow-line"
        not in make_renderer(project, game, catalog.layouts, fonts, diags, cache).render(zap, FRONT).svg
    )


# ---- the server ---------------------------------------------------------------------------------


@pytest.fixture
def served(mini: TempProject):
    """The studio of the mini game, built, on a free loopback port; stopped afterwards."""
    from deckwright.studio.events import Broker
    from deckwright.studio.live import Studio
    from deckwright.studio.server import LOOPBACK, ServerThread, create_app

    broker = Broker()
    studio = Studio(mini.project, [mini.root / "cards" / "mini"], BuildOptions(), broker.publish)
    assert studio.prepare()
    studio.rebuild()
    assert studio.games["mini"].state == "ok", studio.games["mini"].diagnostics
    server = ServerThread(create_app(studio, broker, list(LOOPBACK)), "127.0.0.1", 0)
    assert server.start()
    try:
        yield mini, studio, server.port
    finally:
        broker.close()
        server.stop()


def request(port: int, path: str, method: str = "GET", host: str = "127.0.0.1") -> tuple[int, bytes]:
    """A raw request: the path goes out exactly as written (no client-side normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"{host}:{port}")
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_the_server_serves_the_page_the_state_and_the_build_outputs(served) -> None:
    mini, _, port = served
    status, page = request(port, "/")
    assert status == 200 and b"/static/studio.js" in page
    assert request(port, "/static/studio.js")[0] == 200
    status, body = request(port, "/api/state")
    game = json.loads(body)["games"][0]
    assert game["id"] == "mini" and game["state"] == "ok" and game["stages"]["faces"] == "done"
    status, body = request(port, "/api/games/mini/cards?q=heal")
    cards = json.loads(body)
    assert [c["id"] for c in cards["cards"]] == ["cy"]  # "Heal 2." is Cy's text
    image = cards["cards"][0]["front"]["image"]
    assert image.startswith("/files/mini/cards/cy-front.png?v=")
    status, png = request(port, image)
    assert status == 200 and png == (mini.root / "build/mini/cards/cy-front.png").read_bytes()
    status, thumb = request(port, cards["cards"][0]["front"]["thumb"])
    assert status == 200 and thumb.startswith(b"\x89PNG")
    status, body = request(port, "/api/games/mini/cards/zap")
    card = json.loads(body)
    assert card["where"] == "cards/mini/spells.yaml:3:5"
    assert card["editor"].startswith("vscode://file/") and card["editor"].endswith(
        "/cards/mini/spells.yaml:3:5"
    )
    assert {f["name"] for f in card["fields"]} == {"text", "caster"}


def test_the_server_answers_get_and_head_only(served) -> None:
    _, _, port = served
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in ("/", "/api/state", "/files/mini/cards/zap-front.png", "/nowhere"):
            assert request(port, path, method)[0] == 405, (method, path)
    status, body = request(port, "/files/mini/cards/zap-front.png", "HEAD")
    assert status == 200 and body == b""


def test_nothing_outside_the_build_outputs_is_served(served, tmp_path: Path) -> None:
    mini, _, port = served
    build = mini.root / "build" / "mini"
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the browser")
    os.symlink(secret, build / "link.txt")
    os.symlink(tmp_path, build / "linked-folder")
    (mini.root / "build" / "other.txt").write_text("a file beside the game's outputs")
    refused = [
        "/files/mini/../../cards/mini/game.yaml",
        "/files/mini/%2e%2e/%2e%2e/cards/mini/game.yaml",
        "/files/mini/%2e%2e%2f%2e%2e%2fcards/mini/game.yaml",
        "/files/mini/..%2fother.txt",
        "/files/mini/cards/..%5c..%5cother.txt",
        "/files/mini//etc/passwd",
        "/files/mini/%2fetc%2fpasswd",
        "/files/mini/link.txt",
        "/files/mini/linked-folder/secret.txt",
        "/files/mini/cards",  # a folder: never listed
        "/files/mini/cards/",
        "/files/mini/",
        "/files/mini/.deckwright-build.json",
        "/files/mini/../.cache",
        "/files/nogame/cards/zap-front.png",
        "/static/../../pipeline/build.py",
        "/static/%2e%2e/__init__.py",
        "/preview/mini/..%2f..%2fgame.png",
        "/thumb/mini/..%2f..%2f..%2fcards%2fmini%2fgame.png",
        "/pages/mini/..%2fother.pdf/1.png",
    ]
    for path in refused:
        status, body = request(port, path)
        assert status in (400, 404), (path, status)
        assert b"not for the browser" not in body and b"a file beside" not in body, path
    assert request(port, "/files/mini/cards/zap-front.png")[0] == 200


def test_a_loopback_server_refuses_other_host_names(served) -> None:
    _, _, port = served
    assert request(port, "/api/state", host="evil.example")[0] == 400  # DNS rebinding
    assert request(port, "/api/state", host="localhost")[0] == 200


def test_a_change_reaches_the_games_it_concerns(served) -> None:
    mini, studio, _ = served
    root = mini.root
    assert studio.affected([root / "cards/mini/spells.yaml"]) == ["mini"]
    assert studio.affected([root / "templates/mini/spell-front.svg.j2"]) == ["mini"]
    assert studio.affected([root / "layouts/cards.yaml"]) == ["mini"]  # shared: every game
    roots = studio.roots()
    assert root / "cards/mini" in roots and root / "layouts" in roots


def test_watch_builds_in_the_same_stages(mini: TempProject) -> None:
    from deckwright.pipeline.session import BuildSession, State
    from deckwright.progress import NoProgress

    class Steps(NoProgress):
        def __init__(self) -> None:
            self.kinds: list[str] = []

        def step(self, message: str) -> None:
            self.kinds.append(message.split(": ")[1])

    steps = Steps()
    session = BuildSession(mini.project, BuildOptions(), ("check", "pnp", "cards"), steps, staged=True)
    outcome = session.build(mini.root / "cards" / "mini")
    assert outcome.state is State.BUILT, [str(d) for d in outcome.checked]
    assert steps.kinds == ["cards", "pnp", "check"]  # faces, print files, documents
    assert (mini.root / "build/mini/pnp-a4.pdf").is_file()


def test_serve_refuses_a_port_out_of_range(mini: TempProject, capsys) -> None:
    from deckwright.cli import main

    assert main(["--project", str(mini.root), "serve", "mini", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_a_broken_count_rule_does_not_hide_the_edited_card(served) -> None:
    mini, studio, port = served
    live = studio.games["mini"]
    written = live.faces["zap-front"]
    mini.replace("mini", "spells.yaml", "count: 4", "count: 5")  # the deck must have 10 cards
    mini.replace("mini", "spells.yaml", 'text: "Deal 2 damage."', 'text: "Deal 7 damage."')
    studio.rebuild(["mini"])
    assert live.state == "errors"
    assert any("the main deck has 10 cards" in d.message for d in live.diagnostics)
    shown = live.faces["zap-front"]
    assert shown.startswith("p") and shown[1:] != written  # a preview of the new text
    status, png = request(port, f"/preview/mini/zap-front.png?v={shown}")
    assert status == 200 and png.startswith(b"\x89PNG")
    assert "ann-front" not in live.previews  # unchanged faces still come from build/mini/cards/
