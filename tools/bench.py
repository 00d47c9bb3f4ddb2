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

Targets (ratios in the same run): cold <= 1.5 x floor, one-card <= 10 % of cold, no-op <= 3 % of
cold, peak RSS < 300 MB; the peer deck's cold build under a third of Squib's 9-11 s on this
machine (i.e. under 3 s). Each figure is one line: `game figure value [target verdict]`.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
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
    return {**os.environ, "SOURCE_DATE_EPOCH": "1764460800", "TMPDIR": str(project / "tmp")}


def run_build(project: Path, game: str, *extra: str) -> tuple[float, int, str, dict[str, float]]:
    """Seconds, peak RSS (KB) of the build's largest process, its output, and seconds per
    output kind (from the time its "game: kind: N files" line appears; the first kind's time
    includes starting, loading, validating and laying out the cards)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(REPO / ".venv/bin/deckwright"), "--project", str(project), "build", game, *extra],
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


def change_one_card(folder: Path, file: str) -> None:
    """Edit one card's text: the first text-like field of the file (or the first CSV body)."""
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if file.endswith(".csv"):
        lines[1] = lines[1].replace(".", " again.", 1)
    else:
        field = re.compile(r"^(\s+(?:text|effect|body|action|ability): )(.*)$")
        for i, line in enumerate(lines):
            match = field.match(line)
            if not match:
                continue
            head, value = match.groups()
            if value.startswith(("|", ">")):  # a block scalar: change its first line
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
                lines[i + 1] = lines[i + 1][:indent] + "Now " + lines[i + 1][indent:]
            elif value[:1] in "\"'":
                lines[i] = f"{head}{value[0]}Now {value[1:]}\n"
            else:
                lines[i] = f"{head}Now {value}\n"
            break
        else:
            sys.exit(f"bench: found no card text to change in {path}")
    path.write_text("".join(lines), encoding="utf-8")


def watch_rebuild(project: Path, target: str, folder: Path, edit_file: str, jobs: int) -> float:
    """Seconds `deckwright watch` takes to rebuild after a one-card edit, from noticing the
    change to its summary line, in a process that has rebuilt once already (the first rebuild
    also imports the rendering stack)."""
    command = [str(REPO / ".venv/bin/deckwright"), "--project", str(project), "watch", target]
    proc = subprocess.Popen(
        [*command, "--jobs", str(jobs), "--interval", "0.1"],
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
            wait_for(" files in build/")
            seconds = time.perf_counter() - start
        return seconds
    finally:
        proc.terminate()
        proc.wait()


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
        floor = floor_seconds(project / "build" / game, jobs)
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
    if game == "peer-deck":
        limit = SQUIB_PEER_DECK_SECONDS / 3
        lines.append(f"{game} vs-squib {cold:.2f}s vs Squib 9-11s [< {limit:.1f}s: {verdict(cold < limit)}]")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: all of {', '.join(GAMES)}")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.games = args.games or list(GAMES)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (choose from {', '.join(GAMES)})")
    if args.single:  # one game per process, so peak RSS is that game's alone
        for line in bench(args.games[0], args.jobs):
            print(line, flush=True)
        return
    print(f"deckwright benchmark: {os.cpu_count()} cores, --jobs {args.jobs}", flush=True)
    for game in args.games:
        cmd = [sys.executable, __file__, "--single", "--jobs", str(args.jobs), game]
        if subprocess.run(cmd).returncode != 0:
            sys.exit(1)


if __name__ == "__main__":
    main()
