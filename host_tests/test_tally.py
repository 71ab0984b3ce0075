"""The tally: the rounds each seat paid since it was reset, saved like the game; a damaged tally
file is kept aside, never a crash."""

import json

import pytest
from dicetray.game import Game
from dicetray.state import GameResult
from dicetray.store import Store
from dicetray.tally import SEATS, Tally
from fakes.flash import FakeFlash, PowerCut
from trayhost.autoplay import SeededDice


def finished(losers, tokens=(0, 21, 0, 0), number=9):
    """A game over, as far as the tally reads it: its result, last turn number and tokens."""
    g = Game(len(tokens), "classic", SeededDice(1))
    g.phase = "over"
    g.tokens = list(tokens)
    g.turn.number = number
    g.result = GameResult(list(losers), [p for p in range(len(tokens)) if p not in losers])
    return g


def test_each_loser_of_a_game_pays_one_round_counted_once():
    t = Tally(Store(fs=FakeFlash()))
    assert t.paid == [0] * SEATS
    assert t.count(finished([1]))
    assert not t.count(finished([1]))  # the same game again (a boot after a cut): not twice
    assert t.count(finished([1], number=12))  # another game that P2 lost too
    assert t.count(finished([0, 3], tokens=(5, 0, 0, 5)))  # a tie for the most: both pay
    assert t.paid == [1, 2, 0, 1, 0, 0, 0, 0]


def test_the_tally_survives_a_reload_and_the_reset_zeroes_it():
    flash = FakeFlash()
    t = Tally(Store(fs=flash))
    t.count(finished([2]))
    t.save()
    flash = flash.reboot()
    again = Tally(Store(fs=flash))
    assert again.load() is None and again.paid == [0, 0, 1, 0, 0, 0, 0, 0]
    assert not again.count(finished([2]))  # what was counted last is remembered too
    assert again.reset()
    assert again.paid == [0] * SEATS
    third = Tally(Store(fs=flash.reboot()))
    assert third.load() is None and third.paid == [0] * SEATS
    assert not third.count(finished([2]))  # a reset forgets the counts, not the last game


def test_a_reset_on_a_failing_flash_changes_nothing():
    flash = FakeFlash()
    t = Tally(Store(fs=flash))
    t.count(finished([0]))
    t.save()
    flash.broken = {"open"}
    assert not t.reset()
    assert t.paid[0] == 1 and json.loads(flash.files["tally.json"])["paid"][0] == 1


def test_a_cut_while_saving_the_tally_keeps_the_older_one():
    flash = FakeFlash(torn=True)
    t = Tally(Store(fs=flash))
    t.count(finished([0]))
    t.save()
    t.count(finished([3], number=20))
    flash.cut_after_bytes = 10
    with pytest.raises(PowerCut):
        t.save()
    again = Tally(Store(fs=flash.reboot()))
    assert again.load() is None and again.paid == [1, 0, 0, 0, 0, 0, 0, 0]
    assert "tally.tmp" not in again.store.fs.files


GOOD = {"format": "dicetray-tally", "version": 1, "paid": [0] * 8, "last": []}
BAD = [
    (b"", "empty"),
    (b'{"format": "dicetray-tally", "vers', "damaged"),
    (b"\xff\xfe", "damaged"),
    (b"[" * 5000, "too big"),
    (b"[]", "invalid"),
    (json.dumps(dict(GOOD, version=2)).encode(), "invalid"),
    (json.dumps(dict(GOOD, format="dicetray-game")).encode(), "invalid"),
    (json.dumps(dict(GOOD, paid=[0] * 7)).encode(), "invalid"),
    (json.dumps(dict(GOOD, paid=[0] * 7 + [-1])).encode(), "invalid"),
    (json.dumps(dict(GOOD, paid=[0] * 7 + [True])).encode(), "invalid"),
    (json.dumps(dict(GOOD, paid=[0] * 7 + ["1"])).encode(), "invalid"),
    (json.dumps(dict(GOOD, last=[[1]])).encode(), "invalid"),
    (json.dumps(dict(GOOD, last=None)).encode(), "invalid"),
    (json.dumps(dict(GOOD, extra=1)).encode(), "invalid"),
]


@pytest.mark.parametrize("raw, why", BAD, ids=[why + str(i) for i, (_, why) in enumerate(BAD)])
def test_a_damaged_tally_is_refused_kept_aside_and_counted_from_zero(raw, why):
    flash = FakeFlash()
    flash.files["tally.json"] = raw
    t = Tally(Store(fs=flash))
    problem = t.load()
    assert problem == "Tally %s: kept as tally.bad" % why
    assert t.paid == [0] * SEATS
    assert flash.files["tally.bad"] == raw and "tally.json" not in flash.files
    assert ("tally.json: " + problem) in flash.files["error.log"].decode()
    assert t.count(finished([1])) and t.paid[1] == 1
    t.save()
    assert Tally(Store(fs=flash.reboot())).load() is None
