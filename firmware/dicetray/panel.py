"""One SSD1306 / SH1106 chip on an I2C bus: its configuration, its commands, and a link that
survives the panel being unplugged or losing power (display.py sends it the frames)."""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:

    def const(x):
        return x


CTRL_CMD = const(0x00)  # control byte, Co=0 D/C#=0: every following byte is a command
CTRL_DATA = const(0x40)  # control byte, Co=0 D/C#=1: every following byte is display RAM
SET_PAGE = const(0xB0)  # | page, page addressing mode
SET_COL_LO = const(0x00)  # | low nibble of the column, page addressing mode
SET_COL_HI = const(0x10)  # | high nibble of the column
_SET_CONTRAST = const(0x81)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_RESUME_RAM = const(0xA4)  # show RAM (0xA5 would light every pixel)
_TICKS_HALF = const(1 << 29)  # MicroPython's ticks_ms() wraps at 2**30
_TICKS_MASK = const((1 << 30) - 1)


def _ticks_diff(a, b):
    """``time.ticks_diff`` for ticks_ms values, without importing ``time``."""
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


def _init_commands(driver, height, rotate, external_vcc, com_pins):
    """The configuration of one chip, as one command transfer, and where its contrast goes.

    It leaves display on/off alone, so sending it again to a working panel changes nothing
    visible: that is what lets ``show()`` repeat it as a keepalive.
    """
    # 0xA4 twice first: if a cut-off transfer left the chip waiting for the argument(s) of a
    # command, these are swallowed as those arguments (harmless values: the sequence rewrites
    # every setting); otherwise 0xA4 is a no-op. Without them the chip would eat our 0xD5 and
    # take its argument for a command.
    seq = [CTRL_CMD, _RESUME_RAM, _RESUME_RAM]
    seq += [0xD5, 0x80]  # oscillator / clock divide: the datasheet's reset value
    seq += [0xA8, height - 1]  # multiplex ratio = number of visible rows
    seq += [0xD3, 0x00, 0x40]  # no display offset, RAM row 0 at the top
    if driver == "ssd1306":
        seq += [0x8D, 0x10 if external_vcc else 0x14]  # charge pump
        seq += [0x20, 0x02]  # page addressing: the only mode the SH1106 has too
    else:
        seq += [0xAD, 0x8A if external_vcc else 0x8B]  # DC-DC converter
    # Rotation is done by the chip: mirror the segments and reverse the COM scan.
    seq += [0xA0 if rotate else 0xA1, 0xC0 if rotate else 0xC8]
    seq += [0xDA, com_pins]
    contrast_at = len(seq) + 1
    seq += [_SET_CONTRAST, 0]
    if driver == "ssd1306":
        seq += [0xD9, 0x22 if external_vcc else 0xF1, 0xDB, 0x30]  # pre-charge, VCOMH level
    else:
        seq += [0xD9, 0x22, 0xDB, 0x35]  # the SH1106's reset values
    seq += [_RESUME_RAM, 0xA6]  # show RAM, not inverted
    return bytearray(seq), contrast_at


class Panel:
    """The chip at ``addr`` on ``i2c``: configure it, send it commands and data, and keep track
    of whether it answers.

    Bus errors never reach the caller. An ``OSError`` marks the panel lost (``ok`` False);
    ``reach(now)`` then retries now and then: every ``retry_every`` calls, or every
    ``retry_ms`` when given ``now`` (ticks_ms), and configures it again once it answers.
    Contrast, dim and sleep set while it is lost are part of that configuration.

    A panel that loses power while nothing is being sent comes back dark and unconfigured, yet
    acknowledges every write: no error can tell. So ``refresh_due(now)`` says when to configure
    it again anyway, every ``refresh_ms``.

    ``bytes_sent`` and ``writes`` count the bytes and the transfers that completed.
    """

    retry_every = 16  # reach() calls between two attempts to reach a lost panel
    retry_ms = 500  # or this many ms between attempts, when reach() is given ticks
    refresh_ms = 5000  # keepalive: reconfigure + resend everything this often (0: never)
    dim_contrast = 1  # contrast while dim(True)

    def __init__(self, i2c, addr, driver, height, com_pins, rotate, contrast, external_vcc,
                 ticks_diff):
        self.i2c = i2c
        self.addr = addr
        self.init_seq, self._contrast_at = _init_commands(
            driver, height, rotate, external_vcc, com_pins
        )
        self._ticks_diff = ticks_diff or _ticks_diff
        self._cmd = bytearray(3)  # control byte + a command and its argument
        self._cmd[0] = CTRL_CMD
        cmd = memoryview(self._cmd)
        self._cmd1 = cmd[:2]
        self._cmd2 = cmd
        self._contrast = max(0, min(255, contrast))
        self.dimmed = False
        self.asleep = False
        self.ok = False
        self.bytes_sent = 0
        self.writes = 0
        self._calls = 0  # back-off state while the panel is lost
        self._last_try = None
        self.last_refresh = None  # ticks of the last configuration, when given ticks

    def reach(self, now):
        """Configure a lost panel if its back-off allows a try now; True once it answers."""
        # Not every call: a missing panel costs a failed transfer (up to the bus timeout).
        if now is None:
            self._calls += 1
            if self._calls < self.retry_every:
                return False
            self._calls = 0
        else:
            if self._last_try is None:
                self._last_try = now
                return False
            if self._ticks_diff(now, self._last_try) < self.retry_ms:
                return False
            self._last_try = now
        return self.configure()

    def refresh_due(self, now):
        """Whether the keepalive configuration is due (only when given ticks)."""
        if now is None or not self.refresh_ms:
            return False
        if self.last_refresh is None:
            self.last_refresh = now
        return self._ticks_diff(now, self.last_refresh) >= self.refresh_ms

    def configure(self):
        """Send the whole configuration (display on/off left alone); True if it went through."""
        self.init_seq[self._contrast_at] = self._level()
        if not self.write(self.init_seq):
            return False
        self.ok = True
        return True

    def switch_on(self):
        """After a configuration and a whole frame: light the panel unless it sleeps."""
        return self.asleep or self._command(_DISPLAY_ON)

    def contrast(self, level=None):
        """Set the contrast (0..255) used when not dimmed; with no argument, return it."""
        if level is None:
            return self._contrast
        self._contrast = max(0, min(255, level))
        if not self.dimmed:
            self._command(_SET_CONTRAST, self._contrast)
        return self._contrast

    def dim(self, on=True):
        """Drop to ``dim_contrast`` (on) or back to the set contrast (off)."""
        self.dimmed = bool(on)
        self._command(_SET_CONTRAST, self._level())

    def sleep(self, on=True):
        """Switch the panel off (its RAM is kept) or back on."""
        self.asleep = bool(on)
        self._command(_DISPLAY_OFF if self.asleep else _DISPLAY_ON)

    def _level(self):
        return self.dim_contrast if self.dimmed else self._contrast

    def _command(self, op, arg=None):
        if not self.ok:
            return False  # remembered in our state; applied when the panel is configured again
        self._cmd[1] = op
        if arg is None:
            return self.write(self._cmd1)
        self._cmd[2] = arg
        return self.write(self._cmd2)

    def write(self, buf):
        """One transfer; False, and the panel marked lost, on a bus error."""
        try:
            self.i2c.writeto(self.addr, buf)
        except OSError:
            self._lost()
            return False
        self.bytes_sent += len(buf)
        self.writes += 1
        return True

    def write_spans(self, out, ends, n):
        """The transfers of a page's n spans (display.plan_page): span k is out[ends[k-1]:
        ends[k]], a 4-byte command then its data. False, and the panel marked lost, on a bus
        error. One loop and one handler for them all: per span, Python calls cost more than
        the bus (the slices allocate a little: a press's spans only, never the keepalive)."""
        i2c = self.i2c
        addr = self.addr
        start = 0  # what went through: out[:start]
        try:
            for k in range(n):
                end = ends[k]
                i2c.writeto(addr, out[start : start + 4])
                start += 4
                i2c.writeto(addr, out[start:end])
                start = end
        except OSError:
            self._lost()
            self.bytes_sent += start
            last = 0  # the end of the last whole span
            for k in range(n):
                if ends[k] <= start:
                    self.writes += 2
                    last = ends[k]
            self.writes += start > last  # its command went, its data did not
            return False
        self.bytes_sent += start
        self.writes += 2 * n
        return True

    def _lost(self):
        if self.ok:  # newly lost: start the back-off from here
            self._calls = 0
            self._last_try = None
        self.ok = False  # reconfiguring, which resends everything, is the only way back
