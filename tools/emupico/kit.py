"""Drives the emulated Pico kit (../shared/pico): start, install the tray, press, read the panel.

The kit is a Raspberry Pi Pico emulated in Node.js running the official MicroPython rp2 firmware,
with the tray's OLED, buttons and flash chip modelled. It is driven through its `pico` script,
and for the frequent commands (press, text, stats) through the control socket that script talks
to. It is found at $DICETRAY_PICO_KIT, else at ../shared/pico beside this checkout; an
empty DICETRAY_PICO_KIT switches it off. The kit ships no firmware image: it boots the official
MicroPython `.uf2` and an RP2040 bootrom a maker puts in $PICO_FIRMWARE (see the kit's README),
and `pico check` says whether it can run. Each Pico runs in its own state folder: $PICO_STATE
when set (the kit's flash image there is kept between runs), else a temporary folder.

    from emupico.kit import Pico, unavailable
    reason = unavailable()          # None, or why the emulated Pico cannot run here
    pico = Pico()
    pico.start(fresh=True)          # a board with stock MicroPython and an empty filesystem
    pico.install()                  # tools/flash.sh --port <pty>
    panel = pico.settle()           # the panel once the bus has been quiet a while
    panel.read(56, ink=0)           # the bottom line's text, e.g. "PLAYERS AT THE TABLE"
    pico.latency("ROLL")            # press; emulated ms to the first and last panel byte
    pico.stop()

The panel is read back as pixels and its text recognised with the tray's own font: Panel and
screen_of, from emupico/panel.py (imported from here too).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from emupico.panel import HEIGHT, SCREENS, WIDTH, Panel, PicoError, screen_of

__all__ = ["HEIGHT", "KEYS", "KIT_ENV", "SCREENS", "WIDTH", "Panel", "Pico", "PicoError",
           "ThroughExec",
           "kit_dir", "not_set_up", "screen_of", "unavailable"]

ROOT = Path(__file__).resolve().parents[2]
KIT_ENV = "DICETRAY_PICO_KIT"
KEYS = ("KEEP1", "KEEP2", "KEEP3", "ROLL", "OK")
RELEASE_MS = 80  # after a press's window: the tray's release debounce (40 ms) and a margin


def kit_dir() -> Path | None:
    """Where the kit is: $DICETRAY_PICO_KIT, else ../shared/pico; None when switched off."""
    named = os.environ.get(KIT_ENV)
    if named is not None:
        return Path(named) if named else None
    return ROOT.parent / "shared" / "pico"


def not_set_up() -> str | None:
    """What this project's own set-up (tools/bootstrap.sh) should have provided for the kit and
    did not: the kit folder, node, npm, socat, mpremote. None when all is there. Under CI that
    is a failure; what the project may not provide (a firmware image) is not: see unavailable."""
    kit = kit_dir()
    if kit is None:
        return f"{KIT_ENV} is empty: the emulated Pico is switched off"
    if not (kit / "pico").is_file():
        where = f"${KIT_ENV}" if os.environ.get(KIT_ENV) else "../shared/pico"
        return f"no emulated Pico kit at {where} (set {KIT_ENV} to its folder)"
    for tool in ("node", "npm", "socat"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed: the emulated Pico needs node, npm and socat"
    if not (ROOT / ".venv" / "bin" / "mpremote").exists():
        return "mpremote is not installed: run tools/bootstrap.sh"
    return None


def unavailable() -> str | None:
    """None when the emulated Pico can run here, else why not (one line): what not_set_up
    says, else the kit's own `pico check` (no firmware image, say)."""
    missing = not_set_up()
    if missing:
        return missing
    kit = kit_dir()
    assert kit is not None
    proc = subprocess.run([str(kit / "pico"), "check"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    said = (proc.stdout.strip() or proc.stderr.strip()).splitlines()
    if proc.returncode == 0:
        return None
    why = said[-1] if said else "exit %d, nothing said" % proc.returncode
    return "the emulated Pico kit cannot run here: " + why


class ThroughExec:
    """What a board does with its own exec, powercycle, wait, settle and install alone: files
    written and read at its root, the tray brought up to date in safe mode. The kit's Pico and
    the host twin (picotwin.twin.Twin) share it."""

    def install_in_safe_mode(self):
        """Bring the tray up to date with flash.sh, then boot it in safe mode (no game, no
        watchdog: the REPL is free for exec). Returns the safe mode panel."""
        self.powercycle("OK")  # a running game would refuse flash.sh; a new board just boots
        self.wait(2000)
        code, out = self.install()
        if code:
            raise PicoError("flash.sh failed (exit %d):\n%s" % (code, out))
        self.powercycle("OK")
        panel = self.settle(fresh=True, until=lambda p: screen_of(p) is not None)
        if screen_of(panel) != "safe":
            raise PicoError("the board did not start in safe mode:\n" + panel.text())
        return panel

    def write_files(self, files):
        """Replace files at the board's root: {name: bytes, or None to remove it}. Use in
        safe mode (or on a board without the tray): exec stops a running game."""
        out = self.exec(_write_code(files))
        if "written" not in out:
            raise PicoError("writing %s failed:\n%s" % (", ".join(files), out))

    def read_files(self, names):
        """{name: bytes or None} for files at the board's root (safe mode, as write_files)."""
        out = {}
        for line in self.exec(_read_code(names)).splitlines():
            name, _, value = line.strip().partition(" ")
            if name in names:
                out[name] = None if value == "missing" else bytes.fromhex(value.strip("-"))
        return out


class Pico(ThroughExec):
    """One emulated Pico, through the kit's `pico` script, in its own state folder."""

    def __init__(self, state=None, kit=None):
        self.kit = Path(kit) if kit else kit_dir()
        if self.kit is None:
            raise PicoError(unavailable() or "no kit")
        named = state or os.environ.get("PICO_STATE")
        self._tmp = None if named else tempfile.mkdtemp(prefix="dicetray-pico-")
        self.state = Path(named or self._tmp)
        self.started = False
        self._fresh = None  # a folder holding a fresh board's flash image
        self._ctl_port = None

    # -- the kit's commands
    def cli(self, *args, timeout=600, check=True):
        env = dict(os.environ, PICO_STATE=str(self.state))
        env.pop("PICO_BOARD", None)  # the kit reads this checkout's board.py (cwd)
        proc = subprocess.run([str(self.kit / "pico"), *map(str, args)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if check and proc.returncode:
            raise PicoError("pico %s: exit %d\n%s%s" % (" ".join(map(str, args)),
                                                        proc.returncode, proc.stdout,
                                                        proc.stderr))
        return proc.stdout

    def ctl(self, line, timeout=600):
        """One command on the kit's control socket (what `pico` itself sends): the reply after
        "ok". Much cheaper than a `pico` process per press; the port is in the state file."""
        if self._ctl_port is None:
            with open(self.state / "state.json") as f:
                self._ctl_port = json.load(f)["ctl_port"]
        reply = _ask(self._ctl_port, line, timeout)
        if not reply.startswith("ok"):
            raise PicoError("pico %s: %s" % (line, reply or "no reply"))
        return reply[3:]

    def running(self):
        return not self.cli("status", check=False).startswith("not running")

    def start(self, fresh=False, hold=None):
        """Start the emulator. fresh: a new board, its flash image in a temporary file (the
        state folder's own image is left alone); else the state folder's image, kept."""
        if self.running():
            raise PicoError("an emulated Pico already runs in %s: stop it first" % self.state)
        args = ["start"]
        if fresh:
            self._fresh = tempfile.mkdtemp(prefix="dicetray-flash-")
            args += ["--flash", os.path.join(self._fresh, "flash.bin")]
        if hold:
            args += ["--hold", hold]
        self.cli(*args, timeout=300)
        self.started = True
        self._ctl_port = None
        self.pty = self.cli("pty").strip()

    def claim(self):
        """Start the emulator, or use the one already running; True if it was started here
        (then the caller stops it when done)."""
        owned = not self.running()
        if owned:
            self.start()
        else:
            self.attach()
        return owned

    def attach(self):
        """Use the emulator already running in the state folder (stop() leaves it running)."""
        if not self.running():
            raise PicoError("no emulated Pico runs in %s" % self.state)
        self.pty = self.cli("pty").strip()
        self._ctl_port = None

    def stop(self):
        if self.started:
            self.cli("stop", check=False)
            self.started = False
        for attr in ("_tmp", "_fresh"):
            if getattr(self, attr):
                shutil.rmtree(getattr(self, attr), ignore_errors=True)
                setattr(self, attr, None)

    def install(self, timeout=900):
        """tools/flash.sh --port <pty>: returns (exit code, output)."""
        proc = subprocess.run(["tools/flash.sh", "--port", self.pty], cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout)
        return proc.returncode, proc.stdout + proc.stderr

    def stats(self):
        return json.loads(self.ctl("stats"))

    def now(self):
        """Emulated milliseconds since the emulator started."""
        return self.stats()["emu_ms"]

    def panel(self):
        return Panel.from_text(self.ctl("text"))

    def latency(self, key, long=False, quiet=100):
        """Press key; emulated ms from the press to the first and last panel byte, and more.

        The window ends when no byte went to the panel for `quiet` ms. The roll animation
        draws a frame every 60 ms, but a throw's save holds its frames back for up to ~200 ms:
        a ROLL needs a longer quiet (bot.quiet_ms) to end after the dice landed.
        """
        hold = 1000 if long else 120
        result = json.loads(self.ctl("latency %s %d %d 10000" % (_key(key), hold, quiet)))
        if result["timed_out"]:
            raise PicoError("%s: the panel did not settle: %r" % (key, result))
        # A fast answer can end the window before the key's release is debounced (40 ms up):
        # a next press then would be contact bounce to the tray, as a finger cannot be that
        # quick. Wait until the release counts.
        self.wait(RELEASE_MS)
        return result

    def down(self, key):
        """Press key and keep it down (until up(key)); returns at once."""
        self.ctl("down " + _key(key))

    def up(self, key):
        self.ctl("up " + _key(key))

    def tap(self, key, ms):
        """Press key for ms emulated ms; returns once it is let go."""
        self.ctl("press %s %d" % (_key(key), ms))

    def wait(self, ms):
        self.ctl("wait %d" % ms)

    def powercycle(self, hold=None):
        """Unplug and replug (holding a key: OK is the tray's safe mode); returns at once."""
        self.ctl("powercycle" + (" " + _key(hold) if hold else ""))

    def settle(self, quiet=300, until=None, fresh=False, timeout=30000):
        """The panel once no byte went to it for `quiet` emulated ms (and, given a test
        `until(panel)`, once that holds too); sets `last_write`, the emulated time of the
        last write seen. fresh: only once something was written from now on (the emulated
        panel keeps its picture through a power cycle, until the board draws over it).
        Raises PicoError after `timeout` emulated ms."""
        s = self.stats()
        t0 = self.last_write = s["emu_ms"]
        writes = s["oled"]["i2c_writes"]
        waiting = fresh
        while True:
            time.sleep(0.05)
            s = self.stats()
            now = s["emu_ms"]
            if s["oled"]["i2c_writes"] != writes:
                writes = s["oled"]["i2c_writes"]
                self.last_write = now
                waiting = False
            elif now - self.last_write >= quiet and not waiting:
                panel = self.panel()
                if until is None or until(panel):
                    return panel
            if now - t0 > timeout:
                raise PicoError("the panel did not settle within %d ms; it shows:\n%s"
                                % (timeout, self.panel().text()))

    def exec(self, code, timeout=300):
        """Run code on the board (mpremote exec: interrupts what runs, soft-resets first)."""
        return self.cli("exec", code, timeout=timeout)

    def exec_background(self, code):
        """pico exec in the background: a Popen whose stdout is the board's output."""
        env = dict(os.environ, PICO_STATE=str(self.state))
        return subprocess.Popen([str(self.kit / "pico"), "exec", code], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)



def _ask(port, line, timeout):
    """One line to the kit's control socket; its reply line (with the panel's 32 lines after
    it, for "text")."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(line.encode() + b"\n")
        f = s.makefile("r", encoding="utf-8")
        reply = f.readline().rstrip("\n")
        if reply == "ok " and line == "text":
            reply += "\n" + "".join(f.readline() for _ in range(HEIGHT // 2))
    return reply


def _write_code(files):
    """The board's code for Pico.write_files: prints "written" when done."""
    lines = ["import os"]
    for name, data in files.items():
        if data is None:
            lines.append("try:\n    os.remove(%r)\nexcept OSError:\n    pass" % name)
        else:
            lines.append("with open(%r, 'wb') as f:\n    f.write(%r)" % (name, bytes(data)))
    lines.append("print('written')")
    return "\n".join(lines)


def _read_code(names):
    """The board's code for Pico.read_files: a line per name, its bytes in hex ("-" when
    empty) or "missing"."""
    return ("import binascii\nfor n in %r:\n    try:\n        with open(n, 'rb') as f:\n"
            "            print(n, binascii.hexlify(f.read()).decode() or '-')\n"
            "    except OSError:\n        print(n, 'missing')\n" % (list(names),))


def _key(name):
    if name not in KEYS:
        raise ValueError("unknown key %r; keys: %s" % (name, " ".join(KEYS)))
    return name

