"""The main loop (runner.py) on a fake board: play, crash and restart, crash loops (crash.py),
safe mode (main.py), fair dice."""

import random
import runpy
import sys
import types
from pathlib import Path

import pytest
from dicetray import board as board_mod
from dicetray import crash, runner, ui
from dicetray.app import App
from dicetray.buttons import Buttons, Edges
from dicetray.display import Display
from dicetray.screens import PLAY, SETUP
from dicetray.store import Store
from fakes.flash import FakeFlash, saved_game
from test_tray import fb_rows
from trayhost.oled import FakeI2C
from trayhost.pins import EdgePin, FakeClock, ticks_add, ticks_diff
from trayhost.trayrun import KEYS, LONG_MS, NAMES, PRESS_MS, REST_MS

MAIN = Path(__file__).resolve().parent.parent / "firmware" / "main.py"


class WatchdogReset(BaseException):
    """The watchdog reset the board: no Python cleanup runs, so no `except Exception` sees it."""


class FakeBoard:
    """The Board interface on fakes: pins, a clock that sleep_ms moves, watchdog and reset
    counters, seeded random bits, no buzzer. type() schedules key presses (trayrun's keys).
    A scripted change of a pin is noted in edges, as the Board's pin interrupt notes it.
    work(ms) is code busy for ms: past the watchdog's timeout without a feed, WatchdogReset."""

    def __init__(self, seed=1, start=0):
        self.clock = FakeClock(start)
        self.edges = Edges(len(NAMES))  # in the names' sorted order, as Board's
        self.pins = {name: EdgePin(self.edges, sorted(NAMES).index(name), self.clock)
                     for name in NAMES}
        self.buzzer = None
        self.i2c = FakeI2C()
        self.rng = random.Random(seed)
        self.watchdog_started = 0
        self.fed = None  # ticks of the watchdog's start or its last feed
        self.feeds = []  # ticks of every feed
        self.resets = 0
        self.collections = []  # ticks of every garbage collection asked for
        self.sleeps = 0
        self.script = []  # (elapsed ms, pin name, level), in order
        self.elapsed = 0  # ms slept since the start
        self.on_sleep = None  # called with (board, ms) after each sleep

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)

    def ticks_ms(self):
        return self.clock.now

    def sleep_ms(self, ms):
        self.sleeps += 1
        self.clock.sleep_ms(ms)
        self.elapsed += ms
        while self.script and self.script[0][0] <= self.elapsed:
            _, name, level = self.script.pop(0)
            self.pins[name].value(level)
        if self.on_sleep:
            self.on_sleep(self, ms)

    def pause(self, ms):
        """Board.pause: ms, or up to the next scripted change of a pin (its edge's wake)."""
        if self.script:
            ms = min(ms, self.script[0][0] - self.elapsed)
        self.sleep_ms(ms)

    def type(self, keys, at=0):
        """Press keys like trayrun.Tray.key, starting `at` ms from the start; returns the end."""
        t = at
        for k in keys:
            if k == ".":
                t += 1000
                continue
            name = KEYS[k]
            self.script.append((t, name, 0))
            t += LONG_MS if k == "O" else PRESS_MS
            self.script.append((t, name, 1))
            t += REST_MS
        self.script.sort(key=lambda e: e[0])
        return t

    def start_watchdog(self):
        self.watchdog_started += 1
        self.fed = self.clock.now

    def feed(self):
        self.fed = self.clock.now
        self.feeds.append(self.clock.now)

    def work(self, ms):
        self.clock.sleep_ms(ms)
        starved = ticks_diff(self.clock.now, self.fed) if self.fed is not None else 0
        if starved > min(board_mod.WATCHDOG_MS, board_mod.WATCHDOG_MAX_MS):
            raise WatchdogReset("no feed for %d ms" % starved)

    def collect(self):
        self.collections.append(self.clock.now)

    def random_bits(self, k):
        return self.rng.getrandbits(k)

    def reset(self):
        self.resets += 1

    held_at_boot = board_mod.Board.held_at_boot  # the real one, on fake pins and clock

    def display_settings(self):
        return {"driver": "ssd1306", "addr": 0x3C, "width": 128, "height": 64, "rotate": False}


def rig(seed=1):
    board = FakeBoard(seed)
    display = Display(board.i2c, ticks_diff=ticks_diff)
    flash = FakeFlash()
    return board, display, flash, Store(fs=flash)


class Apps(list):
    """The apps the runner made; boots: (screen, resume) right after each boot."""

    boots = None


@pytest.fixture
def apps(monkeypatch):
    """Every App the runner makes, and (screen, resume) right after each boot."""
    made = Apps()
    boots = []
    real_make, real_boot = runner.make_app, App.boot

    def make_app(*args, **kwargs):
        made.append(real_make(*args, **kwargs))
        return made[-1]

    def boot(self, now, resume=False):
        real_boot(self, now, resume)
        boots.append((self.screen, resume))

    monkeypatch.setattr(runner, "make_app", make_app)
    monkeypatch.setattr(App, "boot", boot)
    made.boots = boots
    return made


def picture(title, lines, keys):
    """What ui.message draws for these texts, as rows of 0/1."""
    d = Display(FakeI2C(), ticks_diff=ticks_diff)
    ui.message(d.fb, 128, 64, title, lines, keys)
    return fb_rows(d)


def error_picture(code):
    return picture("ERROR " + code, ("SORRY! THE GAME", "IS SAVED AND", "RESTARTS"),
                   "SEE ERROR.LOG")


def max_gap(times):
    return max(ticks_diff(b, a) for a, b in zip(times, times[1:]))


def test_a_press_is_read_at_its_edge_and_ok_as_soon_as_its_release_is_sure(monkeypatch):
    board, display, flash, store = rig()
    presses = []
    real_press = App.press

    def press(self, name, long, now):
        presses.append((name, now, self.screen))
        real_press(self, name, long, now)

    monkeypatch.setattr(App, "press", press)
    end = board.type("r", at=1003)  # between two polls (every POLL_MS from 0)
    start = end + 1
    end = board.type("o", at=start)
    refused = end + 1
    board.type("o", at=refused)
    runner.run(board, display, store, loops=2000)
    # The pin's edge ends the main loop's pause: ROLL acts at its edge, not at the next poll;
    # so does OK on the setup, where held it means OK too. In the roll-off OK held opens the
    # table: there OK acts once it has been up Buttons.said_ms, not a poll or two later.
    assert presses == [("ROLL", 1003, SETUP), ("OK", start, SETUP),
                       ("OK", refused + PRESS_MS + Buttons.said_ms, PLAY)]


def test_the_runner_plays_from_the_buttons(apps):
    board, display, flash, store = rig()
    board.type("or")  # start a game, then the roll-off
    loops = 2000
    runner.run(board, display, store, loops=loops)
    (app,) = apps
    assert app.screen == PLAY and app.game.contest is not None and app.game.contest.results
    assert saved_game(flash.files) == app.game.to_dict()
    assert board.watchdog_started == 1
    assert len(board.feeds) == loops and max_gap(board.feeds) <= runner.POLL_MS
    assert board.i2c.panel.pixels() == fb_rows(display)
    assert board.resets == 0 and "error.log" not in flash.files


def test_a_tap_made_while_a_save_holds_the_loop_up_is_still_taken(apps, monkeypatch):
    board, display, flash, store = rig()
    held_up = []  # (from, to): the board's ms while a save held the main loop
    real_save = App.save

    def save(self):  # as slow as the Pico's flash at its slowest (an erase or two)
        start = board.elapsed
        board.sleep_ms(250)
        real_save(self)
        held_up.append((start, board.elapsed))

    monkeypatch.setattr(App, "save", save)
    board.type("o", at=500)  # starts a game (OK acts as it is let go): the game is saved...
    board.script += [(640, "ROLL", 0), (680, "ROLL", 1)]  # ... and ROLL tapped meanwhile
    runner.run(board, display, store, loops=600)
    (app,) = apps
    assert held_up[0][0] < 640 and 680 < held_up[0][1]  # the whole tap fell in the first save
    assert app.game is not None and len(app.game.contest.results) == 1  # the roll-off's throw
    assert saved_game(flash.files) == app.game.to_dict()
    assert len(held_up) == 2  # the started game, then the throw: no second press from bounce


def test_the_heap_is_tidied_once_after_each_press_when_the_panel_and_the_save_are_done(apps):
    board, display, flash, store = rig()
    end = board.type("or", at=500)  # start a game (OK acts as it is let go), then a roll-off throw
    seen = []

    def collect():  # what the tray was doing when the runner collected
        app = apps[-1]
        seen.append((board.clock.now, app.buttons.any_down(), app.clock.rolling, app.dirty,
                     app.unsaved, saved_game(flash.files) if "game.json" in flash.files else None))

    board.collect = collect
    runner.run(board, display, store, loops=1000)  # 5 s: the presses, then rest
    (app,) = apps
    assert len(seen) == 3  # after the boot's first screen, after OK, after ROLL's dice landed
    for _, down, rolling, dirty, unsaved, _ in seen:
        assert not down and not rolling and not dirty and not unsaved
    assert seen[0][0] < 500 and seen[0][5] is None  # the setup drawn; no game yet
    assert seen[1][5]["contest"]["results"] == []  # the new game saved
    assert seen[2][5] == app.game.to_dict() and app.game.contest.results  # the throw saved
    assert seen[2][0] < end + 1000  # soon after; then 4 s idle with no collection at all


def test_the_loop_polls_on_without_a_pause_while_the_seats_work(apps):
    # 8 players, the tray plays 7, hints on: the seats' tables and choices are made a piece a
    # poll, back to back (no pause after a piece), the buttons read between two pieces; an
    # idle poll still pauses POLL_MS.
    board, display, flash, store = rig()
    store.save_settings({"players": 8, "computers": 7, "hints": True})
    board.type("or", at=500)  # start the game, then the roll-off's throw
    pauses = []  # (the ms asked, the step before it made a piece of the seats' work)
    real = board.pause

    def pause(ms):
        pauses.append((ms, apps[-1].working))
        real(ms)

    board.pause = pause
    runner.run(board, display, store, loops=3000)
    (app,) = apps
    assert app.game is not None and app.game.computers == [1, 2, 3, 4, 5, 6, 7]
    worked = [ms for ms, working in pauses if working]
    assert len(worked) > 50 and set(worked) == {0}  # the strategy's warm-up, in many pieces
    assert set(ms for ms, working in pauses if not working) == {runner.POLL_MS}
    assert len(board.feeds) == 3000  # the watchdog fed at every poll all the same


def logged_code(log):
    """The code of the one crash in the log: its first line names it, the traceback makes it."""
    code = crash.error_code(log[log.index("\n") + 1 :])
    assert log.startswith("ERROR %s\n" % code)  # the log names the code the screen showed
    return code


def crash_once_at(monkeypatch, when):
    """App.step raises RuntimeError("boom") once, at its first call when when(app) is true."""
    real = App.step
    fired = []

    def step(self, now):
        if not fired and when(self):
            fired.append(now)
            raise RuntimeError("boom")
        real(self, now)

    monkeypatch.setattr(App, "step", step)
    return fired


def test_a_crash_shows_a_code_logs_the_traceback_feeds_the_watchdog_and_resumes(
        apps, monkeypatch):
    board, display, flash, store = rig()
    board.type("orr")  # start, then two of the four players roll for who starts
    fired = crash_once_at(monkeypatch, lambda app: app.game is not None and app.game.contest
                          and len(app.game.contest.results) == 2)
    seen = {}

    def on_sleep(b, ms):
        if ms == 100 and "error" not in seen:  # the runner waits in 100 ms steps on the error
            seen["error"] = b.i2c.panel.pixels()
            seen["saved"] = saved_game(flash.files)

    board.on_sleep = on_sleep
    runner.run(board, display, store, loops=3000)
    assert fired
    log = flash.files["error.log"].decode()
    assert "Traceback" in log and "RuntimeError: boom" in log
    code = logged_code(log)
    assert seen["error"] == error_picture(code)
    during = [t for t in board.feeds if 0 <= ticks_diff(t, fired[0]) <= crash.ERROR_SHOW_MS]
    assert len(during) >= crash.ERROR_SHOW_MS // 1000
    assert max_gap(board.feeds) <= 100  # never near the watchdog's timeout
    first, second = apps
    assert apps.boots == [(SETUP, False), (PLAY, True)]  # straight back in, no resume prompt
    assert second.game.to_dict() == seen["saved"] == first.game.to_dict()
    assert board.i2c.panel.pixels() == fb_rows(display)
    assert board.resets == 0


def test_the_same_crash_gives_the_same_code():
    assert crash.error_code("Traceback: x\n") == crash.error_code("Traceback: x\n")
    assert crash.error_code("Traceback: x\n") != crash.error_code("Traceback: y\n")
    assert len(crash.error_code("a" * 10_000)) == 5


@pytest.mark.parametrize("asleep", [False, True], ids=["dim", "asleep"])
def test_a_crash_while_the_display_is_dim_or_off_is_shown_at_full_brightness(
        apps, monkeypatch, asleep):
    board, display, flash, store = rig()
    board.type("or")
    fired = crash_once_at(monkeypatch,
                          lambda app: app.display.asleep if asleep else app.display.dimmed)
    seen = {}

    def on_sleep(b, ms):
        panel = b.i2c.panel
        if ms == 100 and "error" not in seen:
            seen["error"] = panel.pixels()
            seen["contrast"] = panel.contrast
        if len(apps) == 2 and ms == runner.POLL_MS and "after" not in seen:  # restarted
            app = apps[1]
            seen["after"] = (app.display.asleep, app.display.dimmed, panel.is_on, panel.contrast,
                             panel.pixels() == fb_rows(display))

    board.on_sleep = on_sleep
    loops = 310_000 // runner.POLL_MS
    runner.run(board, display, store, loops=loops)
    assert fired
    code = logged_code(flash.files["error.log"].decode())
    assert seen["error"] == error_picture(code)
    assert seen["contrast"] == 0x7F
    # The new app believes the display is lit: it must be, or the next press plays blind.
    assert seen["after"] == (False, False, True, 0x7F, True)


def crash_at(monkeypatch, times):
    """App.step raises at its first call at or after each of these ticks."""
    real = App.step
    pending = list(times)

    def step(self, now):
        if pending and ticks_diff(now, pending[0]) >= 0:
            pending.pop(0)
            raise RuntimeError("boom")
        real(self, now)

    monkeypatch.setattr(App, "step", step)
    return pending


@pytest.mark.parametrize("gap, resets", [(20_000, 1), (31_000, 0)])
def test_three_crashes_within_a_minute_reset_the_board(apps, monkeypatch, gap, resets):
    board, display, flash, store = rig()
    crash_at(monkeypatch, [0, gap, 2 * gap])
    runner.run(board, display, store, loops=(2 * gap + 10_000) // runner.POLL_MS)
    assert len(apps) == 4  # three restarts
    assert flash.files["error.log"].decode().count("RuntimeError: boom") == 3
    assert board.resets == resets


def test_two_crashes_do_not_reset(apps, monkeypatch):
    board, display, flash, store = rig()
    crash_at(monkeypatch, [0, 1000])
    runner.run(board, display, store, loops=3000)
    assert len(apps) == 3 and board.resets == 0


def test_a_crash_loop_resets_at_the_third_crash(apps, monkeypatch):
    board, display, flash, store = rig()

    def resets_seen(b, ms):
        counts.append((len(apps), b.resets))

    counts = []
    board.on_sleep = resets_seen
    monkeypatch.setattr(App, "step", lambda self, now: 1 / 0)
    runner.run(board, display, store, loops=3)
    assert board.resets == 1
    assert (3, 0) in counts and (3, 1) not in counts  # reset after the third error screen
    assert board.watchdog_started == 1


SAFE = ("SAFE MODE", ("NO GAME RUNNING", "USB REPL IS FREE", "FOR MPREMOTE"),
        "POWER OFF TO LEAVE")


def test_safe_mode_shows_its_screen_and_never_starts_the_watchdog():
    board = FakeBoard()
    display = Display(board.i2c, ticks_diff=ticks_diff)
    crash.safe_mode(display)
    assert board.i2c.panel.pixels() == picture(*SAFE)
    assert board.watchdog_started == 0 and not board.feeds


@pytest.mark.parametrize("held", [True, False, "bounce"])
def test_main_enters_safe_mode_only_when_ok_is_held(monkeypatch, held):
    board = FakeBoard()
    if held is True:
        board.pins["OK"].press()
    elif held == "bounce":  # a glitch at power-up, not a hold
        board.pins["OK"].press()
        board.script = [(10, "OK", 1)]
    fake = types.ModuleType("dicetray.board")
    fake.Board = lambda: board
    monkeypatch.setitem(sys.modules, "dicetray.board", fake)
    ran = []
    monkeypatch.setattr(runner, "run", lambda b, d, *a, **k: ran.append((b, d)))
    runpy.run_path(str(MAIN), run_name="__main__")
    assert board.watchdog_started == 0
    if held is True:
        assert not ran and board.i2c.panel.pixels() == picture(*SAFE)
    else:
        ((b, d),) = ran
        assert b is board and d.panel.i2c is board.i2c


# ---- the die ------------------------------------------------------------------------------


def test_a_die_from_bits_throws_six_and_seven_away():
    values = [7, 6, 2]
    asked = []

    def bits(k):
        asked.append(k)
        return values.pop(0)

    assert runner.die_from_bits(bits)() == 3  # not 7 % 6 + 1 == 2
    assert asked == [3, 3, 3]


def chi_square(counts):
    n = sum(counts)
    expected = n / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


# Five degrees of freedom: chi-square passes 30 with probability about 1.5e-5.
CHI2_LIMIT = 30.0


def test_sixty_thousand_rolls_are_fair():
    roll = runner.die_from_bits(random.Random(421).getrandbits)
    counts = [0] * 6
    for _ in range(60_000):
        counts[roll() - 1] += 1
    assert chi_square(counts) < CHI2_LIMIT


def test_the_fairness_check_catches_a_modulo_die():
    rng = random.Random(421)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.getrandbits(3) % 6] += 1
    assert chi_square(counts) > 100 * CHI2_LIMIT
