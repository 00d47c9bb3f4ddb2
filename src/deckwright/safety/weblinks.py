"""Remote URLs in what deckwright writes for a browser: rulebook.html must open without
fetching anything (no tracking beacon in a game's stylesheet, template or prose).

WeasyPrint refuses every remote fetch when it draws the PDF, but it never looks at what a
print build does not use (`@media screen { ... url(http://...) }`), and a browser that opens
the HTML would. So a game's stylesheets, and the finished HTML, are searched for any URL a
browser fetches by itself (`url(...)`, `@import`, `src`, `srcset`, `poster`, `<link href>`,
`<object data>`, `<meta http-equiv=refresh>` ...) that is not a `data:` URL, a `#fragment` or a
relative path; each one found is an error. A plain link (`<a href>`) is followed only when
clicked, so it may point anywhere.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# url(...) and @import "..." in CSS; the URL itself is the group.
_CSS_URL = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
    re.IGNORECASE,
)
_SCHEME = re.compile(r"^\s*[a-zA-Z][a-zA-Z0-9+.\-]*:")
# Attributes a browser fetches from without a click, whatever the element.
_FETCHED = {"src", "poster", "background", "data", "lowsrc", "dynsrc", "formaction", "ping"}
# Elements whose href a browser fetches by itself (a stylesheet, an SVG image or <use>, ...).
_FETCHED_HREF = {"link", "image", "use", "feimage", "base", "script"}


def is_remote(url: str) -> bool:
    """A URL that leaves the document: any scheme but data:, or a network path (`//host`)."""
    url = url.strip().replace("\\", "/")
    if url.startswith("//"):
        return True
    return bool(_SCHEME.match(url)) and not url.lower().lstrip().startswith("data:")


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def remote_css_urls(css: str) -> list[tuple[int, int, str]]:
    """Every remote URL in a stylesheet, as (line, column, url)."""
    found = []
    for match in _CSS_URL.finditer(css):
        url = next(g for g in match.groups() if g is not None) if any(match.groups()) else ""
        if is_remote(url):
            found.append((*_line_col(css, match.start()), url))
    return found


class _Fetches(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, int, str]] = []
        self._in_style = False

    def _add(self, url: str) -> None:
        line, col = self.getpos()
        self.found.append((line, col + 1, url))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            if name == "srcset":
                urls = [part.strip().split(" ")[0] for part in value.split(",")]
            elif name in _FETCHED or (name in ("href", "xlink:href") and tag in _FETCHED_HREF):
                urls = [value]
            elif name == "style":
                urls = [url for _, _, url in remote_css_urls(value)]
            else:
                urls = []
            for url in urls:
                if is_remote(url):
                    self._add(url)
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            target = values.get("content", "").partition("=")[2]
            if target and is_remote(target):
                self._add(target)

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            line, col = self.getpos()
            for dl, dc, url in remote_css_urls(data):
                self.found.append((line + dl - 1, dc + (col if dl == 1 else 0), url))


def remote_html_urls(html: str) -> list[tuple[int, int, str]]:
    """Every URL of the document that a browser would fetch remotely by itself, as (line,
    column, url) in `html`."""
    parser = _Fetches()
    parser.feed(html)
    parser.close()
    return parser.found


# What a browser may load for rulebook.html: its own inline styles, and images, fonts and media
# from data: URLs. Nothing from the network, however a URL is spelt (CSS escapes, image-set(),
# a script): the policy is the browser's own guarantee behind the search above.
NO_FETCH_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "media-src data:; base-uri 'none'; form-action 'none'"
)
_HEAD = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)


def with_no_fetch_policy(html: str) -> str:
    """`html` with a Content-Security-Policy forbidding every remote fetch, first in <head>
    (a policy applies only to what follows it)."""
    meta = f'\n<meta http-equiv="Content-Security-Policy" content="{NO_FETCH_POLICY}">'
    match = _HEAD.search(html)
    if match is None:
        return html
    return html[: match.end()] + meta + html[match.end() :]
