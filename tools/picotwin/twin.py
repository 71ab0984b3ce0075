"""The host twin of the emulated Pico kit: the kit's interface (emupico/kit.py's Pico), backed by
the real firmware on the WebAssembly MicroPython with the tray's panel, buttons, flash and
watchdog faked on the host.

    from picotwin.twin import Twin, unavailable
    twin = Twin()
    twin.start(fresh=True)          # a new board: stock MicroPython, an empty littlefs
    twin.install()                  # tools/flash.sh's plan, run on the twin: (exit code, output)
    panel = twin.settle()           # the panel once the bus has been quiet a while
    twin.latency("ROLL")            # press; bytes and writes to the panel (no times: see below)
    twin.stop()

Each boot is a fresh VM (tools/picotwin/vm.mjs: RAM is lost) running the board's own main.py
from the flash, which is a littlefs image (flashfs.py) kept across boots, so a power cut meets
a real littlefs; cut_after(n) makes the power go before the flash's n-th next program or erase.
Time is virtual and moves only when the driver lets it: a press, a wait, a settle. The twin's
clock keeps the Pico's time as picotwin/cost.py estimates it: the interpreter's work (counted
by a metered build of the WebAssembly MicroPython, deterministic), the panel's bus bytes at
400 kHz, the flash's busy times; so latency's first_byte_ms and last_byte_ms, and the bus
and flash times, are the twin's estimates of the kit's figures (`timing` is "estimate").
Twin(costs=cost.NONE) keeps no time but the sleeps'. The Pico's registers are not modelled:
flash.sh's probe cannot see a running game's watchdog on the twin (it can on the kit).

What the real board would do, the twin does: the watchdog (machine.WDT, fed or not in virtual
time) resets the board; machine.reset() too; a VM that does not come back to the driver within
WALL_S seconds has hung, and counts as a watchdog reset (noted in `hangs`). A traceback that
escapes main.py is kept in `escaped`; the board then sits at the REPL, and if the game had
started its watchdog, that resets it once its timeout passes, as on the Pico. A power cycle
counts as a reset, as the kit counts it. exec(code) is `mpremote exec`: what runs is stopped,
and the code runs on a fresh VM with the flash mounted; a game's watchdog keeps counting.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import subprocess
import tempfile
from pathlib import Path

from dicetray.board import BUTTON_PINS, DISPLAY_ADDR
from emupico.kit import KEYS, RELEASE_MS, PicoError, ThroughExec
from emupico.panel import Panel
from trayhost.oledpanel import FakePanel

from picotwin import cost
from picotwin.flashfs import Flash, PowerCut
from picotwin.meter import metered_wasm

HERE = Path(__file__).resolve().parent
VM_SCRIPT = HERE / "vm.mjs"
ONBOARD = HERE / "onboard"
# What the Pico runs as machine code, run on the twin from its source (onboard/twinfast.py).
FAST_SOURCE = (HERE.parent.parent / "firmware" / "dicetray" / "fast.py").read_text()
HOLD_MS = 1500  # a key held at power-up is let go after this, as the kit does
WALL_S = 60  # a VM silent this long (wall seconds) has hung
GPIO = dict(BUTTON_PINS)
FOREVER = 1 << 40


def unavailable() -> str | None:
    """None when the twin can run here, else why not (Node.js and the pinned MicroPython)."""
    from mpy import node_ready

    return node_ready()


class Vm:
    """One boot: a Node process running vm.mjs, and the lockstep line channel to it."""

    def __init__(self, folder: Path, config: dict, wasm: Path | None):
        self.config = config
        to_vm_r, self._to_vm = os.pipe()
        self._from_vm, from_vm_w = os.pipe()
        self.out_path = folder / "stdout"
        self.err_path = folder / "stderr"
        env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                ["node", str(VM_SCRIPT), str(to_vm_r), str(from_vm_w), str(ONBOARD)]
                + ([str(wasm)] if wasm else []),
                pass_fds=(to_vm_r, from_vm_w), stdin=subprocess.DEVNULL, stdout=out,
                stderr=err, env=env)
        os.close(to_vm_r)
        os.close(from_vm_w)
        self._buf = b""
        self.silent = False  # receive() gave up waiting: the VM hangs

    def send(self, message: dict):
        data = (json.dumps(message) + "\n").encode()
        while data:
            data = data[os.write(self._to_vm, data):]

    def receive(self) -> dict | None:
        """The VM's next message; None when it ended or stayed silent for WALL_S seconds."""
        while b"\n" not in self._buf:
            ready, _, _ = select.select([self._from_vm], [], [], WALL_S)
            if not ready:
                self.silent = True
                return None
            chunk = os.read(self._from_vm, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return json.loads(line)

    def end(self):
        """Power off: the process is killed wherever it is."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for fd in (self._to_vm, self._from_vm):
            with contextlib.suppress(OSError):
                os.close(fd)

    def output(self) -> tuple[str, str]:
        return (self.out_path.read_text(errors="replace"),
                self.err_path.read_text(errors="replace"))


class Running:
    """A script the twin runs in the background (Twin.exec_background): the kit's Popen's
    calls, in the twin's clock."""

    def __init__(self, twin, vm):
        self.twin, self.vm = twin, vm

    def poll(self):
        """None while the script runs, else 0 (it ended) or 1 (it raised)."""
        if self.vm is not None and self.twin.vm is self.vm:
            return None
        exited = self.twin.exited or {}
        return 1 if exited.get("error") else 0

    def communicate(self, timeout=None):
        """Run the twin's clock until the script ends; (its output, None)."""
        twin = self.twin
        while self.poll() is None:
            twin._run_to(twin.t + 1000)
        out, err = self.vm.output() if self.vm is not None else ("", "")
        return out + err, None

    def kill(self):
        if self.poll() is None:
            self.vm.end()
            self.twin.vm = self.twin.pending = None

    def wait(self):
        return self.poll()


class Twin(ThroughExec):
    """The host twin of one emulated Pico, with the kit's interface (emupico.kit.Pico)."""

    # Its WebAssembly MicroPython collects no garbage while the board runs (one run from boot
    # to reset), so gc.mem_alloc() there only grows: no figure of the Pico's live heap.
    real_heap = False

    def __init__(self, seed=421, image=None, costs=None):
        self.seed = seed
        self.costs = dict(cost.TIER if costs is None else costs)
        self.flash = Flash(image)
        self._folder = tempfile.TemporaryDirectory(prefix="dicetray-twin-")
        self._wasm = metered_wasm(Path(self._folder.name)) if self.costs["work_ns"] else None
        self.oled = FakePanel(strict=False, addr=DISPLAY_ADDR)
        self.vm: Vm | None = None
        self.pending: dict | None = None  # the VM's message awaiting an answer (hello, sync)
        self.base = 0  # the twin's ms at this boot's start (the VM's clock counts from it)
        self.t = 0  # the twin's ms now
        self.target = 0
        self.queue: list[tuple[int, str, int]] = []  # (ms, key, level) still to come
        self.levels = dict.fromkeys(KEYS, 1)
        self.reboot_at: int | None = None  # a dead game's watchdog bites then
        self.wdt = None  # [timeout, last feed] of the running boot, as last heard
        self.resets = 0
        self.boots = 0
        self.writes = 0  # transfers to the panel
        self.data_bytes = 0
        self.last_write = 0  # settle's: the last write it saw
        self.last_bus = 0  # the twin's ms of the last write to the panel (its end)
        self.exited: dict | None = None  # the last VM's end: its error, if any
        self.escaped: list[str] = []  # tracebacks that escaped main.py
        self.hangs = 0
        self.powered = False
        self.started = False
        self._window: dict | None = None  # bytes and writes of a latency measurement

    # ---- power --------------------------------------------------------------------------

    def start(self, fresh=False, hold=None):
        """Power the board up. fresh: a new board, its flash an empty littlefs."""
        if fresh:
            self.flash = Flash()
        self.started = True
        self._power_up(hold)

    def claim(self):
        self.start(fresh=True)
        return True

    def stop(self):
        self._power_down()
        self.started = False
        self._folder.cleanup()

    def powercycle(self, hold=None):
        """Unplug and replug (holding a key: OK is the tray's safe mode); counted as a reset,
        as the kit counts it. Returns at once: the board boots as time is let run."""
        self._power_down()
        self.resets += 1
        self._power_up(hold)

    def cut_after(self, n):
        """The power goes in the flash's next program or erase after n whole ones (n=0: the
        next; it is torn, see flashfs.Chip): the board stays dark, with what the chip held
        then, until powercycle()."""
        self.flash.chip.cut_in = n

    def _power_down(self):
        if self.vm is not None:
            self.vm.end()
        self.vm = self.pending = self.wdt = self.reboot_at = None
        self.flash.power_off()
        self.powered = False

    def _power_up(self, hold):
        for key in KEYS:
            self.levels[key] = 0 if key == hold else 1
        if hold:
            self.queue.append((self.t + HOLD_MS, hold, 1))
            self.queue.sort()
        self.powered = True
        self._boot()

    def _boot(self, mode="main", code=None):
        """A fresh VM: the flash mounted, then main.py (mode main) or code (mode exec); on
        power-up and reset, main.py starts once MicroPython has (the model's boot_us)."""
        self.flash.mount()
        if mode == "main":
            self.t += round(self.costs["boot_us"] / 1000)
        self.base = self.t
        self.wdt = None
        if mode == "main" and not any(self._exists(n) for n in ("main.py", "boot.py")):
            return  # stock MicroPython with nothing to run: the REPL waits
        self.boots += 1
        self.vm = Vm(Path(self._folder.name), {"mode": mode, "code": code,
                                              "seed": self.seed * 1000 + self.boots,
                                              "costs": self.costs, "fast": FAST_SOURCE},
                      self._wasm)
        self._take()

    def _exists(self, name):
        return "ok" in self.flash.serve("stat", ["/" + name])

    # ---- the lockstep -------------------------------------------------------------------

    def _due(self, until):
        """The pin changes up to until, in VM time; the host's levels follow them."""
        out = []
        while self.queue and self.queue[0][0] <= until:
            t, key, level = self.queue.pop(0)
            self.levels[key] = level
            out.append([t - self.base, GPIO[key], level])
        return out

    def _answer(self):
        assert self.vm is not None and self.pending is not None
        answer = {"until": self.target - self.base}
        if self.pending["op"] == "hello":  # the levels at power-up, before any change
            answer.update(self.vm.config, levels={str(GPIO[k]): v for k, v in
                                                  self.levels.items()})
        answer["pins"] = self._due(self.target)
        self.pending = None
        self.vm.send(answer)
        self._take()

    def _take(self):
        """Read the VM until it waits for the clock (self.pending) or is gone (reset, ended:
        a reset boots the next VM, which is read in turn)."""
        while self.vm is not None:
            message = self.vm.receive()
            if message is None:
                if self.vm.silent:
                    self._hung()
                else:  # the VM itself failed: MicroPython crashed under the firmware
                    self._exited({"op": "exit", "error": self.vm.output()[1] or "no output",
                                  "wdt": self.wdt})
                return
            op = message["op"]
            if op == "fs":
                try:
                    self.vm.send(self._serve(message["fn"], message["args"]))
                except PowerCut:
                    self._cut()
                    return
                continue
            if "bus" in message:
                self._bus(message["bus"])
            if "t" in message:
                self.t = self.base + message["t"]
            if op in ("hello", "sync"):
                self.wdt = message.get("wdt", self.wdt)
                self.pending = message
            elif op == "reset":
                self._reset()
            elif op == "exit":
                self._exited(message)
            return

    def _serve(self, fn, args):
        """The flash's answer to a file call, with what it took on the Pico ("us")."""
        chip = self.flash.chip
        erases, programs = chip.erases, chip.programs
        answer = self.flash.serve(fn, args)
        moved = len(args[1]) // 2 if fn == "write" else len(answer.get("ok") or "") // 2 \
            if fn in ("read", "fread") else 0
        answer["us"] = cost.flash_us(self.costs, moved, chip.erases - erases,
                                     chip.programs - programs,
                                     fn == "read" and args[0].endswith(".mpy"))
        if self._window is not None:
            self._window["flash_us"] += answer["us"]
        return answer

    def _bus(self, writes):
        for t, _addr, data, end in writes:
            raw = bytes.fromhex(data)
            self.oled.receive(raw)
            self.writes += 1
            self.data_bytes += len(raw)
            self.last_bus = self.base + end
            window = self._window
            if window is not None:
                if window["first"] is None:
                    window["first"] = self.base + t
                window["bytes"] += len(raw)
                window["transactions"] += 1
                window["last"] = self.base + end
                window["bus_ms"] += end - t

    def _reset(self):
        """The watchdog or machine.reset(): a fresh chip, the same flash."""
        self.vm.end() if self.vm else None
        self.vm = self.pending = None
        self.flash.power_off()
        self.resets += 1
        self._boot()

    def _hung(self):
        self.hangs += 1
        self._reset()

    def _cut(self):
        """The power went in the middle of a flash write: dark until powercycle()."""
        if self.vm is not None:
            self.vm.end()
        self.vm = self.pending = None
        self.flash.power_off()
        self.powered = False

    def _exited(self, message):
        vm = self.vm
        assert vm is not None
        with contextlib.suppress(OSError):
            vm.send({})
        with contextlib.suppress(subprocess.TimeoutExpired):
            vm.proc.wait(timeout=WALL_S)
        vm.end()
        self.vm = self.pending = None
        self.exited = message
        if message.get("error") and vm.config["mode"] == "main":
            self.escaped.append(message["error"])
            wdt = message.get("wdt")
            if wdt:  # nobody feeds the watchdog now
                self.reboot_at = self.base + wdt[1] + wdt[0]

    def _run_to(self, t):
        """Let the board run until the twin's clock reads t (whole ms: up to t)."""
        self.target = max(-int(-t // 1), self.t)
        while True:
            if self.vm is None:
                if self.reboot_at is not None and self.reboot_at <= self.target:
                    self._idle(self.reboot_at)
                    self.reboot_at = None
                    self.flash.power_off()
                    self.resets += 1
                    self._boot()
                    continue
                self._idle(self.target)
                return
            assert self.pending is not None
            if self.pending["op"] == "sync" and self.t >= self.target:
                return
            self._answer()

    def _idle(self, t):
        self._due(t)
        self.t = max(self.t, t)

    # ---- the kit's interface ------------------------------------------------------------

    def running(self):
        return self.started

    def now(self):
        return self.t

    def wait(self, ms):
        self._run_to(self.t + ms)

    def down(self, key):
        self._set(key, 0, self.t)

    def up(self, key):
        self._set(key, 1, self.t)

    def tap(self, key, ms):
        self._set(key, 0, self.t)
        self._set(key, 1, self.t + ms)
        self.wait(ms)

    def _set(self, key, level, at):
        at = -int(-at // 1)  # the pins change on whole ms
        if key not in KEYS:
            raise ValueError("unknown key %r; keys: %s" % (key, " ".join(KEYS)))
        self.queue.append((at, key, level))
        self.queue.sort(key=lambda e: e[0])

    def panel(self):
        return Panel([bytes(row) for row in self.oled.ram_image()])

    def stats(self):
        """The kit's stats, as far as the twin has them: what needs the real port's clock
        (cycles, bus, flash and CPU times) is None; flash counts as in latency(); and the
        twin's own: hangs, escaped (tracebacks)."""
        oled = self.oled
        return {
            "emu_ms": self.t, "real_ms": None, "cycles": None, "busy_ms": None,
            "timing": False, "i2c_bus_ms": None, "flash_busy_ms": None,
            "flash_erases": self.flash.chip.erases, "flash_programs": self.flash.chip.programs,
            "buttons": GPIO, "resets": self.resets,
            "oled": {"on": oled.is_on, "contrast": oled.contrast, "invert": oled.inverse,
                     "i2c_writes": self.writes, "data_bytes": self.data_bytes, "nacks": 0},
            "last_press": None, "hangs": self.hangs, "escaped": len(self.escaped),
        }

    def latency(self, key, long=False, quiet=100, timeout=10000):
        """Press key (held 120 ms, or 1000 when long) until the panel's bus has been quiet for
        `quiet` ms: the kit's measurement, with the bytes and writes (transactions) to the
        panel, and the twin's estimates of the kit's times (cost.py): ms from the press to the
        first and the last byte, the bus's and the flash's busy ms in the window (the CPU's is
        None: the rest is not all CPU, the main loop sleeps between polls). flash_erases and
        flash_programs count littlefs's erases and programs (128 bytes at most, in the rp2
        configuration), not the chip's page programs the kit counts."""
        hold = 1000 if long else 120
        t0 = self.t
        window = self._window = {"bytes": 0, "transactions": 0, "first": None, "last": None,
                                 "bus_ms": 0.0, "flash_us": 0.0}
        erases, programs = self.flash.chip.erases, self.flash.chip.programs
        self._set(key, 0, t0)
        self._set(key, 1, t0 + hold)
        try:
            while True:
                self._run_to(self.t + 5)
                last = window["last"]
                quiet_now = last is not None and self.t - last >= quiet and self.t - t0 >= hold
                if quiet_now or self.t - t0 >= timeout:
                    break
        finally:
            self._window = None
        timed = bool(self.costs["work_ns"])
        result = {
            "key": key, "hold_ms": hold, "quiet_ms": quiet, "timing": "estimate" if timed
            else False, "timed_out": not quiet_now,
            "first_byte_ms": _ms(window["first"], t0) if timed else None,
            "last_byte_ms": _ms(window["last"], t0) if timed else None,
            "bytes": window["bytes"], "transactions": window["transactions"],
            "i2c_bus_ms": round(window["bus_ms"], 2) if timed else None,
            "flash_busy_ms": round(window["flash_us"] / 1000, 2) if timed else None,
            "flash_erases": self.flash.chip.erases - erases,
            "flash_programs": self.flash.chip.programs - programs, "cpu_busy_ms": None,
        }
        if result["timed_out"]:
            raise PicoError("%s: the panel did not settle: %r" % (key, result))
        self.wait(RELEASE_MS)
        return result

    def settle(self, quiet=300, until=None, fresh=False, timeout=30000):
        """As the kit's: the panel once no byte went to it for `quiet` ms (and until(panel)
        holds); sets last_write. Raises PicoError after `timeout` ms."""
        t0 = self.last_write = self.t
        writes = self.writes
        waiting = fresh
        while True:
            self._run_to(self.t + 10)
            if self.writes != writes:
                writes = self.writes
                self.last_write = self.last_bus
                waiting = False
            elif self.t - self.last_write >= quiet and not waiting:
                panel = self.panel()
                if until is None or until(panel):
                    return panel
            if self.t - t0 > timeout:
                raise PicoError("the panel did not settle within %d ms; it shows:\n%s"
                                % (timeout, self.panel().text()))

    def exec(self, code, timeout=300):
        """mpremote exec: stop what runs, run code on a fresh VM with the flash mounted;
        returns what it printed; PicoError with the traceback if it raised."""
        watchdog = self.wdt if self.vm is not None else None
        vm = self._exec_vm(code)
        self.target = FOREVER
        while self.vm is vm and self.vm is not None:
            self._answer()
        self.target = self.t
        out, err = vm.output() if vm else ("", "")
        if watchdog:  # the game's watchdog was not stopped: it bites
            self.reboot_at = self.t + watchdog[0]
        error = self.exited.get("error") if self.vm is None and self.exited else None
        if error:
            raise PicoError("exec: the code raised\n%s%s" % (out, error))
        return out

    def exec_background(self, code):
        """pico exec in the background, as the kit's: what runs is stopped and code runs on a
        fresh VM (the flash mounted) while the host presses, taps and waits; returns a handle
        like the kit's Popen (poll, communicate, kill, wait), its output the VM's stdout and
        stderr together."""
        return Running(self, self._exec_vm(code))

    def _exec_vm(self, code):
        """What runs stopped, code booted on a fresh VM with the flash mounted: that VM."""
        if self.vm is not None:
            self.vm.end()
        self.vm = self.pending = None
        self.flash.power_off()
        self.exited = None
        self._boot("exec", code)
        return self.vm

    def install(self, timeout=900):
        """tools/flash.sh run on the twin (its plan, copies and checks): (exit code, output)."""
        from flash import main

        from picotwin.flashport import TwinUsb

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            code = main(["--port", "twin"], usb=TwinUsb(self))
        return code, buf.getvalue()



def _ms(t, t0):
    return None if t is None else round(t - t0, 2)


__all__ = ["HOLD_MS", "Twin", "unavailable"]
