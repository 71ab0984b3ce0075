"""A night at the bar on one heap, for the bench: games back to back on one tray (trayhost.night:
the language switched every 20 games, the seats or the hints every 50), the live heap read at
each game's start and after every key or wait, on the WebAssembly MicroPython (.mpy files).

- soak_games: the games played a night, at each panel height (128x64, then 128x32: a night
  each, each in a fresh VM).
- soak_heap_slope_bytes_per_game: the least-squares slope of the live heap at each game's start
  against the game's number, from the 10th game on (the first games load what every game
  needs once: the code the night keeps); the larger of the two heights'.
- soak_heap_drift_bytes: the live heap at the last game's start minus the 10th's (the night's
  first and last games are alike: the same language, seats and hints); the larger of the two.
- soak_heap_peak_bytes: the highest live heap after any key or wait of the night, beside the
  highest of its first 30 games (printed: one game's peak in each language, French's catalogue
  being the larger): what a night adds to a game's peak; the larger of the two heights'.
- Printed too: of the drift, the bytes of interned strings (micropython.qstr_info) added since
  the 10th game. MicroPython never frees an interned string: a module's or a catalogue's first
  load leaves its new names and short texts for good, once; an unload and a reload add none.
  It keeps them in pools it doubles as they fill, so the first load that fills one takes a new
  pool once (9.5 KB today, at the first French catalogue): the night visits French in its first
  games (trayhost.night.WARM_UP), so that step comes before the 10th game.

The live heap is run.mjs --chunks's (a collection with nothing on the stack, then
gc.mem_alloc()), relative to the VM with the night's code loaded (the firmware's modules the
first tray loads are counted: they are the tray's). A soak, not a timed test: it prints
figures.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from mpy import TRAYHOST, copy_packages, node_ready, run_micropython  # noqa: E402
from trayhost.nightheap import FIRST, summary  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware")
GAMES = 200
HEIGHTS = (64, 32)
KEYS = ("soak_games", "soak_heap_slope_bytes_per_game", "soak_heap_drift_bytes",
        "soak_heap_peak_bytes")

# The night in pieces (run.mjs --chunks): the live heap at each game's start and its highest
# after each key or wait. The lists are made whole first: growing them would count as the
# night's heap.
MP_NIGHT = """
import micropython
from trayhost import night

starts = [0] * GAMES
peaks = [0] * GAMES
state = [-1, 0]  # the game under way, 1 when its start is the next reading


def step():
    global AGAIN
    game = state[0]
    if state[1]:
        starts[game] = LIVE_HEAP
        state[1] = 0
        if game == FIRST:
            print("QSTR")  # the interned strings' bytes then, and at the night's end
            micropython.qstr_info()
    if game >= 0 and LIVE_HEAP > peaks[game]:
        peaks[game] = LIVE_HEAP
    for event in run:
        if event[0] == "game":
            state[0] = event[1]
            state[1] = 1
        AGAIN = True
        return
    AGAIN = False


run = night.night(GAMES, HEIGHT)
tray = next(run)[1]
del tray
#---
BARE = LIVE_HEAP
#---
step()
#---
print("QSTR")
micropython.qstr_info()
print("NIGHT", BARE, starts, peaks)
"""


def night_heap(games=GAMES, height=64, timeout=1800):
    """(starts, peaks, qstr) of a night of games at height on the WebAssembly MicroPython: the
    live heap at each game's start and its highest over each game, relative to the VM with
    the night's first tray built; and the bytes the interned strings' pools grew by from the
    10th game's start to the night's end (micropython.qstr_info: MicroPython never frees an
    interned string, so a module's first load leaves its new ones for good)."""
    script = (MP_NIGHT.replace("GAMES", str(games)).replace("HEIGHT", str(height))
              .replace("FIRST", str(min(FIRST, games - 1))))
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        out = run_micropython(script, paths=[FIRMWARE, helpers], mpy=True, chunks=True,
                              timeout=timeout)
    lines = out.splitlines()
    line = [x for x in lines if x.startswith("NIGHT ")][0]
    bare, starts, peaks = json.loads("[" + line[6:].replace(" [", ", [", 2) + "]")
    qstr = [int(lines[i + 1].rsplit("n_total_bytes=", 1)[1])
            for i, x in enumerate(lines) if x == "QSTR"]
    return [s - bare for s in starts], [p - bare for p in peaks], qstr[-1] - qstr[0]


def night_figures(games=GAMES, heights=HEIGHTS, log=print):
    """The soak's figures for the bench's JSON (KEYS), null without the WebAssembly build."""
    reason = node_ready()
    if reason:
        log("The night's soak skipped: " + reason)
        return dict.fromkeys(KEYS)
    from concurrent.futures import ThreadPoolExecutor

    t = time.time()
    with ThreadPoolExecutor(len(heights)) as pool:  # a VM each: the nights run side by side
        nights = list(pool.map(lambda height: night_heap(games, height), heights))
    log("")
    log("A night at the bar: %d games back to back on one tray at each height (%.0f s)"
        % (games, time.time() - t))
    worst = {}
    for height, (starts, peaks, qstr) in zip(heights, nights):
        s = summary(starts, peaks)
        log("WebAssembly  128x%d: live heap at each game's start (bytes, 20 games a line):"
            % height)
        for i in range(0, games, 20):
            log("WebAssembly    games %3d-%3d: %s" % (i + 1, min(i + 20, games),
                                                      " ".join(str(x) for x in starts[i:i + 20])))
        log("WebAssembly  128x%d: slope %.1f bytes a game from the %dth game; the last game's"
            " start minus the %dth's %d bytes, %d of them interned strings (never freed: the"
            " first load of each module or catalogue leaves its new ones); peak %d bytes, the"
            " night's first games' %d (+%d)"
            % (height, s["slope"], FIRST + 1, FIRST + 1, s["drift"], qstr, s["peak"],
               s["game_peak"], s["peak"] - s["game_peak"]))
        for key in s:
            worst[key] = max(worst.get(key, s[key]), s[key])
    return {"soak_games": games, "soak_heap_slope_bytes_per_game": worst["slope"],
            "soak_heap_drift_bytes": worst["drift"], "soak_heap_peak_bytes": worst["peak"]}


if __name__ == "__main__":  # python tools/bench/night.py [GAMES [HEIGHT]]: every reading
    if len(sys.argv) > 2:
        print(json.dumps(night_heap(int(sys.argv[1]), int(sys.argv[2]))))
    else:
        print(json.dumps(night_figures(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)))
