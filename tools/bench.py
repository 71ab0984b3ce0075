"""Benchmarks: prints figures, and as its last line one JSON object with all of them.

    python tools/bench.py

Rules core: throws evaluated per second and random games per second on CPython and on
MicroPython (the pinned WebAssembly build, 32-bit), and the heap the rules core keeps after import
on MicroPython (gc.mem_alloc() delta, importing the .mpy files a Pico would run). That build
never collects garbage while a script runs, so the delta counts every byte the import allocated:
an upper bound of what it keeps.
"""

import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path[:0] = [FIRMWARE, HERE]

from autoplay import SeededDice, play_random  # noqa: E402
from dicetray.game import Game  # noqa: E402
from dicetray.rules import PRESETS, all_throws, evaluate  # noqa: E402
from mpy import node_ready, run_micropython  # noqa: E402

# The same workload on both VMs (MicroPython runs this text with time.ticks_ms).
WORKLOAD = """
import time
from dicetray.rules import PRESETS, all_throws, evaluate
from dicetray.game import Game
from autoplay import SeededDice, play_random

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
        shutil.copy(os.path.join(HERE, "autoplay.py"), helpers)
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
    print(json.dumps(result))


if __name__ == "__main__":
    main()
