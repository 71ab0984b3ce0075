"""A tray on the decoding panel that takes pictures of what its glass shows (Rig, Shot).

pictures.py writes the pictures; scenes.py plays the scenes that take them.
"""

import json

from trayhost.autoplay import ScriptedDice
from trayhost.oled import FakeI2C
from trayhost.trayrun import MemFS, Tray

SEED = 7  # the roll animation's seed; no picture is taken during the animation anyway
# The language of the trays the rigs make (dicetray.words' code), as their settings file says
# it: None, the tray's default (no settings file).
LANG = None


def speaking(fs=None):
    """fs, or a new MemFS, whose settings say LANG unless it has settings of its own; fs as it
    is (None too) when LANG is None."""
    if LANG is None:
        return fs
    fs = MemFS() if fs is None else fs
    if "settings.json" not in fs.files:
        fs.files["settings.json"] = json.dumps({"lang": LANG}).encode()
    return fs


class Shot:
    """One picture: its file name (no .png), what it shows, and the panel's lit pixels."""

    def __init__(self, name, caption, width, height, bits, screen=None):
        self.name = name
        self.screen = screen  # the app's screen (None: drawn by runner, no app)
        self.caption = caption
        self.width = width
        self.height = height
        self.bits = bits  # width * height bytes, 1 = lit, row by row


def panel_bits(i2c):
    return b"".join(bytes(row) for row in i2c.panel.pixels())


class Rig:
    """A tray on the decoding panel; dice are fed in just before the keys that throw them."""

    def __init__(self, shots, width=128, height=64, fs=None):
        self.shots = shots
        self.dice = ScriptedDice(())
        fs = speaking(fs)
        self.i2c = FakeI2C(width=width, height=height)
        self.tray = Tray(self.dice, i2c=self.i2c, fs=fs, width=width, height=height, seed=SEED)
        self.app = self.tray.app

    @property
    def game(self):
        return self.app.game

    def play(self, keys, *throws):
        """Press keys; throws: the dice (lists) the keys will throw, in order."""
        for dice in throws:
            self.dice.values.extend(dice)
        self.tray.keys(keys)

    def redraw(self):
        """After state was set up directly: draw it and send it, as the main loop would."""
        self.app.render()
        self.tray.display.show(self.tray.now)

    def snap(self, name, screen, caption):
        # Fail loudly when the app has moved on elsewhere: a wrong picture is worse than none.
        app = self.app
        if app.screen != screen:
            raise RuntimeError("%s: the tray shows %r, not %r" % (name, app.screen, screen))
        left = len(self.dice.values) - self.dice.i
        if left:
            raise RuntimeError("%s: %d scripted dice were not thrown" % (name, left))
        if app.clock.rolling or app.dirty:
            raise RuntimeError("%s: the panel is not up to date" % name)
        w, h = self.tray.display.width, self.tray.display.height
        self.shots.append(Shot(name, caption, w, h, panel_bits(self.i2c), screen))

