"""Nothing lost: locks, one broken game among others, killed builds and failed writes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from deckwright.pipeline.lock import BuildLock
from deckwright.writer import Writer
from robustness_support import (
    BUILD,
    H,
    Project,
    hashes,
    run_cli,
)


def test_a_build_holding_the_lock_refuses_a_second(project: Project, built, capsys) -> None:
    with BuildLock(project.root / "build", "mini"):
        code, out, err = run_cli(capsys, project.root, *BUILD, "--no-cache")
    lock = project.root / "build/.locks/mini.lock"
    assert code == 1
    assert "Traceback" not in out + err
    assert (
        f"deckwright: error: another deckwright build of mini is running (lock: {lock}); "
        "wait for it to finish"
    ) in err.splitlines()
    assert hashes(project.outputs) == built[1]
    code, out, err = run_cli(capsys, project.root, *BUILD, "--no-cache")  # released: builds again
    assert code == 0, err


def test_one_broken_game_does_not_stop_the_others(project: Project, capsys) -> None:
    shutil.copytree(project.root / "cards/mini", project.root / "cards/mini-two")
    shutil.copytree(project.root / "templates/mini", project.root / "templates/mini-two")
    project.edit("cards/mini-two/game.yaml", "id: mini", "id: mini-two")
    project.edit("heroes.yaml", "    power: 1", "\tpower: 1")  # mini: broken, and built first
    before = hashes(project.outputs)
    code, out, err = run_cli(capsys, project.root, "build", "--only", "cards", "--jobs", "1")
    assert code == 1
    assert "Traceback" not in out + err
    assert f"{H}:20:1: error: tab character in indentation; YAML indents with spaces" in err.splitlines()
    assert "mini: not built (1 errors)" in err.splitlines()
    assert "mini-two: 10 files in build/mini-two/" in out
    assert (project.root / "build/mini-two/cards/zap-front.png").is_file()
    assert hashes(project.outputs) == before


def test_a_killed_writers_temp_file_is_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead_pid = int(dead.stdout)
    folder = tmp_path / "out/cards"
    folder.mkdir(parents=True)
    leftover = folder / f".a.png.{dead_pid}.k3j_x9.tmp"
    in_flight = folder / f".a.png.{os.getpid()}.q7w_e2.tmp"  # a running process's
    other = folder / f".a.png.svg.{dead_pid}.abc.tmp"  # another file's (a.png.svg)
    for path in (leftover, in_flight, other):
        path.write_bytes(b"part")
    Writer(tmp_path / "out").write_bytes("cards/a.png", b"whole")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["a.png", in_flight.name, other.name])


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch) -> None:
    writer = Writer(tmp_path / "out")
    writer.write_bytes("cards/a.png", b"old")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError, match="No space"):
        writer.write_bytes("cards/a.png", b"new, longer bytes")
    monkeypatch.undo()
    assert (tmp_path / "out/cards/a.png").read_bytes() == b"old"
    assert [p.name for p in (tmp_path / "out/cards").iterdir()] == ["a.png"]
    with pytest.raises(Exception, match="outside"):
        writer.write_bytes("../escape.png", b"x")
    assert not (tmp_path / "escape.png").exists()


def _big_game(root: Path) -> TempProject:
    """The mini game with 12 more spells, built once; then every face is changed (the paper
    colour), so that a finished build would rewrite every image."""
    temp = TempProject(root)
    game = temp.add_game(FIXTURES / "mini")
    extra = ["type: spell", "cards:"]
    for i in range(12):
        extra += [f"  - id: spell-{i}", f"    name: Spell {i}", f"    text: Spell {i}.", "    caster: cy"]
    (game / "more-spells.yaml").write_text("\n".join(extra) + "\n", encoding="utf-8")
    checks = game / "checks.yaml"
    checks.write_text(checks.read_text().replace("count() == 10", "count() == 22"), encoding="utf-8")
    assert main(["--project", str(root), *BUILD]) == 0
    style = root / "templates/mini/style.yaml"
    style.write_text(style.read_text().replace("#fffdf5", "#f0e0c0"), encoding="utf-8")
    return temp


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@contextmanager
def build_process(root: Path, *options: str, prelude: str = "") -> Iterator[subprocess.Popen]:
    """`deckwright build` in its own process group, killed (with its workers) on the way out."""
    code = f"import sys\n{prelude}\nfrom deckwright.cli import main\nsys.exit(main(sys.argv[1:]))"
    argv = ["--project", str(root), "build", "mini", "--only", "cards,tgc", "--no-cache", *options]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)


def _wait_for(condition: Callable[[], bool], proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, f"the build ended before {what}: {proc.communicate()}"
        assert time.monotonic() < deadline, f"no {what} within a minute"
        time.sleep(0.002)


def test_a_build_killed_while_rendering_leaves_the_last_outputs(tmp_path: Path, capsys) -> None:
    temp = _big_game(tmp_path / "project")
    outputs = temp.root / "build/mini"
    before = hashes(outputs)
    with build_process(temp.root, "--jobs", "2") as proc:
        # the render workers exist from the first image to the last; nothing is written before
        _wait_for(lambda: bool(_children(proc.pid)), proc, "the render workers started")
        time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGKILL)  # the build and its workers
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert hashes(outputs) == before
    assert [p for p in outputs.rglob(".*.tmp")] == []
    with BuildLock(temp.root / "build", "mini"):
        pass  # the lock died with the build


def test_a_build_killed_while_writing_leaves_whole_files(tmp_path: Path, capsys) -> None:
    """Killed between two renames: each file is the old one or the new one, never a part of
    one; the next build finishes the job and sweeps up the dead build's temp file."""
    temp = _big_game(tmp_path / "project")
    outputs = temp.root / "build/mini"
    before = hashes(outputs)
    inodes = {name: (outputs / name).stat().st_ino for name in before}
    slow_writes = "import os, time\nfsync = os.fsync\nos.fsync = lambda fd: (time.sleep(0.03), fsync(fd))"

    def renamed() -> bool:
        return any((outputs / name).stat().st_ino != ino for name, ino in inodes.items())

    with build_process(temp.root, "--jobs", "1", prelude=slow_writes) as proc:
        _wait_for(renamed, proc, "the first output was replaced")
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    killed = hashes(outputs)
    capsys.readouterr()
    assert main(["--project", str(temp.root), *BUILD]) == 0
    after = hashes(outputs)
    assert set(after) == set(before)
    changed = {name for name in before if killed.get(name) != before[name]}
    assert changed and changed != {n for n in before if after[n] != before[n]}, "not killed mid-way"
    for name in before:
        assert killed[name] in (before[name], after[name]), f"{name} is neither old nor new"
    assert [p for p in outputs.rglob(".*.tmp")] == []
