"""Images the page needs and no build makes: gallery thumbnails of the card images, and the
print-and-play PDFs' pages as PNG (PDFium, through pypdfium2, draws them).

Both are made when first asked for and kept in a small in-memory cache keyed by what they show
(the face's digest; the PDF's size and modification time), so a gallery of 10,000 cards costs
only the thumbnails on screen.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from pathlib import Path

THUMB_WIDTH = 240  # px: sharp on a 2x screen at the gallery's 120 CSS px
PAGE_DPI = 60
CACHE_ITEMS = 600


class LRU:
    def __init__(self, size: int = CACHE_ITEMS) -> None:
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        return None

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_thumbs = LRU()
_pages = LRU(200)
_pdfium = threading.Lock()  # PDFium is not thread-safe


def thumbnail(key: tuple, png: bytes) -> bytes:
    """A THUMB_WIDTH-wide PNG of a card image."""
    cached = _thumbs.get(key)
    if cached is not None:
        return cached
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image = image.convert("RGB")
        height = max(1, round(image.height * THUMB_WIDTH / image.width))
        small = image.reduce(max(1, image.width // (THUMB_WIDTH * 2))).resize(
            (THUMB_WIDTH, height), Image.Resampling.LANCZOS
        )
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=1)
    data = out.getvalue()
    _thumbs.put(key, data)
    return data


def _stamp(pdf: Path) -> tuple:
    st = pdf.stat()
    return (str(pdf), st.st_size, st.st_mtime_ns)


def page_count(pdf: Path) -> int:
    import pypdfium2

    key = ("count", *_stamp(pdf))
    cached = _pages.get(key)
    if cached is None:
        with _pdfium:
            document = pypdfium2.PdfDocument(str(pdf))
            try:
                cached = len(document)
            finally:
                document.close()
        _pages.put(key, cached)
    return cached


def page_png(pdf: Path, index: int) -> bytes | None:
    """Page `index` (from 0) of a PDF as PNG at PAGE_DPI; None when it has no such page."""
    import pypdfium2

    key = ("page", *_stamp(pdf), index)
    cached = _pages.get(key)
    if cached is not None:
        return cached
    with _pdfium:
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            if not 0 <= index < len(document):
                return None
            bitmap = document[index].render(scale=PAGE_DPI / 72)
            image = bitmap.to_pil()
        finally:
            document.close()
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", compress_level=1)
    data = out.getvalue()
    _pages.put(key, data)
    return data
