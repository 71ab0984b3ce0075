"""The tray's press-to-panel latency and heap on the emulated Pico: tools/bench.py's Pico figures.

On the emulated Pico (tools/picokit.py: the RP2040's instruction timing, the I2C bus and the
flash chip modelled) the tray is installed with tools/flash.sh and played through its buttons.
Each press is the kit's `latency` measurement: the button is held 120 ms, and the emulated
milliseconds from the press to the first byte the panel receives ("first byte": the press's
effect starts to show) and to the last one before the bus has been quiet for QUIET_MS ("panel
complete"; for a throw that includes the 360 ms roll animation). OK acts when it is let go (it
has a long meaning), so its figures include the 120 ms hold.

Kinds of press: keep (KEEP1 on a turn), throw (ROLL on a turn), stop (OK ending a turn),
result (OK on a turn's result, to the next turn), setup (OK on the setup screen: settings and a
new game saved, the first screen drawn). The game: 2 players, the classic rules with P1
starting (no roll-off); P1 throws, keeps a die and stops, P2 throws once. Setup presses come
from power cycles: the resume prompt, ROLL for a new game, then OK.

The display resends the whole frame every Panel.refresh_ms as a keepalive; a keepalive inside
a measured window would look like part of the press. Keepalives follow the first main loop
step after power-up at that period, so no press is started where its window could meet one.

Heap: a tiny instrumented run of the real main loop (runner.run on the real Board and Display,
started through mpremote in safe mode, so no watchdog) plays a whole game through the buttons
(5 tokens, so that it ends soon) and reads gc.mem_alloc() after gc.collect() every 10 polls:
after boot (the first poll) and the highest over the game. These are the port's absolute
figures: they include MicroPython's own allocations and the measuring script (its baseline is
printed).

The emulator: one already running in $PICO_STATE is used (its saves and settings replaced) and
left running; else one is started in $PICO_STATE (its kept flash image) or a temporary folder
(a new board), and stopped.
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "firmware")]

from dicetray.panel import Panel  # noqa: E402
from dicetray.rules import PRESETS  # noqa: E402
from picokit import Pico, PicoError, screen_of, unavailable  # noqa: E402

SAMPLES = 10  # presses measured per kind, at least
KINDS = ("keep", "throw", "stop", "result", "setup")
QUIET_MS = 100  # the roll animation draws every 60 ms: a quieter bus means the panel is done
MAX_PRESSES = 400
HEAP_MAX_PRESSES = 80
KEEPALIVE_MS = Panel.refresh_ms
KEEPALIVE_MARGIN_MS = 120  # how far off a predicted keepalive may be, either way
KEEPALIVE_DRIFT_MS = 12  # each keepalive comes up to a main loop step late
SETTINGS = {"players": 2, "preset": "classic",
            "options": dict(PRESETS["classic"].to_dict(), start="seat1")}
HEAP_SETTINGS = dict(SETTINGS, options=dict(SETTINGS["options"], tokens=5))
SAVES = ("game.json", "game.tmp", "game.bad", "settings.tmp", "error.log", "error.old")

HEAP_SCRIPT = """
import gc, json
gc.collect()
base = gc.mem_alloc()
from dicetray import runner
from dicetray.screens import PLAY, SETUP
from dicetray.board import Board
from dicetray.display import Display


class Done(BaseException):
    pass


board = Board()
display = Display(board.i2c, ticks_diff=board.ticks_diff, **board.display_settings())
board.start_watchdog = lambda: None  # this run ends; a watchdog would then reset the board
apps = []
make = runner.make_app


def make_app(*args):
    apps.append(make(*args))
    return apps[-1]


runner.make_app = make_app
st = [0, 0, 0, False]  # polls, heap after boot, peak, a game was played
keep1, keep3 = board.pins["KEEP1"], board.pins["KEEP3"]


def feed():
    st[0] += 1
    if st[0] % 10 == 1:
        gc.collect()
        used = gc.mem_alloc()
        if not st[1]:
            st[1] = used
        st[2] = max(st[2], used)
    screen = apps[-1].screen
    st[3] = st[3] or screen == PLAY
    if (st[3] and screen == SETUP) or not (keep1.value() or keep3.value()):
        raise Done  # the game is over, or KEEP1 + KEEP3 are held: stop


board.feed = feed
try:
    runner.run(board, display)
except Done:
    pass
print(json.dumps({"base": base, "boot": st[1], "peak": st[2], "polls": st[0],
                  "free": gc.mem_free()}))
"""


def percentile(values, p):
    """Nearest-rank percentile, as tools/bench.py computes its own."""
    ordered = sorted(values)
    return ordered[max(1, -(-len(ordered) * p // 100)) - 1]


def choose(screen, hints, kept):
    """(key, kind) of the bot's next press; kind None: a press that is not measured.

    On a turn: throw, then (P1 only, while throws are left) keep the first die once, then stop.
    """
    if screen == "setup":
        return "OK", "setup"
    if screen == "turn":
        if hints == "ROLL:THROW":
            return "ROLL", "throw"
        if hints.startswith("123:KEEP") and not kept:
            return "KEEP1", "keep"
        if "OK:" in hints:
            return "OK", "stop"
        return "ROLL", "throw"
    if screen == "contest":
        return ("KEEP1" if hints.startswith("1:") else "ROLL"), None
    if screen == "result":
        return "OK", "result"
    if screen in ("phase", "over", "notice", "resume", "standings"):
        return "OK", None
    raise PicoError("the bot does not know this screen (%s)" % screen)


class Keepalive:
    """Predicts the display's keepalive refreshes from the first main loop step after a boot."""

    def __init__(self, period=KEEPALIVE_MS, margin=KEEPALIVE_MARGIN_MS,
                 drift=KEEPALIVE_DRIFT_MS):
        self.period, self.margin, self.drift = period, margin, drift
        self.anchor = None

    def booted(self, first_step):
        self.anchor = first_step

    def wait_before(self, now, window):
        """Emulated ms to wait so that [now, now + window] holds no keepalive (0: go now)."""
        n = 1
        while True:
            due = self.anchor + n * self.period
            lo, hi = due - self.margin, due + n * self.drift + self.margin
            if now + window < lo:
                return 0
            if now <= hi:
                return hi - now + 1
            n += 1


class Bench:
    """Plays the tray on one emulated Pico and collects latency samples per kind of press."""

    def __init__(self, pico, samples=SAMPLES, log=print):
        self.pico = pico
        self.samples = samples
        self.log = log
        self.keepalive = Keepalive()
        self.got = {k: [] for k in KINDS}
        self.kept = False
        self.spoiled = 0  # windows that met a keepalive after all (bytes tell): dropped

    def boot(self, hold=None):
        self.pico.powercycle(hold)
        panel = self.pico.settle(fresh=True, until=lambda p: screen_of(p) is not None)
        # The first step drew the boot screen just before the last write settle saw.
        self.keepalive.booted(self.pico.last_write - 60)
        return panel

    def window(self, kind):
        seen = [s["last_byte_ms"] for s in self.got.get(kind) or ()]
        return (max(seen) if seen else 800) + QUIET_MS + 150

    def press(self, key, kind):
        """Press key (out of the keepalives' way); returns (figures, panel after)."""
        while True:
            wait = self.keepalive.wait_before(self.pico.now(), self.window(kind))
            if not wait:
                break
            self.pico.wait(wait)
        figures = self.pico.latency(key, quiet=QUIET_MS)
        return figures, self.pico.panel()

    def step(self, panel):
        """One bot press from this panel; records it if measured. Returns the next panel."""
        screen, hints = screen_of(panel), panel.hints()
        key, kind = choose(screen, hints, self.kept)
        figures, after = self.press(key, kind)
        next_screen = screen_of(after)
        if kind == "keep":
            self.kept = True
        if next_screen == "turn" and after.hints() == "ROLL:THROW":
            self.kept = False  # a new turn
        if kind == "result" and next_screen != "turn":
            kind = None  # OK on a result that leads to a phase change or the end
        if kind and figures["first_byte_ms"] is None:
            raise PicoError("%s (%s) drew nothing: %r" % (kind, key, figures))
        if kind and kind != "throw" and figures["bytes"] > self.frame_bytes:
            self.spoiled += 1  # more than a whole frame: a keepalive was in the window
        elif kind:
            self.got[kind].append(figures)
        return after

    frame_bytes = 8 * (4 + 1 + 128) + 8  # a whole frame sent in spans, and a command or two

    def missing(self, kinds):
        return [k for k in kinds if len(self.got[k]) < self.samples]

    def run(self):
        # Setup presses: power up on the resume prompt, ROLL for a new game, OK to start it.
        for _ in range(self.samples):
            panel = self.boot()
            while screen_of(panel) != "setup":
                _, panel = self.press("ROLL" if screen_of(panel) == "resume" else "OK", None)
            panel = self.step(panel)
        self.log("Pico         %d setup presses measured; playing for the others ..."
                 % len(self.got["setup"]))
        presses = 0
        while self.missing(KINDS[:4]):
            presses += 1
            if presses > MAX_PRESSES:
                raise PicoError("still missing %s after %d presses"
                                % (self.missing(KINDS), MAX_PRESSES))
            panel = self.step(panel)
        return self.got


def heap_figures(pico, log=print):
    """The instrumented main loop's heap over a game; the board must be in safe mode."""
    pico.write_files(dict({n: None for n in SAVES},
                          **{"settings.json": json.dumps(HEAP_SETTINGS).encode()}))
    run = pico.exec_background(HEAP_SCRIPT)
    try:
        panel = pico.settle(fresh=True, until=lambda p: screen_of(p) == "setup")
        kept, played = False, False
        for _ in range(HEAP_MAX_PRESSES):
            screen = screen_of(panel)
            played = played or screen == "turn"
            if played and screen == "setup":
                break
            key, kind = choose(screen, panel.hints(), kept)
            pico.latency(key, quiet=QUIET_MS)
            panel = pico.panel()
            kept = (kept or kind == "keep") and panel.hints() != "ROLL:THROW"
        else:
            log("Pico         heap: the game did not end in %d presses; stopped there"
                % HEAP_MAX_PRESSES)
            pico.ctl("down KEEP1")
            pico.ctl("down KEEP3")
        out, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        pico.ctl("up KEEP1")
        pico.ctl("up KEEP3")
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise PicoError("the heap run printed no figures:\n" + out)
    return json.loads(lines[-1])


def empty():
    keys = ["pico_press_ms_p95", "pico_press_first_ms_p95"]
    for kind in KINDS:
        keys += ["pico_%s_ms_p95" % kind, "pico_%s_first_ms_p95" % kind]
    return dict.fromkeys(keys + ["pico_heap_boot", "pico_heap_peak"])


def summary(got):
    """The JSON figures from the samples per kind (emulated ms, p95 nearest rank)."""
    result = empty()
    every = [s for kind in KINDS for s in got[kind]]
    if every:
        result["pico_press_ms_p95"] = percentile([s["last_byte_ms"] for s in every], 95)
        result["pico_press_first_ms_p95"] = percentile([s["first_byte_ms"] for s in every], 95)
    for kind in KINDS:
        if got[kind]:
            result["pico_%s_ms_p95" % kind] = percentile([s["last_byte_ms"] for s in got[kind]],
                                                         95)
            result["pico_%s_first_ms_p95" % kind] = percentile(
                [s["first_byte_ms"] for s in got[kind]], 95)
    return result


def table(got):
    lines = ["Pico         press to panel (emulated ms)  n   first byte      panel complete",
             "Pico                                           median   p95   median   p95"]
    for kind in KINDS + ("all",):
        s = got[kind] if kind != "all" else [x for k in KINDS for x in got[k]]
        if not s:
            continue
        first = [x["first_byte_ms"] for x in s]
        last = [x["last_byte_ms"] for x in s]
        lines.append("Pico         %-28s %3d %7.1f %7.1f %7.1f %7.1f" % (
            kind, len(s), percentile(first, 50), percentile(first, 95), percentile(last, 50),
            percentile(last, 95)))
    return lines


def pico_figures(samples=SAMPLES, log=print):
    """Measure on the emulated Pico, print the figures, return bench.py's JSON keys."""
    reason = unavailable()
    if reason:
        log("Pico figures skipped: " + reason)
        return empty()
    log("")
    log("The tray on the emulated Pico (its own emulator; a few minutes) ...")
    started = time.time()
    pico = Pico()
    owned = pico.claim()
    try:
        pico.install_in_safe_mode()
        pico.write_files(dict({n: None for n in SAVES},
                              **{"settings.json": json.dumps(SETTINGS).encode()}))
        bench = Bench(pico, samples, log)
        got = bench.run()
        pico.powercycle("OK")
        pico.settle(fresh=True, until=lambda p: screen_of(p) == "safe")
        heap = heap_figures(pico, log)
    finally:
        if owned:
            pico.stop()
    for line in table(got):
        log(line)
    log("Pico         (stop, result and setup are OK presses, which act when let go: each of"
        " their figures includes the 120 ms the button is held)")
    if bench.spoiled:
        log("Pico         %d samples dropped: a keepalive refresh met their window"
            % bench.spoiled)
    log("Pico         heap (gc.mem_alloc() after gc.collect()): %d bytes after boot, peak %d over"
        " a game (%d polls; the measuring script and MicroPython's own: %d; free at the end: %d)"
        % (heap["boot"], heap["peak"], heap["polls"], heap["base"], heap["free"]))
    log("Pico         measured in %.0f s" % (time.time() - started))
    result = summary(got)
    result["pico_heap_boot"] = heap["boot"]
    result["pico_heap_peak"] = heap["peak"]
    return result


if __name__ == "__main__":
    print(json.dumps(pico_figures(int(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES)))
