"""MicroPython's time module on the twin's virtual clock (twinbus): sys.modules["time"]. Reading
the clock charges the firmware's work so far to it (twinbus.charge)."""

import twinbus

_clock = twinbus.clock
_advance = twinbus.advance
_charge = twinbus.charge
TICKS_MAX = twinbus.TICKS_MAX
TICKS_HALF = (TICKS_MAX + 1) // 2


def ticks_ms():
    _charge()
    return _clock[0] & TICKS_MAX


def ticks_us():
    _charge()
    return (_clock[0] * 1000 + int(_clock[2])) & TICKS_MAX


def ticks_cpu():
    return ticks_us()


def ticks_add(ticks, delta):
    return (ticks + delta) & TICKS_MAX


def ticks_diff(a, b):
    return ((a - b + TICKS_HALF) & TICKS_MAX) - TICKS_HALF


def sleep_ms(ms):
    if ms > 0:
        _advance(ms)
    else:
        _charge()


def sleep_us(us):
    if us > 0:
        _advance((us + 999) // 1000)
    else:
        _charge()


def sleep(seconds):
    if seconds > 0:
        _advance(int(seconds * 1000))
    else:
        _charge()


def time():
    _charge()
    return _clock[0] // 1000


def time_ns():
    _charge()
    return _clock[0] * 1000000 + int(_clock[2] * 1000)


def localtime(secs=None):
    secs = time() if secs is None else secs
    return (2021, 1, 1 + secs // 86400, secs // 3600 % 24, secs // 60 % 60, secs % 60, 4, 1)


gmtime = localtime
