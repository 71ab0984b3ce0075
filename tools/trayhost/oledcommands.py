"""The SSD1306 / SH1106 command interpreter: which commands there are and what each one sets."""

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
PAGE_MODE, HORIZONTAL, VERTICAL = 2, 0, 1

# Commands without arguments that switch a register between two values:
# command -> (register, value, the setting it counts as made before RAM may be written).
_SWITCHES = {
    0xA0: ("seg_remap", False, "segment remap"),
    0xA1: ("seg_remap", True, "segment remap"),
    0xA4: ("entire_on", False, None),
    0xA5: ("entire_on", True, None),
    0xA6: ("inverse", False, None),
    0xA7: ("inverse", True, None),
    0xAE: ("display_on", False, None),
    0xAF: ("display_on", True, None),
    0xC0: ("com_remap", False, "COM scan"),
    0xC8: ("com_remap", True, "COM scan"),
}


def arg_counts(driver):
    """The commands one controller ("ssd1306" or "sh1106") understands: command -> arguments."""
    counts = dict(_COMMON)
    counts.update(_SSD1306 if driver == "ssd1306" else _SH1106)
    return counts


class OledCommands:
    """The controller's registers and what each command byte does to them; FakePanel's base.

    The panel supplies ``driver``, ``ram_cols``, ``height``, ``com_alternate``, ``_commands``
    (``arg_counts(driver)``), ``error()`` and ``_unconfigured()``.
    """

    def _reset_registers(self):
        """Every register at its datasheet reset value, no command half-received."""
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
        self.mode = PAGE_MODE
        self.page = 0
        self.col = 0
        self.col_range = (0, 127)
        self.page_range = (0, 7)
        self._pending = None  # a command still waiting for arguments (kept across transfers)
        self._args = []
        self._configured = set()  # settings a driver must make before writing RAM

    @property
    def initialised(self):
        need = {"mux", "com pins", "segment remap", "COM scan"}
        if self.driver == "ssd1306":
            need.add("charge pump")
        return need <= self._configured

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
        if op < 0x20 or 0xB0 <= op < 0xB8:
            self._page_mode_address(op)
        elif 0x40 <= op < 0x80:
            self.start_line = op & 0x3F
        elif op in _SWITCHES:
            register, value, setting = _SWITCHES[op]
            setattr(self, register, value)
            if setting is not None:
                self._configured.add(setting)
            if op == 0xAF:
                self._check_config()
        elif op in self._SETTERS:
            self._SETTERS[op](self, op, args)
        # 0xD5, 0xD9, 0xDB, 0xE3, 0x2E, 0x30..0x33: timing and voltages, nothing to model

    def _page_mode_address(self, op):
        if self.mode != PAGE_MODE:
            self.error(f"page-mode command 0x{op:02X} sent in horizontal/vertical mode")
            return
        if op < 0x10:
            self.col = (self.col & 0xF0) | op
        elif op < 0x20:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        else:
            self.page = op & 0x07

    # -- commands with arguments: (op, args) in, registers set ---------------------------------

    def _set_contrast(self, op, args):
        self.contrast = args[0]

    def _set_mux(self, op, args):
        self.mux = (args[0] & 0x3F) + 1
        if self.mux < 16 and self.driver == "ssd1306":
            self.error(f"multiplex ratio {self.mux} is invalid (16..64)")
        self._configured.add("mux")

    def _set_offset(self, op, args):
        self.offset = args[0] & 0x3F

    def _set_com_pins(self, op, args):
        self.com_alt = bool(args[0] & 0x10)
        self.com_lr = bool(args[0] & 0x20)
        self._configured.add("com pins")

    def _set_pump(self, op, args):
        # SSD1306 charge pump (0x8D, bit 2) or SH1106 DC-DC (0xAD, bit 0).
        self.pump = bool(args[0] & (0x04 if op == 0x8D else 0x01))
        self._configured.add("charge pump")

    def _set_mode(self, op, args):
        if args[0] & 3 == 3:
            self.error("addressing mode 3 is invalid")
        else:
            self.mode = args[0] & 3

    def _window(self, op, args):
        if self.mode == PAGE_MODE:
            self.error(f"window command 0x{op:02X} sent in page addressing mode")
            return
        lo, hi = args
        if op == 0x21:
            self.col_range = (lo & 0x7F, hi & 0x7F)
            self.col = self.col_range[0]
        else:
            self.page_range = (lo & 0x07, hi & 0x07)
            self.page = self.page_range[0]

    _SETTERS = {
        0x81: _set_contrast, 0xA8: _set_mux, 0xD3: _set_offset, 0xDA: _set_com_pins,
        0x8D: _set_pump, 0xAD: _set_pump, 0x20: _set_mode, 0x21: _window, 0x22: _window,
    }

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
