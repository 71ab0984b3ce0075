"""Picos as tools/flash.py sees them: pico_usb's Board and Usb interfaces over a dict of files."""

import posixpath

from flashkit.listing import FOLDER, file_entry
from flashkit.pico_usb import DROPPED, PICO_USB, BoardError, CannotOpen, NoReply, Port, Probe
from flashkit.planner import MAIN

RP2040_MPY = 6 | (3 | 4 << 2) << 8  # .mpy v6.3, armv6m: sys.implementation._mpy on a Pico
RP2350_MPY = 6 | (3 | 7 << 2) << 8  # armv7emsp: a Pico 2
RP2350_RISCV_MPY = 6 | (3 | 11 << 2) << 8  # rv32imc: a Pico 2 with MicroPython's RISC-V build
RP2040_V122_MPY = 6 | (2 | 4 << 2) << 8  # .mpy v6.2: a Pico with MicroPython 1.22
READ_ONLY = {"probe", "listing"}


class FakePico:
    """Stock MicroPython on a Pico (or the tray on one); ops records what was done to it.

    busy: the port cannot be opened; answers=False: nothing comes back; watchdog: the tray's
    game runs; ok_held: OK is held at power-up (safe mode). A reset starts main.py, which
    starts the game and its watchdog unless OK is held. A fault {"path", "error"} fires at the
    next write of path: "ENOSPC" and "disconnect" leave the file as littlefs leaves one that was
    never closed (empty when it is new, else unchanged), and a disconnect reboots the board,
    which answers nothing more on this connection; "corrupt" lands the data with a byte flipped.
    """

    def __init__(self, files=None, impl="micropython", version="1.27.0", mpy=RP2040_MPY,
                 machine="Raspberry Pi Pico with RP2040", sha256=True, watchdog=False,
                 ok_held=False, answers=True, busy=False, faults=()):
        self.files, self.dirs = {}, set()
        for path, data in (files or {}).items():
            self.put(path, data)
        self.about = Probe(impl, version, mpy, machine, sha256, watchdog)
        self.watchdog, self.ok_held, self.answers, self.busy = watchdog, ok_held, answers, busy
        self.faults = list(faults)
        self.ops = []
        self.linked = False

    def put(self, path, data):
        self.files[path] = bytes(data)
        folder = posixpath.dirname(path)
        while folder != "/":
            self.dirs.add(folder)
            folder = posixpath.dirname(folder)

    def boot(self):
        self.watchdog = MAIN in self.files and not self.ok_held
        self.linked = False

    def _do(self, op, path=""):
        if not self.linked:
            raise NoReply(DROPPED)
        if not self.answers:
            raise NoReply("could not enter raw repl")
        self.ops.append(f"{op} {path}".strip())

    # ---- flash.Board --------------------------------------------------------------------

    def probe(self):
        self._do("probe")
        return self.about._replace(watchdog=self.watchdog)

    def listing(self, roots):
        self._do("listing")
        found = {p: FOLDER for p in self.dirs} | {p: file_entry(d) for p, d in self.files.items()}
        return {p: e for p, e in found.items()
                if any(p == root or p.startswith(root + "/") for root in roots)}

    def mkdir(self, path):
        self._do("mkdir", path)
        self._need(path not in self.dirs and path not in self.files, "mkdir", path, "File exists")
        self.dirs.add(path)

    def remove(self, path):
        self._do("remove", path)
        self._need(path in self.files, "rm", path, "No such file or directory")
        del self.files[path]

    def rmdir(self, path):
        self._do("rmdir", path)
        self._need(path in self.dirs, "rmdir", path, "No such file or directory")
        inside = [p for p in (*self.files, *self.dirs) if p.startswith(path + "/")]
        self._need(not inside, "rmdir", path, "Directory not empty")
        self.dirs.discard(path)

    def write(self, path, data):
        self._do("write", path)
        self._need(posixpath.dirname(path) in self.dirs | {"/"}, "cp", path,
                   "No such file or directory")
        fault = next((f for f in self.faults if f["path"] == path), None)
        if fault is None:
            self.files[path] = bytes(data)
            return
        self.faults.remove(fault)
        if fault["error"] == "corrupt":
            self.files[path] = bytes([data[0] ^ 0xFF]) + data[1:]
            return
        self.files.setdefault(path, b"")
        if fault["error"] == "disconnect":
            self.boot()
            raise NoReply(DROPPED)
        raise BoardError(f"cp: {path}: No space left on device")

    def reset(self):
        self._do("reset")
        self.boot()

    def close(self):
        self.linked = False

    @staticmethod
    def _need(ok, verb, path, reason):
        if not ok:
            raise BoardError(f"{verb}: {path}: {reason}")


class FakeUsb:
    """flash.Usb over boards {device: FakePico}; ports: what is listed (default: those)."""

    def __init__(self, boards, ports=None):
        self.boards = boards
        if ports is None:
            ports = [Port(d, "e66141%010x" % i, *PICO_USB, "MicroPython", "Board in FS mode")
                     for i, d in enumerate(boards)]
        self.listed = ports
        self.calls = []

    def ports(self):
        self.calls.append("ports")
        return list(self.listed)

    def connect(self, device):
        self.calls.append("connect " + device)
        board = self.boards.get(device)
        if board is None or board.busy:
            raise CannotOpen("failed to access " + device)
        board.linked = True
        return board
