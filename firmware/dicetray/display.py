"""SSD1306 / SH1106 OLED driver over I2C that sends only the pages and columns that changed.

It is one implementation of the display interface: all that app.py, runner.py and ui.py use of
a display, and all that another one (the simulator's canvas, tools/trayhost/canvas.py; a browser
canvas) has to offer:

    fb              a framebuf-like canvas: fill(c), fill_rect(x, y, w, h, c),
                    rect(x, y, w, h, c), pixel(x, y, c), each clipped at the edges like
                    framebuf's (a MONO_VLSB framebuf.FrameBuffer is one); c is 0 or 1
    width, height   the canvas's size in pixels
    show(now=None)  make the screen show what fb holds; now: ticks_ms, for the display's own
                    timing (retries, keepalive); the caller ignores what it returns
    dim(on)         lower the brightness (True) or bring it back (False)
    sleep(on)       switch the screen dark (True) or back on (False); fb keeps what it holds
"""

import framebuf

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:

    def const(x):
        return x


_CTRL_CMD = const(0x00)  # control byte, Co=0 D/C#=0: every following byte is a command
_CTRL_DATA = const(0x40)  # control byte, Co=0 D/C#=1: every following byte is display RAM
_SET_CONTRAST = const(0x81)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_PAGE = const(0xB0)  # | page, page addressing mode
_SET_COL_LO = const(0x00)  # | low nibble of the column, page addressing mode
_SET_COL_HI = const(0x10)  # | high nibble of the column
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
    seq = [_CTRL_CMD, _RESUME_RAM, _RESUME_RAM]
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


class Display:
    """A 1-bit OLED behind a framebuf, refreshed by sending only what differs from the panel.

    Draw on ``fb`` (a ``framebuf.FrameBuffer``, MONO_VLSB) and call ``show()``. The driver keeps
    a shadow copy of what the panel holds; ``show()`` compares page by page (8 rows each) and
    sends, for each page that changed, only the spans of columns that changed (rounded up to
    ``span_step`` columns; changes farther apart than ``split_gap`` columns make two spans).
    Nothing is allocated per frame: the command buffer, the transfer buffer and one memoryview
    per span length are made here once.

    Bus errors never reach the caller. An ``OSError`` marks the panel lost (``ok`` False); the
    frame buffer stays usable and ``show()`` retries now and then: every ``retry_every`` calls,
    or every ``retry_ms`` when given ``now`` (ticks_ms). Once the panel answers it is configured
    again and the whole frame is resent, so an unplugged and replugged panel comes back showing
    the current screen.

    A panel that loses power while nothing is being sent comes back dark and unconfigured, yet
    acknowledges every write: no error can tell. So when ``show()`` is given ``now`` it also
    reconfigures the panel and resends the frame every ``refresh_ms`` (about 1.1 kB, ~30 ms on a
    400 kHz bus); ``invalidate()`` does the same at the next ``show()``.

    ``bytes_sent`` and ``writes`` count the bytes and the transfers that completed.
    """

    retry_every = 16  # show() calls between two attempts to reach a lost panel
    retry_ms = 500  # or this many ms between attempts, when show() is given ticks
    refresh_ms = 5000  # keepalive: reconfigure + resend everything this often (0: never)
    span_step = 4  # spans are rounded up to this many columns: one preallocated view per length
    split_gap = 8  # unchanged columns that end a span (a new span costs ~8 bytes of overhead)
    dim_contrast = 1  # contrast while dim(True)

    def __init__(
        self,
        i2c,
        width=128,
        height=64,
        addr=0x3C,
        driver="ssd1306",
        rotate=False,
        contrast=0x7F,
        col_offset=None,
        external_vcc=False,
        ticks_diff=None,
    ):
        if driver not in ("ssd1306", "sh1106"):
            raise ValueError("driver must be 'ssd1306' or 'sh1106'")
        if rotate not in (False, True, 0, 180):
            raise ValueError("rotate must be False/0 or True/180")
        if col_offset is None:
            col_offset = 2 if driver == "sh1106" else 0  # 128 of the SH1106's 132 columns
        ram_cols = 132 if driver == "sh1106" else 128
        if height % 8 or not 8 <= height <= 64 or width + col_offset > ram_cols or width < 1:
            raise ValueError("panel size does not fit the controller")
        self.i2c = i2c
        self.addr = addr
        self.driver = driver
        self.width = width
        self.height = height
        self.pages = height // 8
        self.rotate = rotate in (True, 180)
        self._col_offset = col_offset
        self._ticks_diff = ticks_diff or _ticks_diff

        self.buffer = bytearray(width * self.pages)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self._shadow = bytearray(width * self.pages)  # what the panel holds after the last show
        # One view per page of each, so a clean page is found by one C-level compare.
        views = memoryview(self.buffer), memoryview(self._shadow)
        self._pages_now, self._pages_shown = (
            [v[p * width : (p + 1) * width] for p in range(self.pages)] for v in views
        )
        self._tx = bytearray(1 + width)  # control byte + one page span
        self._tx[0] = _CTRL_DATA
        tx = memoryview(self._tx)
        steps = (width + self.span_step - 1) // self.span_step
        self._tx_views = [tx[: 1 + min(k * self.span_step, width)] for k in range(1, steps + 1)]
        self._page_cmd = bytearray(4)  # control byte, page, column low, column high
        self._page_cmd[0] = _CTRL_CMD
        self._cmd = bytearray(3)  # control byte + a command and its argument
        self._cmd[0] = _CTRL_CMD
        cmd = memoryview(self._cmd)
        self._cmd1 = cmd[:2]
        self._cmd2 = cmd
        com_pins = 0x02 if width > 2 * height else 0x12  # sequential for 128x32, else alternate
        self._init_seq, self._contrast_at = _init_commands(
            driver, height, self.rotate, external_vcc, com_pins
        )

        self._contrast = max(0, min(255, contrast))
        self.dimmed = False
        self.asleep = False
        self.ok = False
        self.bytes_sent = 0
        self.writes = 0
        self._full = True  # next successful show() sends every page whole
        self._turn_on = False  # send display-on after the next complete frame
        self._reconfigure = False  # send the configuration at the next show()
        self._calls = 0  # back-off state while the panel is lost
        self._last_try = None
        self._last_refresh = None  # ticks of the last configuration, when show() has ticks
        if self._configure():
            self.show()

    def full_frame_bytes(self):
        """Bytes one whole-screen refresh puts on the bus (micropython-lib's show(): ~1037)."""
        return self.pages * (len(self._page_cmd) + 1 + self.width)

    def show(self, now=None):
        """Send what changed since the last show; returns ``ok``. ``now``: ticks_ms, optional."""
        if not self.ok:
            if not self._retry(now):
                return False
        elif self._reconfigure or self._refresh_due(now):
            if not self._configure():
                return False
        if now is not None and self._full:
            self._last_refresh = now
        buf = self.buffer
        shadow = self._shadow
        pages_now = self._pages_now
        pages_shown = self._pages_shown
        width = self.width
        gap_max = self.split_gap
        full = self._full
        for page in range(self.pages):
            base = page * width
            end = base + width
            if full:
                if not self._send_span(page, base, base, end - 1):
                    return False
                continue
            if pages_now[page] == pages_shown[page]:
                continue
            i = base
            while i < end:
                while i < end and buf[i] == shadow[i]:
                    i += 1
                if i == end:
                    break
                # A span runs until split_gap unchanged columns in a row: past that, a new
                # span's addressing costs less than resending the unchanged bytes.
                first = last = i
                gap = 0
                i += 1
                while i < end and gap < gap_max:
                    if buf[i] != shadow[i]:
                        last = i
                        gap = 0
                    else:
                        gap += 1
                    i += 1
                i = self._send_span(page, base, first, last)
                if not i:
                    return False
        self._full = False
        if self._turn_on:
            if not self.asleep and not self._command(_DISPLAY_ON):
                return False
            self._turn_on = False
        return True

    def invalidate(self):
        """Make the next ``show()`` configure the panel again and resend the whole frame."""
        self._reconfigure = True

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
        """Switch the panel off (RAM and the frame buffer are kept) or back on."""
        self.asleep = bool(on)
        self._command(_DISPLAY_OFF if self.asleep else _DISPLAY_ON)

    def _level(self):
        return self.dim_contrast if self.dimmed else self._contrast

    def _refresh_due(self, now):
        if now is None or not self.refresh_ms:
            return False
        if self._last_refresh is None:
            self._last_refresh = now
        return self._ticks_diff(now, self._last_refresh) >= self.refresh_ms

    def _retry(self, now):
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
        return self._configure()

    def _configure(self):
        # Settings that changed while the panel was away are part of the sequence.
        self._init_seq[self._contrast_at] = self._level()
        if not self._write(self._init_seq):
            return False
        self.ok = True
        self._reconfigure = False
        self._full = True  # the panel's RAM is unknown: resend all, then switch on
        self._turn_on = True
        return True

    def _send_span(self, page, base, first, last):
        # Send columns first..last of a page (rounded up to span_step, widened leftwards at the
        # right edge) and mark them shown; returns the index after the span, 0 on a bus error.
        view = self._tx_views[(last - first + self.span_step) // self.span_step - 1]
        n = len(view) - 1
        end = base + self.width
        if first + n > end:
            first = end - n
        buf = self.buffer
        shadow = self._shadow
        tx = self._tx
        j = 1
        for i in range(first, first + n):
            v = buf[i]
            tx[j] = v
            shadow[i] = v
            j += 1
        if not self._send_page(page, first - base, view):
            return 0
        return first + n

    def _send_page(self, page, col, view):
        col += self._col_offset
        cmd = self._page_cmd
        cmd[1] = _SET_PAGE | page
        cmd[2] = _SET_COL_LO | (col & 0x0F)
        cmd[3] = _SET_COL_HI | (col >> 4)
        return self._write(cmd) and self._write(view)

    def _command(self, op, arg=None):
        if not self.ok:
            return False  # remembered in our state; applied when the panel is configured again
        self._cmd[1] = op
        if arg is None:
            return self._write(self._cmd1)
        self._cmd[2] = arg
        return self._write(self._cmd2)

    def _write(self, buf):
        try:
            self.i2c.writeto(self.addr, buf)
        except OSError:
            self._lost()
            return False
        self.bytes_sent += len(buf)
        self.writes += 1
        return True

    def _lost(self):
        if self.ok:  # newly lost: start the back-off from here
            self._calls = 0
            self._last_try = None
        self.ok = False  # reconfiguring, which resends everything, is the only way back
