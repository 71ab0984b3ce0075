"""The display interface: what the app and the runner use of a display, and the simulator's
canvas display, which shows what the SSD1306 driver puts on the glass."""

from dicetray import crash
from trayhost.autoplay import SeededDice
from trayhost.canvas import CanvasDisplay
from trayhost.oled import FakeI2C
from trayhost.trayrun import Tray, game_keys

# The interface as firmware/dicetray/display.py's docstring writes it down.
DISPLAY_MEMBERS = {"fb", "width", "height", "show", "dim", "sleep", "dimmed", "asleep", "buffer"}
CANVAS_MEMBERS = {"fill", "fill_rect", "blit"}
IDLE = "." * 310  # past the dim (1 min) and the sleep (5 min) timeouts


class Spy:
    """Passes every attribute through to `inner` and notes its name in `seen`."""

    def __init__(self, inner, seen, prefix=""):
        self._inner, self._seen, self._prefix = inner, seen, prefix

    def __getattr__(self, name):
        self._seen.add(self._prefix + name)
        value = getattr(self._inner, name)
        return Spy(value, self._seen, "fb.") if name == "fb" else value


def test_the_app_and_the_runner_use_exactly_the_written_down_interface():
    seen = set()
    canvas = CanvasDisplay()
    display = Spy(canvas, seen)
    tray = Tray(SeededDice(8), display=display, seed=8)
    for _ in game_keys(tray, 3, "lebon", SeededDice(9)):
        pass
    tray.keys("oO" + IDLE[:70])  # a new game, its standings, a minute idle: dim
    assert canvas.dimmed
    tray.keys(IDLE + "r")  # five minutes: dark; a press wakes it
    assert not canvas.asleep and not canvas.dimmed
    crash.safe_mode(display)
    crash.show_message(display, "ERROR", ("A LINE",), "KEYS", 5)
    assert {name for name in seen if "." not in name} == DISPLAY_MEMBERS
    assert {name[3:] for name in seen if name.startswith("fb.")} == CANVAS_MEMBERS


def test_the_canvas_shows_what_the_driver_puts_on_the_glass():
    i2c = FakeI2C()
    driven = Tray(SeededDice(11), i2c=i2c, seed=11)
    canvas = CanvasDisplay()
    drawn = Tray(SeededDice(11), display=canvas, seed=11)
    assert canvas.pixels() == i2c.panel.pixels()
    keys = list(game_keys(driven, 2, "jackpot", SeededDice(12))) + list("o" + IDLE + "rr")
    driven = Tray(SeededDice(11), i2c=i2c, seed=11)
    dark = 0
    for i, k in enumerate(keys):
        driven.key(k)
        drawn.key(k)
        assert canvas.pixels() == i2c.panel.pixels(), (i, k, drawn.app.screen)
        dark += canvas.asleep
    assert dark >= 10 and not canvas.asleep  # dark after five idle minutes; then woken


def test_the_canvas_is_dark_while_asleep_and_counts_what_a_viewer_sees_change():
    d = CanvasDisplay(128, 32)
    assert len(d.pixels()) == 32 and not any(any(row) for row in d.pixels())
    changes = d.changes
    d.fb.pixel(3, 20, 1)
    assert not d.pixels()[20][3]  # drawn, not shown yet
    d.show()
    assert d.pixels()[20][3] and d.changes == changes + 1
    d.show()
    d.dim(True)
    assert d.changes == changes + 1 and d.dimmed  # nothing new to see
    d.sleep(True)
    assert not any(any(row) for row in d.pixels()) and d.changes == changes + 2
    d.sleep(False)
    assert d.pixels()[20][3] and d.changes == changes + 3
