"""Issue 18, case 7: build/.cache/ cannot run code. Its entries are signed with a key that
never leaves the machine (safety/cachekey.py), so a cache restored from elsewhere, or written
by anyone without the key, is at worst a miss; and a pickle, even a signed one, rebuilds only
deckwright's own data classes."""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import stat
from pathlib import Path

from deckwright.cache import CHECKSUM_BYTES, PickleStore, checked
from safety_support import Hostile


class _Payload:
    """A pickle that runs a command when it is loaded."""

    def __init__(self, mark) -> None:
        self.mark = mark

    def __reduce__(self):
        return (os.system, (f"touch {self.mark}",))


def _forget_state(game: Hostile) -> None:
    """No "up to date": the next build must read its caches."""
    for path in (game.root / "build" / ".cache" / "state").iterdir():
        path.unlink()


def _unkeyed(data: bytes) -> bytes:
    """An entry as the old cache wrote it: data and a checksum anyone can compute."""
    return data + hashlib.blake2b(data, digest_size=CHECKSUM_BYTES).digest()


def _poison(cache: os.PathLike, mark, sign) -> int:
    """Replace every parse, face and compiled-template entry with code that touches `mark`."""
    poisoned = 0
    for path in sorted(os.fspath(p) for p in Path(cache).rglob("*")):
        if not os.path.isfile(path):
            continue
        if "/yaml/" in path or "/faces/" in path:
            data = pickle.dumps(_Payload(mark))
        elif "/templates/" in path:
            code = compile(f"import os; os.system('touch {mark}')", "<poison>", "exec")
            data = b"j2" + marshal.dumps(code)
        else:
            continue
        with open(path, "wb") as fh:
            fh.write(sign(data))
        poisoned += 1
    return poisoned


def test_a_poisoned_cache_from_elsewhere_runs_nothing_and_is_a_miss(tmp_path) -> None:
    game = Hostile(tmp_path)
    first = game.run("build", "mini", "--only", "cards")
    assert first.code == 0, first.err
    before = game.outputs()
    mark = tmp_path / "pwned"
    assert _poison(game.root / "build" / ".cache", mark, _unkeyed) > 10
    _forget_state(game)
    for argv in (("validate", "mini"), ("build", "mini", "--only", "cards")):
        run = game.run(*argv)
        assert run.code == 0, run.out + run.err
    assert not mark.exists()
    assert game.outputs() == before  # same bytes: the entries were misses, made again


def test_a_cache_signed_on_another_machine_is_a_miss(tmp_path) -> None:
    game = Hostile(tmp_path)
    # Both builds in processes of their own: cairo keeps font state for the life of a process,
    # so a card drawn here after other tests drew sheets can differ by a pixel's shade.
    assert game.run("build", "mini", "--only", "cards", key_file=game.key_file).code == 0
    before = game.outputs()
    _forget_state(game)
    other = game.run("build", "mini", "--only", "cards", key_file=tmp_path / "other-key")
    assert other.code == 0, other.err
    assert game.outputs() == before


def test_a_signed_pickle_still_rebuilds_only_data_classes(tmp_path) -> None:
    mark = tmp_path / "pwned"
    store = PickleStore(tmp_path / "store")
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "entry").write_bytes(checked(pickle.dumps(_Payload(mark))))
    assert store.get("entry") is None
    assert not mark.exists()


def test_the_machine_key_is_made_once_and_kept_private(tmp_path, monkeypatch) -> None:
    from deckwright.safety import cachekey

    path = tmp_path / "keys" / "cache-key"
    monkeypatch.setenv("DECKWRIGHT_CACHE_KEY_FILE", str(path))
    cachekey.machine_key.cache_clear()
    try:
        key = cachekey.machine_key()
        assert len(key) == cachekey.KEY_BYTES and path.read_bytes() == key
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        cachekey.machine_key.cache_clear()
        assert cachekey.machine_key() == key  # read back, not made again
        path.chmod(0o666)  # a key others may write could be theirs: not used
        cachekey.machine_key.cache_clear()
        assert cachekey.machine_key() != key
    finally:
        cachekey.machine_key.cache_clear()
