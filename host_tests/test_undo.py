"""Taking back a stop or a stake (App.offer, App.take_back, takeback.py): until the next die
is thrown, a human's last stop or stake is undone by two presses, OK held then KEEP1, from the
screen shown right after it; the game, its save and the tally end as if the slip never
happened."""

import json
import sys

import pytest
from dicetray.options import PRESET_NAMES, PRESETS
from dicetray.rules import LIMIT_AT_MOST
from dicetray.screens import OUTCOME, PHASE, PLAY, RESULT, SETUP, STANDINGS, UNDO
from dicetray.tally import FILE as TALLY
from fakes.flash import FakeFlash, PowerCut
from test_micropython_app import FIRMWARE
from test_tray import make_tray, to_first_throw
from trayhost.autoplay import SeededDice
from trayhost.slips import UNDO_KEYS, twin_game
from trayhost.trayrun import Tray, seats_game

KINDS = ("next", "contest", "turn", "phase", "end", "stake")


def kind_of(app, verb):
    """What the slip just made settled, read from the screen it led to (KINDS)."""
    g = app.game
    if verb == "announce":
        return "stake"
    if app.screen == PLAY:
        return "next" if g.contest is None else "contest"
    assert app.screen in (RESULT, OUTCOME), app.screen
    if g.over:
        return "end"
    return "phase" if PHASE in app.units[RESULT].told else "turn"


def same(a, b):
    """The engine's state, the save's bytes and the tally are equal. The tally's file may be
    written on one only: a game's end taken back writes it back to what it was (its rounds;
    no game counted last)."""
    assert a.app.game.to_dict() == b.app.game.to_dict()
    files = {k: v for k, v in a.fs.files.items() if k != TALLY}
    assert files == {k: v for k, v in b.fs.files.items() if k != TALLY}
    assert a.app.tally.paid == b.app.tally.paid and a.app.tally.last == b.app.tally.last


def twin_games(preset, players, seed):
    """The bot plays a game on two trays with the same dice: on one, before each stop or stake
    it could make, it slips, takes the slip back and presses what it meant; the other plays it
    plainly (trayhost.slips.twin_game). After each press both are the same. Returns the kinds
    of slips taken back."""
    slips = Tray(SeededDice(seed), seed=seed)
    plain = Tray(SeededDice(seed), seed=seed)
    app = slips.app
    kinds = set()
    for event, k in twin_game(slips, plain, players, preset, SeededDice(seed + 500)):
        if event == "slip":
            verb = app.undo[1] if app.undo is not None else None
            assert verb in (("stop", "lebon") if k == "o" else ("announce",)), verb
            kinds.add(kind_of(app, verb))
            continue
        if event == "undone":
            assert app.screen == PLAY and app.undo is None
        elif k == "r" and app.game is not None:
            assert app.undo is None  # a die was thrown: nothing to take back
        if app.game is not None or plain.app.game is not None:
            same(slips, plain)
        else:  # back at the setup: the game's end counted once on both, every file the same
            assert slips.fs.files == plain.fs.files
    assert app.screen == SETUP
    return kinds


SEEN = {}  # the kinds taken back in each preset's games


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_slip_taken_back_ends_as_if_it_never_happened(preset):
    kinds = set()
    for seed in (1, 2):
        kinds |= twin_games(preset, 3, seed)
    SEEN[preset] = kinds
    assert "next" in kinds  # the first player's stop: in every preset
    o = PRESETS[preset]
    if o.limit == LIMIT_AT_MOST or o.le_bon:  # a follower stops early: the last one too
        assert "turn" in kinds


def test_a_stake_taken_back_is_announced_again():
    """A repeated play-off, its first thrower announcing the stake it did not mean (the lebon
    preset plays ties off; these dice tie twice)."""
    assert "stake" in twin_games("lebon", 3, 110)


def test_every_kind_of_slip_was_taken_back():
    if len(SEEN) < len(PRESET_NAMES):
        pytest.skip("runs after the games of every preset")
    seen = set().union(*SEEN.values())
    assert seen | {"stake"} == set(KINDS), seen


def test_a_throw_or_a_roll_is_never_taken_back():
    """Right after a throw nothing is offered: the table shows its keys and KEEP1 there does
    nothing; a turn's result after a forced stop goes on with OK held, as with OK."""
    tray = make_tray(5)
    to_first_throw(tray)
    app = tray.app
    before = app.game.to_dict()
    assert app.undo is None
    tray.keys("O1")
    assert app.screen == STANDINGS and app.game.to_dict() == before and app.undo is None
    tray.keys("r")  # back to the turn
    tray.keys("rr")  # the throws used up: the stop is no choice
    tray.key("o")
    assert app.undo is None
    for _ in range(40):  # the others throw three times each, the last stop ending the turn
        if app.screen != PLAY:
            break
        g = app.game
        tray.key("o" if g.must_stop() else "r")
        assert app.undo is None  # a throw, a roll, or a stop with no choice
    assert app.screen in (RESULT, OUTCOME)
    tray.key("O")
    assert app.screen != UNDO


def test_a_seats_stop_is_not_offered():
    tray = Tray(SeededDice(8), seed=8)
    app = tray.app
    seen = 0
    for _ in seats_game(tray, 2, "lebon", SeededDice(9), computers=1):
        g = app.game
        if app.screen == PLAY and g is not None and g.contest is None and g.current == 0 \
                and not g.turn.count and g.turn.pos and g.turn.order[g.turn.pos - 1] == 1:
            seen += 1  # the seat stopped last: nothing to take back of it
            assert app.undo is None
    assert seen


def test_the_undos_code_is_loaded_only_while_it_is_shown_or_made():
    tray = make_tray(44)
    to_first_throw(tray)
    tray.key("o")
    assert tray.app.undo is not None and "dicetray.takeback" not in sys.modules
    tray.key("O")  # the table: its key bar offers the undo, in words the table has
    assert tray.app.undo is not None and "dicetray.takeback" not in sys.modules
    tray.key("r")  # back to the turn: the offer stands
    tray.key("r")  # a throw: nothing to take back, the code goes
    assert tray.app.undo is None and "dicetray.takeback" not in sys.modules
    tray.keys("o" + UNDO_KEYS)  # a stop, taken back: the code goes once it is done
    assert tray.app.undo is None and "dicetray.takeback" not in sys.modules


def test_the_question_loads_the_undos_code_and_the_tables_key_bar_does_not():
    tray = make_tray(45)
    tray.keys("2rr")  # RULES: ZANZIBAR, where a follower may stop early (a choice, offered)
    app = tray.app
    for _ in range(80):  # on to a stop that ends a turn: its result offers the undo
        if app.screen == RESULT and app.undo is not None:
            break
        g = app.game
        if app.screen != PLAY or g.contest is not None:
            tray.key("o" if app.screen != PLAY else "r")  # on, or a roll-off's roll
            continue
        # Each stops after two throws, the last of the turn after one, with one left (the
        # previous player's limit): a choice, offered.
        t = g.turn
        last = t.pos == len(t.order) - 1
        tray.key("o" if g.can_stop() and t.count >= (1 if last else 2) else "r")
    assert app.screen == RESULT and app.undo is not None
    assert "dicetray.takeback" not in sys.modules
    tray.key("O")  # OK held on the result: the question, and its code
    assert app.screen == UNDO and "dicetray.takeback" in sys.modules
    tray.key("2")  # no: back to the result, the offer standing
    assert app.screen == RESULT and app.undo is not None
    tray.key("r")  # the next turn's first throw: nothing to take back, the code goes
    assert app.undo is None and "dicetray.takeback" not in sys.modules


def test_a_power_cut_between_the_undo_and_its_save_resumes_the_slip():
    """The undo is saved like any action: cut before its save, the tray resumes the save of the
    slip (the undo lives in RAM: after a cut it is not offered); cut just after, the game as it
    was before the slip."""
    for cut_first in (True, False):
        flash = FakeFlash()
        tray = make_tray(40, flash=flash)
        g = to_first_throw(tray)
        before = g.to_dict()
        tray.key("o")  # the slip: the first player stops after one throw
        slipped = g.to_dict()
        assert slipped != before and tray.app.undo is not None
        tray.key("O")
        if cut_first:
            flash.cut_after_bytes = 0  # the next write cuts: the undo's save
            with pytest.raises(PowerCut):
                tray.key("1")
        else:
            tray.key("1")
            assert g.to_dict() == before
        again = make_tray(41, flash=flash.reboot())
        again.key("o")  # resume
        app = again.app
        assert app.screen == PLAY and app.undo is None
        assert app.game.to_dict() == (slipped if cut_first else before)


ON_MICROPYTHON = """
import json
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.slips import twin_game

a = trayrun.Tray(SeededDice(110), seed=110)
b = trayrun.Tray(SeededDice(110), seed=110)
slips = stakes = 0
same = True
for event, k in twin_game(a, b, 3, "lebon", SeededDice(610)):
    if event == "undone":
        slips += 1
        stakes += k != "o"
        same = same and a.app.game.to_dict() == b.app.game.to_dict() \\
            and a.fs.files.get("game.now") == b.fs.files.get("game.now")
print(json.dumps([slips, stakes, same, a.fs.files == b.fs.files, a.app.screen]))
"""


@pytest.mark.micropython
def test_on_micropython_a_game_of_slips_taken_back_is_the_plain_game(micropython, host_package):
    """The .mpy firmware on MicroPython: the lebon game whose stake is taken back (above),
    every stop and stake slipped and taken back, the same game and save as the plain one."""
    out = micropython(ON_MICROPYTHON, paths=[FIRMWARE, host_package], mpy=True, timeout=600)
    slips, stakes, same, files, screen = json.loads(out.strip().splitlines()[-1])
    assert slips > 10 and stakes and same and files and screen == SETUP
