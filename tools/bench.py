"""deckwright's benchmark: build speed and memory against the rendering libraries' own floor.

Run with `make bench`. For each game (the three reference games and examples/peer-deck), in a
throwaway copy of the project so the real build/ is untouched, it measures:

- cold: a full build with an empty cache;
- one-card: a rebuild after changing one card's text (a new `deckwright build`), and the same
  in a running `deckwright watch` (whose process has the rendering stack loaded already);
- no-op: a rebuild with nothing changed;
- per card: cold time / faces rendered;
- floor: CairoSVG alone on the same card SVGs to PNG and PDF, and WeasyPrint alone on the same
  rulebook HTML, with the same parallelism; and cold / floor;
- peak RSS of the build (its largest process).

Each build line names its slowest output kinds (the first kind built also carries loading,
validating and laying out the cards).

Through `deckwright serve`, as a browser sees it (an event stream, then HTTP requests):
- save -> changed card image served: the median of 10 one-card text edits, from writing the file
  to having the changed card's new image in hand;
- all outputs consistent again: from the save to the server's "built" event after the last
  stage, against the document and PDF writers alone on the same inputs (CairoSVG card SVGs to
  PDF, WeasyPrint the rulebook HTML);
- scale: a 10,000-card deck (the peer deck repeated, ids made unique) built cold: time per card
  against the 105-card deck's, and peak RSS; and the gallery on it: one page of cards and its
  thumbnails, first and last page.

Targets (ratios in the same run): cold <= 1.5 x floor, one-card <= 10 % of cold, no-op <= 3 % of
cold, peak RSS < 300 MB; served changed image <= 0.5 s median; consistent <= 1.2 x writers;
the peer deck's cold build under a third of Squib's 9-11 s on this
machine (i.e. under 3 s). Each figure is one line: `game figure value [target verdict]`.
"""

from __future__ import annotations

import argparse
import csv
import http.client
import json
import os
import queue
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GAMES = {
    "light-and-mist": ("cards/light-and-mist", "scripture.yaml"),
    "midnight-congregation": ("cards/midnight-congregation", "quirks.yaml"),
    "light-vs-darkness": ("cards/light-vs-darkness", "strongholds.yaml"),
    "peer-deck": ("examples/peer-deck", "cards.csv"),
}
SQUIB_PEER_DECK_SECONDS = 9.0  # the low end of Squib 0.20's 9-11 s on this machine (issue 7)


def copy_project(target: Path) -> None:
    for name in ("cards", "layouts", "templates", "fonts", "examples"):
        shutil.copytree(REPO / name, target / name, symlinks=True)
    (target / "tmp").mkdir()


def build_env(project: Path) -> dict[str, str]:
    """A fixed date, and the project's own temp folder: deckwright keeps its fontconfig cache in
    the temp folder, one per fonts folder, and each copy of the project has its own."""
    return {
        **os.environ,
        "SOURCE_DATE_EPOCH": "1764460800",
        "TMPDIR": str(project / "tmp"),
        "PYTHONPATH": str(REPO / "src"),  # this checkout's deckwright, also when run without .venv
    }


def deckwright() -> list[str]:
    """The command: the project's .venv console script, else this Python with `-m deckwright`."""
    script = REPO / ".venv/bin/deckwright"
    return [str(script)] if script.exists() else [sys.executable, "-m", "deckwright"]


def run_build(project: Path, game: str, *extra: str) -> tuple[float, int, str, dict[str, float]]:
    """Seconds, peak RSS (KB) of the build's largest process, its output, and seconds per
    output kind (from the time its "game: kind: N files" line appears; the first kind's time
    includes starting, loading, validating and laying out the cards)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*deckwright(), "--project", str(project), "build", game, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=project,
        env=build_env(project),
    )
    lines, stages, last = [], {}, start
    for line in proc.stdout:
        lines.append(line)
        match = STAGE_DONE.match(line)
        if match:
            now = time.perf_counter()
            stages[match.group(1)] = now - last
            last = now
    proc.wait()
    seconds = time.perf_counter() - start
    output = "".join(lines)
    if proc.returncode != 0:
        sys.exit(f"build of {game} failed:\n{output}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before), output, stages


STAGE_DONE = re.compile(r"^[\w.-]+: (\w+): \d+ files$")


def slowest(stages: dict[str, float], count: int = 3) -> str:
    top = sorted(stages.items(), key=lambda item: item[1], reverse=True)[:count]
    return ", ".join(f"{kind} {seconds:.2f}s" for kind, seconds in top)


def rendered(output: str) -> int:
    match = re.search(r"\((\d+) rendered", output)
    return int(match.group(1)) if match else 0


def change_one_card(folder: Path, file: str, word: str = "Now") -> None:
    """Edit one card's text: the first text-like field of the file (or the first CSV body)
    gets `word` added."""
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if file.endswith(".csv"):
        lines[1] = lines[1].replace(".", f" {'again' if word == 'Now' else word}.", 1)
    else:
        field = re.compile(r"^(\s+(?:text|effect|body|action|ability): )(.*)$")
        for i, line in enumerate(lines):
            match = field.match(line)
            if not match:
                continue
            head, value = match.groups()
            if value.startswith(("|", ">")):  # a block scalar: change its first line
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
                lines[i + 1] = lines[i + 1][:indent] + f"{word} " + lines[i + 1][indent:]
            elif value[:1] in "\"'":
                lines[i] = f"{head}{value[0]}{word} {value[1:]}\n"
            else:
                lines[i] = f"{head}{word} {value}\n"
            break
        else:
            sys.exit(f"bench: found no card text to change in {path}")
    path.write_text("".join(lines), encoding="utf-8")


def watch_rebuild(project: Path, target: str, folder: Path, edit_file: str, jobs: int) -> float:
    """Seconds `deckwright watch` takes to rebuild after a one-card edit, from noticing the
    change to its summary line, in a process that has rebuilt once already (the first rebuild
    also imports the rendering stack)."""
    command = [*deckwright(), "--project", str(project), "watch", target]
    proc = subprocess.Popen(
        [*command, "--jobs", str(jobs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=project,
        env={**build_env(project), "PYTHONUNBUFFERED": "1"},
    )
    lines = iter(proc.stdout)

    def wait_for(text: str) -> None:
        for line in lines:
            if text in line:
                return
        sys.exit(f"watch of {target} stopped before printing {text!r}")

    try:
        wait_for("watching for changes")
        seconds = 0.0
        for _ in range(2):
            change_one_card(folder, edit_file)
            wait_for("changed: ")
            start = time.perf_counter()
            wait_for(" files in ")
            seconds = time.perf_counter() - start
        return seconds
    finally:
        proc.terminate()
        proc.wait()


class Served:
    """`deckwright serve` in a child process, and a client of it: its event stream on a queue,
    its JSON and images over HTTP."""

    def __init__(self, project: Path, target: str, game: str, jobs: int, timeout: float = 600) -> None:
        self.game = game
        command = [*deckwright(), "--project", str(project), "serve", target]
        self.proc = subprocess.Popen(
            [*command, "--port", "0", "--jobs", str(jobs)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=project,
            env={**build_env(project), "PYTHONUNBUFFERED": "1"},
        )
        self.lines = iter(self.proc.stdout)
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/", self.wait_for(" at http://"))
        self.port = int(found.group(1))
        self.wait_for(f"{game}: built", timeout)
        self.events: queue.Queue = queue.Queue()
        threading.Thread(target=self._listen, daemon=True).start()
        time.sleep(0.3)  # the stream is open and has sent its first event
        self.drain()

    def wait_for(self, text: str, timeout: float = 600) -> str:
        for line in self.lines:
            if text in line:
                return line
        sys.exit(f"serve of {self.game} stopped before printing {text!r}")

    def _listen(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        conn.request("GET", "/events")
        response = conn.getresponse()
        for raw in response:
            line = raw.decode("utf-8").strip()
            if line.startswith("data: "):
                self.events.put((time.perf_counter(), json.loads(line[6:])))

    def drain(self) -> None:
        while not self.events.empty():
            self.events.get_nowait()

    def get(self, path: str) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            data = response.read()
            if response.status != 200:
                sys.exit(f"GET {path}: {response.status}")
            return data
        finally:
            conn.close()

    def fronts(self) -> dict[str, str]:
        """Card id -> the URL of its front image, every page of the gallery."""
        fronts, offset = {}, 0
        while True:
            page = json.loads(self.get(f"/api/games/{self.game}/cards?offset={offset}"))
            fronts.update({c["id"]: c["front"]["image"] for c in page["cards"] if c["front"]})
            offset += page["limit"]
            if offset >= page["total"]:
                return fronts

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def serve_latency(
    project: Path, target: str, game: str, folder: Path, file: str, jobs: int, edits: int = 10
) -> tuple[list[float], list[float]]:
    """Per edit: seconds from the save to the changed card's new image served, and to the
    "built" event after the last stage. Each edit gives the card a text it never had (a face
    drawn before would come from the cache), one word longer than the original."""
    path = folder / file
    original = path.read_text(encoding="utf-8")
    texts = []
    for i in range(edits):
        change_one_card(folder, file, f"Take{i + 1}")
        texts.append(path.read_text(encoding="utf-8"))
        path.write_text(original, encoding="utf-8")
    served = Served(project, target, game, jobs)
    images, consistent = [], []
    try:
        before = served.fronts()
        for i in range(edits):
            served.drain()
            start = time.perf_counter()
            path.write_text(texts[i], encoding="utf-8")
            image_at = done_at = None
            while done_at is None:
                try:
                    at, event = served.events.get(timeout=120)
                except queue.Empty:
                    sys.exit(f"serve of {game}: no event within 120 s of a save")
                if event.get("game") != game:
                    continue
                if image_at is None and event.get("stage") == "faces":
                    now = served.fronts()
                    changed = [url for card, url in now.items() if before.get(card) != url]
                    if changed:
                        served.get(changed[0])
                        image_at = time.perf_counter() - start
                        before = now
                if event.get("state") in ("ok", "errors", "failed") and not event.get("stage"):
                    if event["state"] != "ok":
                        sys.exit(f"serve of {game}: the edit left the game {event['state']}")
                    done_at = at - start
            if image_at is None:
                sys.exit(f"serve of {game}: no card image changed after an edit")
            images.append(image_at)
            consistent.append(done_at)
    finally:
        served.stop()
        path.write_text(original, encoding="utf-8")
    return images, consistent


def writers_seconds(build_dir: Path, jobs: int) -> float:
    """The document and PDF writers alone: CairoSVG card SVGs to PDF, WeasyPrint the rulebook."""
    svgs = [p.read_text(encoding="utf-8") for p in sorted((build_dir / "cards").glob("*.svg"))]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_pdf, svgs, chunksize=4))
    html = build_dir / "rulebook.html"
    if html.is_file():
        import weasyprint

        weasyprint.HTML(filename=str(html), base_url=str(build_dir)).write_pdf()
    return time.perf_counter() - start


def _png(svg: str) -> int:
    import cairosvg

    return len(cairosvg.svg2png(bytestring=svg.encode(), dpi=300))


def _pdf(svg: str) -> int:
    import cairosvg

    return len(cairosvg.svg2pdf(bytestring=svg.encode()))


def floor_seconds(build_dir: Path, jobs: int) -> float:
    """The libraries alone on the same inputs: card SVGs -> PNG and PDF, rulebook HTML -> PDF."""
    svgs = [p.read_text(encoding="utf-8") for p in sorted((build_dir / "cards").glob("*.svg"))]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_png, svgs, chunksize=4))
        list(pool.map(_pdf, svgs, chunksize=4))
    html = build_dir / "rulebook.html"
    if html.is_file():
        import weasyprint

        weasyprint.HTML(filename=str(html), base_url=str(build_dir)).write_pdf()
    return time.perf_counter() - start


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def bench(game: str, jobs: int) -> list[str]:
    folder_rel, edit_file = GAMES[game]
    lines = []
    with tempfile.TemporaryDirectory(prefix="deckwright-bench-") as tmp:
        project = Path(tmp)
        copy_project(project)
        target = folder_rel if game == "peer-deck" else game
        cold, peak_kb, out, cold_stages = run_build(project, target, "--no-cache", "--jobs", str(jobs))
        faces = rendered(out)
        change_one_card(project / folder_rel, edit_file)
        one, _, out_one, one_stages = run_build(project, target, "--jobs", str(jobs))
        noop, _, out_noop, _ = run_build(project, target, "--jobs", str(jobs))
        warm = watch_rebuild(project, target, project / folder_rel, edit_file, jobs)
        # a game in the project's cards/ builds into build/<game>/, a game on its own into its folder
        outputs = project / folder_rel / "build" if game == "peer-deck" else project / "build" / game
        floor = floor_seconds(outputs, jobs)
        images, consistent = serve_latency(project, target, game, project / folder_rel, edit_file, jobs)
        writers = writers_seconds(outputs, jobs)
    ratio = cold / floor if floor else float("nan")
    lines.append(f"{game} cold-build {cold:.2f}s ({faces} renders; slowest: {slowest(cold_stages)})")
    one_ok = verdict(one <= 0.10 * cold)
    one_note = f"({rendered(out_one)} renders; slowest: {slowest(one_stages)}) [<= 10%: {one_ok}]"
    noop_note = f"({rendered(out_noop)} renders) [<= 3%: {verdict(noop <= 0.03 * cold)}]"
    lines.append(f"{game} one-card-rebuild {one:.2f}s = {one / cold:.1%} of cold {one_note}")
    warm_note = f"(deckwright watch, its second rebuild) [<= 10%: {verdict(warm <= 0.10 * cold)}]"
    lines.append(f"{game} watch-one-card-rebuild {warm:.2f}s = {warm / cold:.1%} of cold {warm_note}")
    lines.append(f"{game} no-op-rebuild {noop:.2f}s = {noop / cold:.1%} of cold {noop_note}")
    if faces:
        lines.append(f"{game} per-render {cold / faces * 1000:.0f}ms")
    lines.append(
        f"{game} floor {floor:.2f}s (CairoSVG PNG+PDF of the same SVGs, WeasyPrint of the same HTML)"
    )
    lines.append(f"{game} cold/floor {ratio:.2f} [<= 1.5: {verdict(ratio <= 1.5)}]")
    lines.append(f"{game} peak-rss {peak_kb / 1024:.0f}MB [< 300MB: {verdict(peak_kb < 300 * 1024)}]")
    median = statistics.median(images)
    spread = f"min {min(images):.2f}s, max {max(images):.2f}s"
    lines.append(
        f"{game} serve-changed-image {median:.2f}s median of {len(images)} one-card edits ({spread}) "
        f"[<= 0.5s: {verdict(median <= 0.5)}]"
    )
    settled = statistics.median(consistent)
    lines.append(
        f"{game} serve-consistent {settled:.2f}s median = {settled / writers:.2f} x the writers alone "
        f"({writers:.2f}s: CairoSVG PDF of the card SVGs, WeasyPrint of the rulebook) "
        f"[<= 1.2x: {verdict(settled <= 1.2 * writers)}]"
    )
    if game == "peer-deck":
        limit = SQUIB_PEER_DECK_SECONDS / 3
        lines.append(f"{game} vs-squib {cold:.2f}s vs Squib 9-11s [< {limit:.1f}s: {verdict(cold < limit)}]")
    return lines


BIG_DECK = 10_000


def big_deck(jobs: int) -> list[str]:
    """The peer deck repeated to 10,000 cards (ids made unique), built cold: time per card
    against the 105-card deck's and peak RSS; then the gallery on it through the server."""
    with tempfile.TemporaryDirectory(prefix="deckwright-bench-") as tmp:
        project = Path(tmp)
        copy_project(project)
        folder = project / "examples" / "peer-deck"
        small, _, _, _ = run_build(project, "examples/peer-deck", "--no-cache", "--jobs", str(jobs))
        small_cards = 105
        with (folder / "cards.csv").open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        header, body = rows[0], rows[1:]
        with (folder / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(header)
            for i in range(BIG_DECK):
                row = list(body[i % len(body)])
                row[0] = f"{i + 1:05d}/{BIG_DECK}"
                writer.writerow(row)
        checks = folder / "checks.yaml"
        checks.write_text(checks.read_text(encoding="utf-8").replace("105", str(BIG_DECK)), encoding="utf-8")
        shutil.rmtree(project / "build", ignore_errors=True)
        cold, peak_kb, out, stages = run_build(
            project, "examples/peer-deck", "--no-cache", "--jobs", str(jobs)
        )
        per_card, per_small = cold / BIG_DECK, small / small_cards
        lines = [
            f"{BIG_DECK}-cards cold-build {cold:.1f}s ({rendered(out)} renders; slowest: {slowest(stages)})",
            f"{BIG_DECK}-cards per-card {per_card * 1000:.1f}ms "
            f"vs {per_small * 1000:.1f}ms for the 105-card deck "
            f"[no worse: {verdict(per_card <= per_small * 1.05)}]",
            f"{BIG_DECK}-cards peak-rss {peak_kb / 1024:.0f}MB [< 300MB: {verdict(peak_kb < 300 * 1024)}]",
        ]
        served = Served(project, "examples/peer-deck", "peer-deck", jobs, timeout=1800)
        try:
            for offset in (0, BIG_DECK - 60):
                start = time.perf_counter()
                page = json.loads(served.get(f"/api/games/peer-deck/cards?offset={offset}"))
                listed = time.perf_counter() - start
                for card in page["cards"]:
                    served.get(card["front"]["thumb"])
                thumbs = time.perf_counter() - start - listed
                lines.append(
                    f"{BIG_DECK}-cards gallery-page@{offset} {listed * 1000:.0f}ms for {len(page['cards'])} "
                    f"of {page['total']} cards, their thumbnails {thumbs:.2f}s (made on demand)"
                )
        finally:
            served.stop()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: all of {', '.join(GAMES)}")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--big", action="store_true", help=f"only the {BIG_DECK:,}-card deck")
    parser.add_argument("--no-big", action="store_true", help=f"without the {BIG_DECK:,}-card deck")
    args = parser.parse_args()
    args.games = args.games or list(GAMES)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (choose from {', '.join(GAMES)})")
    if args.big:  # in a process of its own, like each game
        for line in big_deck(args.jobs):
            print(line, flush=True)
        return
    if args.single:  # one game per process, so peak RSS is that game's alone
        for line in bench(args.games[0], args.jobs):
            print(line, flush=True)
        return
    print(f"deckwright benchmark: {os.cpu_count()} cores, --jobs {args.jobs}", flush=True)
    for game in args.games:
        cmd = [sys.executable, __file__, "--single", "--jobs", str(args.jobs), game]
        if subprocess.run(cmd).returncode != 0:
            sys.exit(1)
    if (
        not args.no_big
        and subprocess.run([sys.executable, __file__, "--big", "--jobs", str(args.jobs)]).returncode != 0
    ):
        sys.exit(1)


if __name__ == "__main__":
    main()
