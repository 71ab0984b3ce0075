"""A simulated Pico behind the real mpremote: its command line, output and exit codes, faked board.

host_tests/fakes/mpremote runs mpremote's own main() (the pinned package in .venv) with two
things swapped: the serial port list and the serial transport. So `devs`, `fs ls`, `fs cp`,
`exec`, `reset`, chaining with `+`, error messages and exit codes are mpremote's own code; only
the far side of the USB cable is simulated. Code sent to the board (by `exec`, `eval` and by
mpremote's fs commands) runs on CPython against board-side modules: os over an in-memory
littlefs, sys.implementation from the state, machine (reset, mem32 with the RP2040/RP2350
watchdog control register), hashlib, binascii and time. Output comes back with CRLF line ends
and errors as MicroPython tracebacks, as from a real board's raw REPL.

The state is a JSON file named by $FAKE_PICO (written back after every run, as flash keeps):
  {"ports": [port, ...], "boards": {device: board, ...}}
  port: {"device", "serial_number", "vid", "pid", "manufacturer", "product"} (usb_port())
  board (micropython_board()): "impl", "version", "mpy" (None: no sys.implementation._mpy),
    "machine", "platform", "files" {abs path: base64}, "dirs" [abs path], "answers" (False:
    mpremote cannot enter the raw REPL), "busy" (True: the port cannot be opened), "watchdog"
    (True: a machine.WDT is running), "ok_held" (True: OK is held at boot, safe mode),
    "missing" [modules this build lacks], "faults" [fault], "ops" [what happened, appended].
  A hard reset (machine.reset(), or a "disconnect" fault, which is the board rebooting) runs
  /main.py: when there is one and OK is not held, the tray's game starts its watchdog; else
  (stock MicroPython, safe mode) none runs.
  fault: {"path", "after": bytes, "error": "ENOSPC" | "EIO" | "disconnect" | "corrupt",
    "times": n (-1: always)}: writing `path` past `after` bytes fails that way (a
    "corrupt" write succeeds with one byte flipped).
A port listed without a board cannot be opened. Every run appends its argv, as one JSON line,
to the file named by $FAKE_PICO_LOG.

Durability follows littlefs: a file opened for writing exists (empty, when new) at once, but
written bytes are committed only by close(); a write cut short leaves the previous content.
Not simulated: time (a running watchdog never fires by itself: flash.sh must notice it),
boot.py on soft reset, `mount`, `repl`, and mpremote's ten-second wait for a silent board.
"""

import base64
import builtins
import contextlib
import errno
import hashlib
import io
import json
import os
import posixpath
import sys
import traceback
import types

RP2040_MPY = 6 | (3 | 4 << 2) << 8  # .mpy v6.3, armv6m: sys.implementation._mpy on a Pico
RP2350_MPY = 6 | (3 | 7 << 2) << 8  # armv7emsp: a Pico 2
WATCHDOG_CTRL = {"RP2040": 0x40058000, "RP2350": 0x400D8000}
S_IFDIR, S_IFREG = 0x4000, 0x8000
# MicroPython's default errno list (py/moderrno.c): these print by name, "[Errno 2] ENOENT";
# any other errno prints as a bare number ("OSError: 28" for a full flash), which is why
# mpremote maps "OSError: <n>" back to an errno itself.
NAMED_ERRNOS = {getattr(errno, name) for name in (
    "EPERM ENOENT EIO EBADF EAGAIN ENOMEM EACCES EEXIST ENODEV EISDIR EINVAL EOPNOTSUPP "
    "EADDRINUSE ECONNABORTED ECONNRESET ENOBUFS ENOTCONN ETIMEDOUT ECONNREFUSED EHOSTUNREACH "
    "EALREADY EINPROGRESS").split()}


def usb_port(device, serial_number="e6614103e7a2b12c", vid=0x2E8A, pid=0x0005,
             manufacturer="MicroPython", product="Board in FS mode"):
    """A serial port as pyserial lists it; the defaults are a Pico running MicroPython."""
    return dict(device=device, serial_number=serial_number, vid=vid, pid=pid,
                manufacturer=manufacturer, product=product)


def micropython_board(files=None, version=(1, 27, 0, ""), mpy=RP2040_MPY,
                      machine="Raspberry Pi Pico with RP2040", **extra):
    """A board's state: stock MicroPython on a Pico; files maps absolute paths to bytes."""
    board = dict(impl="micropython", version=list(version), mpy=mpy, machine=machine,
                 platform="rp2", files={}, dirs=[], answers=True, busy=False, watchdog=False,
                 ok_held=False, faults=[], ops=[])
    board.update(extra)
    for path, data in (files or {}).items():
        put_file(board, path, data)
    return board


def put_file(board, path, data):
    """Store data (bytes or str) at path, making its folders."""
    data = data.encode() if isinstance(data, str) else bytes(data)
    board["files"][path] = base64.b64encode(data).decode()
    folder = posixpath.dirname(path)
    while folder != "/" and folder not in board["dirs"]:
        board["dirs"].append(folder)
        folder = posixpath.dirname(folder)


def board_files(board):
    """{path: bytes} of a board's state."""
    return {path: base64.b64decode(data) for path, data in board["files"].items()}


def load_state(path):
    with open(path) as f:
        return json.load(f)


def save_state(path, state):
    with open(path, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)


# ---- the board: the modules code sent over the raw REPL sees ---------------------------


class Disconnect(BaseException):
    """The USB link died (an injected fault): the host's next serial call fails."""


class HardReset(BaseException):
    """machine.reset() ran: the board reboots and stops answering this session."""


def _oserror(code):
    err = OSError(code)
    err.errno = code
    return err


class LittleFs:
    """The board's filesystem over the state's "files" and "dirs"; cwd is always "/"."""

    def __init__(self, board):
        self.board = board
        self.files = board_files(board)
        self.dirs = set(board["dirs"])

    def store(self):
        self.board["files"] = {p: base64.b64encode(d).decode() for p, d in self.files.items()}
        self.board["dirs"] = sorted(self.dirs)

    @staticmethod
    def norm(path):
        path = posixpath.normpath(posixpath.join("/", str(path)))
        return "/" + path.lstrip("/")

    def isdir(self, path):
        return path == "/" or path in self.dirs

    def need_parent(self, path):
        if not self.isdir(posixpath.dirname(path)):
            raise _oserror(errno.ENOENT)

    def stat(self, path):
        path = self.norm(path)
        if self.isdir(path):
            return (S_IFDIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if path in self.files:
            return (S_IFREG, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        raise _oserror(errno.ENOENT)

    def ilistdir(self, path=""):
        path = self.norm(path)
        if not self.isdir(path):
            raise _oserror(errno.ENOENT)
        entries = []
        for d in self.dirs:
            if posixpath.dirname(d) == path and d != path:
                entries.append((posixpath.basename(d), S_IFDIR, 0, 0))
        for f, data in self.files.items():
            if posixpath.dirname(f) == path:
                entries.append((posixpath.basename(f), S_IFREG, 0, len(data)))
        return iter(sorted(entries))

    def children(self, path):
        prefix = path.rstrip("/") + "/"
        return [p for p in (*self.dirs, *self.files) if p.startswith(prefix)]

    def mkdir(self, path):
        path = self.norm(path)
        if self.isdir(path) or path in self.files:
            raise _oserror(errno.EEXIST)
        self.need_parent(path)
        self.dirs.add(path)
        self.op("mkdir", path)

    def rmdir(self, path):
        path = self.norm(path)
        if path not in self.dirs:
            raise _oserror(errno.ENOENT if path not in self.files else errno.ENOTDIR)
        if self.children(path):
            raise _oserror(errno.ENOTEMPTY)  # littlefs' LFS_ERR_NOTEMPTY, printed as 39
        self.dirs.discard(path)
        self.op("rmdir", path)

    def remove(self, path):
        path = self.norm(path)
        if self.isdir(path):
            raise _oserror(errno.EISDIR)
        if path not in self.files:
            raise _oserror(errno.ENOENT)
        del self.files[path]
        self.op("remove", path)

    def rename(self, old, new):
        old, new = self.norm(old), self.norm(new)
        if old not in self.files:
            raise _oserror(errno.ENOENT)
        self.need_parent(new)
        self.files[new] = self.files.pop(old)
        self.op("rename", old, new)

    def open(self, path, mode="r", *_args, **_kwargs):
        path = self.norm(path)
        if self.isdir(path):
            raise _oserror(errno.EISDIR)
        if "r" in mode:
            if path not in self.files:
                raise _oserror(errno.ENOENT)
            data = self.files[path]
            return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode())
        self.need_parent(path)
        start = self.files.get(path, b"") if "a" in mode else b""
        self.files.setdefault(path, b"")  # a new file exists, empty, from open() on
        return BoardFile(self, path, start, binary="b" in mode)

    def op(self, *words):
        self.board["ops"].append(" ".join(words))


class BoardFile:
    """A file open for writing: bytes are committed to flash by close() only."""

    def __init__(self, fs, path, start, binary):
        self.fs, self.path, self.binary = fs, path, binary
        self.data = bytearray(start)
        self.closed = False

    def write(self, data):
        data = bytes(data) if self.binary else data.encode()
        for fault in self.fs.board["faults"]:
            if fault["path"] != self.path or fault.get("times", 1) == 0:
                continue
            room = fault.get("after", 0) - len(self.data)
            if len(data) <= room or fault["error"] == "corrupt":
                continue
            fault["times"] = fault.get("times", 1) - 1 if fault.get("times", 1) > 0 else -1
            self.fs.op("fault", fault["error"], self.path)
            if fault["error"] == "disconnect":
                raise Disconnect()
            raise _oserror(getattr(errno, fault["error"]))
        self.data += data
        return len(data)

    def close(self):
        if self.closed:
            return
        self.closed = True
        data = bytes(self.data)
        for fault in self.fs.board["faults"]:
            if fault["path"] == self.path and fault["error"] == "corrupt" and fault.get(
                    "times", 1) != 0 and data:
                fault["times"] = fault.get("times", 1) - 1 if fault.get("times", 1) > 0 else -1
                data = bytes([data[0] ^ 0xFF]) + data[1:]
        self.fs.files[self.path] = data
        self.fs.op("write", self.path)

    def flush(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Registers:
    """machine.mem32: the watchdog's CTRL register counts down while a WDT runs; else 0."""

    def __init__(self, board):
        self.board = board
        self.time = 16_000_000

    def __getitem__(self, address):
        if self.board.get("watchdog") and address in WATCHDOG_CTRL.values():
            self.time -= 20_000
            return 1 << 30 | self.time
        return 0


def board_modules(board, fs, out):
    """The modules importable on the board, fresh for each soft reset."""

    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        return m

    impl = types.SimpleNamespace(name=board["impl"], version=tuple(board["version"]),
                                 _machine=board["machine"], _build="RPI_PICO")
    if board.get("mpy") is not None:
        impl._mpy = board["mpy"]
    version = ".".join(str(v) for v in board["version"][:3])

    def print_exception(exc, file=None):
        (file or out).write(micropython_traceback(exc))

    def reset():
        raise HardReset()

    ticks = [0]

    def ticks_ms():
        ticks[0] += 1
        return ticks[0]

    modules = {
        "os": module("os", stat=fs.stat, ilistdir=fs.ilistdir, mkdir=fs.mkdir,
                     rmdir=fs.rmdir, remove=fs.remove, rename=fs.rename,
                     listdir=lambda p="": [e[0] for e in fs.ilistdir(p)],
                     getcwd=lambda: "/", chdir=lambda p: None, sync=lambda: None,
                     statvfs=lambda p: (4096, 4096, 212, 180, 180, 0, 0, 0, 0, 255)),
        "sys": module("sys", implementation=impl, platform=board["platform"],
                      version="3.4.0; MicroPython v%s" % version, path=["", ".frozen", "/lib"],
                      stdout=out, print_exception=print_exception, exit=sys.exit,
                      maxsize=2**31 - 1, byteorder="little", modules={}),
        "time": module("time", sleep=lambda s: None, sleep_ms=lambda ms: None,
                       sleep_us=lambda us: None, ticks_ms=ticks_ms,
                       ticks_diff=lambda a, b: a - b, ticks_add=lambda a, b: a + b),
        "hashlib": module("hashlib", sha256=hashlib.sha256),
        "binascii": module("binascii", hexlify=__import__("binascii").hexlify,
                           unhexlify=__import__("binascii").unhexlify,
                           a2b_base64=__import__("binascii").a2b_base64,
                           b2a_base64=__import__("binascii").b2a_base64),
        "gc": module("gc", collect=lambda: None, mem_free=lambda: 180_000),
        "micropython": module("micropython", const=lambda x: x),
        "errno": errno,
        "io": io,
        "json": json,
    }
    if board["impl"] == "micropython":
        modules["machine"] = module("machine", reset=reset, soft_reset=reset,
                                    mem32=Registers(board), unique_id=lambda: b"\xe6\x61\x41")
    modules["uos"], modules["utime"] = modules["os"], modules["time"]
    for name in board.get("missing", ()):
        modules.pop(name, None)
    return modules


def micropython_traceback(exc, syntax=False):
    """The text MicroPython prints for exc (OSError subclasses print as OSError)."""
    lines = ["Traceback (most recent call last):"]
    if syntax:
        lines.append('  File "<stdin>", line %d' % (exc.lineno or 1))
        return "\n".join(lines + ["SyntaxError: invalid syntax"]) + "\n"
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == "<stdin>":
            lines.append('  File "<stdin>", line %d, in %s' % (frame.lineno, frame.name))
    if isinstance(exc, OSError):
        code = exc.errno
        if code in NAMED_ERRNOS:
            text = "[Errno %d] %s" % (code, errno.errorcode[code])
        else:
            text = str(code)
        return "\n".join(lines + ["OSError: " + text]) + "\n"
    message = str(exc)
    name = type(exc).__name__
    return "\n".join(lines + [name + (": " + message if message else "")]) + "\n"


class Session:
    """The raw REPL of one board: globals persist between execs until a soft reset."""

    def __init__(self, board):
        self.board = board
        self.fs = LittleFs(board)
        self.soft_reset()

    def soft_reset(self):
        self.out = io.StringIO()
        self.modules = board_modules(self.board, self.fs, self.out)
        bt = dict(vars(builtins))
        bt["open"] = self.fs.open
        bt["__import__"] = self._import
        self.globals = {"__builtins__": bt, "__name__": "__main__"}

    def _import(self, name, globals=None, locals=None, fromlist=(), level=0):
        if name not in self.modules:
            raise ImportError("no module named '%s'" % name)
        return self.modules[name]

    def run(self, source):
        """Run source; returns (stdout, error text) as bytes with CRLF line ends."""
        self.out.seek(0)
        self.out.truncate()
        err = ""
        try:
            code = compile(source, "<stdin>", "exec")
        except SyntaxError as exc:
            err = micropython_traceback(exc, syntax=True)
        else:
            try:
                with contextlib.redirect_stdout(self.out):
                    exec(code, self.globals)
            except (Disconnect, HardReset):
                raise
            except SystemExit:
                pass
            except BaseException as exc:  # anything the board code raised is its output
                err = micropython_traceback(exc)
            finally:
                self.fs.store()
        return _crlf(self.out.getvalue()), _crlf(err)


def _crlf(text):
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode()


# ---- the host side: mpremote's transport and port list --------------------------------


def make_transport_class(state):
    from mpremote.transport import Transport, TransportError
    from serial import SerialException

    class FakeSerialTransport(Transport):
        """mpremote's SerialTransport with the board simulated instead of a serial port."""

        fs_hook_mount = "/remote"

        def __init__(self, device, baudrate=115200, wait=0, exclusive=True, timeout=None):
            board = state["boards"].get(device)
            if board is None or board.get("busy"):
                raise TransportError("failed to access " + device)
            self.device_name = device
            self.board = board
            self.in_raw_repl = False
            self.mounted = False
            self.dead = False
            self.session = None
            self.pending = (b"", b"")

        def close(self):
            pass

        def check_link(self):
            if self.dead:
                raise SerialException("write failed: [Errno 5] Input/output error")

        def enter_raw_repl(self, soft_reset=True, timeout_overall=10):
            self.check_link()
            if not self.board.get("answers", True):
                print(b"")  # what SerialTransport prints: the bytes it got instead
                raise TransportError("could not enter raw repl")
            if self.session is None:
                self.session = Session(self.board)
            if soft_reset:
                self.session.soft_reset()
                self.board["ops"].append("soft-reset")
            self.in_raw_repl = True

        def reboot(self):
            # Files still open are dropped uncommitted; main.py starts the game unless OK is held.
            self.dead = True
            tray = "/main.py" in self.session.fs.files
            self.board["watchdog"] = tray and not self.board.get("ok_held")

        def exit_raw_repl(self):
            self.check_link()
            self.in_raw_repl = False

        def exec_raw_no_follow(self, command):
            self.check_link()
            if isinstance(command, bytes):
                command = command.decode()
            try:
                self.pending = self.session.run(command)
            except HardReset:
                self.board["ops"].append("reset")
                self.reboot()
                self.pending = (b"", b"")
            except Disconnect:
                self.board["ops"].append("disconnect")
                self.reboot()
                raise SerialException(
                    "device reports readiness to read but returned no data "
                    "(device disconnected or multiple access on port?)") from None

        def follow(self, timeout, data_consumer=None):
            self.check_link()
            out, err = self.pending
            self.pending = (b"", b"")
            if data_consumer:
                data_consumer(out)
                return b"", err
            return out, err

        def exec_raw(self, command, timeout=10, data_consumer=None):
            self.exec_raw_no_follow(command)
            return self.follow(timeout, data_consumer)

        def exec(self, command, data_consumer=None):
            from mpremote.transport import TransportExecError

            ret, ret_err = self.exec_raw(command, data_consumer=data_consumer)
            if ret_err:
                raise TransportExecError(ret, ret_err.decode())
            return ret

        def eval(self, expression, parse=True):
            import ast

            if parse:
                return ast.literal_eval(self.exec("print(repr(%s))" % expression).strip().decode())
            return self.exec("print(%s)" % expression).strip()

        def mount_local(self, path, unsafe_links=False):
            raise TransportError("the fake mpremote does not simulate mount")

        def umount_local(self):
            self.mounted = False

    return FakeSerialTransport


def list_ports(state):
    from serial.tools.list_ports_common import ListPortInfo

    ports = []
    for spec in state["ports"]:
        p = ListPortInfo(spec["device"], skip_link_detection=True)
        for key in ("serial_number", "vid", "pid", "manufacturer", "product"):
            setattr(p, key, spec.get(key))
        if p.vid is not None:
            p.apply_usb_info()
        ports.append(p)
    return ports


def main(argv):
    """Run mpremote's main() on argv against the board state in $FAKE_PICO; exit status."""
    log = os.environ.get("FAKE_PICO_LOG")
    if log:
        with open(log, "a") as f:
            f.write(json.dumps(argv[1:]) + "\n")
    state_path = os.environ["FAKE_PICO"]
    state = load_state(state_path)

    import mpremote.commands
    import mpremote.main
    import serial.tools.list_ports

    serial.tools.list_ports.comports = lambda *a, **k: list_ports(state)
    mpremote.commands.SerialTransport = make_transport_class(state)
    mpremote.main.load_user_config = lambda: types.SimpleNamespace(commands={})
    sys.argv = ["mpremote", *argv[1:]]
    try:
        return mpremote.main.main()
    finally:
        save_state(state_path, state)
