"""A fake of The Game Crafter's API for the publisher's tests: 127.0.0.1, a free port, a thread.

It implements the endpoints deckwright uses and checks what the real service checks: a valid
session id on every call after sign-in, required fields, quantities of 1-99, identities the
endpoint offers, ids that exist, uploads that are RGB PNGs, and each image's pixel size against
the identity it is used for. `fail()` makes it answer 429, 5xx or any status mid-run.
Identity sizes are written here from ../shared/reference/the-game-crafter.md, independently of
deckwright's own tables, so that a wrong size in deckwright is caught.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import re
import struct
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

API_KEY_ID, USERNAME, PASSWORD = "key-1", "designer", "s3cret-pass"

# identity -> (width, height) in pixels, bleed included
SIZES = {
    "PokerDeck": (825, 1125),
    "EuroPokerDeck": (825, 1125),
    "BridgeDeck": (750, 1125),
    "MiniDeck": (600, 825),
    "SmallSquareDeck": (825, 825),
    "SquareDeck": (1125, 1125),
    "TarotDeck": (900, 1500),
    "JumboDeck": (1125, 1725),
    "SmallCircleChit": (225, 225),
    "MediumCircleChit": (300, 300),
    "LargeCircleChit": (375, 375),
    "BiFoldBoard": (2775, 5475),
    "QuadFoldBoard": (5475, 5475),
    "SixFoldBoard": (8175, 5475),
    "SmallSquareBoard": (1275, 1275),
    "SquareBoard": (2475, 2475),
    "LargeSquareBoard": (3075, 3075),
}
# endpoint -> (required fields, parent field -> parent kind, image fields, identities offered)
SETS = {
    "deck": ("deck", ["name", "game_id", "identity"], ["back_id"], [k for k in SIZES if k.endswith("Deck")]),
    "twosidedsluggedset": (
        "set",
        ["name", "game_id", "identity"],
        ["back_id"],
        [k for k in SIZES if "Chit" in k],
    ),
    "twosidedset": (
        "set",
        ["name", "game_id", "identity"],
        ["back_id"],
        ["SmallSquareBoard", "SquareBoard", "LargeSquareBoard"],
    ),
}
MEMBERS = {  # endpoint -> (parent field, parent endpoint(s))
    "card": ("deck_id", ("deck",)),
    "twosidedslugged": ("set_id", ("twosidedsluggedset",)),
    "twosided": ("set_id", ("twosidedset",)),
}
SINGLES = {"onesided": ["BiFoldBoard"], "onesidedgloss": ["QuadFoldBoard", "SixFoldBoard"]}


class Refused(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


@dataclass
class Fault:
    method: str
    path: str  # a regular expression matching the whole path after /api/
    status: int
    times: int = 1
    skip: int = 0  # matching requests to let through first
    retry_after: str | None = None
    after: bool = False  # do what was asked, then answer with the failure (a lost answer)


@dataclass
class FakeTGC:
    objects: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> object (with "kind")
    sessions: set[str] = field(default_factory=set)
    log: list[tuple[str, str, int]] = field(default_factory=list)  # method, path, status
    faults: list[Fault] = field(default_factory=list)
    ids: Any = field(default_factory=lambda: (f"ID{n:05d}" for n in itertools.count(1)))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.objects["U1"] = {"kind": "user", "root_folder_id": "F-root"}
        self.objects["F-root"] = {"kind": "folder", "name": "root"}
        self.objects["D1"] = {"kind": "designer", "name": "Studio"}

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        times: int = 1,
        skip: int = 0,
        retry_after=None,
        after=False,
    ):
        self.faults.append(Fault(method, path, status, times, skip, retry_after, after))

    # -- queries for the tests -------------------------------------------------------------

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [o for o in self.objects.values() if o["kind"] == kind]

    def count(self, method: str, prefix: str) -> int:
        return sum(1 for m, p, s in self.log if m == method and p.startswith(prefix) and s < 300)

    def members_of(self, parent_id: str) -> list[dict[str, Any]]:
        return [o for o in self.objects.values() if o.get("parent") == parent_id]

    # -- handling --------------------------------------------------------------------------

    def handle(self, method: str, path: str, params: dict[str, str], upload: bytes | None) -> Any:
        for fault in self.faults:
            if fault.times and fault.method == method and re.fullmatch(fault.path, path):
                if fault.skip:
                    fault.skip -= 1
                    continue
                fault.times -= 1
                if fault.after:
                    self.answer(method, path, params, upload)
                headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
                raise Refused(fault.status, f"fake failure {fault.status}", headers)
        return self.answer(method, path, params, upload)

    def answer(self, method: str, path: str, params: dict[str, str], upload: bytes | None) -> Any:
        parts = path.split("/")
        if method == "POST" and path == "session":
            self.require(params, "api_key_id", "username", "password")
            if (params["api_key_id"], params["username"], params["password"]) != (
                API_KEY_ID,
                USERNAME,
                PASSWORD,
            ):
                raise Refused(401, "The username or password you specified is incorrect.")
            sid = next(self.ids)
            self.sessions.add(sid)
            return {"id": sid, "user_id": "U1"}
        if method == "DELETE" and parts[0] == "session":
            self.sessions.discard(parts[1])
            return {"success": 1}
        if params.get("session_id") not in self.sessions:
            raise Refused(401, "You must provide a valid session_id.")
        if method == "GET" and parts[0] == "user":
            if len(parts) == 3 and parts[2] == "designers":
                return {"items": [{"id": "D1", "name": "Studio"}]}
            return {"id": "U1", "root_folder_id": "F-root"}
        if method == "POST" and path == "folder":
            self.require(params, "name", "parent_id")
            self.get(params["parent_id"], "folder")
            return self.make("folder", name=params["name"])
        if method == "POST" and path == "file":
            self.require(params, "folder_id")
            self.get(params["folder_id"], "folder")
            if upload is None:
                raise Refused(400, "You must upload a file.")
            width, height = png_size(upload)
            return self.make("file", name=params.get("name", ""), size=(width, height), bytes=len(upload))
        if path == "game" and method == "POST":
            self.require(params, "name", "designer_id")
            self.get(params["designer_id"], "designer")
            return self.make("game", name=params["name"])
        if parts[0] == "game" and method == "PUT":
            self.get(parts[1], "game").update(name=params.get("name"))
            return {"id": parts[1]}
        if parts[0] in SETS:
            return self.set_call(method, parts, params)
        if parts[0] in MEMBERS:
            return self.member_call(method, parts, params)
        if parts[0] in SINGLES:
            return self.single_call(method, parts, params)
        raise Refused(404, f"No such endpoint: {method} /api/{path}")

    def set_call(self, method: str, parts: list[str], params: dict[str, str]) -> Any:
        endpoint = parts[0]
        _, required, images, identities = SETS[endpoint]
        if method == "POST" and len(parts) == 1:
            self.require(params, *required)
            self.get(params["game_id"], "game")
            if params["identity"] not in identities:
                raise Refused(400, f"identity {params['identity']!r} is not a {endpoint} identity")
            self.quantity(params, required=False)
            for name in images:
                if name in params:
                    self.check_image(params[name], params["identity"], name)
            return self.make(endpoint, **params, parent=params["game_id"])
        if method == "POST" and len(parts) == 3 and parts[2] == "bulk-cards" and endpoint == "deck":
            deck = self.get(parts[1], "deck")
            cards = json.loads(params.get("cards") or "null")
            if not isinstance(cards, list) or not 1 <= len(cards) <= 100:
                raise Refused(400, "cards must be a list of 1 to 100 cards")
            checked = [self.check_member("card", {**c, "deck_id": parts[1]}, deck) for c in cards]
            return {"items": [self.make("card", **c, parent=parts[1]) for c in checked]}
        if method == "GET" and len(parts) == 3 and parts[2] == ("cards" if endpoint == "deck" else "members"):
            self.get(parts[1], endpoint)
            return self.page([o for o in self.objects.values() if o.get("parent") == parts[1]], params)
        obj = self.get(parts[1], endpoint)
        if method == "PUT":
            for name in images:
                if name in params:
                    self.check_image(params[name], obj["identity"], name)
            obj.update({k: v for k, v in params.items() if k != "session_id"})
            return {"id": parts[1]}
        if method == "DELETE":
            self.delete(parts[1])
            return {"success": 1}
        raise Refused(405, "method not allowed")

    def member_call(self, method: str, parts: list[str], params: dict[str, str]) -> Any:
        endpoint = parts[0]
        parent_field, parent_kinds = MEMBERS[endpoint]
        if method == "POST" and len(parts) == 1:
            self.require(params, parent_field)
            parent = self.get(params[parent_field], *parent_kinds)
            checked = self.check_member(endpoint, params, parent)
            return self.make(endpoint, **checked, parent=params[parent_field])
        obj = self.get(parts[1], endpoint)
        if method == "PUT":
            parent = self.objects[obj["parent"]]
            merged = {**{k: v for k, v in obj.items() if k not in ("kind", "id", "parent")}, **params}
            obj.update(self.check_member(endpoint, merged, parent))
            return {"id": parts[1]}
        if method == "DELETE":
            self.delete(parts[1])
            return {"success": 1}
        raise Refused(405, "method not allowed")

    def single_call(self, method: str, parts: list[str], params: dict[str, str]) -> Any:
        endpoint = parts[0]
        if method == "POST" and len(parts) == 1:
            self.require(params, "name", "game_id", "identity")
            self.get(params["game_id"], "game")
            if params["identity"] not in SINGLES[endpoint]:
                raise Refused(400, f"identity {params['identity']!r} is not a {endpoint} identity")
            self.quantity(params)
            if "face_id" in params:
                self.check_image(params["face_id"], params["identity"], "face_id")
            return self.make(
                endpoint, **{k: v for k, v in params.items() if k != "session_id"}, parent=params["game_id"]
            )
        obj = self.get(parts[1], endpoint)
        if method == "PUT":
            if "face_id" in params:
                self.check_image(params["face_id"], obj["identity"], "face_id")
            self.quantity({**obj, **params})
            obj.update({k: v for k, v in params.items() if k != "session_id"})
            return {"id": parts[1]}
        if method == "DELETE":
            self.delete(parts[1])
            return {"success": 1}
        raise Refused(405, "method not allowed")

    def check_member(self, endpoint: str, params: dict[str, Any], parent: dict[str, Any]) -> dict[str, Any]:
        self.require(params, "name")
        self.quantity(params)
        identity = parent["identity"]
        for name in ("face_id", "back_id"):
            if params.get(name):
                self.check_image(params[name], identity, name)
        if endpoint == "card" and params.get("back_from", "Deck") not in ("Deck", "Card"):
            raise Refused(400, "back_from must be Deck or Card")
        if endpoint == "card" and params.get("back_from") == "Card" and not params.get("back_id"):
            raise Refused(400, "a card with back_from=Card needs a back_id")
        return {k: v for k, v in params.items() if k != "session_id"}

    # -- helpers ---------------------------------------------------------------------------

    def page(self, objects: list[dict[str, Any]], params: dict[str, str]) -> dict[str, Any]:
        """TGC's paging: `_items_per_page` (at most 100), `_page_number` from 1."""
        per_page = min(100, int(params.get("_items_per_page", 100)))
        number = int(params.get("_page_number", 1))
        chunk = objects[(number - 1) * per_page : number * per_page]
        items = [{k: v for k, v in o.items() if k not in ("kind", "parent")} for o in chunk]
        pages = max(1, -(-len(objects) // per_page))
        return {
            "items": items,
            "paging": {"page_number": number, "total_pages": pages, "total_items": len(objects)},
        }

    def require(self, params: dict[str, Any], *names: str) -> None:
        missing = [n for n in names if params.get(n) in (None, "")]
        if missing:
            raise Refused(400, f"You must specify {', '.join(missing)}.")

    def quantity(self, params: dict[str, Any], required: bool = True) -> None:
        if "quantity" not in params and not required:
            return
        try:
            q = int(params.get("quantity", ""))
        except ValueError:
            raise Refused(400, "quantity must be an integer") from None
        if not 1 <= q <= 99:
            raise Refused(400, f"quantity must be between 1 and 99, not {q}")

    def check_image(self, file_id: str, identity: str, field_name: str) -> None:
        file = self.get(file_id, "file")
        if identity in SIZES and tuple(file["size"]) != SIZES[identity]:
            w, h = file["size"]
            raise Refused(400, f"{field_name}: a {identity} image must be {SIZES[identity]}, not ({w}, {h})")

    def get(self, obj_id: str, *kinds: str) -> dict[str, Any]:
        obj = self.objects.get(obj_id)
        if obj is None or obj["kind"] not in kinds:
            raise Refused(404, f"No {'/'.join(kinds)} with id {obj_id!r}.")
        return obj

    def make(self, kind: str, **fields: Any) -> dict[str, Any]:
        obj_id = next(self.ids)
        fields.pop("session_id", None)
        self.objects[obj_id] = {"kind": kind, "id": obj_id, **fields}
        return {"id": obj_id, **{k: v for k, v in fields.items() if k != "parent"}}

    def delete(self, obj_id: str) -> None:
        for child in [o["id"] for o in self.objects.values() if o.get("parent") == obj_id]:
            self.delete(child)
        self.objects.pop(obj_id, None)


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's size; refused unless it is an 8-bit RGB(A) PNG (TGC rejects CMYK and the like)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise Refused(400, "The file is not a PNG or JPG image.")
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if depth != 8 or colour not in (2, 6):
        raise Refused(400, "Images must be RGB.")
    return width, height


class _Handler(BaseHTTPRequestHandler):
    fake: FakeTGC

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _serve(self, method: str) -> None:
        url = urllib.parse.urlsplit(self.path)
        if not url.path.startswith("/api/"):
            self._answer(404, {"error": {"code": 404, "message": "not found"}})
            return
        path = url.path[len("/api/") :].strip("/")
        params = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        upload = None
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        ctype = self.headers.get("Content-Type", "")
        if ctype.startswith("application/x-www-form-urlencoded"):
            params.update({k: v[-1] for k, v in urllib.parse.parse_qs(body.decode()).items()})
        elif ctype.startswith("multipart/form-data"):
            fields, upload = _multipart(ctype, body)
            params.update(fields)
        with self.fake.lock:
            try:
                result = self.fake.handle(method, path, params, upload)
                status, payload, headers = 200, {"result": result}, {}
            except Refused as exc:
                status, headers = exc.status, exc.headers
                payload = {"error": {"code": exc.status, "message": exc.message}}
            self.fake.log.append((method, path, status))
        self._answer(status, payload, headers)

    def _answer(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_DELETE(self) -> None:
        self._serve("DELETE")


def _multipart(ctype: str, body: bytes) -> tuple[dict[str, str], bytes | None]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {ctype}\r\n\r\n".encode() + body
    )
    fields, upload = {}, None
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if part.get_filename() is not None:
            upload = part.get_payload(decode=True)
        else:
            fields[name] = part.get_payload(decode=True).decode()
    return fields, upload


class Server:
    """`with Server() as server:` a fake on 127.0.0.1 at `server.url`, stopped on leaving."""

    def __init__(self) -> None:
        self.fake = FakeTGC()
        handler = type("Handler", (_Handler,), {"fake": self.fake})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/api"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()
