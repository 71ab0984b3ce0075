"""The clock's dim and sleep (clock.py): a minute idle dims the panel, five put it to sleep; a
press on a dimmed panel acts, the one that wakes a dark panel does nothing else. The clock's
other timers (a turn that ends by itself, presses in the roll animation): test_tray_presses.py.
"""

import pytest
from dicetray import clock as clock_mod
from dicetray.screens import STANDINGS
from test_tray import assert_panel_shows, idle, make_tray, state, to_first_throw
from trayhost.pins import ticks_add

NEAR_WRAP = (1 << 30) - 100_000  # the Pico's ticks wrap during these tests


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


def test_a_turn_that_ends_during_a_long_stall_leaves_a_dark_panel_dark():
    """The turn whose throws are used up ends by itself; when the main loop was held up so long
    that the same poll also puts the panel to sleep, the end counts as the last input but does
    not wake the panel: the next press only wakes it, as any press on a dark panel."""
    tray = make_tray(31)
    g = to_first_throw(tray)
    while g.turn.count < g.max_throws():
        tray.key("r")
    assert tray.app.game.must_stop() and not tray.display.asleep
    player, before = g.current, g.to_dict()
    tray.now = ticks_add(tray.now, clock_mod.SLEEP_MS + 1000)  # one late poll
    tray.app.step(tray.now)
    assert tray.display.asleep
    assert g.current != player or g.turn.pos  # the turn ended (as OK would end it)
    after = g.to_dict()
    assert after != before
    tray.key("r")  # wakes the panel, and does nothing else
    assert not tray.display.asleep and g.to_dict() == after


def test_tunes_held_for_a_press_made_ahead_play_at_its_release_or_go_with_it():
    t = make_tray(4)
    to_first_throw(t)
    c = t.app.clock
    before = list(t.buzzer.tones)
    c.end_turn(1234)  # a turn whose throws are used up ends by itself
    end_at = c.end_at
    c.hold()
    c.beep((440, 50))
    c.clear()  # what the stop made ahead does to that turn's end
    assert t.buzzer.tones == before
    c.release()
    assert len(t.buzzer.tones) == len(before) + 1 and t.buzzer.tones[-1] == 440
    c.end_turn(1234)
    c.hold()
    c.beep((880, 50))
    c.clear()
    c.take_back()  # taken back unseen: unheard, and the turn ends by itself as it would have
    assert t.buzzer.tones[-1] == 440 and c.ending and c.end_at == end_at
    c.beep((660, 50))  # nothing held any more: it plays
    assert t.buzzer.tones[-1] == 660
