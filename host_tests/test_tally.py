"""The tally: the rounds each seat paid since it was reset, saved like the game, shown at the end
of a game and from the standings; a damaged tally file is kept aside, never a crash."""

import json

import pytest
from dicetray.game import Game
from dicetray.screens import NOTICE, OVER, PLAY, QUIT, RESULT, RESUME, SETUP, TALLY
from dicetray.screens_setup import setup_rows
from dicetray.state import GameResult
from dicetray.store import Store
from dicetray.tally import SEATS, TOP, Tally
from emupico.panel import Panel
from fakes.flash import FakeFlash, PowerCut
from test_tray import glass, make_tray, play, to_first_throw
from trayhost.autoplay import SeededDice
from trayhost.trayrun import game_keys


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


def test_a_count_taken_back_unsaved_leaves_the_tally_as_it_was_even_at_the_top():
    # A game's last stop made as OK went down counts its round in memory (App.stop_ahead);
    # taken back, the tally is what it held, a count stopped at TOP included.
    t = Tally(Store(fs=FakeFlash()))
    t.count(finished([2], number=4))
    t.paid[1] = TOP
    was = t.now()
    paid, last = list(t.paid), list(t.last)
    assert t.count(finished([1, 2]))
    assert t.paid[1] == TOP and t.paid[2] == 2
    t.back_to(was)
    assert t.paid == paid and t.last == last
    assert t.count(finished([1, 2]))  # played again, it is counted: once
    assert t.paid[2] == 2


def test_the_tally_survives_a_reload_and_the_reset_zeroes_it():
    flash = FakeFlash()
    t = Tally(Store(fs=flash))
    t.count(finished([2]))
    t.save()
    flash = flash.reboot()
    again = Tally(Store(fs=flash))
    assert again.load() is None and again.paid == [0, 0, 1, 0, 0, 0, 0, 0]
    assert not again.count(finished([2]))  # what was counted last is remembered too
    again.reset()
    assert again.paid == [0] * SEATS
    again.save()
    third = Tally(Store(fs=flash.reboot()))
    assert third.load() is None and third.paid == [0] * SEATS
    assert not third.count(finished([2]))  # a reset forgets the counts, not the last game


def test_a_reset_that_cannot_be_saved_leaves_the_tally_on_flash_as_it_was():
    flash = FakeFlash()
    t = Tally(Store(fs=flash))
    t.count(finished([0]))
    t.save()
    flash.broken = {"open"}
    t.reset()
    with pytest.raises(OSError):
        t.save()
    assert json.loads(flash.files["tally.json"])["paid"][0] == 1
    again = Tally(Store(fs=flash.reboot()))
    assert again.load() is None and again.paid[0] == 1


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


def test_the_tray_says_the_tally_was_lost_and_counts_on():
    flash = FakeFlash()
    flash.files["tally.json"] = b"{not json"
    tray = make_tray(81, flash=flash)
    app = tray.app
    assert app.screen == NOTICE
    screen = glass(tray)
    assert screen.read(2, scale=2) == "TALLY LOST"
    assert [screen.read(y) for y in (19, 28, 37)] == [
        "TALLY DAMAGED:", "KEPT AS TALLY.BAD", "COUNTING FROM 0"]  # the font's capitals
    tray.key("o")
    assert app.screen == SETUP


def test_a_lost_tally_with_a_saved_game_goes_on_to_the_resume_prompt():
    flash = FakeFlash()
    tray = make_tray(82, flash=flash)
    to_first_throw(tray)
    flash = flash.reboot()
    flash.files["tally.json"] = b"[]"
    again = make_tray(83, flash=flash)
    assert again.app.screen == NOTICE and glass(again).hints() == "OK:NEXT"
    again.key("o")
    assert again.app.screen == RESUME
    again.key("o")
    assert again.app.screen == PLAY


def test_whole_games_count_their_losers_in_the_tally_shown_at_the_end():
    flash = FakeFlash()
    tray = make_tray(84, flash=flash)
    app = tray.app
    paid = [0] * SEATS
    for seed in (85, 86):
        seen = []

        def each_key(t, seen=seen):  # the screens, one entry per change
            if not seen or seen[-1] != t.app.screen:
                seen.append(t.app.screen)

        (game,) = play(tray, 4, "zanzibar", SeededDice(seed), each_key=each_key)
        for p in game.result.losers:
            paid[p] += 1
        assert app.tally.paid == paid
        assert json.loads(flash.files["tally.json"])["paid"] == paid
        # the last result, the end, OK: the tally, OK: a new game
        assert seen[-4:] == [RESULT, OVER, TALLY, SETUP]
    again = make_tray(87, flash=flash.reboot())
    assert again.app.tally.paid == paid


def test_the_tally_screen_lists_every_seat_of_the_game():
    tray = make_tray(88)
    to_first_throw(tray)
    app = tray.app
    app.tally.paid[:] = [3, 0, 12, 1, 0, 2, 0, 0]  # seat 6 paid at an earlier, larger table
    tray.keys("Oo")  # the standings, then OK: the tally
    assert app.screen == TALLY
    screen = glass(tray)
    assert screen.read(2, scale=2) == "TALLY"
    assert [screen.read(y) for y in (19, 28)] == ["P1:3 P2:0 P3:12 P4:1", "P5:0 P6:2"]
    assert screen.hints() == "OK:BACK HOLD OK:QUIT"
    tray.key("o")
    assert app.screen == PLAY
    tray.keys("OoO")  # and from there, OK held: quit?
    assert app.screen == QUIT
    tray.key("o")
    assert app.screen == PLAY


def test_a_128x32_tally_lists_every_seat_on_its_two_lines():
    tray = make_tray(88, height=32)
    to_first_throw(tray)
    app = tray.app
    app.tally.paid[:] = [3, 0, 1, 1, 0, 2, 0, 4]  # eight seats: two lines of four
    tray.keys("Oo")  # the table, then OK (its key bar says OK:TALLY): the tally
    assert app.screen == TALLY
    rows = [bytes(r) for r in tray.i2c.panel.pixels()]
    screen = Panel(rows + [bytes(128)] * 32)
    assert [screen.read(y) for y in (1, 10)] == ["P1:3 P2:0 P3:1 P4:1", "P5:0 P6:2 P7:0 P8:4"]
    assert screen.read(24, ink=0) == "OK:BACK HOLD OK:QUIT"


def test_the_setup_s_rounds_paid_row_clears_the_tally_when_the_game_starts_and_only_then():
    flash = FakeFlash()
    flash.files["tally.json"] = json.dumps({
        "format": "dicetray-tally", "version": 1, "paid": [4, 0, 7, 1, 0, 0, 0, 0], "last": [9],
    }).encode()
    tray = make_tray(93, flash=flash)
    app = tray.app
    assert app.screen == SETUP
    tray.keys("11")  # up from PLAYERS: round to the last row, LANGUAGE, then TALLY
    screen = glass(tray)
    row = [y for y in range(10, 56) if all(screen.rows[y][1:127])]  # the lit cursor bar
    assert row, "no cursor bar"
    y = row[0] + 1

    def cursor_row():  # the label and the value, however far apart
        return " ".join(glass(tray).read(y, ink=0).split())

    assert cursor_row() == "TALLY KEEP"
    tray.key("r")
    assert cursor_row() == "TALLY CLEAR"
    tray.key("3")  # back: KEEP
    assert cursor_row() == "TALLY KEEP"
    tray.key("r")
    assert json.loads(flash.files["tally.json"])["paid"][2] == 7  # nothing cleared yet
    tray.key("o")
    assert app.screen == PLAY and app.tally.paid == [0] * SEATS
    assert json.loads(flash.files["tally.json"]) == {
        "format": "dicetray-tally", "version": 1, "paid": [0] * SEATS, "last": [9]}
    tray.keys("OoO")  # standings, tally, quit?
    tray.key("1")  # yes: back to the setup, where the row says KEEP again
    assert app.screen == SETUP
    menu = app.units[SETUP]
    assert setup_rows(menu.settings, menu.clear_tally)[-2] == ("TALLY", "KEEP")
    app.tally.paid[1] = 2
    app.tally.save()
    tray.key("o")  # a game started with KEEP leaves the tally as it is
    assert json.loads(flash.files["tally.json"])["paid"][1] == 2


def test_a_cut_between_the_finished_game_and_the_tally_counts_the_round_at_boot():
    # The game's last save and the tally's are two writes: a cut between them leaves the
    # finished game on flash, which the next boot counts (once) and clears.
    flash = FakeFlash()
    tray = make_tray(89, flash=flash)
    (game,) = play(tray, 3, "classic", SeededDice(90))
    finished_save = tray.store.saved[-1]
    assert finished_save["phase"] == "over"
    counted = list(tray.app.tally.paid)
    flash = flash.reboot()
    Store(flash).save_game(finished_save)
    flash.files["tally.json"] = json.dumps(
        {"format": "dicetray-tally", "version": 1, "paid": [0] * 8, "last": []}).encode()
    again = make_tray(91, flash=flash)
    assert again.app.tally.paid == counted and again.app.screen == SETUP
    assert not {"game.json", "game.now"} & set(again.fs.files)
    flash = again.fs.reboot()
    Store(flash).save_game(finished_save)  # a cut before the clear
    third = make_tray(92, flash=flash)
    assert third.app.tally.paid == counted  # not counted twice
    assert third.app.screen == SETUP and not {"game.json", "game.now"} & set(third.fs.files)


def test_roll_on_the_tally_after_a_game_goes_back_to_its_end_and_ok_starts_a_new_one():
    # README: the game over's ROLL shows the tally; there ROLL goes back, OK starts a new game.
    tray = make_tray(88)
    for _ in game_keys(tray, 4, "zanzibar", SeededDice(89), 20000):
        if tray.app.screen == OVER:
            break
    app = tray.app
    assert app.screen == OVER
    tray.key("r")
    assert app.screen == TALLY
    assert glass(tray).hints() == "OK:NEW GAME ROLL:BACK"
    tray.key("r")
    assert app.screen == OVER and app.game.over
    tray.key("r")
    assert app.screen == TALLY
    tray.key("o")
    assert app.screen == SETUP
