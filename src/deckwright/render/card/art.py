"""Card art: `art/<game>/<card-id>.png|jpg|svg`, fitted and cropped to the template's slot.

Art comes from anywhere, so it is treated as hostile: the path must stay inside `art/` (no
symlink leaving it), raster images are size-checked before decoding (decompression bombs),
and SVG art that points outside itself (http:, file:, entities) is refused. Nothing is fetched.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageFile

from ...safety.containment import ContainmentError, read_contained
from ...safety.images import image_problems
from ...safety.limits import MAX_IMAGE_PIXELS
from .geometry import Box

EXTENSIONS = (".png", ".jpg", ".jpeg", ".svg")
MAX_PIXELS = MAX_IMAGE_PIXELS  # ~7000 x 7000: far beyond any card at 300 DPI
MAX_ART_BYTES = 40 * 1024 * 1024
MIN_DPI = 300
SVG_NS = "http://www.w3.org/2000/svg"
MAX_SVG_DRAWN = 100_000  # elements drawn, references expanded (CairoSVG stops at 100 000 <use>s)
MAX_SVG_DEPTH = 64  # nesting, references followed: CairoSVG draws recursively
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_LOCAL_URL = re.compile(r"url\(\s*[\"']?#([^)\"'\s]+)")
_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
_EXTERNAL = re.compile(
    rb"<!DOCTYPE|<!ENTITY|(?:href|src)\s*=\s*[\"'](?!#|data:)|url\(\s*[\"']?(?!#|data:)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Issue:
    severity: str
    message: str


@dataclass
class ArtResult:
    svg: str
    issues: list[Issue] = field(default_factory=list)
    source: Path | None = None


class ArtLibrary:
    def __init__(self, art_dir: Path) -> None:
        self.art_dir = art_dir

    def find(self, game_id: str, card_id: str) -> Path | None:
        folder = self.art_dir / game_id
        for ext in EXTENSIONS:
            path = folder / f"{card_id}{ext}"
            if path.exists() or path.is_symlink():
                return path
        return None

    def image(self, game_id: str, card_id: str, box: Box) -> ArtResult:
        path = self.find(game_id, card_id)
        if path is None:
            return ArtResult(placeholder(box))
        try:
            data, mime, issues = self._load(path, box)
        except ArtError as exc:
            return ArtResult(placeholder(box), [Issue("error", f"{path.name}: {exc}")])
        href = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        clip = f"art-clip-{card_id}"
        svg = (
            f'<clipPath id="{clip}"><rect x="{box.x:.3f}" y="{box.y:.3f}" width="{box.w:.3f}" '
            f'height="{box.h:.3f}"/></clipPath>'
            f'<image x="{box.x:.3f}" y="{box.y:.3f}" width="{box.w:.3f}" height="{box.h:.3f}" '
            f'preserveAspectRatio="xMidYMid slice" clip-path="url(#{clip})" href="{href}"/>'
        )
        return ArtResult(svg, issues, path)

    def root_of(self, path: Path) -> Path:
        """The folder `path` was found in: the art may not leave it."""
        return self.art_dir

    def _load(self, path: Path, box: Box) -> tuple[bytes, str, list[Issue]]:
        root = self.root_of(path).resolve()
        real = path.resolve()
        if root not in real.parents:
            raise ArtError("refused: the file (or the link it is) points outside art/")
        if not real.is_file():
            raise ArtError("not a file")
        if real.stat().st_size > MAX_ART_BYTES:
            raise ArtError(f"larger than {MAX_ART_BYTES // (1024 * 1024)} MB")
        try:  # counted as read: a file may grow between the check above and now
            data = read_contained(real, [root], MAX_ART_BYTES, path.name)
        except ContainmentError as exc:
            raise ArtError(exc.message.removeprefix(f"{path.name}: ")) from None
        suffix = path.suffix.lower()
        if suffix == ".svg":
            if _EXTERNAL.search(data):
                raise ArtError("refused: SVG art refers to outside resources or declares entities")
            _check_svg(data)
            problems = image_problems(data, _MIME[suffix])  # images it embeds: their pixels
            if problems:
                raise ArtError(f"refused: {problems[0]}")
            return data, _MIME[suffix], []
        if not data.startswith(b"\x89PNG") and b"<svg" in data:
            # CairoSVG reads any non-PNG image holding "<svg" as SVG, unchecked
            raise ArtError("refused: the image holds SVG markup")
        return data, _MIME[suffix], _check_raster(data, box)


class ArtError(Exception):
    pass


@contextmanager
def _strict_decoding() -> Iterator[None]:
    """Pillow decodes truncated images only when told to; WeasyPrint tells it to, process-wide,
    when it is imported (by a rulebook or print-and-play build). Art is checked strictly anyway."""
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient


def _check_raster(data: bytes, box: Box) -> list[Issue]:
    try:
        with warnings.catch_warnings(), _strict_decoding():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
                if width * height > MAX_PIXELS:
                    raise ArtError(f"{width} x {height} pixels is too large; refused")
                img.verify()  # the chunks' checksums
            with Image.open(io.BytesIO(data)) as img:
                img.load()  # the pixel data itself: a truncated or garbled image fails here, not in cairo
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtError("image is a decompression bomb; refused") from None
    except Exception as exc:  # Pillow raises many types for corrupt files
        raise ArtError(f"cannot read image ({exc.__class__.__name__}: {str(exc)[:80]})") from None
    # "slice" fitting scales to cover the box, so the smaller ratio decides the DPI.
    dpi = min(width / (box.w / 72), height / (box.h / 72))
    if dpi < MIN_DPI:
        return [Issue("warning", f"{dpi:.0f} DPI at print size, below {MIN_DPI}")]
    return []


def _check_svg(data: bytes) -> None:
    """SVG art must be well-formed XML whose root is <svg> (the DTD and entities were refused
    before, so nothing here can expand or fetch)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ArtError(f"not a well-formed SVG file ({exc})") from None
    if root.tag not in ("svg", f"{{{SVG_NS}}}svg"):
        raise ArtError(f"not an SVG file: its root element is <{root.tag}>, not <svg>")
    _check_drawn_size(root)


def _check_drawn_size(root: ET.Element) -> None:
    """Count what drawing the art would draw, every `<use>`, `href="#..."` and `url(#...)`
    expanded where it stands (memoised, so a reference bomb costs nothing to count): a
    reference loop, nesting too deep for the renderer, or too much to draw is refused."""
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    drawn: dict[int, int] = {}
    active: set[int] = set()

    def references(el: ET.Element) -> list[str]:
        found = []
        for name, value in el.attrib.items():
            if name in ("href", _XLINK_HREF):
                found += [value[1:]] if value.startswith("#") else []
            else:
                found += _LOCAL_URL.findall(value)
        return found

    def count(el: ET.Element, depth: int) -> int:
        if depth > MAX_SVG_DEPTH:
            raise ArtError(f"refused: SVG art is nested (or refers) deeper than {MAX_SVG_DEPTH} levels")
        key = id(el)
        if key in drawn:
            return drawn[key]
        if key in active:
            raise ArtError("refused: SVG art refers to itself (a <use> or url(#...) loop)")
        active.add(key)
        n = 1 + sum(count(child, depth + 1) for child in el)
        n += sum(count(by_id[ref], depth + 1) for ref in references(el) if ref in by_id)
        if n > MAX_SVG_DRAWN:
            raise ArtError(f"refused: SVG art draws more than {MAX_SVG_DRAWN} elements (references expanded)")
        active.discard(key)
        drawn[key] = n
        return n

    count(root, 0)


def placeholder(box: Box) -> str:
    """A clean, obviously-empty art slot."""
    return (
        f'<g class="art-placeholder"><rect x="{box.x:.3f}" y="{box.y:.3f}" width="{box.w:.3f}" '
        f'height="{box.h:.3f}" fill="#f2f2f2" stroke="#b0b0b0" stroke-width="0.5" '
        f'stroke-dasharray="3 2"/>'
        f'<path d="M{box.x:.3f} {box.y:.3f}L{box.right:.3f} {box.bottom:.3f}M{box.right:.3f} '
        f'{box.y:.3f}L{box.x:.3f} {box.bottom:.3f}" stroke="#d0d0d0" stroke-width="0.5"/></g>'
    )
