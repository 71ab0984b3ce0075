"""Benchmarks: prints figures, and as its last line one JSON object with all of them.

    python tools/bench.py

Rules core: throws evaluated per second and random games per second on CPython and on
MicroPython (the pinned WebAssembly build, 32-bit), and the heap the rules core keeps after import
on MicroPython (gc.mem_alloc() delta, importing the .mpy files a Pico would run). That build
never collects garbage while a script runs, so the delta counts every byte the import allocated:
an upper bound of what it keeps.

The tray: a whole tray on fakes (tools/trayhost/trayrun.py) plays a game of every preset through
its buttons, as trayrun.tour() does (checked: the same games, the same bytes on the bus).

- Bytes per press (CPython; host_tests/test_micropython_app.py proves MicroPython puts the very
  same bytes on the bus): from the step whose buttons.poll() returns the event to the first
  display.show() that sends anything, the bytes of that show(): what must cross the bus before
  the panel shows the press's effect. Median and 95th percentile are nearest-rank.
- Bus time at 400 kHz, per press, then its 95th percentile:
      t = (9 * bytes + 11 * transfers) / 400 000 s
  9 bit times per byte (8 data bits + ACK), and per transfer (one i2c.writeto: start, address
  byte + ACK, stop) 11 more. It counts the wire only: not the Python time to draw the screen and
  find the changed spans, nor the RP2040's few microseconds between transfers.
- Live heap (MicroPython, .mpy builds): run.mjs --chunks runs the script in pieces, collects the
  garbage between pieces with nothing on the stack and hands the next piece the live heap
  (gc.mem_alloc() after that collection) as LIVE_HEAP; see tools/micropython/run.mjs. Figures
  are relative to the VM before any firmware import, so they count the firmware's code, the
  tray's objects, and also the fakes: the code of the trayhost modules the tray runs on
  (trayrun, autoplay, pins and the package), the in-memory save files (their share is
  printed). heap_after_boot: after the tray is built and app.boot() has run. heap_peak: the
  highest live heap after every key press (one piece per key: press, hold, release and rest,
  as trayrun's Tray.key) over the games of every preset.
- Idle allocation (MicroPython): gc.mem_alloc() delta over IDLE_POLLS app.step(now) calls with no
  press, 5 ms apart (a keepalive refresh of the panel included), on a few screens; the worst,
  per poll. The I2C there is a fake that allocates nothing, like machine.I2C: trayrun's
  RecordingI2C keeps a 32-bit checksum, a long int on MicroPython, which allocates per byte.

The tray on the emulated Pico (tools/picobench.py, a few minutes; skipped, saying why, without
the kit): press-to-panel latency per kind of press, first byte and panel complete, median and
95th percentile in emulated ms with the I2C bus and flash timing modelled, and the heap of the
real port after boot and at its peak over a game.
"""

import json
import os
import tempfile
import time

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray.game import Game
from dicetray.rules import PRESETS, all_throws, evaluate
from mpy import TRAYHOST, copy_packages, node_ready, run_micropython
from trayhost import trayrun
from trayhost.autoplay import SeededDice, play_random

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")

TOUR_SEED = 3  # trayrun.tour()'s defaults: the games the MicroPython test plays
TOUR_PLAYERS = 3
I2C_HZ = 400_000
BITS_PER_BYTE = 9  # 8 data bits + ACK
BITS_PER_TRANSFER = 11  # start + address byte and its ACK + stop
IDLE_POLLS = 1000

# The same workload on both VMs (MicroPython runs this text with time.ticks_ms).
WORKLOAD = """
import time
from dicetray.rules import PRESETS, all_throws, evaluate
from dicetray.game import Game
from trayhost.autoplay import SeededDice, play_random

def evals(rounds):
    throws = list(all_throws())
    opts = list(PRESETS.values())
    n = 0
    for _ in range(rounds):
        for o in opts:
            for t in throws:
                evaluate(t, o)
                n += 1
    return n

def games(count):
    names = sorted(PRESETS)
    for seed in range(count):
        g = Game(4, names[seed % 5], SeededDice(seed))
        play_random(g, SeededDice(seed + 1))
    return count
"""

MP_RUN = WORKLOAD + """
t = time.ticks_ms(); n = evals(EVAL_ROUNDS); dt = time.ticks_diff(time.ticks_ms(), t)
print("evals", n, dt)
t = time.ticks_ms(); n = games(GAMES); dt = time.ticks_diff(time.ticks_ms(), t)
print("games", n, dt)
"""

MP_HEAP = """
import gc
gc.collect()
before = gc.mem_alloc()
import dicetray.rules
after = gc.mem_alloc()
print("heap", after - before)
"""


# The tray's live heap, on MicroPython, in pieces cut by "#---" (run.mjs --chunks). The first
# piece only defines what the others use, so the baseline includes this harness's own code.
MP_TRAY_HEAP = """
import gc
import json


def games(tray, seed, players, results):
    # trayrun.tour, one step per next(): every preset, each from a fresh tray, then its keys.
    from dicetray.rules import PRESET_NAMES
    from trayhost.autoplay import SeededDice
    for i, preset in enumerate(PRESET_NAMES):
        if tray is None:
            tray = trayrun.Tray(SeededDice(seed + i), seed=seed + i)
            yield
        keys = 0
        for _ in trayrun.game_keys(tray, players, preset, SeededDice(seed + i)):
            keys += 1
            yield
        results.append(trayrun.game_line(preset, keys, tray))
        tray = None


def press():
    global peak
    if LIVE_HEAP > peak:
        peak = LIVE_HEAP
    try:
        next(run)
    except StopIteration:
        pass
#---
BARE = LIVE_HEAP
import dicetray.app, dicetray.buttons, dicetray.display, dicetray.rules, dicetray.store
#---
FIRMWARE_CODE = LIVE_HEAP - BARE
from trayhost import trayrun
from trayhost.autoplay import SeededDice
#---
HARNESS_CODE = LIVE_HEAP - BARE - FIRMWARE_CODE
tray = trayrun.Tray(SeededDice(SEED), seed=SEED)
#---
BOOT = LIVE_HEAP - BARE
peak = LIVE_HEAP
results = []
run = games(tray, SEED, PLAYERS, results)
del tray
PRESSES
#---
peak = max(peak, LIVE_HEAP)
print(json.dumps({"bare": BARE, "firmware_code": FIRMWARE_CODE, "harness_code": HARNESS_CODE,
                  "boot": BOOT, "peak": peak - BARE, "games": results}))
"""

# Allocation of the idle main loop on MicroPython: no press, one app.step(now) every 5 ms.
MP_IDLE = """
import gc
import json
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.pins import ticks_add


class NullI2C:
    def writeto(self, addr, buf):
        return len(buf)


def noop(now):
    pass


def polls(fn, n, now):
    before = gc.mem_alloc()
    for _ in range(n):
        now = ticks_add(now, trayrun.POLL_MS)
        fn(now)
    return gc.mem_alloc() - before, now


tray = trayrun.Tray(SeededDice(1), seed=1)
tray.display.panel.i2c = NullI2C()
out = []
overhead = polls(noop, IDLE_POLLS, 0)[0]  # the loop's own cost, taken off each figure
for label, keys, n in (("setup", "", IDLE_POLLS), ("play", "o", IDLE_POLLS),
                      ("play, 2 dice kept", "r12", IDLE_POLLS),
                      ("standings", "O", IDLE_POLLS),
                      ("play, through dim and sleep", "o", 62000)):
    tray.keys(keys)
    alloc, tray.now = polls(tray.app.step, n, tray.now)
    out.append([label, tray.app.screen, alloc - overhead, n])
print(json.dumps(out))
"""


def percentile(values, p):
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[rank - 1]


def bus_ms(nbytes, transfers, hz=I2C_HZ):
    """Milliseconds on an I2C bus: 9 bit times per byte, 11 per transfer (see the docstring)."""
    return (BITS_PER_BYTE * nbytes + BITS_PER_TRANSFER * transfers) * 1000 / hz


class PressMeter:
    """Hooks one tray: for each press, the bytes and transfers of the show() that draws it.

    The app draws a press in the step that registers it (app.step: poll, act, render, show), so
    that step's show() is the first to send its effect; when it sends nothing the press changed
    nothing on the panel (a refused key) and is counted in `unchanged`, not measured: a later
    show (a keepalive refresh, the next press) would not be its effect. Wraps the tray's
    buttons.poll and display.show on the instance; the tray behaves the same.
    """

    def __init__(self, tray):
        self.samples = []  # (bytes, transfers) per press that changed the panel
        self.unchanged = 0
        self._pressed = False
        poll, show, i2c, display = tray.buttons.poll, tray.display.show, tray.i2c, tray.display

        def poll_hook(now):
            event = poll(now)
            self._pressed = event is not None
            return event

        def show_hook(now=None):
            before, writes = i2c.bytes, display.writes
            ok = show(now)
            if self._pressed:
                self._pressed = False
                if i2c.bytes != before:
                    self.samples.append((i2c.bytes - before, display.writes - writes))
                else:
                    self.unchanged += 1
            return ok

        tray.buttons.poll = poll_hook
        tray.display.show = show_hook


def press_figures():
    """Scripted games of every preset (trayrun.tour's), each press metered."""
    meters = []
    lines = trayrun.tour(TOUR_SEED, TOUR_PLAYERS, lambda tray: meters.append(PressMeter(tray)))
    if lines != trayrun.tour(TOUR_SEED, TOUR_PLAYERS):
        raise RuntimeError("the metered games differ from trayrun.tour(): the hooks changed them")
    samples = [sample for meter in meters for sample in meter.samples]
    unchanged = sum(meter.unchanged for meter in meters)
    display = trayrun.Tray(SeededDice(1)).display
    full = display.full_frame_bytes()
    nbytes = [b for b, _ in samples]
    times = [bus_ms(b, t) for b, t in samples]
    return {
        "presses": len(samples),
        "unchanged": unchanged,
        "median": percentile(nbytes, 50),
        "p95": percentile(nbytes, 95),
        "max": max(nbytes),
        "full": full,
        "ms_median": round(percentile(times, 50), 3),
        "ms_p95": round(percentile(times, 95), 3),
        "ms_full": round(bus_ms(full, 2 * display.pages), 3),  # per page: position, then data
        "lines": lines,
    }


def tray_heap_figures(lines):
    """Live heap after boot and its peak over the games, on MicroPython (.mpy builds)."""
    presses = sum(line[1] for line in lines) + len(lines)  # every key, and every fresh tray
    script = (MP_TRAY_HEAP.replace("SEED", str(TOUR_SEED)).replace("PLAYERS", str(TOUR_PLAYERS))
              .replace("PRESSES\n", "#---\npress()\n" * presses))
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        out = run_micropython(script, paths=[FIRMWARE, helpers], mpy=True, chunks=True,
                              timeout=600)
        idle_out = run_micropython(MP_IDLE.replace("IDLE_POLLS", str(IDLE_POLLS)),
                                   paths=[FIRMWARE, helpers], mpy=True, timeout=600)
    heap = json.loads(out.strip().splitlines()[-1])
    if heap["games"] != lines:
        raise RuntimeError("MicroPython played other games than CPython: %r" % heap["games"])
    idle = json.loads(idle_out.strip().splitlines()[-1])
    return heap, idle


def rate(count, seconds):
    return round(count / seconds, 1) if seconds > 0 else None


def cpython_figures():
    ns = {}
    exec(WORKLOAD, ns)
    t = time.perf_counter()
    n = ns["evals"](40)
    evals = rate(n, time.perf_counter() - t)
    t = time.perf_counter()
    g = ns["games"](200)
    games = rate(g, time.perf_counter() - t)
    return evals, games


def micropython_figures():
    reason = node_ready()
    if reason:
        print("MicroPython figures skipped: " + reason)
        return None, None, None
    script = MP_RUN.replace("EVAL_ROUNDS", "4").replace("GAMES", "40")
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        out = run_micropython(script, paths=[FIRMWARE, helpers], mpy=True)
    figures = {}
    for line in out.splitlines():
        name, n, ms = line.split()
        figures[name] = rate(int(n), int(ms) / 1000)
    heap_out = run_micropython(MP_HEAP, paths=[FIRMWARE], mpy=True)
    heap = int(heap_out.split()[-1])
    return figures["evals"], figures["games"], heap


def main():
    # A sanity check that the workload is the real thing, not an empty loop.
    assert evaluate((4, 2, 1), PRESETS["classic"]).name == "421"
    assert len(list(all_throws())) == 56
    g = Game(4, "lebon", SeededDice(1))
    play_random(g, SeededDice(2))
    assert g.over

    evals_cp, games_cp = cpython_figures()
    print("CPython      throws evaluated per second: %s" % evals_cp)
    print("CPython      random 4-player games per second: %s" % games_cp)
    evals_mp, games_mp, heap = micropython_figures()
    print("MicroPython  throws evaluated per second: %s" % evals_mp)
    print("MicroPython  random 4-player games per second: %s" % games_mp)
    print("MicroPython  heap allocated importing the rules core (.mpy): %s bytes" % heap)
    result = {
        "rules_evals_per_s_cpython": evals_cp,
        "rules_evals_per_s_micropython": evals_mp,
        "games_per_s_cpython": games_cp,
        "games_per_s_micropython": games_mp,
        "rules_heap_bytes_micropython": heap,
    }
    result.update(tray_figures())
    from picobench import pico_figures  # the emulated Pico (skipped where its kit is missing)

    result.update(pico_figures())
    print(json.dumps(result))


def tray_figures():
    p = press_figures()
    print()
    print("The tray: a game of every preset through the buttons, %d presses that changed the"
          " panel (and %d refused ones that did not)" % (p["presses"], p["unchanged"]))
    print("I2C          full frame: %d bytes, %.3f ms at 400 kHz" % (p["full"], p["ms_full"]))
    print("I2C          bytes from a press to its effect on the panel: median %d (%.1f%% of a full"
          " frame), 95th percentile %d, most %d"
          % (p["median"], 100 * p["median"] / p["full"], p["p95"], p["max"]))
    print("I2C          bus time from a press to the panel at 400 kHz: median %.3f ms, 95th"
          " percentile %.3f ms" % (p["ms_median"], p["ms_p95"]))
    result = {
        "i2c_bytes_per_press_median": p["median"],
        "i2c_bytes_per_press_p95": p["p95"],
        "full_frame_bytes": p["full"],
        "press_to_panel_ms_400k_p95": p["ms_p95"],
        "heap_after_boot_bytes": None,
        "heap_peak_bytes": None,
        "idle_alloc_bytes_per_poll": None,
    }
    reason = node_ready()
    if reason:
        print("MicroPython tray figures skipped: " + reason)
        return result
    heap, idle = tray_heap_figures(p["lines"])
    objects = heap["boot"] - heap["firmware_code"] - heap["harness_code"]
    print("MicroPython  live heap after boot: %d bytes (firmware code %d, trayhost harness code"
          " %d, the tray's objects %d)"
          % (heap["boot"], heap["firmware_code"], heap["harness_code"], objects))
    print("MicroPython  live heap, peak after a key press over every game: %d bytes"
          % heap["peak"])
    worst = 0.0
    for label, screen, alloc, polls in idle:
        print("MicroPython  idle main loop, %s (screen %s): %d bytes allocated in %d polls"
              % (label, screen, alloc, polls))
        worst = max(worst, alloc / polls)
    print("MicroPython  idle allocation, worst screen: %s bytes per poll" % worst)
    result["heap_after_boot_bytes"] = heap["boot"]
    result["heap_peak_bytes"] = heap["peak"]
    result["idle_alloc_bytes_per_poll"] = worst
    return result


if __name__ == "__main__":
    main()
