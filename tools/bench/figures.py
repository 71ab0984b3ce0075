"""Benchmarks: prints figures, and as its last line one JSON object with all of them.

    python tools/bench/figures.py

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
  press, 5 ms apart (a keepalive refresh of the panel included), on a few screens, each once the
  last press's own timers are over (the roll animation, a refused press's mark: 1.5 s); the
  worst, per poll. The I2C there is a fake that allocates nothing, like machine.I2C: trayrun's
  RecordingI2C keeps a 32-bit checksum, a long int on MicroPython, which allocates per byte.
- What a language costs: words_heap_bytes_<code> (MicroPython, .mpy builds), the live heap one
  language's catalogue keeps once loaded as the tray loads it (words.use), in a fresh VM with
  dicetray.words already imported: the live heap after minus before (run.mjs --chunks). The
  tray keeps one catalogue, the language it speaks. font_accent_bytes (from font.py's tables):
  the bytes the glyphs beyond ASCII (the accented capitals, « ») add to the font: their columns,
  the index's entries past code 126, their characters in CHARS.

A night at the bar (night.py; DICETRAY_SOAK_GAMES games, default 200, a few minutes): games
back to back on one tray through its buttons, the language, the seats and the hints switched on
the setup menu now and then, at each panel height; the live heap at each game's start, its
slope per game, the last game's start against the 10th's, and the night's peak
(soak_heap_*). The same, 20 games, on the emulated Pico (tools/emupico/night.py, pico_soak_*;
null, saying why, without the kit).

The tray on the host twin (tools/emupico/bench.py --twin, ~20 s; twin_*): per kind of press the
bytes and writes to the panel and the twin's estimate of the Pico's ms (tools/picotwin/cost.py),
printed beside the emulated Pico's figures its model is calibrated on, and their ratio.

The tray on the emulated Pico (tools/emupico/bench.py, a few minutes; skipped, saying why, without
the kit): press-to-panel latency per kind of press, first byte and panel complete, median and
95th percentile in emulated ms with the I2C bus and flash timing modelled, and the heap of the
real port after boot and at its peak over a game.

A game's save on the flash (flashsave.py): erases, page programs and the modelled flash time per
saved action on the real littlefs code (littlefs-python, the rp2 port's configuration), today's
save next to the last release's (format 4), and the MicroPython time of building one.

What a press runs before its first bus byte (presscost.py, a few minutes;
DICETRAY_PRESSCOST_BENCH=0 skips it): per kind of press (keep, throw, stop, result, setup,
roll-off, a press in a tray seat's turn), in the classic 2-player game and at 8 players with
four tray seats and hints, the firmware's Python lines run (CPython, deterministic), and on
the WebAssembly MicroPython the wall microseconds (a noisy proxy, split into act, draw and
send), the bytes allocated, the host's fake milliseconds to the first byte and the modules
loaded.

The computer seats (seats.py): arena.py's shares of games each kind of seat
pays (DICETRAY_ARENA_GAMES games per preset and kind), a decision's and the warm-up's time on
the WebAssembly MicroPython (at 8 players: whole, and the largest piece an idle poll makes),
the seat's work done before a press's first frame per kind of press (trayhost.pressmeter), and
a decision's time on the emulated Pico (skipped, saying why, without the kit).

The tray in a browser (page.py, ~25 s; skipped, saying why, without Chromium): the
page's start time and the time from a click to the canvas's repaint.
"""

import json
import os
import sys
import tempfile
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable as on the Pico)
from dicetray.game import Game  # noqa: E402
from dicetray.options import PRESETS  # noqa: E402
from dicetray.rules import all_throws, evaluate  # noqa: E402
from mpy import TRAYHOST, copy_packages, node_ready, run_micropython  # noqa: E402
from trayhost.autoplay import SeededDice, play_random  # noqa: E402

from bench.tray import tray_figures  # noqa: E402

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")

# The same workload on both VMs (MicroPython runs this text with time.ticks_ms).
WORKLOAD = """
import time
from dicetray.options import PRESETS
from dicetray.rules import all_throws, evaluate
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
    from bench.flashsave import flash_figures  # a save's cost on littlefs, today and format 4

    result.update(flash_figures())
    from bench.presscost import presscost_figures  # what a press runs before its first byte

    result.update(presscost_figures())
    from bench.seats import seats_figures  # the computer seat: the arena, a decision on the Pico

    result.update(seats_figures())
    from bench.night import GAMES, night_figures  # a night of games on one heap

    result.update(night_figures(int(os.environ.get("DICETRAY_SOAK_GAMES", GAMES))))
    from emupico.bench import pico_figures, twin_figures  # the emulated Pico (skipped where its
    # kit is missing) and the host twin's estimate of its times, beside the kit's figures

    result.update(pico_figures())
    result.update(twin_figures())
    from emupico.night import pico_night_figures  # a shorter night there

    result.update(pico_night_figures())
    from bench.page import web_figures  # the page in headless Chromium (skipped where missing)

    result.update(web_figures())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
