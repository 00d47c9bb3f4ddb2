"""`deckwright serve` in a real browser: Debian's headless Chromium driven by Playwright.

The server runs as the designer runs it (`python -m deckwright serve`, in its own process) on a
copy of the mini game; the test edits the game's YAML as an editor would and watches the page
follow without a reload.
"""

from __future__ import annotations

import io
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, TempProject

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LONG = "Deal 2 damage to every hero in play and again. " * 30
WAIT_MS = 20_000

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed (make test installs it)"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`deckwright serve` in a child process; its output lines arrive on a queue."""

    def __init__(self, project: Path, game: str) -> None:
        self.port = free_port()
        options = ["--port", str(self.port), "--jobs", "1"]
        env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deckwright", "--project", str(project), "serve", game, *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.port}/"

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"the server did not print {text!r}; it printed:\n{''.join(seen)}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def studio(mini: TempProject):
    server = Server(mini.root, "mini")
    try:
        server.wait_for(f"at {server.url}")
        server.wait_for("mini: built")
        yield mini, server
    finally:
        server.stop()


@pytest.fixture
def page():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 700, "height": 300})
            context.set_default_timeout(WAIT_MS)
            yield context.new_page()
        finally:
            browser.close()


def red_pixels(url: str) -> int:
    from PIL import Image

    with (
        urllib.request.urlopen(url, timeout=10) as response,
        Image.open(io.BytesIO(response.read())) as image,
    ):
        data = image.convert("RGB").reduce(4).tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 200 and data[i + 1] < 120 and data[i + 2] < 120)


def test_the_page_follows_every_save(studio, page) -> None:
    mini, server = studio
    spells = mini.path("mini", "spells.yaml")
    page.goto(server.url + "#/mini")
    tile = page.locator('.tile[data-card="zap"]')
    image = tile.locator("img")
    page.wait_for_function(
        "() => document.querySelector('.tile[data-card=\"zap\"] img')?.src.includes('/thumb/')"
    )
    before = image.get_attribute("src")
    assert page.locator(".tile").count() == 4
    assert page.locator("#status .stage.done").count() == 3  # faces, print files, documents

    # a text edit: the new face appears in place, without a reload, where the designer was
    page.evaluate("window.notReloaded = true")
    page.evaluate("window.scrollTo(0, 120)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    mini.replace("mini", "spells.yaml", 'text: "Deal 2 damage."', 'text: "Deal 3 damage to a hero."')
    page.wait_for_function(
        f"() => document.querySelector('.tile[data-card=\"zap\"] img').getAttribute('src') !== {before!r}"
    )
    page.wait_for_function(
        "() => document.querySelector('#status .stage[data-stage=documents]').classList.contains('done')"
    )
    assert page.evaluate("window.notReloaded") is True
    assert page.evaluate("window.scrollY") == scrolled
    new_src = image.get_attribute("src")
    assert new_src.startswith("/thumb/mini/zap-front.png?v=")

    # the card's page: the new text among its fields, its face at print size
    tile.click()
    field = page.locator('tr[data-field="text"] td').first
    page.wait_for_function(
        "() => document.querySelector('tr[data-field=text] td')?.textContent.includes('Deal 3')"
    )
    front = page.locator('.face[data-side="front"] img')
    shown = front.get_attribute("src")
    assert shown.startswith("/files/mini/cards/zap-front.png?v=")
    mini.replace("mini", "spells.yaml", "Deal 3 damage to a hero.", "Deal 4 damage to a hero.")
    page.wait_for_function(
        "() => document.querySelector('tr[data-field=text] td').textContent.includes('Deal 4')"
    )
    page.wait_for_function(
        f"() => document.querySelector('.face[data-side=front] img').getAttribute('src') !== {shown!r}"
    )
    assert field.text_content() == "Deal 4 damage to a hero."
    assert page.evaluate("window.notReloaded") is True

    # text that does not fit: the error with its file:line, and the card drawn with the overflow marked
    written = (mini.root / "build/mini/cards/zap-front.png").read_bytes()
    mini.replace("mini", "spells.yaml", "Deal 4 damage to a hero.", LONG)
    problems = page.locator("#problems")
    problems.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('#problems').textContent.includes('does not fit')")
    assert "cards/mini/spells.yaml:6" in problems.text_content()
    page.wait_for_function(
        "() => document.querySelector('.face[data-side=front] img').src.includes('/preview/')"
    )
    assert page.locator('.face[data-side="front"]').get_attribute("class").split().count("error") == 1
    assert red_pixels(server.url.rstrip("/") + front.get_attribute("src")) > 1000
    assert page.locator("#status .stage.blocked").count() == 3
    assert (mini.root / "build/mini/cards/zap-front.png").read_bytes() == written  # print files untouched
    page.click("text=← all cards")
    page.wait_for_function(
        "() => document.querySelector('.tile[data-card=\"zap\"]')?.classList.contains('error')"
    )
    assert "/thumb/mini/zap-front.png?v=p" in image.get_attribute("src")

    # fixed: the error and the mark go away, the print files are written again
    spells.write_text(spells.read_text(encoding="utf-8").replace(LONG, "Deal 5 damage."), encoding="utf-8")
    problems.wait_for(state="hidden")
    page.wait_for_function(
        "() => !document.querySelector('.tile[data-card=\"zap\"]').classList.contains('error')"
    )
    page.wait_for_function(
        "() => document.querySelector('#status .stage[data-stage=documents]').classList.contains('done')"
    )
    assert "?v=p" not in image.get_attribute("src")
    assert (mini.root / "build/mini/cards/zap-front.png").read_bytes() != written
    assert page.evaluate("window.notReloaded") is True
