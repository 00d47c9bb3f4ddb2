"""HTML -> PDF bytes with WeasyPrint, fetching only local files.

WeasyPrint fetches only through `LocalFetcher`, which serves files from the folders it is given
(the project's fonts/ and templates/) and refuses everything else: no network, no file outside
the project. Import this module only when a document is drawn: importing WeasyPrint takes more
than half a second.
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import os
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from ...safety.containment import ContainmentError, read_contained
from ...safety.limits import MAX_FONT_BYTES
from .documents import FONT_MIME

FONT_EPOCH = "315532800"  # 1980-01-01, the date subset fonts carry when SOURCE_DATE_EPOCH is unset

# WeasyPrint warnings about the machine, not about the document.
_NOISE = ("HarfBuzz-Subset",)


class LocalFetcher(URLFetcher):
    """Serves `file:` URLs inside the allowed folders; refuses (and records) any other URL."""

    def __init__(self, roots: Iterable[Path]) -> None:
        super().__init__(allowed_protocols=("file",))
        self.roots = tuple(root.resolve() for root in roots)
        self.refused: list[str] = []

    def allows(self, path: Path) -> bool:
        return any(root in path.parents for root in self.roots) and path.is_file()

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        path = Path(url2pathname(unquote(parts.path))).resolve() if parts.scheme == "file" else None
        if path is None or parts.netloc not in ("", "localhost") or not self.allows(path):
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}: only files under fonts/ and templates/ are served")
        mime = FONT_MIME.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
        try:  # a regular file, its size counted as read (a sparse file reports what it likes)
            data = read_contained(path, self.roots, MAX_FONT_BYTES, path.name)
        except ContainmentError as exc:
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}: {exc.message}") from None
        return URLFetcherResponse(url, data, {"Content-Type": mime or "application/octet-stream"})


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _weasyprint_warnings():
    """WeasyPrint's warnings (a CSS rule it ignores, a refused URL) for the build report."""
    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)


@contextmanager
def _fixed_font_clock():
    """fontTools stamps the fonts it subsets (for WeasyPrint) with the current time unless
    SOURCE_DATE_EPOCH is set: without a fixed clock, two builds differ in their fonts."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


def render_pdf(html: str, base_dir: Path, roots: Sequence[Path], identifier: str) -> tuple[bytes, list[str]]:
    """One HTML document -> (PDF bytes, warnings). `identifier` makes the PDF /ID stable."""
    fetcher = LocalFetcher(roots)
    with _weasyprint_warnings() as warnings, _fixed_font_clock():
        document = HTML(string=html, base_url=base_dir.resolve().as_uri() + "/", url_fetcher=fetcher)
        pdf = document.write_pdf(pdf_identifier=hashlib.md5(identifier.encode()).hexdigest().encode())
    seen = dict.fromkeys([*(f"refused to fetch {u}" for u in fetcher.refused), *warnings])
    seen = {m: None for m in seen if not any(noise in m for noise in _NOISE)}
    return pdf, list(seen)
