"""One SSD1306 or SH1106 OLED module on the bus: its byte stream, RAM, power and glass."""

import random

from trayhost.oledcommands import HORIZONTAL, PAGE_MODE, OledCommands, arg_counts


class ProtocolError(AssertionError):
    """The driver sent something a real panel would reject, ignore or misread.

    An AssertionError, not an OSError, so a driver's ``except OSError`` cannot swallow it.
    """


class FakePanel(OledCommands):
    """The controller and glass of one OLED module, as seen from the I2C bus.

    ``driver`` is "ssd1306" (128-column RAM) or "sh1106" (132-column RAM, page addressing only,
    glass usually on columns 2..129). ``upside_down`` says the module is mounted rotated 180
    degrees, so ``pixels()`` is what a person looking at the tray sees. Every protocol problem
    is appended to ``errors`` and, when ``strict``, raised at once as ``ProtocolError``.

    One exception: after a power cycle the driver could not have noticed (no transfer failed
    while the module was unplugged), writing to the unconfigured panel is no driver bug; it is
    noted in ``notes`` instead, until the panel is configured again. What the glass then shows
    (dark, or noise) is for the test to judge through ``pixels()``.

    What each command does is OledCommands'; this class adds the control bytes that frame
    commands and data, the RAM the data fills, power, and what the glass shows.
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
        self._commands = arg_counts(driver)
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
        self._reset_registers()
        self.commands_seen = 0
        self.data_bytes = 0

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

    def _data(self, b):
        self.data_bytes += 1
        if self._pending is not None:
            self.error(f"display data while command 0x{self._pending:02X} awaits its argument")
        if not self.initialised:
            self._unconfigured("display data before the panel was initialised")
        if self.mode == PAGE_MODE:
            if self.col >= self.ram_cols:
                self.error(f"display data past the last column of page {self.page}")
                self.col = 0
            self.ram[self.page][self.col] = b
            self.col += 1
            return
        self.ram[self.page][self.col] = b
        (c0, c1), (p0, p1) = self.col_range, self.page_range
        if self.mode == HORIZONTAL:
            self.col += 1
            if self.col > c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        else:
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1

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
