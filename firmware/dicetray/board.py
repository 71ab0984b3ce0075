"""The board file: every pin and hardware choice of the dice tray, and the one file a maker edits.

Edit only the block of constants below. The code under it is the only place in the firmware that
imports ``machine``; it does so inside functions, so a PC can import this file to read the
constants (the tests check them against hardware/README.md, pinmap.csv and the Wokwi diagram).
"""

# ==============================================================================================
# EDIT HERE. Physical pin numbers (1-40, counted round the Pico) are given in the comments.
# Everything sits on the Pico's right-hand row (pins 21-36): one side of the breadboard carries
# all the wires and each group has a GND pin in its middle or right beside it.
# Changed a pin? Change hardware/README.md, pinmap.csv and wokwi/diagram.json with it:
# host_tests/test_hardware.py fails until all four agree.
# ==============================================================================================

# Display bus. GP26/GP27 (pins 31/32) are I2C1 SDA/SCL, with GND (33) and 3V3(OUT) (36) a few
# pins away: the OLED's four wires land within six pins. SDA must be an even GPIO, SCL odd.
I2C_ID = 1  # 0 or 1 (the RP2040's I2C blocks); None = software I2C on any two pins
PIN_SDA = 26
PIN_SCL = 27
I2C_FREQ = 400_000  # the speed the SSD1306 and SH1106 datasheets promise
FAST_I2C = False  # True: try FAST_I2C_FREQ first and fall back to I2C_FREQ if the panel is silent
FAST_I2C_FREQ = 1_000_000  # most modules keep up; a full screen then takes ~10 ms, not ~25 ms

# Display panel.
DISPLAY_DRIVER = "ssd1306"  # "sh1106" for most 1.3" modules (picture shifted 2 columns or noise)
DISPLAY_ADDR = 0x3C  # 0x3D on modules whose address jumper on the back has been moved
DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64  # 32 for the 0.91" strip panels
DISPLAY_ROTATE = False  # True turns the picture 180 degrees (module mounted header down)

# Buttons, each between its GPIO and GND; the internal pull-ups mean no resistors. In the order
# they sit on the tray: one key under each die, then ROLL and OK. GP16-GP20 are pins 21, 22, 24,
# 25, 26 with GND (23) in the middle of them. Hold OK while powering up for safe mode.
BUTTON_PINS = (
    ("KEEP1", 16),
    ("KEEP2", 17),
    ("KEEP3", 18),
    ("ROLL", 19),
    ("OK", 20),
)

# Piezo buzzer on a PWM pin: GP21 is pin 27, right next to GND (28), so a piezo's two legs can
# straddle them. None = no buzzer (the game is silent).
BUZZER_PIN = 21

# The watchdog resets the Pico if the game hangs this long. At most 8388 on an RP2040; 0 = off.
WATCHDOG_MS = 8000

# ==============================================================================================
# End of the settings. Below is code: nothing runs at import time.
# ==============================================================================================

WATCHDOG_MAX_MS = 8388  # the RP2040's watchdog counter tops out here (machine.WDT refuses more)


def _open_i2c(freq):
    from machine import I2C, Pin, SoftI2C

    if I2C_ID is None:
        return SoftI2C(sda=Pin(PIN_SDA), scl=Pin(PIN_SCL), freq=freq)
    return I2C(I2C_ID, sda=Pin(PIN_SDA), scl=Pin(PIN_SCL), freq=freq)


def _panel_answers(i2c):
    """True if the display acknowledges a harmless NOP command (0xE3) at this bus speed."""
    try:
        return i2c.writeto(DISPLAY_ADDR, b"\x80\xe3") == 2
    except OSError:
        return False


class Buzzer:
    """A piezo on a PWM pin: ``tone(freq_hz)`` plays a square wave until ``off()``."""

    duty = 32768  # half on, half off: the loudest a square wave gets on a piezo
    lowest_hz = 20  # below this nothing is heard, and the PWM cannot go much lower anyway

    def __init__(self, gpio):
        from machine import PWM, Pin

        self._pwm = PWM(Pin(gpio))
        self._pwm.duty_u16(0)

    def tone(self, freq_hz):
        if freq_hz < self.lowest_hz:
            self.off()
            return
        self._pwm.freq(int(freq_hz))
        self._pwm.duty_u16(self.duty)

    def off(self):
        self._pwm.duty_u16(0)


class Board:
    """The Pico as the rest of the firmware sees it; main.py builds one and hands out its parts.

    ``i2c``: the display bus. ``pins``: button name -> input ``Pin`` with pull-up (reads 0 when
    pressed). ``buzzer``: a ``Buzzer`` or None. ``ticks_ms``, ``ticks_diff``, ``ticks_add``,
    ``sleep_ms``: MicroPython's own clock functions; ``pause(ms)``: the main loop's wait, cut
    short when a button's level changes. ``edges``: a ``buttons.Edges``, per button in the order
    of the names sorted (Buttons' scan order for a dict of pins), noted by the button's
    interrupt at each change of its level, so that Buttons sees what was pressed while the main
    loop was held up.
    The watchdog only runs once ``start_watchdog()`` is called, and then cannot be stopped:
    never start it in safe mode.
    """

    def __init__(self):
        import time

        from machine import Pin

        from dicetray.buttons import Edges

        self.pins = {name: Pin(gpio, Pin.IN, Pin.PULL_UP) for name, gpio in BUTTON_PINS}
        self._edge = False  # a button's level changed since the last pause(): set by the IRQ
        names = sorted(self.pins)
        self.edges = Edges(len(names))
        for i, name in enumerate(names):
            self.pins[name].irq(self._on_edge(i, time.ticks_ms), Pin.IRQ_FALLING | Pin.IRQ_RISING)
        self.buzzer = None if BUZZER_PIN is None else Buzzer(BUZZER_PIN)
        self.i2c = _open_i2c(FAST_I2C_FREQ) if FAST_I2C else None
        if self.i2c is None or not _panel_answers(self.i2c):
            self.i2c = _open_i2c(I2C_FREQ)
        # The C functions themselves, not wrappers: no extra Python call in the main loop.
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add
        self.sleep_ms = time.sleep_ms
        self._wdt = None
        # Imported once: a file may stand in for os (one of MicroPython's extensible modules),
        # so every `import os` looks for one on the flash first, a file system call per die.
        import gc

        self._gc = gc
        try:
            import os

            self._os = os
        except ImportError:
            self._os = None

    def _on_edge(self, i, ticks_ms):
        """The interrupt handler of the i-th button (sorted by name): notes, no allocation.
        Buttons still reads and debounces the pins by polling; the notes only wake the loop
        and tell it what it could not read (a press made during a save)."""
        note = self.edges.note

        def on_edge(pin):
            note(i, ticks_ms())
            self._edge = True

        return on_edge

    def pause(self, ms):
        """Wait ms, or less: until a button's level changes, so that the next poll reads a
        press within a millisecond of its edge instead of up to a whole poll later (and a
        release at once, which starts OK's short wait: Buttons.said_ms). Contact bounce only
        wakes the loop early; the polling debounces it."""
        sleep = self.sleep_ms
        for _ in range(ms):
            if self._edge:
                break
            sleep(1)
        self._edge = False

    def display_settings(self):
        return {
            "driver": DISPLAY_DRIVER,
            "addr": DISPLAY_ADDR,
            "width": DISPLAY_WIDTH,
            "height": DISPLAY_HEIGHT,
            "rotate": DISPLAY_ROTATE,
        }

    def held_at_boot(self, name, samples=5, gap_ms=10):
        """True if button ``name`` reads pressed on every one of ``samples`` reads, ``gap_ms``
        apart: a real hold, not a bounce or a glitch while the board powers up."""
        pin = self.pins[name]
        for _ in range(samples):
            if pin.value():
                return False
            self.sleep_ms(gap_ms)
        return True

    def start_watchdog(self):
        if WATCHDOG_MS and self._wdt is None:
            from machine import WDT

            self._wdt = WDT(timeout=min(WATCHDOG_MS, WATCHDOG_MAX_MS))

    def feed(self):
        if self._wdt is not None:
            self._wdt.feed()

    def collect(self):
        """Collect the heap's garbage now, at a quiet moment (runner.run), so that MicroPython
        does not have to in the middle of a press (docs/architecture.md: what it costs)."""
        self._gc.collect()

    def random_bits(self, k):
        """``k`` random bits as an int. On the Pico ``os.urandom`` samples the ring oscillator's
        random bit (hardware noise); a port without it falls back to the ``random`` module."""
        if k <= 0:
            return 0
        nbytes = (k + 7) // 8
        try:
            raw = self._os.urandom(nbytes)
        except (AttributeError, NotImplementedError, OSError):  # no os, or no urandom
            return _pseudo_bits(k)
        return int.from_bytes(raw, "big") >> (8 * nbytes - k)

    def reset(self):
        from machine import reset

        reset()


def _pseudo_bits(k):
    import random

    value = 0
    while k > 0:
        step = min(k, 32)  # MicroPython's getrandbits takes at most 32
        value = (value << step) | random.getrandbits(step)
        k -= step
    return value
