"""A Pico on USB as the flash tool sees it: the Board interface, and SerialBoard behind it.

SerialBoard talks to the board through mpremote's library (the version pinned in pyproject.toml):
one raw-REPL session a run, two read-only scripts whose answers are parsed here, and mpremote's
own filesystem calls for the changes.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from flashkit.listing import Entry, Listing

PICO_USB = (0x2E8A, 0x0005)  # the USB vendor:product of MicroPython on a Pico
DROPPED = "its USB connection dropped: it reset, or the cable moved"


class Port(NamedTuple):
    """A serial port as pyserial lists it."""

    device: str
    serial_number: str | None = None
    vid: int | None = None
    pid: int | None = None
    manufacturer: str | None = None
    product: str | None = None

    def line(self) -> str:
        """The port as `mpremote devs` prints it: PORT SERIAL VID:PID MANUFACTURER PRODUCT."""
        return "%s %s %04x:%04x %s %s" % (self.device, self.serial_number, self.vid or 0,
                                          self.pid or 0, self.manufacturer, self.product)

    def words(self) -> str:
        """The port as a person would say it: what is behind it, and why it is not the board."""
        if self.vid is None:
            return f"{self.device}: a serial port of this computer itself, no USB device on it"
        name = " ".join(n for n in (self.manufacturer, self.product) if n) or "a device"
        usb_id = "%04x:%04x" % (self.vid, self.pid or 0)
        if self.vid == PICO_USB[0]:
            return f"{self.device}: {name} (USB id {usb_id}), a Pico not running MicroPython"
        return f"{self.device}: {name} (USB id {usb_id}), not a board running MicroPython"

    def runs_micropython(self) -> bool:
        return (self.vid, self.pid) == PICO_USB or self.manufacturer == "MicroPython"


class Probe(NamedTuple):
    """What a board says about itself (PROBE_PY's answer)."""

    impl: str
    version: str
    mpy: int | None  # sys.implementation._mpy; None: it has none
    machine: str
    sha256: bool  # hashlib.sha256 is there
    watchdog: bool  # a watchdog is counting down: the tray's game runs


class BoardError(Exception):
    """The board did not do what was asked; str() says why, in a line."""


class CannotOpen(BoardError):
    """The port cannot be opened."""


class NoReply(BoardError):
    """The board does not answer, or stopped answering."""


class BoardRaised(BoardError):
    """Code sent to the board raised; str() is the traceback's last line."""


class Garbled(BoardError):
    """The board answered, but not as MicroPython does; str() is the start of the answer."""


class Board(Protocol):
    """One connection to a board: everything this tool does to it."""

    def probe(self) -> Probe: ...
    def listing(self, roots: Iterable[str]) -> Listing: ...  # the files and folders at roots
    def mkdir(self, path: str) -> None: ...
    def remove(self, path: str) -> None: ...  # a file
    def rmdir(self, path: str) -> None: ...  # an empty folder
    def write(self, path: str, data: bytes) -> None: ...
    def reset(self) -> None: ...  # a hard reset: the board starts main.py
    def close(self) -> None: ...


class Usb(Protocol):
    """What is plugged in."""

    def ports(self) -> list[Port]: ...
    def connect(self, device: str) -> Board: ...  # raises CannotOpen


# Read-only: what runs there, which .mpy it loads, whether a watchdog is counting down (its
# CTRL register: enabled, and the time left falling between two reads).
PROBE_PY = """\
import sys
i = sys.implementation
print('impl', i.name)
print('version', '.'.join([str(v) for v in i.version[:3]]))
print('mpy', getattr(i, '_mpy', 'none'))
m = getattr(i, '_machine', sys.platform)
print('machine', m)
try:
    from hashlib import sha256
    print('sha256 yes')
except ImportError:
    print('sha256 no')
wdt = 'off'
try:
    import machine, time
    ctrl = 0x40058000 if 'RP2040' in m else 0x400d8000 if 'RP2350' in m else 0
    if ctrl:
        a = machine.mem32[ctrl]
        time.sleep_ms(5)
        b = machine.mem32[ctrl]
        if a & 0x40000000 and (b & 0xffffff) < (a & 0xffffff):
            wdt = 'on'
except Exception:
    pass
print('watchdog', wdt)
"""

# Read-only: "F size sha256 path" per file and "D 0 - path" per folder at ROOTS, then "end".
LIST_PY = """\
import os
from hashlib import sha256
buf = bytearray(512)
def digest(p):
    h = sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(memoryview(buf)[:n])
    return ''.join(['%02x' % b for b in h.digest()])
def show(p):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        print('D 0 - ' + p)
        for name in os.listdir(p):
            show(p + '/' + name)
    else:
        print('F %d %s %s' % (st[6], digest(p), p))
for p in ROOTS:
    show(p)
print('end')
"""

RESET_PY = "import time, machine\ntime.sleep_ms(100)\nmachine.reset()"


def listing_script(roots: Iterable[str]) -> str:
    return LIST_PY.replace("ROOTS", repr(sorted(roots)))


def parse_probe(text: str) -> Probe:
    fields = dict(line.partition(" ")[::2] for line in text.splitlines())
    if "impl" not in fields:
        raise Garbled(" / ".join(text.splitlines()[:3]) or "nothing")
    mpy = fields.get("mpy", "")
    return Probe(fields["impl"], fields.get("version", ""), int(mpy) if mpy.isdigit() else None,
                 fields.get("machine", ""), fields.get("sha256") == "yes",
                 fields.get("watchdog") == "on")


def parse_listing(text: str) -> Listing:
    lines = text.splitlines()
    if not lines or lines[-1] != "end":
        raise NoReply("its list of files stopped part-way")
    listing = {}
    for line in lines[:-1]:
        kind, size, digest, path = line.split(" ", 3)
        listing[path] = Entry(kind, int(size), digest)
    return listing


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no reply"


class SerialBoard:
    """A board on a USB serial port, through mpremote's library; one raw-REPL session a run,
    so the board soft-resets only once."""

    def __init__(self, transport):
        self.transport = transport  # an mpremote Transport
        self.in_raw_repl = False

    @classmethod
    def open(cls, device: str) -> SerialBoard:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        try:
            with contextlib.redirect_stdout(io.StringIO()):
                return cls(SerialTransport(device, baudrate=115200))
        except TransportError as exc:
            raise CannotOpen(str(exc)) from None

    def _call(self, action, *args, verb=""):
        """action(*args) in the raw REPL; mpremote's exceptions become BoardErrors, a failed
        filesystem call's worded as mpremote's command line words it ("cp: PATH: REASON")."""
        from mpremote.transport import TransportError, TransportExecError
        from serial import SerialException

        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what went wrong
                if not self.in_raw_repl:
                    self.transport.enter_raw_repl(soft_reset=True)
                    self.in_raw_repl = True
                return action(*args)
        except TransportExecError as exc:
            raise BoardRaised(last_line(exc.error_output)) from None
        except TransportError as exc:
            raise NoReply(str(exc) or "no reply") from None
        except SerialException:
            raise NoReply(DROPPED) from None
        except OSError as exc:  # mpremote's fs_* raise OSError(errno, path)
            if not verb or exc.errno is None:
                raise NoReply(f"{DROPPED} ({exc})") from None
            raise BoardError(f"{verb}: {exc.strerror}: {os.strerror(exc.errno)}") from None

    def _exec(self, script: str) -> str:
        return self._call(self.transport.exec, script).decode(errors="replace").replace("\r", "")

    def probe(self) -> Probe:
        return parse_probe(self._exec(PROBE_PY))

    def listing(self, roots: Iterable[str]) -> Listing:
        return parse_listing(self._exec(listing_script(roots)))

    def mkdir(self, path: str) -> None:
        self._call(self.transport.fs_mkdir, path, verb="mkdir")

    def remove(self, path: str) -> None:
        self._call(self.transport.fs_rmfile, path, verb="rm")

    def rmdir(self, path: str) -> None:
        self._call(self.transport.fs_rmdir, path, verb="rmdir")

    def write(self, path: str, data: bytes) -> None:
        self._call(self.transport.fs_writefile, path, data, verb="cp")

    def reset(self) -> None:
        self._call(self.transport.exec_raw_no_follow, RESET_PY)
        self.in_raw_repl = False  # it reboots: no raw REPL to leave

    def close(self) -> None:
        with contextlib.suppress(OSError), contextlib.redirect_stdout(io.StringIO()):
            if self.in_raw_repl:
                self.transport.exit_raw_repl()
        with contextlib.suppress(OSError):  # the board may be gone: it reset, the cable moved
            self.transport.close()


class SerialUsb:
    """The serial ports of this computer, and the boards behind them."""

    def ports(self) -> list[Port]:
        from serial.tools.list_ports import comports

        return [Port(p.device, p.serial_number, p.vid, p.pid, p.manufacturer, p.product)
                for p in sorted(comports())]

    def connect(self, device: str) -> Board:
        return SerialBoard.open(device)
