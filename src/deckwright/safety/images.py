"""What a card's SVG embeds, checked before anything draws it.

A card face is drawn by CairoSVG, which fetches (through deckwright's fetchers, `data:` URLs
only) and decodes every image the SVG holds, nested SVG images included, at full size. An
image's pixel count is in its header, so it is read from there without decoding: an image
above MAX_IMAGE_PIXELS is refused however it is embedded (an art file, a `data:` URL written
in a template, a PNG inside an SVG inside a data URL ...). The same pass refuses what the
fetchers would refuse mid-drawing, so that it is one located error rather than a failure of
the drawing: a URL that is not `data:`, a DOCTYPE or an entity declaration.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import warnings
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from PIL import Image

from .limits import MAX_IMAGE_PIXELS

MAX_NESTING = 8  # SVG inside SVG inside ... data URLs
# href="...", xlink:href='...', src=..., and url(...) in styles
_URL = re.compile(
    r"""(?:\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'))|url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)""",
    re.IGNORECASE,
)
_DECLARATION = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_DATA = re.compile(r"^data:([^,;]*)((?:;[^,;]*)*),", re.IGNORECASE | re.DOTALL)


def embed_problems(svg: str, depth: int = 0) -> list[str]:
    """What is wrong with the images and URLs an SVG document embeds; empty when nothing."""
    problems = []
    declaration = _DECLARATION.search(svg)
    if declaration:
        kind = declaration.group(1).upper()
        problems.append(f"the SVG declares a {kind} (refused: entities can fetch files)")
    for match in _URL.finditer(svg):
        url = next((g for g in match.groups() if g is not None), "").strip()
        if not url or url.startswith("#"):
            continue
        if not url.lower().startswith("data:"):
            problems.append(f"refers to {url[:60]!r}: a card embeds images as data: URLs only")
            continue
        problems.extend(data_url_problems(url, depth))
    return problems


def data_url_problems(url: str, depth: int = 0) -> list[str]:
    """What is wrong with one `data:` URL: an image too large, an SVG embedding one, ..."""
    header = _DATA.match(url)
    if header is None:
        return ["a data: URL without a comma"]
    mime = header.group(1).strip().lower()
    payload = url[header.end() :]
    try:
        if ";base64" in header.group(2).lower():
            text = re.sub(r"\s+", "", unquote_to_bytes(payload).decode("ascii"))
            data = base64.b64decode(text, validate=False)
        else:
            data = unquote_to_bytes(payload)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ["a data: URL that cannot be decoded"]
    return image_problems(data, mime, depth)


def image_problems(data: bytes, mime: str = "", depth: int = 0) -> list[str]:
    """What is wrong with embedded image bytes: a raster image's pixels, read from its header;
    an SVG's own embeds, recursively."""
    if mime == "image/svg+xml" or (not mime.startswith("image/") and b"<svg" in data[:4096]):
        if depth >= MAX_NESTING:
            return [f"images nested more than {MAX_NESTING} deep"]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return ["an embedded SVG image that is not UTF-8"]
        return embed_problems(text, depth + 1)
    size = pixel_size(data)
    if size is None:
        return []  # not an image Pillow knows: CairoSVG will not draw it either
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        return [
            f"an embedded image of {width} x {height} pixels is above the limit of "
            f"{MAX_IMAGE_PIXELS} pixels per image"
        ]
    return []


def pixel_size(data: bytes) -> tuple[int, int] | None:
    """An image's width and height, from its header alone (nothing is decoded)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the size is what is checked; no bomb warning
            saved, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
            try:
                with Image.open(io.BytesIO(data)) as img:
                    return img.size
            finally:
                Image.MAX_IMAGE_PIXELS = saved
    except Exception:  # Pillow raises many types for what it cannot read
        return None


def data_url_fetcher(error: type[Exception], refused: str) -> Callable[[str, str], bytes]:
    """A CairoSVG `url_fetcher` that reads `data:` URLs only, each image checked before it is
    decoded (a backstop: faces are checked before they are drawn); anything else raises `error`
    with `refused` after the URL."""

    def fetch(url: str, resource_type: str) -> bytes:
        import cairosvg.url  # late: the safety checks must not load the rendering stack

        if not url.startswith("data:"):
            raise error(f"refused to fetch {url[:60]!r}: {refused}")
        data = cairosvg.url.fetch(url, resource_type)
        problems = image_problems(data)
        if problems:
            raise error(problems[0])
        return data

    return fetch
