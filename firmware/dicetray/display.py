"""SSD1306 / SH1106 OLED driver over I2C that sends only the pages and columns that changed.

It is one implementation of the display interface: all that app.py, runner.py and ui.py use of
a display, and all that another one (the simulator's canvas, tools/trayhost/canvas.py; a browser
canvas) has to offer:

    fb              a framebuf-like canvas: fill(c), fill_rect(x, y, w, h, c),
                    blit(fb, x, y, key=-1) (a framebuf.FrameBuffer: the font's glyph cells,
                    a die's image), each clipped at the edges like framebuf's (a MONO_VLSB
                    framebuf.FrameBuffer is one); c is 0 or 1
    width, height   the canvas's size in pixels
    show(now=None)  make the screen show what fb holds; now: ticks_ms, for the display's own
                    timing (retries, keepalive); the caller ignores what it returns
    dim(on)         lower the brightness (True) or bring it back (False)
    sleep(on)       switch the screen dark (True) or back on (False); fb keeps what it holds
    dimmed, asleep  what dim() and sleep() last set (read-only): the display alone keeps them
    buffer          optional: fb's bytes, when fb is a MONO_VLSB frame buffer as wide as the
                    display; text is then written straight into them (dicetray.font.frame)
"""

from array import array

import framebuf

from dicetray.panel import Panel

try:  # the transfers laid out by machine code on a Pico; elsewhere in Python, the same
    from dicetray.fast import plan_page
except (ImportError, SyntaxError, ValueError, AttributeError):  # no emitter: CPython, wasm
    from dicetray.fast_python import plan_page


class Display:
    """A 1-bit OLED behind a framebuf, refreshed by sending only what differs from the panel.

    Draw on ``fb`` (a ``framebuf.FrameBuffer``, MONO_VLSB) and call ``show()``. The driver keeps
    a shadow copy of what the panel holds; ``show()`` compares page by page (8 rows each) and
    sends, for each page that changed, only the spans of columns that changed (rounded up to
    ``span_step`` columns; changes farther apart than ``split_gap`` columns make two spans).
    A page's transfers are laid out in one call to ``plan_page`` (machine code on the Pico) and
    sent by the panel in one loop: on the RP2040 each Python call per span cost more than the
    bus. The transfer buffer is made here once; the idle keepalive allocates nothing.

    The chip and the link to it are ``panel`` (dicetray.panel: bus errors, retries while it is
    unplugged, the keepalive, contrast). Whenever the panel is configured again the whole frame
    is resent, so a replugged or repowered panel comes back showing the current screen;
    ``invalidate()`` asks for that at the next ``show()``.
    """

    span_step = 4  # spans are rounded up to this many columns: one preallocated view per length
    split_gap = 8  # unchanged columns that end a span (a new span costs ~8 bytes of overhead)

    def __init__(self, i2c, width=128, height=64, addr=0x3C, driver="ssd1306", rotate=False,
                 contrast=0x7F, col_offset=None, external_vcc=False, ticks_diff=None):
        if driver not in ("ssd1306", "sh1106"):
            raise ValueError("driver must be 'ssd1306' or 'sh1106'")
        if rotate not in (False, True, 0, 180):
            raise ValueError("rotate must be False/0 or True/180")
        if col_offset is None:
            col_offset = 2 if driver == "sh1106" else 0  # 128 of the SH1106's 132 columns
        ram_cols = 132 if driver == "sh1106" else 128
        if height % 8 or not 8 <= height <= 64 or width + col_offset > ram_cols or width < 1:
            raise ValueError("panel size does not fit the controller")
        self.driver = driver
        self.width = width
        self.height = height
        self.pages = height // 8
        self.rotate = rotate in (True, 180)
        self._col_offset = col_offset
        com_pins = 0x02 if width > 2 * height else 0x12  # sequential for 128x32, else alternate
        self.panel = Panel(i2c, addr, driver, height, com_pins, self.rotate, contrast,
                           external_vcc, ticks_diff)
        self._frames(width)
        self._full = True  # next successful show() sends every page whole
        self._turn_on = False  # send display-on after the next complete frame
        self._reconfigure = False  # configure the panel again at the next show()
        if self._configured():
            self.show()

    def _frames(self, width):
        self.buffer = bytearray(width * self.pages)
        self.fb = framebuf.FrameBuffer(self.buffer, width, self.height, framebuf.MONO_VLSB)
        self._shadow = bytearray(width * self.pages)  # what the panel holds after the last show
        # One view per page of each, so a clean page is found by one C-level compare.
        views = memoryview(self.buffer), memoryview(self._shadow)
        self._pages_now, self._pages_shown = (
            [v[p * width : (p + 1) * width] for p in range(self.pages)] for v in views
        )
        # A page's transfers, laid out by plan_page: per span a command (page, column) and its
        # data. Span starts are more than split_gap columns apart, and their bytes add up to
        # two pages at most (the last span may be moved left over the one before).
        spans = -(-width // (self.split_gap + 1))
        self._out = bytearray(5 * spans + 2 * width)
        self._out_mv = memoryview(self._out)
        self._ends = array("H", bytes(2 * spans))  # where each span's transfers end in _out
        # A whole page's two transfers, as the idle keepalive sends them: no slice, no alloc.
        self._whole = self._out_mv[:4], self._out_mv[4 : 5 + width]

    @property
    def ok(self):
        """Whether the panel answered the last transfer."""
        return self.panel.ok

    @property
    def dimmed(self):
        return self.panel.dimmed

    @property
    def asleep(self):
        return self.panel.asleep

    @property
    def bytes_sent(self):
        return self.panel.bytes_sent

    @property
    def writes(self):
        return self.panel.writes

    def full_frame_bytes(self):
        """Bytes one whole-screen refresh puts on the bus (micropython-lib's show(): ~1037)."""
        return self.pages * (4 + 1 + self.width)  # per page: command, control byte, data

    def show(self, now=None, pressed=False):
        """Send what changed since the last show; returns ``ok``. ``now``: ticks_ms, optional.
        ``pressed``: the frame answers a press, so a keepalive due now waits for the next show
        (the press's frame goes alone)."""
        panel = self.panel
        if not panel.ok:
            if not panel.reach(now) or not self._configured():
                return False
        elif self._reconfigure or (not pressed and panel.refresh_due(now)):
            if not panel.configure() or not self._configured():
                return False
        if now is not None and self._full:
            panel.last_refresh = now
        if not self._send_changes(self._full):
            return False
        self._full = False
        if self._turn_on:
            if not panel.switch_on():
                return False
            self._turn_on = False
        return True

    def _configured(self):
        # The panel's RAM is unknown after a configuration: resend all, then switch on.
        if not self.panel.ok and not self.panel.configure():
            return False
        self._reconfigure = False
        self._full = True
        self._turn_on = True
        return True

    def _send_changes(self, full):
        if not full and self.buffer == self._shadow:  # one C compare: nothing changed
            return True
        width = self.width
        gap, step = self.split_gap, self.span_step
        for page in range(self.pages):
            if full or self._pages_now[page] != self._pages_shown[page]:
                n = plan_page(self.buffer, self._shadow, self._out, self._ends, page * width,
                              width, page, self._col_offset, gap, step, full)
                if full:
                    sent = self.panel.write(self._whole[0]) and self.panel.write(self._whole[1])
                else:
                    sent = self.panel.write_spans(self._out_mv, self._ends, n)
                if not sent:
                    return False
        return True

    def invalidate(self):
        """Make the next ``show()`` configure the panel again and resend the whole frame."""
        self._reconfigure = True

    def contrast(self, level=None):
        """Set the contrast (0..255) used when not dimmed; with no argument, return it."""
        return self.panel.contrast(level)

    def dim(self, on=True):
        """Drop to the panel's ``dim_contrast`` (on) or back to the set contrast (off)."""
        self.panel.dim(on)

    def sleep(self, on=True):
        """Switch the panel off (RAM and the frame buffer are kept) or back on."""
        self.panel.sleep(on)
