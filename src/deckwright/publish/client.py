"""A polite HTTP client for The Game Crafter's API, on the standard library's urllib.

urllib is enough for form posts, one multipart upload and JSON answers, and keeps the
publisher free of a dependency. Polite means:
- at most `rate` requests per second (TGC publishes no limit; 3 a second is what its API users
  keep to), measured between the starts of requests;
- a 429 waits for its `Retry-After` (seconds or an HTTP date) and asks again;
- a 5xx or a dropped connection is retried after 0.5 s, 1 s, 2 s, ... a bounded number of times;
- a 4xx is not retried: it is raised with TGC's own message and what was being done.
Nothing here logs or prints; error messages name the path, never the parameters (they carry
the password and the session id).
"""

from __future__ import annotations

import email.utils
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_API_URL = "https://www.thegamecrafter.com/api"
MAX_RATE = 3.0  # requests per second against TGC's own API


class ApiError(Exception):
    """A request that failed for good: a 4xx, or a 5xx / network error after every retry."""

    def __init__(self, doing: str, status: int | None, message: str) -> None:
        self.doing, self.status, self.message = doing, status, message
        answer = f"TGC answered {status}: {message}" if status else message
        super().__init__(f"{doing}: {answer}")


@dataclass(frozen=True)
class Upload:
    """A file field of a multipart request."""

    filename: str
    data: bytes
    content_type: str = "image/png"


class Client:
    def __init__(
        self,
        base_url: str = DEFAULT_API_URL,
        rate: float = MAX_RATE,
        retries: int = 4,
        backoff: float = 0.5,
        timeout: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.interval = 1.0 / rate
        self.retries, self.backoff, self.timeout = retries, backoff, timeout
        self.sleep, self.clock = sleep, clock
        self.last_start: float | None = None
        self.requests = 0  # sent, retries included

    def get(self, path: str, params: Mapping[str, Any], doing: str) -> Any:
        return self.request("GET", path, params, doing=doing)

    def post(
        self,
        path: str,
        params: Mapping[str, Any],
        doing: str,
        upload: Upload | None = None,
        retry_server_errors: bool = True,
    ) -> Any:
        return self.request("POST", path, params, upload, doing, retry_server_errors)

    def put(self, path: str, params: Mapping[str, Any], doing: str) -> Any:
        return self.request("PUT", path, params, doing=doing)

    def delete(self, path: str, params: Mapping[str, Any], doing: str) -> Any:
        return self.request("DELETE", path, params, doing=doing)

    def request(
        self,
        method: str,
        path: str,
        params: Mapping[str, Any],
        upload: Upload | None = None,
        doing: str = "",
        retry_server_errors: bool = True,
    ) -> Any:
        """The `result` of TGC's answer; ApiError when it fails for good. Without
        `retry_server_errors`, a 5xx or a lost answer is raised at once: the caller of a create
        that may have been carried out looks before asking again (a 429 is always waited out:
        TGC did nothing)."""
        retries = self.retries if retry_server_errors else 0
        doing = doing or f"{method} {path}"
        failures = throttles = 0
        while True:
            self._wait_turn()
            try:
                return self._send(method, path, params, upload)
            except urllib.error.HTTPError as exc:
                status, message = exc.code, _error_message(exc)
                retry_after = exc.headers.get("Retry-After") if exc.headers else None
                exc.close()
                if status == 429 and throttles < self.retries * 2:
                    throttles += 1
                    self.sleep(_retry_after_seconds(retry_after, self.backoff))
                    continue
                if status >= 500 and failures < retries:
                    self.sleep(self.backoff * 2**failures)
                    failures += 1
                    continue
                if (status >= 500 and retries) or status == 429:
                    message += f" (gave up after {failures + throttles + 1} tries)"
                raise ApiError(doing, status, message) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if failures < retries:
                    self.sleep(self.backoff * 2**failures)
                    failures += 1
                    continue
                reason = getattr(exc, "reason", exc)
                tries = f"; gave up after {failures + 1} tries" if retries else ""
                raise ApiError(doing, None, f"cannot reach {self.base_url} ({reason}{tries})") from None

    def _wait_turn(self) -> None:
        now = self.clock()
        if self.last_start is not None and now - self.last_start < self.interval:
            self.sleep(self.interval - (now - self.last_start))
            now = self.clock()
        self.last_start = now
        self.requests += 1

    def _send(self, method: str, path: str, params: Mapping[str, Any], upload: Upload | None) -> Any:
        url = f"{self.base_url}/{path.lstrip('/')}"
        fields = {k: _text(v) for k, v in params.items() if v is not None}
        headers = {"Accept": "application/json", "User-Agent": "deckwright-publish"}
        data = None
        if upload is not None:
            data, headers["Content-Type"] = _multipart(fields, upload)
        elif method in ("GET", "DELETE"):
            url += "?" + urllib.parse.urlencode(fields) if fields else ""
        else:
            data = urllib.parse.urlencode(fields).encode("ascii")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=self.timeout) as response:
            body = response.read()
        try:
            answer = json.loads(body) if body else {}
        except ValueError:
            raise ApiError(f"{method} {path}", None, "the answer is not JSON") from None
        return answer.get("result", answer) if isinstance(answer, dict) else answer


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return value if isinstance(value, str) else str(value)


def _multipart(fields: Mapping[str, str], upload: Upload) -> tuple[bytes, str]:
    boundary = "deckwright-" + secrets.token_hex(16)
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    filename = upload.filename.replace('"', "")
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        f"Content-Type: {upload.content_type}\r\n\r\n".encode()
        + upload.data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _error_message(exc: urllib.error.HTTPError) -> str:
    """TGC's own words: `{"error": {"code": ..., "message": ...}}`, else the HTTP reason."""
    try:
        body = json.loads(exc.read() or b"{}")
    except (ValueError, OSError):
        body = {}
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    return str(exc.reason or "no message")


def _retry_after_seconds(value: str | None, default: float) -> float:
    if not value:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, when.timestamp() - time.time())
