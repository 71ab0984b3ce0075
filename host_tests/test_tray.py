"""A whole tray through its buttons: every preset to the end, keeps, OK, holds, idle, unplugging.

The tray is trayhost.trayrun.Tray on the decoding panel (trayhost.oled) and the power-cut flash
(fakes.flash). The helpers here are shared by test_tray_*.py.
"""

import json

import pytest
from dicetray import clock as clock_mod
from dicetray.options import OPTIONS, PRESET_NAMES, PRESETS
from dicetray.savecheck import load
from dicetray.screens import (
    OVER,
    PHASE,
    PLAY,
    QUIT,
    RESULT,
    RESUME,
    SETUP,
    SND_NO,
    STANDINGS,
)
from dicetray.setupmenu import change_setting, computers, setup_rows
from dicetray.store import Store
from fakes.flash import FakeFlash
from picopanel import Panel
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
    """What the panel shows, to be read (picopanel reads the tray's font off the pixels)."""
    return Panel(tray.i2c.panel.pixels())


def mark(tray):
    """The refusal mark across the middle of a 128x64 panel ("" when there is none): dark
    text on a lit band, rows 23 to 33."""
    screen = glass(tray)
    if not all(screen.rows[23][1:127]) or not all(screen.rows[33][1:127]):
        return ""
    return screen.read(25, ink=0)


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


def assert_result_sane(game):
    """The end of a game: a loser and winners among the seats, the tokens where they belong."""
    assert game.over
    assert tokens_ok(game)
    r = game.result
    losers, winners = r.losers, r.winners
    assert losers and winners and not set(losers) & set(winners)
    assert set(losers) | set(winners) <= set(range(game.n))
    total = game.opts.tokens
    if r.reason == "first_out":
        assert all(game.tokens[p] == 0 for p in winners)
        assert all(game.tokens[p] == max(game.tokens) for p in losers)
    else:
        assert r.reason in ("espagnole", "last_holder")
        (loser,) = losers
        assert game.pot == 0 and game.tokens[loser] == total
        assert sorted(winners) == sorted(game.out) == sorted(set(range(game.n)) - {loser})


# Die i of the 128x64 turn screen sits at x = 9 + 39 i, y = 18, 30 px square; a kept die is
# drawn solid, so (x + 2, y + 2), never a pip, is lit exactly when it is kept.
def kept_marks(tray):
    rows = tray.i2c.panel.pixels()
    return [bool(rows[26][14 + 38 * i + 2]) for i in range(3)]  # ui.turn: 24-pixel dice at y=24


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
    assert {PLAY, RESULT, PHASE, OVER, SETUP} <= screens
    store = tray.store
    assert store.saved[-1] == game.to_dict()  # the last save was the finished game...
    assert "game.json" not in tray.fs.files and "game.tmp" not in tray.fs.files  # ...cleared
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
    saved = tray.fs.files["game.json"]
    for no in "o1O":  # OK, a KEEP or OK held again: no, back to the game
        tray.keys("OO")
        assert app.screen == QUIT
        screen = glass(tray)
        assert screen.read(0, scale=2) == "QUIT GAME?"
        assert [screen.read(y) for y in (19, 28)] == [
            "THE GAME IS ERASED", "ITS TOKENS ARE LOST"]
        assert screen.hints() == "ROLL:YES  OK:NO"
        tray.key(no)
        assert state(tray) == before and tray.fs.files["game.json"] == saved
    tray.keys("OOr")  # ROLL: yes
    assert app.screen == SETUP and app.game is None
    assert "game.json" not in tray.fs.files


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


def test_setup_remembers_the_last_settings_across_a_reboot():
    flash = FakeFlash()
    tray = make_tray(18, flash=flash)
    app = tray.app
    assert app.screen == SETUP
    tray.keys("rr")  # players 4 -> 6
    tray.keys("2r")  # preset classic -> jackpot
    tray.keys("2r")  # tokens 21 -> 22
    want = json.loads(json.dumps(app.units[SETUP].settings))
    assert want["players"] == 6 and want["preset"] == "jackpot"
    assert want["options"] == dict(PRESETS["jackpot"].to_dict(), tokens=22)
    tray.key("o")
    assert app.screen == PLAY

    again = make_tray(19, flash=flash.reboot())
    app = again.app
    menu = app.units[SETUP]
    assert app.screen == RESUME and menu.settings is None  # read when the setup shows (RAM)
    again.key("r")  # no: a new game
    assert app.screen == SETUP and menu.settings == want
    rows = setup_rows(menu.settings)
    assert rows[:3] == [("PLAYERS", "6"), ("RULES", "JACKPOT"), ("*TOKENS", "22")]
    assert_panel_shows(again)
    again.key("o")
    assert app.game.n == 6 and app.game.opts.to_dict() == want["options"]


def test_ok_starts_the_game_made_while_the_setup_was_quiet_unless_a_setting_changed_since():
    # A quiet moment on the setup makes the game its settings start (App.quiet), so that OK
    # only has to show it; a setting changed after that moment still decides the game.
    labels = [label for label, _ in setup_rows(
        {"players": 4, "preset": "classic", "options": PRESETS["classic"].to_dict()})]
    changes = [("PLAYERS", lambda g: g.n == 5), ("TOKENS", lambda g: g.opts.tokens == 22),
               ("WHO STARTS", lambda g: g.opts.start == "throw_low"),
               ("TRAY PLAYS", lambda g: g.computers == [3]), ("HINTS", lambda g: g.hints)]
    for label, started in [(None, None)] + changes:
        tray = make_tray(20)
        app = tray.app
        menu = app.units[SETUP]
        tray.run(100)  # the boot's quiet moment
        made = menu.ready
        assert made is not None and made[1].n == 4 and not made[1].over
        if label is not None:  # as the menu changes it, with no quiet moment before OK
            change_setting(menu.settings, labels.index(label), 1)
        tray.key("o")
        assert app.screen == PLAY and menu.ready is None
        if label is None:
            assert app.game is made[1]
        else:
            assert app.game is not made[1] and started(app.game), label
        assert app.game.opts.to_dict() == menu.settings["options"]


def test_settings_no_game_takes_are_not_made_while_quiet():
    tray = make_tray(21)
    app = tray.app
    menu = app.units[SETUP]
    tray.run(100)
    assert menu.ready is not None  # made for the settings shown
    menu.settings["options"]["tokens"] = 3  # out of range: only a bug could put it there
    app.quiet()  # no error in the main loop's idle poll: OK will say it, as it always did
    assert menu.ready is None  # the game made for the settings before goes too


def test_the_setup_menu_shows_and_steps_each_option_from_the_table():
    s = {"players": 4, "preset": "classic", "options": PRESETS["classic"].to_dict()}
    labels = [label for label, _ in setup_rows(s)]
    # the table's order, then whether the tally is cleared as the game starts
    assert labels == ["PLAYERS", "RULES"] + [row[1] for row in OPTIONS] + [
        "TRAY PLAYS", "HINTS", "ROUNDS PAID"]

    def shows(label):
        return dict((k.lstrip("*"), v) for k, v in setup_rows(s))[label]

    def step(label, n):
        change_setting(s, labels.index(label), n)
        return shows(label)

    assert [shows(k) for k in ("TOKENS", "RANKING", "ACE HIGH", "WHO STARTS", "NENETTE GETS")] == [
        "21", "CLASSIC", "ON", "BEST", "2"]
    assert step("ACE HIGH", 1) == "OFF" and step("ACE HIGH", -1) == "ON"
    assert [step("WHO STARTS", 1) for _ in range(4)] == ["WORST", "ONE DIE", "P1", "BEST"]
    assert step("NENETTE GETS", -2) == "OFF"  # 0: off
    assert step("NENETTE GETS", 1) == "1" and step("NENETTE WORTH", -1) == "1"
    assert step("TOKENS", 99 - 21) == "99" and step("TOKENS", 1) == "5"
    assert step("TIES", 1) == "PLAY-OFF" and step("TIES", 1) == "LATER"
    assert s["options"]["tie"] == "later" and s["options"]["nenette_fixed"] == 1
    assert ("*TIES", "LATER") in setup_rows(s)  # changed from the preset
    for i, (name, _, allowed, _, _, _) in enumerate(OPTIONS):  # every value in order, wrapping
        seen = [s["options"][name]]
        for _ in allowed:
            change_setting(s, labels.index(OPTIONS[i][1]), 1)
            seen.append(s["options"][name])
        assert seen[0] == seen[-1] and sorted(seen[1:], key=str) == sorted(allowed, key=str)
    assert step("RULES", 1) == "JACKPOT" and s["options"] == PRESETS["jackpot"].to_dict()
    assert step("PLAYERS", -3) == "8" and step("PLAYERS", 1) == "2"
    # The seats the tray plays: the last ones, one seat at least stays human.
    change_setting(s, labels.index("PLAYERS"), 2)  # 4 players
    assert [step("TRAY PLAYS", 1) for _ in range(4)] == ["P4", "P3-P4", "P2-P4", "NONE"]
    assert step("TRAY PLAYS", -1) == "P2-P4" and computers(s) == [1, 2, 3]
    change_setting(s, labels.index("PLAYERS"), -2)  # 2 players: one computer at most
    assert shows("TRAY PLAYS") == "P2" and computers(s) == [1]
    assert step("HINTS", 1) == "ON" and s["hints"] is True and step("HINTS", 1) == "OFF"


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
    assert json.loads(tray.fs.files["game.json"]) == app.game.to_dict()
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


# ---- 7. idle: dim, sleep, and the waking press --------------------------------------------

NEAR_WRAP = (1 << 30) - 100_000  # the Pico's ticks wrap during these tests


def idle(tray, ms, step=250):
    """No press for ms; the main loop polls every step ms (coarser than 5 ms: it is quicker)."""
    for _ in range(ms // step):
        tray.now = ticks_add(tray.now, step)
        tray.app.step(tray.now)


def dim_tray(seed=24):
    """A tray whose first player threw once and kept die 1, then left alone: dimmed."""
    tray = make_tray(seed, start_ms=NEAR_WRAP)
    to_first_throw(tray)
    tray.key("1")
    panel = tray.i2c.panel
    full = panel.contrast
    display = tray.display  # it keeps the dim and sleep state: the app has no copy
    idle(tray, clock_mod.DIM_MS - 1000)
    assert not display.dimmed and panel.contrast == full
    idle(tray, 2000)
    assert display.dimmed and not display.asleep
    assert panel.contrast == tray.display.panel.dim_contrast < full and panel.is_on
    assert_panel_shows(tray)
    return tray


# key: what it does on the dimmed turn (P's first throw made, die 1 kept): a change to the game
DIMMED = {"1": lambda g: g.turn.kept == 0, "2": lambda g: g.turn.kept == 0b011,
          "r": lambda g: g.turn.count == 2, "o": lambda g: g.turn.pos == 1}


@pytest.mark.parametrize("key", sorted(DIMMED) + ["O"])
def test_a_press_on_a_dimmed_panel_acts_and_lights_it(key):
    # Changed: a press on a dimmed panel used to only light it; the panel was readable.
    tray = dim_tray()
    app = tray.app
    tray.key(key)
    if key == "O":
        assert app.screen == STANDINGS
    else:
        assert DIMMED[key](app.game)
    panel = tray.i2c.panel
    assert panel.is_on and panel.contrast == 0x7F
    assert not tray.display.dimmed and not tray.display.asleep
    assert_panel_shows(tray)


@pytest.mark.parametrize("key", ["1", "2", "3", "r", "o", "O"])
def test_idle_sleeps_and_the_press_that_wakes_a_dark_panel_does_nothing_else(key):
    tray = dim_tray()
    app = tray.app
    panel = tray.i2c.panel
    display = tray.display
    idle(tray, clock_mod.SLEEP_MS - clock_mod.DIM_MS)
    assert display.asleep and not panel.is_on
    assert_panel_shows(tray, lit=False)  # still drawn, not lit
    before = state(tray)
    tray.key(key)
    assert state(tray) == before
    assert panel.is_on and panel.contrast == 0x7F
    assert not display.dimmed and not display.asleep
    assert_panel_shows(tray)
    count = app.game.turn.count
    tray.key("r")  # awake: the next press plays
    assert app.game.turn.count == count + 1


def test_presses_keep_the_tray_awake():
    tray = make_tray(25)
    to_first_throw(tray)
    for _ in range(8):
        idle(tray, clock_mod.DIM_MS - 2000)
        tray.key("1")
    display = tray.display
    assert not display.dimmed and not display.asleep and tray.i2c.panel.contrast == 0x7F


def test_a_button_held_down_for_ever_does_not_keep_the_panel_lit():
    tray = make_tray(27)
    to_first_throw(tray)
    tray.pins["KEEP2"].level = 0  # something rests on KEEP2
    tray.run(100)
    idle(tray, clock_mod.SLEEP_MS + 1000, step=50)
    assert tray.display.asleep and not tray.i2c.panel.is_on


# ---- helpers above, checked ---------------------------------------------------------------


def test_a_saved_game_equals_the_game_it_came_from():
    tray = make_tray(26)
    to_first_throw(tray)
    saved = tray.store.saved[-1]
    assert load(saved, tray.roll) == tray.app.game
