"""Golden files: outputs stored under tests/golden/ and compared with what a build makes now.

Text files (card SVGs, print-and-play plans) must be equal, character for character; images
within `ImageTolerance`. `pytest --update-golden` stores the current outputs instead (see
tests/golden/README.md); the comparisons are plain functions so that a test can show they
report a change.
"""

from __future__ import annotations

import difflib
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).resolve().parent / "golden"
DIFF_LINES = 60  # of the first differing file's diff, shown in a failure


def compare_texts(expected: Mapping[str, str], actual: Mapping[str, str]) -> list[str]:
    """Every difference between two sets of named texts, one line each (files missing from the
    build, extra in it, different), then a unified diff of the first different file; [] when
    they are equal."""
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    differing = sorted(name for name in set(expected) & set(actual) if expected[name] != actual[name])
    problems = [f"missing (stored, not built): {name}" for name in missing]
    problems += [f"extra (built, not stored): {name}" for name in extra]
    problems += [f"differs: {name}" for name in differing]
    if differing:
        first = differing[0]
        diff = list(
            difflib.unified_diff(
                expected[first].splitlines(),
                actual[first].splitlines(),
                f"golden/{first}",
                f"built/{first}",
                lineterm="",
            )
        )
        if len(diff) > DIFF_LINES:
            diff = [*diff[:DIFF_LINES], f"... ({len(diff) - DIFF_LINES} more diff lines)"]
        problems += diff
    return problems


@dataclass(frozen=True)
class ImageTolerance:
    """How far a rendered image may stray from its golden copy: rasterisers (cairo, FreeType)
    of other versions anti-alias edges slightly differently, but a moved or recoloured element
    changes many pixels by a lot."""

    mean: float = 0.5  # per channel, mean absolute difference over all pixels (0-255)
    threshold: int = 32  # a pixel "differs" when one of its channels differs by more than this
    fraction: float = 0.002  # of the pixels, at most this share may differ

    def __str__(self) -> str:
        return (
            f"per-channel mean |diff| <= {self.mean}, at most {self.fraction:.1%} of pixels "
            f"differing by more than {self.threshold}"
        )


def _under(folder: str, files: Mapping[str, str]) -> dict[str, str]:
    return {f"{folder}/{name}": text for name, text in files.items()}


def image_difference(expected: bytes, actual: bytes, tolerance: ImageTolerance) -> str | None:
    """Why two PNGs differ beyond the tolerance, or None."""
    old, new = Image.open(io.BytesIO(expected)), Image.open(io.BytesIO(actual))
    if old.size != new.size:
        return f"size {new.size[0]}x{new.size[1]}, golden {old.size[0]}x{old.size[1]}"
    if old.mode != new.mode:
        return f"mode {new.mode}, golden {old.mode}"
    diff = ImageChops.difference(old.convert("RGBA"), new.convert("RGBA"))
    means = ImageStat.Stat(diff).mean
    largest = diff.getchannel(0)
    for band in range(1, 4):
        largest = ImageChops.lighter(largest, diff.getchannel(band))
    over = sum(largest.histogram()[tolerance.threshold + 1 :])
    share = over / (old.size[0] * old.size[1])
    if max(means) <= tolerance.mean and share <= tolerance.fraction:
        return None
    channels = ", ".join(f"{name} {m:.3f}" for name, m in zip("RGBA", means, strict=True))
    return (
        f"mean |diff| per channel {channels}; {share:.3%} of pixels differ by more than "
        f"{tolerance.threshold} (allowed: {tolerance})"
    )


@dataclass
class Golden:
    """The golden files of one test session: compared, or with `update` rewritten."""

    update: bool
    changed: list[str] = field(default_factory=list)  # re-blessed files, for the summary

    def read_folder(self, folder: str, suffix: str) -> dict[str, bytes]:
        where = GOLDEN / folder
        return {p.name: p.read_bytes() for p in sorted(where.glob(f"*{suffix}"))} if where.is_dir() else {}

    def check_texts(self, folder: str, actual: Mapping[str, str], suffix: str) -> list[str]:
        """Compare the texts with tests/golden/<folder>/*<suffix> (that whole set: a stored file
        that is no longer built is reported); with `update`, store them instead."""
        if not self.update:
            return self.diff_texts(folder, actual, suffix)
        stored = self.read_folder(folder, suffix)
        self._store(folder, {name: text.encode("utf-8") for name, text in actual.items()}, stored, True)
        return []

    def diff_texts(self, folder: str, actual: Mapping[str, str], suffix: str) -> list[str]:
        stored = {name: data.decode("utf-8") for name, data in self.read_folder(folder, suffix).items()}
        return compare_texts(_under(folder, stored), _under(folder, actual))

    def check_images(
        self, folder: str, actual: Mapping[str, bytes], tolerance: ImageTolerance, where: Path
    ) -> list[str]:
        """Compare each named PNG with tests/golden/<folder>/<name> within the tolerance; with
        `update`, store those that differ beyond it (an image within it keeps its golden copy,
        so re-blessing does not churn binaries)."""
        problems = self.diff_images(folder, actual, tolerance, where)
        if not self.update:
            return list(problems.values())
        stored = self.read_folder(folder, ".png")
        self._store(folder, {n: actual[n] if n in problems else stored[n] for n in actual}, stored, False)
        return []

    def diff_images(
        self, folder: str, actual: Mapping[str, bytes], tolerance: ImageTolerance, where: Path
    ) -> dict[str, str]:
        """Why each PNG that strays beyond the tolerance does, by name."""
        stored = self.read_folder(folder, ".png")
        problems: dict[str, str] = {}
        for name, data in sorted(actual.items()):
            if name not in stored:
                problems[name] = f"{folder}/{name}: no golden copy"
                continue
            why = image_difference(stored[name], data, tolerance)
            if why is not None:
                problems[name] = f"{folder}/{name}: {why}; the built image is {where / name}"
        return problems

    def _store(
        self, folder: str, files: Mapping[str, bytes], stored: Mapping[str, bytes], remove: bool
    ) -> None:
        where = GOLDEN / folder
        where.mkdir(parents=True, exist_ok=True)
        for name, data in sorted(files.items()):
            if stored.get(name) != data:
                (where / name).write_bytes(data)
                self.changed.append(f"{folder}/{name}" + ("" if name in stored else " (new)"))
        if remove:
            for name in sorted(set(stored) - set(files)):
                (where / name).unlink()
                self.changed.append(f"{folder}/{name} (removed)")
