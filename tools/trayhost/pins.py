"""Fake button pins and a fake millisecond clock that wraps like the Pico's: the host's one
ticks_add and ticks_diff (the tray harness, the simulator, the screens and the tests use these).
"""

TICKS_PERIOD = 1 << 30  # the Pico's ticks_ms() wraps here
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD // 2


def ticks_add(ticks, delta):
    """MicroPython's ``time.ticks_add``: ``ticks + delta`` wrapped into [0, 2**30)."""
    return (ticks + delta) & TICKS_MAX


def ticks_diff(ticks1, ticks2):
    """MicroPython's ``time.ticks_diff``: signed ``ticks1 - ticks2`` in [-2**29, 2**29)."""
    return ((ticks1 - ticks2 + TICKS_HALF) & TICKS_MAX) - TICKS_HALF


class FakePin:
    """A pin whose level the caller sets; ``value()`` reads it like ``machine.Pin``.

    Buttons are wired to GND with a pull-up, so ``press()`` drives 0 and ``release()`` 1.
    """

    def __init__(self, level=1):
        self.level = level

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None

    def press(self):
        self.level = 0

    def release(self):
        self.level = 1


class EdgePin(FakePin):
    """A FakePin whose every change of level is noted in edges (a dicetray.buttons.Edges) at
    index i, at the clock's time, as the board's pin interrupt notes it."""

    def __init__(self, edges, i, clock, level=1):
        super().__init__(level)
        self.edges, self.i, self.clock = edges, i, clock

    def value(self, level=None):
        if level is not None and (1 if level else 0) != self.level:
            self.edges.note(self.i, self.clock.now)
        return super().value(level)

    def press(self):
        self.value(0)

    def release(self):
        self.value(1)


class FakeClock:
    """A millisecond clock that only moves when told to, with MicroPython's wrap-around."""

    def __init__(self, start=0):
        self.now = start & TICKS_MAX

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now = ticks_add(self.now, ms)

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)
