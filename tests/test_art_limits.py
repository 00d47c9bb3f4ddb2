"""Art read directly: refused fast and without allocating, whatever the card id."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from deckwright.render.card.art import ArtLibrary
from deckwright.render.card.geometry import Box
from robustness_support import (
    USE_BOMB,
    png,
    real_image,
    svg_art,
)


def test_decompression_bomb_is_refused_fast_without_allocating(tmp_path: Path) -> None:
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.png").write_bytes(png(100_000, 100_000))
    library = ArtLibrary(tmp_path / "art")
    tracemalloc.start()
    try:
        result = library.image("mini", "ann", Box(0, 0, 100, 100))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # 100000 x 100000 RGB would be 30 GB
    assert [i.message for i in result.issues] == ["ann.png: image is a decompression bomb; refused"]
    assert "data:" not in result.svg  # a placeholder


def test_an_svg_reference_bomb_is_refused_fast(tmp_path: Path) -> None:
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.svg").write_bytes(svg_art(USE_BOMB))
    result = ArtLibrary(tmp_path / "art").image("mini", "ann", Box(0, 0, 100, 100))
    assert [i.severity for i in result.issues] == ["error"]


def test_art_is_decoded_strictly_even_after_weasyprint_relaxed_pillow(tmp_path: Path, monkeypatch) -> None:
    """WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES process-wide when it is imported (a
    rulebook or print-and-play build, `watch`, several games in one run): truncated art must
    still be refused, not handed to cairo."""
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "art/mini/ann.png").write_bytes(png(40, 60))
    (tmp_path / "art/mini/bob.jpg").write_bytes(real_image("JPEG")[:300])
    library = ArtLibrary(tmp_path / "art")
    for card in ("ann", "bob"):
        result = library.image("mini", card, Box(0, 0, 100, 100))
        assert [i.severity for i in result.issues] == ["error"], result.issues
        assert "cannot read image" in result.issues[0].message
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # restored as it was


@pytest.mark.parametrize("card_id", ["../../outside", "ABSOLUTE"])
def test_art_lookups_never_leave_art(card_id: str, tmp_path: Path) -> None:
    """Card ids are slugs (validated), but the art library does not rely on it."""
    (tmp_path / "art/mini").mkdir(parents=True)
    (tmp_path / "outside.png").write_bytes(real_image("PNG"))
    if card_id == "ABSOLUTE":
        card_id = str(tmp_path / "outside")
    result = ArtLibrary(tmp_path / "art").image("mini", card_id, Box(0, 0, 100, 100))
    assert [(i.severity, i.message) for i in result.issues] == [
        ("error", "outside.png: refused: the file (or the link it is) points outside art/")
    ]
    assert "data:" not in result.svg
