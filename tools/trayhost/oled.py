"""A fake I2C bus with one SSD1306 or SH1106 OLED that decodes the bytes into lit pixels."""

import errno
import random

EIO = errno.EIO  # what MicroPython's machine.I2C raises when nobody acknowledges
ETIMEDOUT = errno.ETIMEDOUT  # what it raises when a held-down bus times out

# Commands the fake understands, with their argument counts. Low column, high column, start
# line and page commands are ranges, handled in _arg_count.
_COMMON = {
    0x81: 1,  # contrast
    0xA0: 0,  # segment remap off: column 0 -> SEG0
    0xA1: 0,  # segment remap on: last column -> SEG0
    0xA4: 0,  # display follows RAM
    0xA5: 0,  # every pixel lit
    0xA6: 0,  # normal
    0xA7: 0,  # inverse
    0xA8: 1,  # multiplex ratio
    0xAE: 0,  # display off
    0xAF: 0,  # display on
    0xC0: 0,  # COM scan COM0 -> COM[N-1]
    0xC8: 0,  # COM scan COM[N-1] -> COM0
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins hardware configuration
    0xDB: 1,  # VCOMH deselect level
    0xE3: 0,  # no-op
}
_SSD1306 = {0x20: 1, 0x21: 2, 0x22: 2, 0x8D: 1, 0x2E: 0}
_SH1106 = {0x30: 0, 0x31: 0, 0x32: 0, 0x33: 0, 0xAD: 1}
# Real commands whose effect the fake does not model: the driver has no business sending them.
_NOT_MODELLED = {
    "ssd1306": {0x23, 0x26, 0x27, 0x29, 0x2A, 0x2F, 0xA3, 0xD6},
    "sh1106": {0xE0, 0xEE},
}
_PAGE_MODE, _HORIZONTAL, _VERTICAL = 2, 0, 1


class ProtocolError(AssertionError):
    """The driver sent something a real panel would reject, ignore or misread.

    An AssertionError, not an OSError, so a driver's ``except OSError`` cannot swallow it.
    """


class FakePanel:
    """The controller and glass of one OLED module, as seen from the I2C bus.

    ``driver`` is "ssd1306" (128-column RAM) or "sh1106" (132-column RAM, page addressing only,
    glass usually on columns 2..129). ``upside_down`` says the module is mounted rotated 180
    degrees, so ``pixels()`` is what a person looking at the tray sees. Every protocol problem
    is appended to ``errors`` and, when ``strict``, raised at once as ``ProtocolError``.

    One exception: after a power cycle the driver could not have noticed (no transfer failed
    while the module was unplugged), writing to the unconfigured panel is no driver bug; it is
    noted in ``notes`` instead, until the panel is configured again. What the glass then shows
    (dark, or noise) is for the test to judge through ``pixels()``.
    """

    def __init__(
        self,
        driver="ssd1306",
        width=128,
        height=64,
        addr=0x3C,
        col_offset=None,
        upside_down=False,
        com_alternate=None,
        seed=0,
        strict=True,
    ):
        if driver not in ("ssd1306", "sh1106"):
            raise ValueError(driver)
        self.driver = driver
        self.width = width
        self.height = height
        self.addr = addr
        self.ram_cols = 132 if driver == "sh1106" else 128
        self.col_offset = (2 if driver == "sh1106" else 0) if col_offset is None else col_offset
        self.upside_down = upside_down
        # How the module's COM lines are wired: 128x64 glass needs the alternate layout
        # (0xDA 0x12), 128x32 the sequential one (0xDA 0x02).
        self.com_alternate = width <= 2 * height if com_alternate is None else com_alternate
        self.strict = strict
        self.errors = []
        self._commands = dict(_COMMON)
        self._commands.update(_SSD1306 if driver == "ssd1306" else _SH1106)
        self._rng = random.Random(seed)
        self.power_on()

    # -- power -------------------------------------------------------------------------------

    def power_on(self, noticed=True):
        """Power-on reset: RAM holds noise, every register its datasheet reset value.

        ``noticed`` False: the driver saw no error while the power was off (see the class doc).
        """
        self._excused = not noticed
        self.notes = []
        self.ram = [
            bytearray(self._rng.getrandbits(8) for _ in range(self.ram_cols)) for _ in range(8)
        ]
        self.display_on = False
        self.contrast = 0x80 if self.driver == "sh1106" else 0x7F
        self.pump = self.driver == "sh1106"  # the SH1106's DC-DC is on after reset
        self.seg_remap = False
        self.com_remap = False
        self.mux = 64
        self.com_alt = True
        self.com_lr = False
        self.start_line = 0
        self.offset = 0
        self.entire_on = False
        self.inverse = False
        self.mode = _PAGE_MODE
        self.page = 0
        self.col = 0
        self.col_range = (0, 127)
        self.page_range = (0, 7)
        self._pending = None  # a command still waiting for arguments (kept across transfers)
        self._args = []
        self._configured = set()  # settings a driver must make before writing RAM
        self.commands_seen = 0
        self.data_bytes = 0

    @property
    def initialised(self):
        need = {"mux", "com pins", "segment remap", "COM scan"}
        if self.driver == "ssd1306":
            need.add("charge pump")
        return need <= self._configured

    @property
    def is_on(self):
        """Whether the glass is lit: display on and its supply (charge pump / DC-DC) running."""
        return self.display_on and self.pump

    # -- the byte stream -----------------------------------------------------------------------

    def error(self, message):
        self.errors.append(message)
        if self.strict:
            raise ProtocolError(message)

    def _unconfigured(self, message):
        if self._excused:
            self.notes.append(message)
        else:
            self.error(message)

    def receive(self, data, complete=True):
        """Decode one I2C write (after the address). ``complete`` False: the transfer was cut."""
        i, n = 0, len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                self.error(f"bad control byte 0x{ctrl:02X}")
                return
            is_data = bool(ctrl & 0x40)
            if i >= n:
                if complete:
                    self.error(f"control byte 0x{ctrl:02X} with nothing after it")
                return
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                self._byte(data[i], is_data)
                i += 1
            else:  # Co=0: the rest of the transfer
                for b in data[i:]:
                    self._byte(b, is_data)
                return

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
        else:
            self._command(b)

    def _arg_count(self, op):
        if op < 0x10:
            return 0  # column low nibble
        if op < 0x20:
            return 0 if op <= 0x10 + (self.ram_cols - 1) // 16 else None  # column high nibble
        if 0x40 <= op < 0x80 or 0xB0 <= op < 0xB8:
            return 0  # start line, page
        return self._commands.get(op)

    def _command(self, b):
        self.commands_seen += 1
        if self._pending is not None:
            self._args.append(b)
            if len(self._args) == self._commands[self._pending]:
                op, args = self._pending, self._args
                self._pending, self._args = None, []
                self._apply(op, args)
            return
        if b in _NOT_MODELLED[self.driver]:
            self.error(f"command 0x{b:02X} is real but not modelled by the fake")
            return
        count = self._arg_count(b)
        if count is None:
            self.error(f"unknown {self.driver} command 0x{b:02X}")
        elif count:
            self._pending = b
        else:
            self._apply(b, [])

    def _apply(self, op, args):
        a = args[0] if args else 0
        if op < 0x20 or 0xB0 <= op < 0xB8:
            self._page_mode_address(op)
        elif 0x40 <= op < 0x80:
            self.start_line = op & 0x3F
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
            if self.display_on:
                self._check_config()
        elif op == 0x81:
            self.contrast = a
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
            self._configured.add("segment remap")
        elif op in (0xC0, 0xC8):
            self.com_remap = op == 0xC8
            self._configured.add("COM scan")
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op == 0xA8:
            self.mux = (a & 0x3F) + 1
            if self.mux < 16 and self.driver == "ssd1306":
                self.error(f"multiplex ratio {self.mux} is invalid (16..64)")
            self._configured.add("mux")
        elif op == 0xD3:
            self.offset = a & 0x3F
        elif op == 0xDA:
            self.com_alt = bool(a & 0x10)
            self.com_lr = bool(a & 0x20)
            self._configured.add("com pins")
        elif op == 0x8D:
            self.pump = bool(a & 0x04)
            self._configured.add("charge pump")
        elif op == 0xAD:
            self.pump = bool(a & 0x01)
            self._configured.add("charge pump")
        elif op == 0x20:
            if a & 3 == 3:
                self.error("addressing mode 3 is invalid")
            else:
                self.mode = a & 3
        elif op in (0x21, 0x22):
            self._window(op, args)
        # 0xD5, 0xD9, 0xDB, 0xE3, 0x2E, 0x30..0x33: timing and voltages, nothing to model

    def _page_mode_address(self, op):
        if self.mode != _PAGE_MODE:
            self.error(f"page-mode command 0x{op:02X} sent in horizontal/vertical mode")
            return
        if op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        else:
            self.page = op & 0x07

    def _window(self, op, args):
        if self.mode == _PAGE_MODE:
            self.error(f"window command 0x{op:02X} sent in page addressing mode")
            return
        lo, hi = args
        if op == 0x21:
            self.col_range = (lo & 0x7F, hi & 0x7F)
            self.col = self.col_range[0]
        else:
            self.page_range = (lo & 0x07, hi & 0x07)
            self.page = self.page_range[0]

    def _data(self, b):
        self.data_bytes += 1
        if self._pending is not None:
            self.error(f"display data while command 0x{self._pending:02X} awaits its argument")
        if not self.initialised:
            self._unconfigured("display data before the panel was initialised")
        if self.mode == _PAGE_MODE:
            if self.col >= self.ram_cols:
                self.error(f"display data past the last column of page {self.page}")
                self.col = 0
            self.ram[self.page][self.col] = b
            self.col += 1
            return
        self.ram[self.page][self.col] = b
        (c0, c1), (p0, p1) = self.col_range, self.page_range
        if self.mode == _HORIZONTAL:
            self.col += 1
            if self.col > c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        else:
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1

    def _check_config(self):
        """Switching on with settings that do not match the glass shows garbage: say so."""
        if not self.initialised:
            self._unconfigured("display switched on before the panel was initialised")
            return
        if self.mux != self.height:
            self.error(f"multiplex ratio {self.mux} on a panel {self.height} rows high")
        if self.com_alt != self.com_alternate or self.com_lr:
            self.error("COM pins configuration does not match the panel's wiring")
        if not self.pump:
            self.error("display switched on with its charge pump / DC-DC off: stays dark")

    # -- what the glass shows ------------------------------------------------------------------

    def ram_image(self):
        """Rows of 0/1 the glass shows when lit, in the viewer's orientation."""
        rows = []
        for y in range(self.height):
            vy = self.height - 1 - y if self.upside_down else y
            d = vy if self.com_remap else self.mux - 1 - vy  # display row on that line
            r = (d + self.start_line + self.offset) % 64
            page, bit = r >> 3, r & 7
            row = bytearray(self.width)
            for x in range(self.width):
                vx = self.width - 1 - x if self.upside_down else x
                if self.seg_remap:
                    c = vx + self.col_offset
                else:
                    c = self.ram_cols - 1 - self.col_offset - vx
                v = (self.ram[page][c] >> bit) & 1
                if self.entire_on:
                    v = 1
                row[x] = v ^ self.inverse
            rows.append(row)
        return rows

    def pixels(self):
        """Rows (bytearrays of 0/1) of what a person sees: all dark when the panel is off."""
        if not self.is_on:
            return [bytearray(self.width) for _ in range(self.height)]
        return self.ram_image()

    def to_text(self, rows=None):
        """ASCII art of ``pixels()`` (or of ``rows``): '#' lit, '.' dark."""
        rows = self.pixels() if rows is None else rows
        return "\n".join("".join("#" if v else "." for v in row) for row in rows)


class FakeI2C:
    """``machine.I2C`` as far as a display needs it: ``writeto``, ``writevto``, ``scan``.

    ``connected = False`` unplugs the module: every transfer raises ``OSError(fail_errno)``.
    ``connected = True`` plugs it back: the panel powers up with noise in RAM and unconfigured
    (and knows whether any transfer failed meanwhile, see ``FakePanel``).
    ``glitch()`` makes one future transfer fail while the panel stays powered. ``transactions``
    holds the length of every completed transfer, ``bytes_written`` their sum.
    """

    def __init__(self, panel=None, fail_errno=EIO, **panel_args):
        self.panel = panel if panel is not None else FakePanel(**panel_args)
        self.fail_errno = fail_errno
        self._connected = True
        self._glitch = None  # (transfers to let through first, bytes delivered, unplug after)
        self.transactions = []
        self.bytes_written = 0
        self.failed = 0
        self._failed_unplugged = 0  # transfers refused since the module was unplugged

    @property
    def connected(self):
        return self._connected

    @connected.setter
    def connected(self, value):
        if value and not self._connected:
            self.panel.power_on(noticed=self._failed_unplugged > 0)
        elif not value and self._connected:
            self._failed_unplugged = 0
        self._connected = bool(value)

    def unplug(self):
        self.connected = False

    def replug(self):
        self.connected = True

    def glitch(self, after=0, partial=0, unplug=False):
        """Fail the transfer ``after`` transfers from now, once ``partial`` bytes reached the
        panel; ``unplug`` leaves the module unplugged from then on."""
        self._glitch = (after, partial, unplug)

    def cancel_glitch(self):
        """Forget a ``glitch()`` that has not fired yet."""
        self._glitch = None

    def reset_counts(self):
        self.transactions = []
        self.bytes_written = 0

    def scan(self):
        return [self.panel.addr] if self._connected else []

    def writeto(self, addr, buf, stop=True):
        return self._transfer(addr, bytes(buf), stop)

    def writevto(self, addr, vector, stop=True):
        return self._transfer(addr, b"".join(bytes(part) for part in vector), stop)

    def _transfer(self, addr, data, stop):
        if not stop:
            self.panel.error("transfer without STOP: not modelled")
        if not self._connected:
            self.failed += 1
            self._failed_unplugged += 1
            raise OSError(self.fail_errno)
        if addr != self.panel.addr:
            self.panel.error(f"write to 0x{addr:02X}: no device there")
            self.failed += 1
            raise OSError(EIO)
        if self._glitch is not None:
            after, partial, unplug = self._glitch
            if after == 0:
                self._glitch = None
                self.panel.receive(data[:partial], complete=False)
                if unplug:
                    self._connected = False
                    self._failed_unplugged = 1
                self.failed += 1
                raise OSError(self.fail_errno)
            self._glitch = (after - 1, partial, unplug)
        self.panel.receive(data)
        self.transactions.append(len(data))
        self.bytes_written += len(data)
        return len(data)
