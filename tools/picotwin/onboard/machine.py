"""The twin's machine module, as far as the tray uses it: the buttons' pins and their interrupts,
the panel's I2C bus, the buzzer's PWM, the watchdog and reset (twinbus keeps their state)."""

import binascii

import twinbus

_levels = twinbus.levels


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = twinbus.IRQ_FALLING
    IRQ_RISING = twinbus.IRQ_RISING

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if pull != -1:
            self._pull = 1 if pull == Pin.PULL_UP else 0
        elif not hasattr(self, "_pull"):
            self._pull = 0
        if value is not None:
            self._out = 1 if value else 0

    def value(self, level=None):
        if level is None:
            return _levels.get(self.id, self._pull)
        self._out = 1 if level else 0

    __call__ = value

    def on(self):
        self._out = 1

    def off(self):
        self._out = 0

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        if handler is None:
            twinbus.handlers.pop(self.id, None)
        else:
            twinbus.handlers[self.id] = (self, handler, trigger)


class I2C:
    """The panel's bus: every write is timed and handed to the driver's SSD1306. A write
    holds the CPU while its bits go (the blocking writeto): the address and each byte take 9
    clock periods, the start and the stop one each."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.freq = freq

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf, stop=True):
        twinbus.charge(True)
        start = twinbus.now_ms()
        n = len(buf)
        twinbus.spend((9 * (n + 1) + 2) * 1000000 / self.freq if twinbus.costs["work_ns"] else 0)
        if addr != 0x3C:
            twinbus.on()
            raise OSError(5)  # EIO: nobody acknowledges
        twinbus.bus.append([start, addr, binascii.hexlify(buf).decode(), twinbus.now_ms()])
        twinbus.on()
        return n

    def writevto(self, addr, vector, stop=True):
        return self.writeto(addr, b"".join(bytes(part) for part in vector), stop)


SoftI2C = I2C


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self._freq = freq
        self._duty = duty_u16

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value

    def deinit(self):
        self._duty = 0


class WDT:
    def __init__(self, id=0, timeout=5000):
        twinbus.charge()
        twinbus.watchdog[0] = timeout
        twinbus.watchdog[1] = twinbus.clock[0]

    def feed(self):
        twinbus.charge()
        twinbus.watchdog[1] = twinbus.clock[0]


def reset():
    twinbus.charge(True)
    twinbus.ask({"op": "reset", "t": twinbus.clock[0], "why": "machine.reset"})


soft_reset = reset


def freq(hz=None):
    return 125000000


def unique_id():
    return b"twinpico"
