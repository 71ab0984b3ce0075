"""The tray in a browser: the firmware's App on a canvas, buttons, files and a buzzer fed by JS.

Runs on MicroPython's WebAssembly build in the page (tray.js drives it); never on the Pico. The
page's JavaScript calls, through MicroPython's JS bridge:

    tray = WebTray(seed, height, now)   boot, after tray.js put the saved files in SAVE_DIR
                                        (seed None: dice from the browser's entropy)
    tray.set_button(name, down, now)    a finger or key on KEEP1..3, ROLL, OK (a step follows)
    tray.step(now)                      one poll of the main loop; "" when nothing changed, else
                                        the state: "HZ FLAGS SAVES HEX" (see WebTray.state)
    tray.labels()                       the language spoken, the buttons' names and the
                                        page's texts in it: "fr|GARDE 1|...|LANCE|OK|son coupé|..."

``now`` is the page's millisecond clock, wrapped like the Pico's ticks. Everything the game
does is the firmware's own code: App, Buttons, Store (on MicroPython's in-memory files, which
tray.js mirrors into the browser's storage after each save) and crash.crashed.
"""

import binascii
import os

import framebuf
from dicetray import words
from dicetray.app import LONG_BUTTONS, App
from dicetray.buttons import Buttons
from dicetray.runner import die_from_bits
from dicetray.store import Store, _OsFs
from trayhost import hostwords
from trayhost.autoplay import SeededDice
from trayhost.pins import FakePin, ticks_add, ticks_diff

NAMES = ("KEEP1", "KEEP2", "KEEP3", "ROLL", "OK")
SAVE_DIR = "/tray"
RESTART_MS = 4000  # the error screen stays this long, as crash.ERROR_SHOW_MS on the tray
ASLEEP, DIMMED = 2, 1  # the FLAGS of the state


class WebDisplay:
    """The display interface (dicetray/display.py) on a bare frame buffer that JS paints."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * (height // 8))
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shown = bytearray(len(self.buffer))
        self.dimmed = False
        self.asleep = False
        self.changed = True  # JS has not painted what the panel shows

    def show(self, now=None, pressed=False):
        if self.buffer != self.shown:
            self.shown[:] = self.buffer
            self.changed = True
        return True

    def dim(self, on=True):
        if bool(on) != self.dimmed:
            self.dimmed = bool(on)
            self.changed = True

    def sleep(self, on=True):
        if bool(on) != self.asleep:
            self.asleep = bool(on)
            self.changed = True


class WebBuzzer:
    """The piezo: the tone JS's oscillator plays (0: silent)."""

    def __init__(self):
        self.hz = 0
        self.changed = False

    def tone(self, freq_hz):
        self.hz = int(freq_hz)
        self.changed = True

    def off(self):
        if self.hz:
            self.hz = 0
            self.changed = True


class WatchedFs(_OsFs):
    """MicroPython's files (Store's own calls) that count the writes, so JS mirrors them."""

    def __init__(self):
        self.writes = 0

    def open(self, path, mode):
        if "r" not in mode:
            self.writes += 1
        return super().open(path, mode)

    def rename(self, old, new):
        self.writes += 1
        super().rename(old, new)

    def remove(self, path):
        self.writes += 1
        super().remove(path)


class WebTray:
    """One tray in the page: the board's part for the firmware (clock, entropy, reset), the
    display, buttons, buzzer and store, and the main loop's body (runner.run's) one step at a
    time, a crash included: the error screen, the log, a restart into the game."""

    def __init__(self, seed=None, height=64, now=0, root=SAVE_DIR):
        self.pins = {name: FakePin() for name in NAMES}
        self.display = WebDisplay(128, height)
        self.buzzer = WebBuzzer()
        self.fs = WatchedFs()
        try:
            os.mkdir(root)
        except OSError:
            pass  # tray.js made it to put the saved files back
        self.store = Store(fs=self.fs, root=root)
        if seed is None:  # play: dice from the browser's entropy, the firmware's unbiased die
            import random

            self.roll = die_from_bits(random.getrandbits)
            self.seed = random.getrandbits(30)
        else:  # a test: the dice of trayhost's SeededDice(seed), as on CPython
            self.roll = SeededDice(seed)
            self.seed = seed
        self.crashes = []
        self.down_until = None  # the error screen shows until then
        self.reset_due = False
        self.saves = 0
        self.now = now
        self.app = None
        self.safely(self.boot, now, False)

    def boot(self, now, resume):
        buttons = Buttons([(n, self.pins[n]) for n in NAMES], ticks_diff,
                          long_press=LONG_BUTTONS)
        self.app = App(self.display, buttons, self.store, self.roll, ticks_diff, ticks_add,
                       self.buzzer, self.seed)
        self.app.boot(now, resume)
        self.display.show(now)

    # ---- what crash.crashed asks of the board ----------------------------------------------

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def feed(self):
        pass

    def sleep_ms(self, ms):
        pass  # the page waits RESTART_MS between steps instead: a browser must not block

    def reset(self):
        self.reset_due = True  # a crash loop: the next start is a power-on, not a resume

    # ---- driven by tray.js -----------------------------------------------------------------

    def set_button(self, name, down, now):
        pin = self.pins[name]
        if down:
            pin.press()
        else:
            pin.release()
        return self.step(now)

    def step(self, now):
        """One pass of the main loop at now; returns "" or the state when anything changed."""
        self.now = now
        if self.down_until is not None:
            if ticks_diff(now, self.down_until) < 0:
                return ""
            self.down_until = None
            resume, self.reset_due = not self.reset_due, False
            self.safely(self.boot, now, resume)
        else:
            self.safely(self.app.step, now)
        return self.state() if self.changed() else ""

    def safely(self, fn, *args):
        try:
            fn(*args)
        except Exception as exc:  # as runner.run: logged, shown, restarted into the game
            from dicetray.crash import crashed

            self.crashes = crashed(self, self.display, self.store, exc, self.crashes)
            self.down_until = ticks_add(self.now, RESTART_MS)

    def changed(self):
        return self.display.changed or self.buzzer.changed or self.fs.writes != self.saves

    def labels(self):
        """The language the tray speaks, then in it the buttons' names (NAMES' order) and the
        page's own texts (the sound button off and on, the key legend, the status line's, the
        legend's undo), then what a screen reader says of each button (NAMES' order), by "|"."""
        t = hostwords.of(words.lang)
        return "|".join((words.lang,) + tuple(t.BUTTONS) + tuple(t.WEB_SOUND) + (
            t.WEB_LEGEND, t.WEB_SEEDED, t.WEB_PLAIN_HTTP, t.WEB_KEEPS_NO_GAME, t.WEB_STOPPED,
            t.WEB_LEGEND_UNDO) + tuple(t.WEB_BUTTON_HELP))

    def state(self):
        """"HZ FLAGS SAVES LANG HEX": the buzzer's tone (0: silent), ASLEEP | DIMMED, the count
        of file writes (JS mirrors the files when it moves), the language spoken (JS asks for
        its labels when it changes) and the panel's bytes (MONO_VLSB)."""
        d = self.display
        d.changed = self.buzzer.changed = False
        self.saves = self.fs.writes
        flags = (ASLEEP if d.asleep else 0) | (DIMMED if d.dimmed else 0)
        return "%d %d %d %s %s" % (self.buzzer.hz, flags, self.saves, words.lang,
                                   binascii.hexlify(d.shown).decode())
