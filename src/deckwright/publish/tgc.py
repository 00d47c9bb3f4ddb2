"""`deckwright publish tgc GAME`: make or update the game on The Game Crafter from its build.

The flow of TGC's documented API: sign in (`POST /session`), find the account's root folder and
designer (`GET /user/{id}`, `/user/{id}/designers`), a folder and a game for this game, one
`POST /file` per image not uploaded before, then per deck its component (with the deck's back)
and its cards (`bulk-cards` where the API has it), updates and deletions, and sign out.
Everything made is recorded in publish.json at once, so a run cut short continues where it
stopped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..progress import NoProgress, Progress
from .catalogue import load_catalogue
from .client import ApiError, Client, Upload
from .plan import Component, Member, Plan, PlanError, make_plan, not_built, read_build
from .state import State, StateError

CREDENTIAL_NAMES = ("TGC_API_KEY_ID", "TGC_USERNAME", "TGC_PASSWORD")


class PublishError(Exception):
    """A publish that cannot go on; the message says what was being done and why."""


@dataclass(frozen=True)
class Credentials:
    api_key_id: str
    username: str
    password: str = field(repr=False)

    def __repr__(self) -> str:  # never shows a secret, even in a traceback
        return "Credentials(...)"


def read_credentials(environ: Mapping[str, str], file: Path | None = None) -> Credentials:
    """From a file of `NAME=value` lines when given, else from the environment."""
    values: dict[str, str] = {}
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise PublishError(f"cannot read the credentials file {file}: {exc.strerror}") from None
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, value = line.partition("=")
            if not sep or name.strip() not in CREDENTIAL_NAMES:
                # the line may hold a secret: say where it is, not what it says
                raise PublishError(
                    f"{file}:{number}: expected NAME=value with NAME one of {', '.join(CREDENTIAL_NAMES)}"
                )
            values[name.strip()] = value.strip().strip("\"'")
    else:
        values = {name: environ[name] for name in CREDENTIAL_NAMES if environ.get(name)}
    missing = [name for name in CREDENTIAL_NAMES if not values.get(name)]
    if missing:
        where = f"in {file}" if file else "in the environment"
        raise PublishError(f"no {', '.join(missing)} {where} (TGC's API key id, user name and password)")
    return Credentials(*(values[name] for name in CREDENTIAL_NAMES))


@dataclass
class Outcome:
    plan: Plan
    game_id: str | None
    uploaded: int = 0
    created: int = 0
    updated: int = 0
    deleted: int = 0
    requests: int = 0


def prepare(
    game_dir: Path, game_name: str, api_url: str, game_decks: Mapping[str, int] | None = None
) -> tuple[State, Plan, Any]:
    """The state and the plan, from the build and publish.json alone (no network).
    `game_decks` (deck -> physical cards) lets the plan name the decks the build left out."""
    try:
        wanted = read_build(game_dir / "tgc", load_catalogue())
        state = State(game_dir, api_url)
    except (PlanError, StateError) as exc:
        raise PublishError(str(exc)) from None
    wanted.skipped.extend(not_built(wanted, game_decks or {}))
    return state, make_plan(wanted, state.target, game_name), wanted


def dry_run(
    game_dir: Path, game_name: str, api_url: str, game_decks: Mapping[str, int] | None = None
) -> Plan:
    return prepare(game_dir, game_name, api_url, game_decks)[1]


def publish(
    game_dir: Path,
    game_name: str,
    credentials: Credentials,
    client: Client,
    progress: Progress | None = None,
    proofed: bool = False,
    game_decks: Mapping[str, int] | None = None,
) -> Outcome:
    state, plan, wanted = prepare(game_dir, game_name, client.base_url, game_decks)
    run = _Run(game_dir / "tgc", game_name, state, client, progress or NoProgress(), proofed)
    outcome = Outcome(plan, state.target.game_id)
    try:
        run.sign_in(credentials)
        try:
            if state.target.pending:  # a run that stopped waiting for an answer: look first
                run.recover()
                outcome.plan = plan = make_plan(wanted, state.target, game_name)
            run.execute(plan, wanted.components, outcome)
        finally:
            run.sign_out()
    except ApiError as exc:
        kept = f"what was done so far is kept in {state.path.name}; run again to continue"
        raise PublishError(f"{exc}; {kept}") from None
    outcome.game_id, outcome.requests = state.target.game_id, client.requests
    return outcome


class _Run:
    def __init__(
        self, tgc_dir: Path, game_name: str, state: State, client: Client, progress: Progress, proofed: bool
    ) -> None:
        self.tgc_dir, self.game_name, self.state, self.client = tgc_dir, game_name, state, client
        self.target = state.target
        self.progress, self.proofed = progress, proofed
        self.session: str | None = None
        self.user_id: str | None = None

    # -- session ---------------------------------------------------------------------------

    def sign_in(self, credentials: Credentials) -> None:
        answer = self.client.post(
            "session",
            {
                "api_key_id": credentials.api_key_id,
                "username": credentials.username,
                "password": credentials.password,
            },
            doing="signing in to The Game Crafter",
        )
        self.session, self.user_id = answer["id"], answer["user_id"]

    def sign_out(self) -> None:
        if self.session is None:
            return
        with contextlib.suppress(ApiError):  # it expires on its own; nothing of the game needs it
            self.client.delete(f"session/{self.session}", {}, doing="signing out")
        self.session = None

    def params(self, **fields: Any) -> dict[str, Any]:
        return {"session_id": self.session, **fields}

    # -- the flow --------------------------------------------------------------------------

    def execute(self, plan: Plan, components: Mapping[str, Component], outcome: Outcome) -> None:
        self.game_and_folder()
        self.upload(plan, outcome)
        self.progress.start(
            "components",
            len(plan.delete_components) + len(plan.create_components) + len(plan.update_components),
        )
        for deck in plan.delete_components:  # first: a deck made afresh is deleted, then made
            self.delete_component(deck)
            outcome.deleted += 1
            self.progress.advance()
        for comp in plan.create_components:
            self.create_component(comp)
            outcome.created += 1
            self.progress.advance()
        for comp in plan.update_components:
            self.update_component(comp)
            outcome.updated += 1
            self.progress.advance()
        self.progress.finish(
            f"{len(plan.create_components)} created, {len(plan.update_components)} updated, "
            f"{len(plan.delete_components)} deleted"
        )
        self.progress.start("cards", len(plan.create_members) + len(plan.update_members))
        by_deck: dict[str, list[Member]] = {}
        for member in plan.create_members:
            by_deck.setdefault(member.deck, []).append(member)
        for deck, members in by_deck.items():
            outcome.created += self.create_members(components[deck], members)
        for member in plan.update_members:
            self.update_member(components[member.deck], member)
            outcome.updated += 1
        self.progress.finish(f"{len(plan.create_members)} created, {len(plan.update_members)} updated")
        self.progress.start("deletions", len(plan.delete_members))
        for key in plan.delete_members:
            self.delete_member(key)
            outcome.deleted += 1
        self.progress.finish(f"{len(plan.delete_members)} cards deleted")

    def game_and_folder(self) -> None:
        t = self.target
        if t.folder_id is None or t.designer_id is None:
            user = self.client.get(f"user/{self.user_id}", self.params(), doing="reading the account")
            if t.folder_id is None:
                folder = self.client.post(
                    "folder",
                    self.params(name=self.game_name, parent_id=user["root_folder_id"]),
                    doing=f"making the folder {self.game_name!r}",
                )
                t.folder_id = folder["id"]
                self.state.save()
            if t.designer_id is None:
                answer = self.client.get(
                    f"user/{self.user_id}/designers", self.params(), doing="reading the account's designers"
                )
                items = answer.get("items", []) if isinstance(answer, dict) else answer
                if not items:
                    raise PublishError("the TGC account has no designer: make one on TGC's site first")
                t.designer_id = items[0]["id"]
                self.state.save()
        if t.game_id is None:
            game = self.client.post(
                "game",
                self.params(name=self.game_name, designer_id=t.designer_id),
                doing=f"making the game {self.game_name!r}",
            )
            t.game_id, t.game_name = game["id"], self.game_name
            self.state.save()
        elif t.game_name != self.game_name:
            self.client.put(f"game/{t.game_id}", self.params(name=self.game_name), doing="renaming the game")
            t.game_name = self.game_name
            self.state.save()

    def upload(self, plan: Plan, outcome: Outcome) -> None:
        self.progress.start("uploads", len(plan.uploads))
        for image in plan.uploads:
            if image.sha in self.target.files:  # the same image under two names
                self.progress.advance()
                continue
            name = image.path.replace("/", "-")
            answer = self.client.post(
                "file",
                self.params(name=name, folder_id=self.target.folder_id),
                doing=f"uploading {image.path}",
                upload=Upload(name, (self.tgc_dir / image.path).read_bytes()),
            )
            self.target.files[image.sha] = answer["id"]
            self.state.save()
            outcome.uploaded += 1
            self.progress.advance()
        self.progress.finish(f"{outcome.uploaded} images uploaded")

    # -- components ------------------------------------------------------------------------

    def image_fields(self, field_name: str, sha: str) -> dict[str, Any]:
        fields: dict[str, Any] = {field_name: self.target.files[sha]}
        if self.proofed:
            fields["has_proofed_" + field_name.removesuffix("_id")] = 1
        return fields

    def create_component(self, comp: Component) -> None:
        endpoint = comp.product.shape.set
        answer = self.client.post(
            endpoint.endpoint,
            self.params(
                name=comp.deck,
                game_id=self.target.game_id,
                identity=comp.product.identity,
                quantity=1,
                **self.image_fields(endpoint.back, comp.back.sha),
            ),
            doing=f"making the {comp.product.identity} {comp.deck!r}",
        )
        self.target.components[comp.deck] = {"id": answer["id"], **comp.record()}
        self.state.save()

    def update_component(self, comp: Component) -> None:
        endpoint = comp.product.shape.set
        record = self.target.components[comp.deck]
        self.client.put(
            f"{endpoint.endpoint}/{record['id']}",
            self.params(**self.image_fields(endpoint.back, comp.back.sha)),
            doing=f"changing the back of {comp.deck!r}",
        )
        record.update(comp.record())
        self.state.save()

    def delete_component(self, deck: str) -> None:
        record = self.target.components[deck]
        self._delete(f"{record['endpoint']}/{record['id']}", f"deleting the component {deck!r}")
        del self.target.components[deck]
        for key in [k for k, m in self.target.members.items() if m["deck"] == deck]:
            del self.target.members[key]  # a set's members go with it
        self.state.save()

    # -- members ---------------------------------------------------------------------------

    def member_fields(self, comp: Component, member: Member) -> dict[str, Any]:
        shape, endpoint = comp.product.shape, comp.product.shape.member
        parent = self.target.game_id if shape.set is None else self.target.components[comp.deck]["id"]
        fields: dict[str, Any] = {
            "name": member.name,
            endpoint.parent: parent,
            "quantity": member.quantity,
            **self.image_fields(endpoint.face, member.face.sha),
        }
        if shape.set is None:
            fields["identity"] = comp.product.identity
        elif member.back is not None:
            fields.update(self.image_fields(endpoint.back, member.back.sha), **shape.own_back)
        else:
            fields.update(shape.same_back)
        return fields

    def _remember(self, comp: Component, member: Member, tgc_id: str) -> None:
        self.target.members[member.key] = {
            "id": tgc_id,
            "endpoint": comp.product.shape.member.endpoint,
            **member.record(),
        }

    def create_members(self, comp: Component, members: list[Member]) -> int:
        """Make the members (in bulk where the API can); the number made."""
        shape = comp.product.shape
        bulk = shape.bulk_size if shape.bulk_path and shape.set is not None else 1
        made = 0
        for start in range(0, len(members), bulk):
            made += self._create(comp, members[start : start + bulk])
        return made

    def _send(self, comp: Component, chunk: list[Member], retry: bool) -> list[str]:
        """One create request for the chunk; the ids TGC gave, in order."""
        shape = comp.product.shape
        if len(chunk) == 1 and not shape.bulk_path:
            answer = self.client.post(
                shape.member.endpoint,
                self.params(**self.member_fields(comp, chunk[0])),
                doing=f"adding {chunk[0].key!r}",
                retry_server_errors=retry,
            )
            return [answer["id"]]
        set_id = self.target.components[comp.deck]["id"]
        answer = self.client.post(
            f"{shape.set.endpoint}/{set_id}/{shape.bulk_path}",
            self.params(cards=[self.member_fields(comp, m) for m in chunk]),
            doing=f"adding {len(chunk)} cards to {comp.deck!r}",
            retry_server_errors=retry,
        )
        items = answer.get("items", []) if isinstance(answer, dict) else answer
        if len(items) != len(chunk):
            raise PublishError(f"adding cards to {comp.deck!r}: TGC made {len(items)}, not {len(chunk)}")
        return [item["id"] for item in items]

    def _create(self, comp: Component, chunk: list[Member]) -> int:
        """A create that is never repeated blindly: where TGC lists a set's members, the chunk
        is marked pending first, and after a 5xx or a lost answer the set's members are looked
        up (and the ones TGC made adopted) before the rest is asked for again."""
        shape = comp.product.shape
        listed = shape.set is not None and shape.list_path is not None
        wanted = len(chunk)
        for attempt in range(self.client.retries + 1):
            if listed:
                self._mark_pending(comp, chunk)
            try:
                ids = self._send(comp, chunk, retry=not listed)
                break
            except ApiError as exc:
                if not listed or (exc.status is not None and exc.status < 500):
                    raise
                if attempt == self.client.retries:
                    raise ApiError(
                        exc.doing, exc.status, f"{exc.message} (gave up after {attempt + 1} tries)"
                    ) from None
                self.client.sleep(self.client.backoff * 2**attempt)
                self.adopt(comp.deck)
                chunk = [m for m in chunk if m.key not in self.target.members]
                if not chunk:
                    self.progress.advance(wanted)
                    return 0
        for member, tgc_id in zip(chunk, ids, strict=True):
            self._remember(comp, member, tgc_id)
        self.target.pending.pop(comp.deck, None)
        self.state.save()
        self.progress.advance(wanted)
        return len(chunk)

    def _mark_pending(self, comp: Component, chunk: list[Member]) -> None:
        shape = comp.product.shape
        self.target.pending[comp.deck] = {
            "path": f"{shape.set.endpoint}/{self.target.components[comp.deck]['id']}/{shape.list_path}",
            "endpoint": shape.member.endpoint,
            "face": shape.member.face,
            "members": {m.key: m.record() for m in chunk},
        }
        self.state.save()

    def recover(self) -> None:
        """Adopt what the creates a stopped run was waiting for made on TGC."""
        for deck in sorted(self.target.pending):
            self.adopt(deck)

    def adopt(self, deck: str) -> int:
        """Match the deck's pending members with its members on TGC (same name, face and
        quantity, an id not known yet) and record them as made; the rest stays to be made."""
        entry = self.target.pending.get(deck)
        if entry is None:
            return 0
        items = self._list(entry["path"], f"looking up the cards of {deck!r} after an unanswered request")
        known = {m["id"] for m in self.target.members.values()}
        adopted = 0
        for key, record in entry["members"].items():
            if key in self.target.members:
                continue
            face_id = self.target.files.get(record["face"])
            for item in items:
                if (
                    item["id"] not in known
                    and item.get("name") == record["name"]
                    and item.get(entry["face"]) == face_id
                    and int(item.get("quantity", 1)) == record["quantity"]
                ):
                    self.target.members[key] = {"id": item["id"], "endpoint": entry["endpoint"], **record}
                    known.add(item["id"])
                    adopted += 1
                    break
        del self.target.pending[deck]
        self.state.save()
        return adopted

    def _list(self, path: str, doing: str) -> list[dict[str, Any]]:
        """Every item of a relationship, page by page."""
        items: list[dict[str, Any]] = []
        page = 1
        while True:
            answer = self.client.get(path, self.params(_items_per_page=100, _page_number=page), doing=doing)
            items.extend(answer.get("items", []))
            paging = answer.get("paging") or {}
            if page >= int(paging.get("total_pages", 1)):
                return items
            page += 1

    def update_member(self, comp: Component, member: Member) -> None:
        record = self.target.members[member.key]
        self.client.put(
            f"{record['endpoint']}/{record['id']}",
            self.params(**self.member_fields(comp, member)),
            doing=f"updating {member.key!r}",
        )
        self._remember(comp, member, record["id"])
        self.state.save()
        self.progress.advance()

    def delete_member(self, key: str) -> None:
        record = self.target.members[key]
        self._delete(f"{record['endpoint']}/{record['id']}", f"deleting {key!r}")
        del self.target.members[key]
        self.state.save()
        self.progress.advance()

    def _delete(self, path: str, doing: str) -> None:
        try:
            self.client.delete(path, self.params(), doing=doing)
        except ApiError as exc:
            if exc.status != 404:  # already gone (deleted on the site): what was wanted
                raise


def summary(outcome: Outcome) -> str:
    return (
        f"{outcome.uploaded} images uploaded, {outcome.created} created, {outcome.updated} updated, "
        f"{outcome.deleted} deleted ({outcome.requests} requests)"
    )
