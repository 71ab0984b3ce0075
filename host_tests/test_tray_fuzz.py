"""Random button level streams with bounce, long holds, idle and an unplugged display."""

import json
from collections import Counter
from unittest import mock

from dicetray import screens_setup
from dicetray.app import App
from dicetray.clock import TURN_DUE, Clock
from dicetray.game import Game
from dicetray.store import Store
from fakes.flash import FakeFlash, saved_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tray import assert_panel_shows, fb_rows, make_tray, play, tokens_ok
from trayhost.autoplay import SeededDice
from trayhost.pins import TICKS_MAX, ticks_add
from trayhost.trayrun import NAMES

# Contact bounce lasts up to ~20 ms (buttons.py): "up" for longer is a real release. The
# reference below uses this, not Buttons.debounce_ms, so a debounce cut too short is caught.
BOUNCE_MS = 20


def _saved_games():
    """A save early in a game of 2, and one a few actions before its end."""
    tray = make_tray(51)
    play(tray, 2, "classic", SeededDice(52))
    saved = tray.store.saved
    return [json.dumps(saved[i]).encode() for i in (3, -6)]


SAVES = _saved_games()

PINS = st.sampled_from((0, 1, 2, 3, 3, 3, 4, 4))  # indices in NAMES; ROLL and OK more often
BOUNCE = st.lists(st.integers(0, 15), max_size=4)  # ms between contact flips
LEVEL = st.tuples(PINS, st.integers(0, 1), st.integers(0, 300))  # one level change, then wait
HOLD = st.one_of(st.integers(1, 120), st.integers(1, 120), st.integers(1, 120),
                 st.integers(120, 1600), st.integers(120, 1600), st.integers(1600, 4000))
TAP = st.tuples(PINS, BOUNCE, HOLD, BOUNCE, st.integers(0, 500))  # a finger: bounce, hold, bounce
IDLE = st.tuples(st.just(-1), st.sampled_from([5_000, 61_000, 301_000]))  # one late poll
PLUG = st.tuples(st.just(-2))  # unplug or replug the display
ITEM = st.one_of(LEVEL, LEVEL, TAP, TAP, TAP, TAP, TAP, IDLE, PLUG)


def levels_of(item):
    """The (pin or None, level, ms) steps of one stream item; pin None: no change, just wait."""
    if item[0] == -2:
        return [("plug", 0, 0)]
    if item[0] == -1:
        return [(None, 1, item[1])]
    if len(item) == 3:
        return [item]
    pin, down_bounce, hold, up_bounce, rest = item
    steps = []
    level = 0
    for ms in down_bounce:
        steps.append((pin, level, ms))
        level ^= 1
    steps.append((pin, 0, hold))
    level = 1
    for ms in up_bounce:
        steps.append((pin, level, ms))
        level ^= 1
    steps.append((pin, 1, rest))
    return steps


class Presses:
    """A reference count of distinct presses from the levels the tray sampled: a press starts
    at a "down" sample once the button was sampled "up" for longer than contact bounce."""

    def __init__(self):
        self.count = Counter()
        self.up_since = {name: None for name in NAMES}  # None: up since forever
        self.down = {name: False for name in NAMES}

    def sample(self, now_ms, levels):
        for name in NAMES:
            if levels[name] == 0:
                if not self.down[name]:
                    self.down[name] = True
                    self.count[name] += 1
                self.up_since[name] = None  # a bounce starts the release over
            elif self.down[name]:
                if self.up_since[name] is None:
                    self.up_since[name] = now_ms
                elif now_ms - self.up_since[name] >= BOUNCE_MS:
                    self.down[name] = False


class Counting:
    """Counts the game actions the engine accepted."""

    def __init__(self):
        self.n = Counter()

    def wrap(self, name):
        real = getattr(Game, name)

        def counted(game, *args, **kwargs):
            events = real(game, *args, **kwargs)
            self.n[name] += 1
            return events

        return counted


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stream=st.lists(ITEM, min_size=40, max_size=150),
    resume=st.sampled_from([None, 0, 1]),
    start=st.sampled_from([0, TICKS_MAX - 20_000]),  # also across the ticks wrap
    seed=st.integers(1, 1000),
)
def test_random_button_streams_never_break_the_tray(stream, resume, start, seed):
    flash = FakeFlash()
    if resume is not None:
        Store(flash).save_game(json.loads(SAVES[resume]))
    counting = Counting()
    starts = Counter()
    real_start = screens_setup.start_game

    def start_game(menu, app):
        starts["n"] += 1
        starts["kept"] += app.kept is not None  # saved from its first throw: the one kept stays
        real_start(menu, app)

    wrapped = {v: counting.wrap(v) for v in ("throw", "stop", "announce", "keep", "take_back")}
    real_tick = Clock.tick

    def tick(clock, now):  # counts the turns that ended by themselves (no press)
        due = real_tick(clock, now)
        if due & TURN_DUE:
            starts["auto"] += 1
        return due

    real_back = App.take_ahead_back

    def take_ahead_back(app):  # a stop made as OK went down, taken back unseen and unsaved
        starts["unseen"] += 1
        real_back(app)

    with mock.patch.multiple(Game, **wrapped), mock.patch.object(
            screens_setup, "start_game", start_game), mock.patch.object(Clock, "tick", tick), \
            mock.patch.object(App, "take_ahead_back", take_ahead_back):
        tray = make_tray(seed, flash=flash, start_ms=start)
        app = tray.app
        events = Counter()  # what the buttons reported, per button
        real_poll = tray.buttons.poll

        def poll_buttons(now):
            event = real_poll(now)
            if event is not None:
                events[event[0]] += 1
            return event

        tray.buttons.poll = poll_buttons
        presses = Presses()
        levels = {name: 1 for name in NAMES}
        elapsed = 0  # unwrapped ms, for the reference count

        def poll(ms):
            nonlocal elapsed
            tray.now = ticks_add(tray.now, ms)
            elapsed += ms
            presses.sample(elapsed, levels)
            app.step(tray.now)

        for pin, level, dt in (step for item in stream for step in levels_of(item)):
            if pin == "plug":
                tray.i2c.connected = not tray.i2c.connected
            elif pin is not None:
                levels[NAMES[pin]] = level
                tray.pins[NAMES[pin]].level = level
            step = 5 if pin is not None else dt  # idle: the loop stalls, then one late poll
            while dt > 0:
                poll(min(step, dt))
                dt -= step
            if app.game is not None:
                assert tokens_ok(app.game)
        for name in NAMES:
            levels[name] = tray.pins[name].level = 1
        tray.i2c.connected = True
        for _ in range(1200):  # 6 s: the driver retries, the keepalive repairs
            poll(5)

    n = counting.n
    unseen = starts["unseen"]  # each a Game.stop made ahead, then a Game.take_back: no action
    n["stop"] -= unseen
    n["take_back"] -= unseen
    p = presses.count
    auto = starts["auto"]  # each one a turn's end: the clock's, no press's
    actions = n["throw"] + n["stop"] + n["announce"] + n["keep"]
    for name in NAMES:  # bounce never makes a second event; a held button never repeats
        assert events[name] <= p[name], name
    assert actions + starts["n"] <= sum(p.values()) + auto
    assert auto <= n["throw"] and auto <= n["stop"]  # a throw used the last one, then its stop
    assert n["throw"] + n["stop"] <= p["ROLL"] + p["OK"] + auto
    assert n["announce"] <= p["KEEP1"] + p["KEEP3"]
    assert n["keep"] <= p["KEEP1"] + p["KEEP2"] + p["KEEP3"]
    assert starts["n"] <= p["OK"]
    undone = n["take_back"]  # a stop or stake taken back (KEEP1 on the undo's question)
    assert undone <= p["KEEP1"]
    # Every action saved (keeps too), and every undo: the game it goes back to; and every
    # start, but one while a game left is kept (its first throw saves it).
    assert len(tray.store.saved) == actions + undone + starts["n"] - starts["kept"]
    if app.game is not None:
        assert tokens_ok(app.game)
        if app.kept is not None:  # a game left, kept on flash till a new game's first throw
            assert saved_game(flash.files) == app.kept.to_dict()
        elif not app.game.over:
            assert saved_game(flash.files) == app.game.to_dict()
    panel = tray.i2c.panel
    assert tray.display.ok
    display = tray.display
    assert panel.is_on == (not display.asleep)
    assert panel.contrast == (display.panel.dim_contrast if display.dimmed else 0x7F)
    if display.asleep:
        assert panel.ram_image() == fb_rows(tray.display)
    else:
        assert_panel_shows(tray)
