"""Taking back a stop or a stake (App.offer, App.take_back): until the next die is thrown, a
human's last stop or stake is undone by two presses, OK held then KEEP1, from the screen shown
right after it; the game, its save and the tally end as if the slip never happened."""

import pytest
from dicetray.options import PRESET_NAMES
from dicetray.screens import OUTCOME, PHASE, PLAY, RESULT, SETUP
from dicetray.tally import FILE as TALLY
from trayhost.autoplay import SeededDice
from trayhost.trayrun import Tray, bot_keys

UNDO_KEYS = "O1"  # OK held (the standings, or the question after a result), then KEEP1: yes
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


def slip_for(app, keys):
    """The slip a player could make instead of keys, the bot's next press (None: none): OK
    where a stop is a choice (the same stop when it is the one meant: taken back and made
    again), the other stake where a stake is announced."""
    g = app.game
    if app.screen != PLAY or g.over:
        return None
    if g.contest is not None:
        if g.can_announce():
            return "3" if keys == "1" else "1"
        return None
    if g.can_stop() and not g.must_stop():
        return "o"
    return None


def twin_games(preset, players, seed):
    """The bot plays a game on two trays with the same dice: on one, before each stop or stake
    it could make, it slips, takes the slip back and presses what it meant; the other plays it
    plainly. After each press both are the same. Returns the kinds of slips taken back."""
    slips = Tray(SeededDice(seed), seed=seed)
    plain = Tray(SeededDice(seed), seed=seed)
    bot = SeededDice(seed + 500)
    kinds = set()
    started = False
    for _ in range(3000):
        app = slips.app
        if app.screen == PLAY:
            started = True
        if started and app.screen == SETUP:
            return kinds
        keys = bot_keys(app, bot, (players, preset))
        slip = slip_for(app, keys)
        if slip is not None:
            verb = "stop" if slip == "o" else "announce"
            slips.key(slip)
            assert app.undo is not None and app.undo[1:] == (verb, app.undo[2])
            kinds.add(kind_of(app, verb))
            slips.keys(UNDO_KEYS)
            assert app.screen == PLAY and app.undo is None
            same(slips, plain)
        for k in keys:
            slips.key(k)
            plain.key(k)
            if k == "r" and app.game is not None:
                assert app.undo is None  # a die was thrown: nothing to take back
        if app.game is not None or plain.app.game is not None:
            same(slips, plain)
        else:  # back at the setup: the game's end counted once on both, every file the same
            assert slips.fs.files == plain.fs.files
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_slip_taken_back_ends_as_if_it_never_happened(preset):
    kinds = set()
    for seed in (1, 2):
        kinds |= twin_games(preset, 3, seed)
    print(preset, sorted(kinds))
