"""`deckwright publish tgc`: the game's build uploaded to a fake Game Crafter on 127.0.0.1.

One small game (tests/fixtures/pnp-mini, its decks split so that each has one product) is
built once for the module; each test publishes a copy of that project, so edits and
rebuilds stay within the test.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, TempProject
from deckwright.cli import main
from deckwright.publish.catalogue import load_catalogue
from deckwright.publish.client import ApiError, Client
from deckwright.publish.plan import read_build
from deckwright.publish.tgc import Credentials, PublishError, publish, read_credentials
from fake_tgc import API_KEY_ID, PASSWORD, USERNAME, Server

GOOD = Credentials(API_KEY_ID, USERNAME, PASSWORD)
FAST = {"rate": 1000.0, "backoff": 0.01}  # the fake server needs no politeness


def split_decks(project: TempProject) -> None:
    """One product per deck (TGC's rule), a count above TGC's 99, markers with no product."""
    project.replace(
        "pnp-mini",
        "game.yaml",
        "  boards:\n    title: Boards\n    types: [board, scoreboard]\n"
        "  tokens:\n    title: Tokens and markers\n    types: [token, marker]\n",
        "  boards:\n    title: Boards\n    types: [board]\n"
        "  scoreboards:\n    title: Score boards\n    types: [scoreboard]\n"
        "  tokens:\n    title: Tokens\n    types: [token]\n"
        "  markers:\n    title: Markers\n    types: [marker]\n",
    )
    project.replace("pnp-mini", "tokens.yaml", "count: 5", "count: 150")


def build(root: Path) -> None:
    code = main(["--project", str(root), "build", "pnp-mini", "--only", "tgc", "--jobs", "1", "--quiet"])
    assert code == 0


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    project = TempProject(tmp_path_factory.mktemp("publish") / "project")
    project.add_game(FIXTURES / "pnp-mini")
    split_decks(project)
    build(project.root)
    return project.root


@pytest.fixture
def game(built: Path, tmp_path: Path) -> TempProject:
    """A copy of the built project for one test."""
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    project = TempProject.__new__(TempProject)
    project.root = root
    return project


@pytest.fixture
def server():
    with Server() as s:
        yield s


def game_dir(project: TempProject) -> Path:
    return project.root / "build" / "pnp-mini"


def run(project: TempProject, server: Server, credentials: Credentials = GOOD, **client):
    return publish(game_dir(project), "Sheet & Co", credentials, Client(server.url, **{**FAST, **client}))


def manifest_counts(project: TempProject) -> dict[str, int]:
    counts: dict[str, int] = {}
    with (game_dir(project) / "tgc" / "manifest.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["product"]:  # a row without a product is listed, not uploaded
                counts[row["deck"]] = counts.get(row["deck"], 0) + int(row["quantity"])
    return counts


def published_counts(server: Server) -> dict[str, int]:
    """Physical pieces per deck on the fake TGC: each member's quantity, under its set's name."""
    fake, counts = server.fake, {}
    for obj in fake.objects.values():
        if obj["kind"] in ("card", "twosidedslugged", "twosided"):
            deck = fake.objects[obj["parent"]]["name"]
        elif obj["kind"] in ("onesided", "onesidedgloss"):
            deck = "boards"
        else:
            continue
        counts[deck] = counts.get(deck, 0) + int(obj["quantity"])
    return counts


def test_a_first_publish_makes_every_component_card_and_image(game: TempProject, server: Server) -> None:
    outcome = run(game, server)
    fake = server.fake
    images = {p for p in (game_dir(game) / "tgc").rglob("*.png")}
    assert len(fake.of_kind("file")) == outcome.uploaded == len(images) - 1  # a board's back: one-sided
    assert [g["name"] for g in fake.of_kind("game")] == ["Sheet & Co"]
    assert {d["identity"] for d in fake.of_kind("deck")} == {"PokerDeck", "MiniDeck"}
    assert [s["identity"] for s in fake.of_kind("twosidedsluggedset")] == ["MediumCircleChit"]
    assert [s["identity"] for s in fake.of_kind("twosidedset")] == ["SmallSquareBoard"]
    assert [b["identity"] for b in fake.of_kind("onesided")] == ["BiFoldBoard"]
    # every physical card is on TGC, in pieces of at most 99 (150 Kindle tokens: 99 + 51)
    assert published_counts(server) == manifest_counts(game)
    kindle = sorted(int(m["quantity"]) for m in fake.of_kind("twosidedslugged") if m["name"] == "kindle")
    assert kindle == [51, 99]
    # cards went in one bulk call per deck; the double-sided mentor with the rarer back has its own
    assert fake.count("POST", "deck/") == 3 and fake.count("POST", "card") == 0
    own = [c for c in fake.of_kind("card") if c.get("back_from") == "Card"]
    assert len(own) == 1 and own[0]["back_id"]
    state = (game_dir(game) / "tgc" / "publish.json").read_text()
    assert PASSWORD not in state and API_KEY_ID not in state
    assert fake.sessions == set()  # signed out


def test_a_second_run_uploads_and_changes_nothing(game: TempProject, server: Server) -> None:
    run(game, server)
    before = len(server.fake.log)
    outcome = run(game, server)
    assert (outcome.uploaded, outcome.created, outcome.updated, outcome.deleted) == (0, 0, 0, 0)
    calls = [(m, p.split("/")[0]) for m, p, _ in server.fake.log[before:]]
    assert calls == [("POST", "session"), ("DELETE", "session")]


def test_one_edited_card_uploads_one_image_and_updates_one_card(game: TempProject, server: Server) -> None:
    run(game, server)
    game.replace("pnp-mini", "heroes.yaml", '"Heal 2."', '"Heal 3."')
    build(game.root)
    before = len(server.fake.log)
    outcome = run(game, server)
    calls = [(m, p.split("/")[0]) for m, p, _ in server.fake.log[before:]]
    assert calls.count(("POST", "file")) == 1 and calls.count(("PUT", "card")) == 1
    assert (outcome.uploaded, outcome.created, outcome.updated, outcome.deleted) == (1, 0, 1, 0)
    brena = next(c for c in server.fake.of_kind("card") if c["name"] == "brena")
    newest = max(f["id"] for f in server.fake.of_kind("file"))
    assert brena["face_id"] == newest


def test_a_deleted_card_is_removed_from_tgc(game: TempProject, server: Server) -> None:
    run(game, server)
    game.replace(
        "pnp-mini",
        "heroes.yaml",
        '  - {id: corvin, name: Corvin, text: "Look at the top card of the deck."}\n',
        "",
    )
    build(game.root)
    outcome = run(game, server)
    assert (outcome.uploaded, outcome.created, outcome.deleted) == (0, 0, 1)
    assert "corvin" not in {c["name"] for c in server.fake.of_kind("card")}
    assert published_counts(server) == manifest_counts(game)
    state = json.loads((game_dir(game) / "tgc" / "publish.json").read_text())
    assert not any("corvin" in key for target in state["targets"].values() for key in target["members"])


@pytest.mark.parametrize(("method", "path", "skip"), [("POST", "file", 4), ("POST", "twosidedslugged", 1)])
def test_an_interrupted_publish_resumes_without_duplicates(
    game: TempProject, server: Server, method: str, path: str, skip: int
) -> None:
    server.fake.fail(method, path, 400, skip=skip)
    kept = r"fake failure 400; what was done so far is kept in publish\.json"
    with pytest.raises(PublishError, match=kept):
        run(game, server)
    made = len(server.fake.of_kind("file"))
    assert made > 0
    outcome = run(game, server)
    fake = server.fake
    assert outcome.uploaded == len(fake.of_kind("file")) - made  # the rest, not the first ones again
    assert published_counts(server) == manifest_counts(game)
    names = [c["name"] for c in fake.of_kind("card")] + [m["name"] for m in fake.of_kind("twosidedslugged")]
    assert len(names) == len(set(names)) + 1  # Kindle's two parts only
    assert len(fake.of_kind("game")) == 1 and len(fake.of_kind("deck")) == 3


def test_429_waits_for_retry_after_and_500_is_retried(game: TempProject, server: Server) -> None:
    slept: list[float] = []
    server.fake.fail("POST", "file", 429, retry_after="7", skip=2)
    server.fake.fail("POST", "deck", 500, times=2)
    outcome = run(game, server, sleep=slept.append)
    assert 7.0 in slept  # Retry-After honoured (recorded, not slept, here)
    assert [s for s in slept if s in (0.01, 0.02)][:2] == [0.01, 0.02]  # backoff doubles
    assert published_counts(server) == manifest_counts(game)
    assert outcome.requests == len(server.fake.log)
    assert [s for _, _, s in server.fake.log].count(500) == 2


def test_a_server_that_keeps_failing_is_given_up_on_with_its_message(
    game: TempProject, server: Server
) -> None:
    server.fake.fail("POST", "game", 503, times=100)
    with pytest.raises(PublishError) as info:
        run(game, server)
    message = str(info.value)
    assert (
        "making the game 'Sheet & Co': TGC answered 503: fake failure 503 (gave up after 5 tries)" in message
    )
    assert server.fake.count("POST", "game") == 0 and len([e for e in server.fake.log if e[1] == "game"]) == 5


def test_a_4xx_names_what_was_being_done_and_tgcs_message(game: TempProject, server: Server) -> None:
    with pytest.raises(
        PublishError, match=r"signing in to The Game Crafter: TGC answered 401: The username or password"
    ):
        run(game, server, credentials=Credentials(API_KEY_ID, USERNAME, "wrong"))
    assert not (game_dir(game) / "tgc" / "publish.json").exists()


def test_wrong_credentials_on_the_command_line(
    game: TempProject, server: Server, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("TGC_API_KEY_ID", API_KEY_ID)
    monkeypatch.setenv("TGC_USERNAME", USERNAME)
    monkeypatch.setenv("TGC_PASSWORD", "not-the-password-42")
    args = [
        "--project",
        str(game.root),
        "publish",
        "tgc",
        "pnp-mini",
        "--api-url",
        server.url,
        "--rate",
        "100",
    ]
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert "TGC answered 401" in err and "not-the-password-42" not in out + err
    monkeypatch.setenv("TGC_PASSWORD", PASSWORD)
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "pnp-mini: published to" in out and PASSWORD not in out + err
    assert "uploads: " in err and "cards: " in err  # a line (a bar on a terminal) per stage


def test_dry_run_prints_the_plan_and_touches_no_network(game: TempProject, capsys) -> None:
    args = [
        "--project",
        str(game.root),
        "publish",
        "tgc",
        "pnp-mini",
        "--dry-run",
        "--api-url",
        "http://127.0.0.1:9/api",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "upload 20 images" in out
    assert "create 5 components: heroes, mentors, omens, scoreboards, tokens" in out
    assert "cards: create 15, update 0, delete 0, unchanged 0" in out
    assert (
        "not uploaded: markers (1 cards, no TGC product): The Game Crafter has no product for layout "
        "'marker' (Marker (1 x 2 in))" in out
    )
    assert "not uploaded: the backs of boards (BiFoldBoard): TGC prints its face only" in out
    assert not (game_dir(game) / "tgc" / "publish.json").exists()


def test_the_rate_limit_spaces_requests(server: Server) -> None:
    slept: list[float] = []
    client = Client(server.url, rate=3.0, sleep=slept.append)
    for _ in range(3):
        with pytest.raises(ApiError, match="401"):
            client.get("user/U1", {"session_id": "none"}, doing="reading")
    assert len(slept) == 2 and all(0.3 < s <= 1 / 3 for s in slept)


def test_the_rate_against_tgc_itself_is_at_most_3(game: TempProject, capsys) -> None:
    assert main(["--project", str(game.root), "publish", "tgc", "pnp-mini", "--rate", "10"]) == 2
    assert "at most 3" in capsys.readouterr().err


def test_publish_json_survives_a_rebuild(game: TempProject, server: Server) -> None:
    run(game, server)
    state = game_dir(game) / "tgc" / "publish.json"
    text = state.read_text()
    game.replace("pnp-mini", "omens.yaml", "Skip the next round.", "Skip a round.")
    build(game.root)  # the build rewrites tgc/ and leaves publish.json alone
    assert state.read_text() == text
    assert run(game, server).updated == 1


def test_credentials_come_from_a_file_or_the_environment(tmp_path: Path) -> None:
    env = {"TGC_API_KEY_ID": "k", "TGC_USERNAME": "u", "TGC_PASSWORD": "p"}
    assert read_credentials(env) == Credentials("k", "u", "p")
    assert "p" not in repr(read_credentials(env)).replace("Credentials", "")
    with pytest.raises(PublishError, match="no TGC_PASSWORD in the environment"):
        read_credentials({"TGC_API_KEY_ID": "k", "TGC_USERNAME": "u"})
    file = tmp_path / "tgc.env"
    file.write_text("# mine\nTGC_API_KEY_ID=k2\nTGC_USERNAME = u2\nTGC_PASSWORD='p 2'\n")
    assert read_credentials({}, file) == Credentials("k2", "u2", "p 2")
    file.write_text("TGC_PASSWORD hunter2\n")
    with pytest.raises(PublishError) as info:
        read_credentials({}, file)
    assert "hunter2" not in str(info.value) and "tgc.env:1:" in str(info.value)


def test_a_product_without_an_api_is_listed_with_the_reason(game: TempProject) -> None:
    manifest = game_dir(game) / "tgc" / "manifest.csv"
    manifest.write_text(manifest.read_text().replace(",PokerDeck,", ",Hex tile,"))
    wanted = read_build(manifest.parent, load_catalogue())
    assert [(s.deck, s.product, s.cards) for s in wanted.skipped] == [
        ("heroes", "Hex tile", 11),
        ("mentors", "Hex tile", 2),
        ("markers", "no TGC product", 1),  # listed by the build without a product
    ]
    assert "heroes" not in wanted.components


def no_duplicates(server: Server) -> None:
    fake = server.fake
    for kind in ("card", "twosidedslugged", "twosided"):
        seen = [(o["parent"], o["name"], int(o["quantity"])) for o in fake.of_kind(kind)]
        assert len(seen) == len(set(seen)), kind


@pytest.mark.parametrize("path", ["deck/.*/bulk-cards", "twosidedslugged"])
def test_a_create_whose_answer_is_lost_is_looked_up_not_repeated(
    game: TempProject, server: Server, path: str
) -> None:
    server.fake.fail("POST", path, 502, after=True)  # TGC made them, the answer never came
    run(game, server)
    assert published_counts(server) == manifest_counts(game)
    no_duplicates(server)
    assert any(m == "GET" and p.split("/")[-1] in ("cards", "members") for m, p, _ in server.fake.log)


def test_a_run_stopped_while_waiting_adopts_what_tgc_made(game: TempProject, server: Server) -> None:
    server.fake.fail("POST", "deck/.*", 502, after=True)
    server.fake.fail("GET", "deck/.*", 500, times=50)  # and the look-up fails too: the run stops
    with pytest.raises(PublishError, match="looking up the cards of 'heroes'"):
        run(game, server)
    state = json.loads((game_dir(game) / "tgc" / "publish.json").read_text())
    (target,) = state["targets"].values()
    assert list(target["pending"]) == ["heroes"]
    server.fake.faults.clear()
    outcome = run(game, server)
    assert published_counts(server) == manifest_counts(game)
    no_duplicates(server)
    assert outcome.plan.create_members and all(m.deck != "heroes" for m in outcome.plan.create_members)


def test_proofed_marks_every_image_as_checked(game: TempProject, server: Server) -> None:
    publish(game_dir(game), "Sheet & Co", GOOD, Client(server.url, **FAST), proofed=True)
    fake = server.fake
    assert all(d["has_proofed_back"] == "1" for d in fake.of_kind("deck"))
    assert all(c["has_proofed_face"] == 1 for c in fake.of_kind("card"))  # bulk: JSON numbers
    assert all(m["has_proofed_face"] == "1" for m in fake.of_kind("twosidedslugged"))
