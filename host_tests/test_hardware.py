"""board.py, hardware/README.md, pinmap.csv and the Wokwi diagram all describe the same wiring."""

import ast
import csv
import json
import os
import re
import sys
import time
import tomllib
import types
from pathlib import Path

import pytest
from dicetray import board
from dicetray.buttons import Buttons

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
FIRMWARE = ROOT / "firmware"

# The Pico's header: GPIO number -> physical pin (1-20 down the left, 21-40 up the right).
PICO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)  # Wokwi calls them GND.1 ... GND.8

# RP2040 (and RP2350) pin functions: which GPIOs can be SDA / SCL of each I2C block.
I2C_PINS = {
    0: {"SDA": {0, 4, 8, 12, 16, 20, 28}, "SCL": {1, 5, 9, 13, 17, 21}},
    1: {"SDA": {2, 6, 10, 14, 18, 26}, "SCL": {3, 7, 11, 15, 19, 27}},
}

BUTTON_NAMES = ("KEEP1", "KEEP2", "KEEP3", "ROLL", "OK")


def board_signals():
    """Signal name -> GPIO, as board.py wires it."""
    signals = {"SDA": board.PIN_SDA, "SCL": board.PIN_SCL}
    signals.update(board.BUTTON_PINS)
    if board.BUZZER_PIN is not None:
        signals["BUZZER"] = board.BUZZER_PIN
    return signals


# ---------------------------------------------------------------------------- board.py itself


def test_buttons_are_the_five_the_game_expects_in_tray_order():
    assert tuple(name for name, _ in board.BUTTON_PINS) == BUTTON_NAMES


def test_every_gpio_is_on_the_header_and_used_once():
    gpios = list(board_signals().values())
    assert all(gpio in PICO_PIN for gpio in gpios), "GPIO not brought out on a Pico header"
    assert len(gpios) == len(set(gpios)), f"a GPIO is used twice: {board_signals()}"


def test_i2c_pins_belong_to_the_chosen_i2c_block():
    assert board.PIN_SDA != board.PIN_SCL
    if board.I2C_ID is None:  # software I2C runs on any two pins
        return
    pins = I2C_PINS[board.I2C_ID]
    assert board.PIN_SDA in pins["SDA"], f"GP{board.PIN_SDA} is not SDA of I2C{board.I2C_ID}"
    assert board.PIN_SCL in pins["SCL"], f"GP{board.PIN_SCL} is not SCL of I2C{board.I2C_ID}"


def test_watchdog_within_rp2040_limit():
    assert board.WATCHDOG_MAX_MS == 8388
    assert 0 <= board.WATCHDOG_MS <= 8388


def test_display_settings_are_supported():
    settings = board.Board.display_settings(None)  # needs no hardware
    assert settings == {
        "driver": board.DISPLAY_DRIVER,
        "addr": board.DISPLAY_ADDR,
        "width": board.DISPLAY_WIDTH,
        "height": board.DISPLAY_HEIGHT,
        "rotate": board.DISPLAY_ROTATE,
    }
    assert settings["driver"] in ("ssd1306", "sh1106")
    assert settings["addr"] in (0x3C, 0x3D)
    assert settings["width"] == 128 and settings["height"] in (32, 64)
    assert isinstance(settings["rotate"], bool)
    assert board.I2C_FREQ <= 400_000, "the default bus speed must be one every panel supports"
    assert board.FAST_I2C_FREQ >= board.I2C_FREQ


def test_nothing_but_constants_runs_at_import():
    tree = ast.parse((FIRMWARE / "dicetray" / "board.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign):
            ast.literal_eval(node.value)  # raises if it is not a plain constant
        else:
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            definition = isinstance(node, (ast.FunctionDef, ast.ClassDef))
            assert docstring or definition, f"line {node.lineno} runs code at import time"


def test_only_board_imports_machine():
    offenders = []
    for path in FIRMWARE.rglob("*.py"):
        if path.name == "board.py" and path.parent.name == "dicetray":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(name.split(".")[0] in ("machine", "rp2") for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, f"only board.py may import machine/rp2: {offenders}"


# ---------------------------------------------------------------------------- pinmap.csv


def test_pinmap_csv_equals_board():
    with open(HARDWARE / "pinmap.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and list(rows[0]) == ["signal", "gpio", "pico_pin", "notes"]
    signals = [row["signal"] for row in rows]
    assert len(signals) == len(set(signals)), "a signal is listed twice"
    expected = board_signals()
    assert set(signals) == set(expected), "pinmap.csv and board.py list different signals"
    for row in rows:
        gpio = expected[row["signal"]]
        assert int(row["gpio"]) == gpio, f"{row['signal']}: pinmap.csv says GP{row['gpio']}"
        assert int(row["pico_pin"]) == PICO_PIN[gpio], f"GP{gpio} is physical pin {PICO_PIN[gpio]}"


# ---------------------------------------------------------------------------- README


def readme_table_rows():
    rows = []
    for line in (HARDWARE / "README.md").read_text().splitlines():
        if line.startswith("|") and not set(line) <= set("|- "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_readme_wiring_table_matches_board():
    rows = readme_table_rows()
    for signal, gpio in board_signals().items():
        wanted = [signal, f"GP{gpio}", str(PICO_PIN[gpio])]
        assert any(row[:3] == wanted for row in rows), f"README has no row {' | '.join(wanted)}"
    listed = {int(row[1][2:]) for row in rows if re.fullmatch(r"GP\d+", row[1])}
    assert listed == set(board_signals().values()), "README lists a GPIO board.py does not use"


def test_readme_wiring_table_ground_and_power_pins_exist():
    for row in readme_table_rows():
        if row[0] == "GND":
            assert int(row[2].split()[0]) in PICO_GND_PINS, f"pin {row[2]} is not a GND pin"
        if row[0] == "3V3":
            assert row[2].startswith("36"), "3V3(OUT) is physical pin 36"


# ---------------------------------------------------------------------------- Wokwi


class Netlist:
    """Electrical nets of a Wokwi diagram: wires plus the parts' internal connections."""

    def __init__(self, diagram):
        self.parent = {}
        self.parts = diagram["parts"]
        self.pico = next(p["id"] for p in self.parts if "pi-pico" in p["type"])
        for start, end, *_ in diagram["connections"]:
            self.join(start, end)
        for n in range(2, len(PICO_GND_PINS) + 1):
            self.join(f"{self.pico}:GND.1", f"{self.pico}:GND.{n}")
        for part in self.of_type("wokwi-pushbutton"):
            self.join(f"{part['id']}:1.l", f"{part['id']}:1.r")
            self.join(f"{part['id']}:2.l", f"{part['id']}:2.r")

    def root(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            x = self.parent[x]
        return x

    def join(self, a, b):
        self.parent[self.root(a)] = self.root(b)

    def of_type(self, kind):
        return [part for part in self.parts if part["type"] == kind]

    def net(self, endpoint):
        root = self.root(endpoint)
        return {x for x in list(self.parent) if self.root(x) == root}

    def gpios(self, endpoint):
        prefix = f"{self.pico}:GP"
        return {int(x[len(prefix) :]) for x in self.net(endpoint) if x.startswith(prefix)}

    def grounded(self, endpoint):
        return f"{self.pico}:GND.1" in self.net(endpoint)


@pytest.fixture(scope="module")
def wokwi():
    return Netlist(json.loads((HARDWARE / "wokwi" / "diagram.json").read_text()))


def test_wokwi_buttons_match_board(wokwi):
    parts = wokwi.of_type("wokwi-pushbutton")
    buttons = {part["attrs"].get("label"): part["id"] for part in parts}
    assert set(buttons) == set(BUTTON_NAMES)
    for name, gpio in board.BUTTON_PINS:
        contacts = [f"{buttons[name]}:1.l", f"{buttons[name]}:2.l"]
        roles = sorted((wokwi.gpios(c) == {gpio}, wokwi.grounded(c)) for c in contacts)
        assert roles == [(False, True), (True, False)], f"{name}: one side GP{gpio}, other GND"


def test_wokwi_display_matches_board(wokwi):
    (oled,) = wokwi.of_type("board-ssd1306")
    oled_id = oled["id"]
    assert wokwi.gpios(f"{oled_id}:SDA") == {board.PIN_SDA}
    assert wokwi.gpios(f"{oled_id}:SCL") == {board.PIN_SCL}
    assert f"{wokwi.pico}:3V3" in wokwi.net(f"{oled_id}:VCC")
    assert wokwi.grounded(f"{oled_id}:GND")
    assert not wokwi.grounded(f"{oled_id}:VCC")
    assert int(oled["attrs"].get("i2cAddress", "0x3c"), 16) == board.DISPLAY_ADDR


def test_wokwi_buzzer_matches_board(wokwi):
    buzzers = wokwi.of_type("wokwi-buzzer")
    if board.BUZZER_PIN is None:
        assert not buzzers
        return
    (buzzer,) = buzzers
    assert wokwi.gpios(f"{buzzer['id']}:2") == {board.BUZZER_PIN}  # pin 2 is the + leg
    assert wokwi.grounded(f"{buzzer['id']}:1")


def test_wokwi_uses_no_other_gpio_and_shorts_nothing(wokwi):
    prefix = f"{wokwi.pico}:GP"
    used = {int(x[len(prefix) :]) for x in wokwi.parent if x.startswith(prefix)}
    assert used == set(board_signals().values())
    for gpio in used:
        assert len(wokwi.gpios(f"{prefix}{gpio}")) == 1, f"GP{gpio} is wired to another GPIO"
        assert not wokwi.grounded(f"{prefix}{gpio}"), f"GP{gpio} is wired to GND"


def test_wokwi_toml_points_at_a_micropython_uf2():
    config = tomllib.loads((HARDWARE / "wokwi" / "wokwi.toml").read_text())["wokwi"]
    assert config["version"] == 1
    assert config["firmware"].endswith(".uf2")
    assert isinstance(config["rfc2217ServerPort"], int)


# ---------------------------------------------------------------------------- Board on a fake Pico


class FakePin:
    IN, OUT, PULL_UP = "in", "out", "pull_up"
    IRQ_FALLING, IRQ_RISING = 4, 8  # the rp2 port's values

    def __init__(self, gpio, mode=None, pull=None):
        self.gpio, self.mode, self.pull, self.level = gpio, mode, pull, 1
        self.handler = self.trigger = None

    def value(self):
        return self.level

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self.handler, self.trigger = handler, trigger

    def set(self, level):
        """Drive the pin: an edge calls the handler if its trigger asks for that edge."""
        edge = self.IRQ_FALLING if self.level and not level else self.IRQ_RISING
        changed = level != self.level
        self.level = level
        if changed and self.handler and self.trigger & edge:
            self.handler(self)


def fake_machine(panel_max_hz):
    """A stand-in ``machine`` module whose panel only answers up to ``panel_max_hz``."""
    log = {"i2c": [], "pwm": [], "wdt": [], "reset": 0}

    class FakeI2C:
        def __init__(self, bus_id=None, sda=None, scl=None, freq=400_000):
            self.bus_id, self.sda, self.scl, self.freq = bus_id, sda, scl, freq
            log["i2c"].append(self)

        def writeto(self, addr, buf):
            if addr != board.DISPLAY_ADDR or self.freq > panel_max_hz:
                raise OSError(5)  # EIO: no acknowledge
            return len(buf)

    class FakeSoftI2C(FakeI2C):
        def __init__(self, sda=None, scl=None, freq=400_000):
            super().__init__(None, sda, scl, freq)

    class FakePWM:
        def __init__(self, pin):
            self.pin, self.hz, self.duty = pin, None, None
            log["pwm"].append(self)

        def freq(self, hz):
            self.hz = hz

        def duty_u16(self, duty):
            self.duty = duty

    class FakeWDT:
        def __init__(self, id=0, timeout=5000):
            self.timeout, self.feeds = timeout, 0
            log["wdt"].append(self)

        def feed(self):
            self.feeds += 1

    def reset():
        log["reset"] += 1

    module = types.ModuleType("machine")
    module.Pin, module.I2C, module.SoftI2C = FakePin, FakeI2C, FakeSoftI2C
    module.PWM, module.WDT, module.reset = FakePWM, FakeWDT, reset
    module.log = log
    return module


@pytest.fixture
def pico(monkeypatch):
    """Returns make(panel_max_hz=400_000) -> (Board, machine log) on a fake Pico."""
    slept = []
    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.setattr(time, "ticks_add", lambda a, b: a + b, raising=False)
    monkeypatch.setattr(time, "sleep_ms", slept.append, raising=False)

    def make(panel_max_hz=400_000):
        machine = fake_machine(panel_max_hz)
        monkeypatch.setitem(sys.modules, "machine", machine)
        return board.Board(), machine.log

    return make


def test_board_buttons_are_pulled_up_inputs(pico):
    b, _ = pico()
    assert list(b.pins) == list(BUTTON_NAMES)
    for name, gpio in board.BUTTON_PINS:
        pin = b.pins[name]
        assert (pin.gpio, pin.mode, pin.pull) == (gpio, FakePin.IN, FakePin.PULL_UP)


def test_board_i2c_defaults_to_i2c_freq_without_probing(pico, monkeypatch):
    monkeypatch.setattr(board, "FAST_I2C", False)
    b, log = pico(panel_max_hz=1_000_000)
    assert len(log["i2c"]) == 1
    assert (b.i2c.bus_id, b.i2c.freq) == (board.I2C_ID, board.I2C_FREQ)
    assert (b.i2c.sda.gpio, b.i2c.scl.gpio) == (board.PIN_SDA, board.PIN_SCL)


@pytest.mark.parametrize("panel_max_hz", [1_000_000, 400_000, 0])
def test_board_fast_i2c_falls_back_when_the_panel_is_silent(pico, monkeypatch, panel_max_hz):
    monkeypatch.setattr(board, "FAST_I2C", True)
    b, _ = pico(panel_max_hz)
    fast_ok = panel_max_hz >= board.FAST_I2C_FREQ
    assert b.i2c.freq == (board.FAST_I2C_FREQ if fast_ok else board.I2C_FREQ)


def test_board_software_i2c(pico, monkeypatch):
    monkeypatch.setattr(board, "I2C_ID", None)
    b, _ = pico()
    assert b.i2c.bus_id is None and b.i2c.freq == board.I2C_FREQ


def test_board_buzzer(pico, monkeypatch):
    monkeypatch.setattr(board, "BUZZER_PIN", 21)
    b, log = pico()
    (pwm,) = log["pwm"]
    assert pwm.pin.gpio == 21 and pwm.duty == 0  # silent from the start
    b.buzzer.tone(440)
    assert (pwm.hz, pwm.duty) == (440, 32768)
    b.buzzer.tone(0)
    assert pwm.duty == 0
    b.buzzer.tone(880)
    b.buzzer.off()
    assert pwm.duty == 0
    monkeypatch.setattr(board, "BUZZER_PIN", None)
    assert pico()[0].buzzer is None


@pytest.mark.parametrize("setting, expected", [(8000, 8000), (20000, 8388), (0, None)])
def test_board_watchdog_starts_only_when_asked(pico, monkeypatch, setting, expected):
    monkeypatch.setattr(board, "WATCHDOG_MS", setting)
    b, log = pico()
    b.feed()  # a no-op before the start
    assert log["wdt"] == []
    b.start_watchdog()
    b.start_watchdog()  # a second start neither fails nor makes a second watchdog
    b.feed()
    if expected is None:
        assert log["wdt"] == []
    else:
        (wdt,) = log["wdt"]
        assert (wdt.timeout, wdt.feeds) == (expected, 1)


def test_board_held_at_boot(pico):
    b, _ = pico()
    b.pins["OK"].level = 0
    assert b.held_at_boot("OK")
    assert not b.held_at_boot("ROLL")


def test_board_pause_waits_until_a_button_changes(pico):
    b, _ = pico()
    slept = []
    b.sleep_ms = slept.append
    for pin in b.pins.values():  # both edges of every button wake the loop
        assert pin.trigger == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
    b.pause(5)
    assert slept == [1] * 5  # nothing changed: the whole wait, a millisecond at a time
    slept.clear()
    b.pins["KEEP2"].set(0)  # pressed during the step before the pause
    b.pause(5)
    assert slept == []  # the next poll comes at once
    b.pause(5)
    assert slept == [1] * 5  # the edge was used up
    slept.clear()

    def sleep(ms):
        slept.append(ms)
        if len(slept) == 2:
            b.pins["KEEP2"].set(1)  # let go two milliseconds into the wait

    b.sleep_ms = sleep
    b.pause(5)
    assert slept == [1, 1]  # it ends there


def test_board_edges_note_each_button_in_buttons_scan_order(pico, monkeypatch):
    now = [0]
    monkeypatch.setattr(time, "ticks_ms", lambda: now[0], raising=False)
    b, _ = pico()
    buttons = Buttons(b.pins, b.ticks_diff, edges=b.edges)  # the scan order of a dict of pins
    assert b.edges.flag == bytearray(len(BUTTON_NAMES))
    for i, name in enumerate(buttons.names):
        now[0] = 1000 + i
        b.pins[name].set(0)
        b.pins[name].set(1)
        assert [k for k, flag in enumerate(b.edges.flag) if flag] == [i], name
        assert b.edges.at[i] == 1000 + i
        b.edges.flag[i] = 0


def test_board_reset(pico):
    b, log = pico()
    b.reset()
    assert log["reset"] == 1


@pytest.mark.parametrize("hardware", [True, False])
def test_board_random_bits(pico, monkeypatch, hardware):
    b, _ = pico()
    if not hardware:

        def no_entropy(n):
            raise NotImplementedError

        monkeypatch.setattr(os, "urandom", no_entropy)
    assert b.random_bits(0) == 0
    for k in (1, 3, 8, 31, 32, 33, 64):
        assert all(0 <= b.random_bits(k) < 1 << k for _ in range(50))
    assert {b.random_bits(3) for _ in range(400)} == set(range(8))
