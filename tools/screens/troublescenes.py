"""The scenes of pictures.py outside a game's play: a save lost at power-up, safe mode,
and the error screen runner.run itself shows when the tray crashes.
"""

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray import crash, runner
from dicetray.display import Display
from dicetray.screens import NOTICE
from dicetray.store import Store
from trayhost.oled import FakeI2C
from trayhost.pins import FakeClock, FakePin, ticks_diff
from trayhost.trayrun import NAMES, Buzzer, MemFS

from screens import rig
from screens.rig import Rig, Shot, panel_bits

# What runner.run shows comes from the traceback, which names this checkout's paths: a fixed
# text keeps the error picture the same on every machine.
FIXED_TRACEBACK = "Traceback (most recent call last):\nRuntimeError: made up for the picture\n"


def save_lost(shots):
    fs = MemFS()
    fs.files["game.json"] = b'{"format": "dicetray-game", "vers'  # cut short by a power loss
    rig = Rig(shots, fs=fs)
    rig.snap("save_lost", NOTICE, "the saved game could not be read: a new game starts")


def safe_mode(shots):
    i2c = FakeI2C()
    display = Display(i2c, ticks_diff=ticks_diff)
    crash.safe_mode(display, Store(fs=rig.speaking(MemFS())))  # spoken as a Rig's tray
    shots.append(Shot("safe_mode", "safe mode (OK held at power-up)", 128, 64, panel_bits(i2c)))


class _CrashBoard(FakeClock):
    """What runner.run needs of a Board; the clock moves only when slept."""

    def __init__(self):
        super().__init__()
        self.pins = [(n, FakePin()) for n in NAMES]
        self.edges = None  # no pin interrupts: Buttons reads the levels only
        self.buzzer = Buzzer()

    def random_bits(self, k):
        return 0x2545F491 & ((1 << k) - 1)

    def start_watchdog(self):
        pass

    def feed(self):
        pass

    def collect(self):
        pass

    def reset(self):
        raise RuntimeError("the board would reset")


class _CrashingStore(Store):
    def load_settings(self, defaults):
        raise RuntimeError("made up for the picture")


def error_screen(shots):
    """runner.run itself catches a crash and shows its error screen."""
    i2c = FakeI2C()
    board = _CrashBoard()
    display = Display(i2c, ticks_diff=ticks_diff)
    real = crash.traceback_text
    crash.traceback_text = lambda exc: FIXED_TRACEBACK
    try:
        runner.run(board, display, _CrashingStore(fs=MemFS()), loops=1)
    finally:
        crash.traceback_text = real
    shots.append(Shot("error", "an unexpected error: the game restarts", 128, 64, panel_bits(i2c)))
