"""A whole tray through its buttons: every preset to the end, keeps, OK, holds, unplugging.

app.py and the screen units (screens.py, screens_between.py) are tested here, through the buttons.
The tray is trayhost.trayrun.Tray on the decoding panel (trayhost.oled) and the power-cut flash
(fakes.flash). The helpers here are shared by test_tray_*.py.
"""

import json

import pytest
from dicetray import clock as clock_mod
from dicetray import ui
from dicetray.options import PRESET_NAMES, PRESETS
from dicetray.save_check import load
from dicetray.screens import (
    OVER,
    PLAY,
    QUIT,
    RESULT,
    SETUP,
    SND_NO,
    STANDINGS,
)
from dicetray.state import ESPAGNOLE, FIRST_OUT, LAST_HOLDER
from dicetray.store import Store
from emupico.panel import Panel
from fakes.flash import FakeFlash, saved_game
from trayhost.autoplay import SeededDice
from trayhost.canvas import pixel_rows
from trayhost.oled import FakeI2C
from trayhost.pins import ticks_add
from trayhost.trayrun import Tray, bot_keys, game_keys

# ---- helpers shared by test_tray_*.py ------------------------------------------------------


class CountingDice(SeededDice):
    """A seeded die that counts the dice it rolled."""

    def __init__(self, seed):
        super().__init__(seed)
        self.rolled = 0

    def __call__(self):
        self.rolled += 1
        return super().__call__()


class ToneLog:
    """A buzzer that remembers every frequency it played."""

    def __init__(self):
        self.tones = []

    def tone(self, hz):
        self.tones.append(hz)

    def off(self):
        pass


class SpyStore(Store):
    """A Store that keeps (a JSON copy of) every game it saved and counts what it cleared."""

    def __init__(self, fs):
        super().__init__(fs=fs)
        self.saved = []
        self.cleared = 0

    def save_game(self, data):
        super().save_game(data)
        self.saved.append(json.loads(json.dumps(data)))

    def clear_game(self):
        super().clear_game()
        self.cleared += 1


def make_tray(seed=1, flash=None, driver="ssd1306", height=64, start_ms=0, dice=None,
              store=SpyStore):
    """A Tray on the decoding panel and the power-cut flash; app.store is a `store` (a spy)."""
    i2c = FakeI2C(driver=driver, height=height)
    flash = FakeFlash() if flash is None else flash
    dice = CountingDice(seed) if dice is None else dice
    return Tray(dice, i2c=i2c, store=store(flash), height=height, driver=driver,
                start_ms=start_ms, seed=seed, buzzer=ToneLog())


def fb_rows(display):
    """The frame buffer as rows of 0/1, read straight from its MONO_VLSB bytes."""
    return pixel_rows(display.buffer, display.width, display.height)


def assert_panel_shows(tray, lit=True):
    """What the glass shows (or holds, lit=False) is exactly the frame buffer the app drew."""
    panel = tray.i2c.panel
    assert not panel.errors
    got = panel.pixels() if lit else panel.ram_image()
    if lit:
        assert panel.is_on
    assert got == fb_rows(tray.display), "\n" + panel.to_text(got)


def tokens_ok(game):
    return sum(game.tokens) + game.pot == game.opts.tokens


def state(tray):
    """Everything a press could change: screen, cursor, setup and the game (its kept dice too)."""
    app = tray.app
    menu = app.units[SETUP]
    return (app.screen, menu.cursor, json.dumps(menu.settings),
            None if app.game is None else app.game.to_dict())


def glass(tray):
    """What the panel shows, to be read (emupico.panel reads the tray's font off the pixels)."""
    return Panel(tray.i2c.panel.pixels())


def mark(tray):
    """The refusal mark across a 128x64 panel ("" when there is none): dark text in the middle
    of a lit band over whole rows (ui.refusal_rows)."""
    screen = glass(tray)
    top, high = ui.refusal_rows(64, tray.app.game)
    if not all(screen.rows[top + 1][1:127]) or not all(screen.rows[top + high - 2][1:127]):
        return ""
    return screen.read(top + (high - 7) // 2, ink=0)


def play(tray, players, preset, bot, max_keys=20000, each_key=None):
    """Bot presses (trayrun.game_keys) until a game of `preset` was played to its end and setup
    shows again. Returns the games seen (normally one). each_key(tray) runs after every key."""
    games = []
    for _ in game_keys(tray, players, preset, bot, max_keys):
        game = tray.app.game
        if game is not None and (not games or games[-1] is not game):
            games.append(game)
        if each_key:
            each_key(tray)
    assert games and games[-1].over
    return games


def to_first_throw(tray, limit=60):
    """From setup, start a game and play the roll-off: the first player has thrown once."""
    for _ in range(limit):
        app = tray.app
        g = app.game
        if app.screen == PLAY and g.contest is None and g.turn.count == 1:
            return g
        tray.key("o" if app.screen != PLAY or (g.contest is None and g.turn.count) else "r")
    raise AssertionError("no first throw")


def idle(tray, ms, step=250):
    """No press for ms; the main loop polls every step ms (coarser than 5 ms: it is quicker)."""
    for _ in range(ms // step):
        tray.now = ticks_add(tray.now, step)
        tray.app.step(tray.now)


def assert_result_sane(game):
    """The end of a game: a loser and winners among the seats, the tokens where they belong."""
    assert game.over
    assert tokens_ok(game)
    r = game.result
    losers, winners = r.losers, r.winners
    assert losers and winners and not set(losers) & set(winners)
    assert set(losers) | set(winners) <= set(range(game.n))
    total = game.opts.tokens
    if r.reason == FIRST_OUT:
        assert all(game.tokens[p] == 0 for p in winners)
        assert all(game.tokens[p] == max(game.tokens) for p in losers)
    else:
        assert r.reason in (ESPAGNOLE, LAST_HOLDER)
        (loser,) = losers
        assert game.pot == 0 and game.tokens[loser] == total
        assert sorted(winners) == sorted(game.out) == sorted(set(range(game.n)) - {loser})


# A kept die of the 128x64 turn screen is drawn solid, so (x + 2, y + 2), inside its 2-pixel
# border and never a pip, is lit exactly when it is kept.
def kept_marks(tray):
    rows = tray.i2c.panel.pixels()
    # ui.turn's dice up to four players: lit just inside the border where kept.
    return [bool(rows[y + 2][x + 2]) for x, y, _ in (ui.die_at(64, 4, i) for i in range(3))]


# ---- 1. every preset, played to its end through the buttons --------------------------------

GAMES = [  # preset, players, driver, panel height, seed
    ("classic", 3, "ssd1306", 64, 3),
    ("jackpot", 2, "sh1106", 64, 4),
    ("zanzibar", 4, "ssd1306", 32, 5),
    ("bar41", 5, "sh1106", 32, 6),
    ("lebon", 8, "ssd1306", 64, 7),
]


def test_the_list_covers_every_preset():
    assert sorted(g[0] for g in GAMES) == sorted(PRESET_NAMES)


@pytest.mark.parametrize("preset, players, driver, height, seed", GAMES,
                         ids=[g[0] for g in GAMES])
def test_every_preset_plays_to_its_end_through_the_buttons(preset, players, driver, height,
                                                          seed):
    tray = make_tray(seed, driver=driver, height=height)
    screens = set()

    def each_key(t):
        screens.add(t.app.screen)
        if t.app.game is not None:
            assert tokens_ok(t.app.game)
        assert_panel_shows(t)  # after every key, the glass shows what the app drew

    (game,) = play(tray, players, preset, SeededDice(seed + 100), each_key=each_key)
    assert game.n == players and game.opts == PRESETS[preset]
    assert_result_sane(game)
    assert {PLAY, RESULT, OVER, SETUP} <= screens  # the phase screen: only for a décharge
    store = tray.store
    assert store.saved[-1] == game.to_dict()  # the last save was the finished game...
    assert not {"game.json", "game.now", "game.tmp"} & set(tray.fs.files)  # ...cleared
    assert tray.app.screen == SETUP and tray.app.game is None
    assert_panel_shows(tray)
    assert tray.display.ok and not tray.i2c.failed


# ---- 2. precise behaviours through the keys -----------------------------------------------


def test_keep_marks_toggle_under_each_keep_button():
    tray = make_tray(11)
    g = to_first_throw(tray)
    app = tray.app
    assert kept_marks(tray) == [False, False, False]
    for i, k in enumerate("123"):
        tray.key(k)
        assert app.game.turn.kept == 1 << i
        assert kept_marks(tray) == [j == i for j in range(3)]
        tray.key(k)
        assert app.game.turn.kept == 0 and kept_marks(tray) == [False, False, False]
    assert g.turn.count == 1  # keeping throws nothing


def test_kept_dice_keep_their_value_and_place_on_the_next_throws():
    for seed in range(20, 26):
        tray = make_tray(seed)
        g = to_first_throw(tray)
        dice = tray.roll
        tray.keys("13")
        assert kept_marks(tray) == [True, False, True]
        kept = (g.turn.dice[0], g.turn.dice[2])
        for count in (2, 3):
            rolled = dice.rolled
            tray.key("r")
            assert g.turn.count == count and dice.rolled == rolled + 1  # one die thrown
            assert (g.turn.dice[0], g.turn.dice[2]) == kept
            # The marks stay for this player's next throw; with none left there is no keeping.
            marked = [True, False, True] if g.can_throw() else [False, False, False]
            assert kept_marks(tray) == marked
            assert_panel_shows(tray)


def test_a_third_keep_is_refused_and_says_why_a_throw_throws_a_die():
    tray = make_tray(12)
    g = to_first_throw(tray)
    tray.keys("12")
    before = state(tray)
    tones = len(tray.buzzer.tones)
    assert mark(tray) == ""
    tray.key("3")
    assert state(tray) == before and g.turn.kept == 0b011
    assert tray.buzzer.tones[tones:] == [SND_NO[0]]  # the "no" buzz, and on the panel:
    assert mark(tray) == "2 DICE AT MOST"
    assert_panel_shows(tray)
    tray.run(clock_mod.MARK_MS - 420 - 60 - 10)  # the key's press and rest are 480 ms
    assert mark(tray) == "2 DICE AT MOST"
    tray.run(20)
    assert mark(tray) == ""  # a second after the press: gone, the dice as they were
    assert kept_marks(tray) == [True, True, False]
    assert_panel_shows(tray)
    first, second = g.turn.dice[:2]
    rolled = tray.roll.rolled
    tray.key("r")
    assert g.turn.count == 2 and tray.roll.rolled == rolled + 1
    assert g.turn.dice[:2] == [first, second]


def test_ok_stops_only_when_the_rules_allow():
    tray = make_tray(13)  # classic: followers throw exactly as often as the first player
    app = tray.app
    g = to_first_throw(tray)
    first = g.current
    tray.key("r")  # the first player throws twice: followers must throw twice
    tray.key("o")
    assert g.turn.finals and g.turn.limit == 2 and g.current != first and g.turn.count == 0
    follower = g.current
    before = state(tray)
    tray.key("o")  # nothing thrown yet: nothing to stop
    assert state(tray) == before and mark(tray) == "THROW FIRST"
    tray.key("r")
    assert mark(tray) == ""  # the next press takes the mark away
    before = state(tray)
    tray.key("o")  # one of two throws: refused
    assert state(tray) == before and tray.buzzer.tones[-1] == SND_NO[0]
    assert mark(tray) == "2 THROWS DUE"
    tray.key("r")
    tray.key("o")  # two of two: done
    assert app.game.current != follower and len(g.turn.finals) == 2


def test_long_ok_opens_the_standings_roll_returns_and_quitting_asks_first():
    # Changed with the quit confirmation: two long OKs used to erase the game at once.
    tray = make_tray(14)
    to_first_throw(tray)
    app = tray.app
    before = state(tray)
    tray.key("O")
    assert app.screen == STANDINGS
    assert_panel_shows(tray)
    tray.key("r")  # ROLL goes back, without throwing
    assert state(tray) == before
    assert_panel_shows(tray)
    saved = tray.fs.files["game.now"]
    for no in "or2O":  # OK, ROLL (the table's back), another KEEP or OK held: no, back to it
        tray.keys("OO")
        assert app.screen == QUIT
        screen = glass(tray)
        assert screen.read(0) == "QUIT THE GAME?"
        assert [screen.read(y) for y in (11, 20)] == [
            "THE GAME STAYS SAVED", "THE SETUP OFFERS IT"]
        assert screen.hints() == "KEEP1:YES  OK:NO"
        tray.key(no)
        assert state(tray) == before and tray.fs.files["game.now"] == saved
    tray.keys("OO1")  # KEEP1: yes, the game kept
    assert app.screen == SETUP and app.game is None
    assert {"game.json", "game.now"} <= set(tray.fs.files)


def hold(tray, name, ms):
    tray.pins[name].level = 0
    tray.run(ms)
    tray.pins[name].level = 1
    tray.run(500)


def test_holding_roll_ten_seconds_throws_once():
    tray = make_tray(15)
    app = tray.app
    tray.key("o")
    g = app.game
    assert g.contest is not None and not g.contest.results
    hold(tray, "ROLL", 10_000)  # the roll-off for who starts
    assert len(g.contest.results) == 1
    g = to_first_throw(tray)
    rolled = tray.roll.rolled
    saves = len(tray.store.saved)
    hold(tray, "ROLL", 10_000)
    assert g.turn.count == 2 and tray.roll.rolled == rolled + 3
    assert len(tray.store.saved) == saves + 1


def test_holding_other_buttons_never_repeats():
    tray = make_tray(16)
    to_first_throw(tray)
    app = tray.app
    hold(tray, "KEEP2", 10_000)
    assert app.game.turn.kept == 0b010
    before = state(tray)
    hold(tray, "OK", 10_000)  # a repeated long OK would quit the game from the standings
    assert app.screen == STANDINGS and state(tray)[1:] == before[1:]


def levels(tray, pin, steps):
    """Drive a pin through (level, ms) steps, polling every millisecond."""
    for level, ms in steps:
        pin.level = level
        for _ in range(ms):
            tray.now = ticks_add(tray.now, 1)
            tray.app.step(tray.now)


def test_pressing_roll_during_the_roll_animation_does_not_throw_again():
    tray = make_tray(17)
    g = to_first_throw(tray)
    app = tray.app
    pin = tray.pins["ROLL"]
    start = tray.now
    levels(tray, pin, ((0, 20), (1, 50)))  # a quick tap, let go for longer than the debounce
    assert app.clock.rolling and g.turn.count == 2
    rolled = tray.roll.rolled
    saves = len(tray.store.saved)
    # A second press, bouncing on both edges, lands while the dice are still rolling.
    levels(tray, pin, ((0, 3), (1, 2), (0, 4), (1, 3), (0, 30), (1, 4), (0, 2), (1, 60)))
    assert tray.now - start < clock_mod.ANIM_MS
    assert app.clock.rolling == 0  # it showed the dice at once...
    assert g.turn.count == 2 and tray.roll.rolled == rolled and len(tray.store.saved) == saves
    assert_panel_shows(tray)  # ...the real ones, not animation faces
    tray.run(500)
    assert g.turn.count == 2


# ---- 6. the display unplugged mid-game ------------------------------------------------------


def test_an_unplugged_display_does_not_stop_the_game_and_replugging_shows_it():
    tray = make_tray(21)
    bot = SeededDice(22)
    app = tray.app
    to_first_throw(tray)
    tray.i2c.connected = False
    saves = len(tray.store.saved)
    before = app.game.to_dict()
    for _ in range(40):
        for k in bot_keys(app, bot, (4, "classic")):
            tray.key(k)
            assert tokens_ok(app.game)
    assert not tray.display.ok and tray.i2c.failed
    assert len(tray.store.saved) > saves + 5  # the game went on and was saved
    assert app.game.to_dict() != before
    assert saved_game(tray.fs.files) == app.game.to_dict()
    tray.i2c.connected = True
    tray.run(1000)  # the driver retries every 500 ms
    assert tray.display.ok
    assert_panel_shows(tray)
    tray.key("O")  # and it keeps up
    assert_panel_shows(tray)


def test_a_display_power_cycle_nobody_noticed_is_repaired_within_seconds():
    tray = make_tray(23)
    to_first_throw(tray)
    tray.run(100)
    tray.i2c.connected = False  # no transfer while it is away: the driver cannot tell
    tray.i2c.connected = True
    assert tray.i2c.panel.pixels() != fb_rows(tray.display)  # dark
    tray.run(tray.display.panel.refresh_ms + 100)
    assert_panel_shows(tray)


# ---- helpers above, checked ---------------------------------------------------------------


def test_a_saved_game_equals_the_game_it_came_from():
    tray = make_tray(26)
    to_first_throw(tray)
    saved = tray.store.saved[-1]
    assert load(saved, tray.roll) == tray.app.game
