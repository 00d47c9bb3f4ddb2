"""Issue 18, case 2: a card type's `csv:` path stays inside the game folder, names a regular
file, and is read with its size counted as read: no file outside reaches an export, a card or
a message, /dev/zero does not fill the disk, a FIFO does not hang."""

from __future__ import annotations

import os

import pytest

from safety_support import SECRET, Hostile, error_at

CARD_FILE = "more.yaml"


def _csv_card_file(game: Hostile, named: str) -> None:
    game.write(CARD_FILE, f"type: spell\ncsv: {named!r}\n")


@pytest.mark.parametrize("named", ["../../../outside/secret.env", "ABSOLUTE", "/dev/zero", "/etc/shadow"])
def test_a_csv_outside_the_game_folder_is_refused(tmp_path, named) -> None:
    game = Hostile(tmp_path)
    named = str(game.secret) if named == "ABSOLUTE" else named
    _csv_card_file(game, named)
    for argv in (("validate", "mini"), ("export", "mini", "--format", "csv")):
        run = game.run(*argv, timeout=60 if named == "/dev/zero" else None)  # before: 24 GB
        assert run.code == 1
        error_at(run, f"cards/mini/{CARD_FILE}:2:6:", "CSV file", "refused", "outside")
        assert "columns:" not in run.out + run.err  # nothing of the file's header
    game.nothing_leaked()


def test_a_csv_link_leading_out_of_the_game_folder_is_refused(tmp_path) -> None:
    game = Hostile(tmp_path)
    game.write("spells.csv", "")
    os.remove(game.path("spells.csv"))
    game.path("spells.csv").symlink_to(game.secret)
    _csv_card_file(game, "spells.csv")
    run = game.run("export", "mini", "--format", "csv")
    assert run.code == 1
    error_at(run, f"cards/mini/{CARD_FILE}:2:6:", "CSV file 'spells.csv'", "refused", "outside")
    assert SECRET not in run.out


def test_a_fifo_named_as_csv_is_refused_without_waiting(tmp_path) -> None:
    game = Hostile(tmp_path)
    os.mkfifo(game.path("spells.csv"))
    _csv_card_file(game, "spells.csv")
    run = game.run("validate", "mini", timeout=60)  # before: waited for a writer forever
    assert run.code == 1
    error_at(run, f"cards/mini/{CARD_FILE}:2:6:", "not a regular file")


def test_a_csv_larger_than_the_limit_is_refused_on_the_bytes_read(tmp_path) -> None:
    from deckwright.safety.limits import MAX_FILE_BYTES

    game = Hostile(tmp_path)
    with open(game.path("spells.csv"), "w", encoding="utf-8") as fh:
        fh.write("id,name,text,caster\n")
        fh.write("x" * (MAX_FILE_BYTES + 10))
    _csv_card_file(game, "spells.csv")
    run = game.run("validate", "mini", timeout=60)
    assert run.code == 1
    error_at(run, f"cards/mini/{CARD_FILE}:2:6:", f"larger than {MAX_FILE_BYTES} bytes")


def test_a_csv_inside_the_game_folder_still_works(tmp_path) -> None:
    game = Hostile(tmp_path)
    game.write("spells.csv", "id,name,text,caster\nglow,Glow,Light a candle.,ann\n")
    _csv_card_file(game, "spells.csv")
    game.project.replace("mini", "checks.yaml", "count() == 10", "count() == 11")
    run = game.run("export", "mini", "--format", "csv")
    assert run.code == 0, run.out + run.err
    assert "glow,spell,Glow" in run.out
