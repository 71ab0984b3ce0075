"""The computer seat's figures for the bench: the arena's shares and a decision's time.

- seats_loss_share_exact / _random / _greedy: arena.py, every preset pooled, 4 players
  (DICETRAY_ARENA_GAMES games per preset and kind, default arena.GAMES).
- seats_decision_ms_pico: on the emulated Pico (tools/emupico/kit.py: the official rp2 MicroPython,
  the RP2040's instruction timing), the tray installed by flash.sh and booted in safe mode, a
  script times strategy.decide() with time.ticks_us (emulated time) on follower and first
  player moments of every preset, after the first throw (two throws left: the longest) and the
  second; it prints the median and the worst (strategy.warm, the tables made once a game as
  the seat starts, is timed apart), the heap the strategy's code and tables keep
  (gc.mem_alloc() after gc.collect(), strategy, odds and firsttable loaded, against before) and the
  most a decision allocates (the garbage collector off: an upper bound of its peak). Skipped,
  saying why, without the kit.
"""

from __future__ import annotations

import json
import os
import sys

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import arena  # noqa: E402

SCRIPT = r"""
import gc, time
from dicetray.game import Game
from dicetray.options import PRESETS, make
from dicetray.rules import START_SEAT1
gc.collect()
before = gc.mem_alloc()
from dicetray import firsttable, odds, strategy
odds.indexes()
gc.collect()
loaded = gc.mem_alloc()
state = [12345]
def roll():
    x = state[0]
    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    state[0] = x
    return 1 + (x >> 16) % 6
times = []
setups = []
peak = 0
for name in ("classic", "jackpot", "zanzibar", "bar41", "lebon"):
    opts = PRESETS[name].to_dict()
    opts["dry_charge"] = False
    opts["start"] = START_SEAT1
    g = Game(4, make(**opts), roll)
    g.take_events()
    gc.collect()
    t = time.ticks_us()
    strategy.warm(g)  # once a game: the seat does it as the game starts (Seat.poll)
    setups.append(time.ticks_diff(time.ticks_us(), t))
    for rounds in range(6):
        if g.over or g.contest is not None:
            break
        g.throw()
        while g.contest is None and not g.over and g.turn.count:
            if not g.can_throw():
                g.stop()
                break
            gc.collect()
            gc.disable()
            a = gc.mem_alloc()
            t = time.ticks_us()
            mask = strategy.decide(g)[0]
            times.append(time.ticks_diff(time.ticks_us(), t))
            peak = max(peak, gc.mem_alloc() - a)
            gc.enable()
            if mask is None:
                g.stop()
                break
            g.throw(tuple(i for i in range(3) if mask & (1 << i)))
        while g.contest is not None:
            g.throw()
times.sort()
print("SEATBENCH", len(times), times[len(times) // 2], times[-1], loaded - before, peak,
      max(setups))
"""


def pico_decision(log=print):
    """(median ms, worst ms, decisions, code bytes, peak bytes, the game's setup ms) on the
    emulated Pico, or None."""
    from emupico.kit import Pico, unavailable

    reason = unavailable()
    if reason:
        log("Seat decision on the Pico skipped: " + reason)
        return None
    pico = Pico()
    owned = pico.claim()
    try:
        pico.install_in_safe_mode()
        out = pico.exec(SCRIPT, timeout=900)
    finally:
        if owned:
            pico.stop()
    line = [x for x in out.splitlines() if x.startswith("SEATBENCH")]
    if not line:
        log("Seat decision on the Pico: no figures, the board said:\n" + out)
        return None
    _, n, median, worst, code, peak, setup = line[0].split()
    return (int(median) / 1000, int(worst) / 1000, int(n), int(code), int(peak),
            int(setup) / 1000)


def seats_figures(log=print):
    games = int(os.environ.get("DICETRAY_ARENA_GAMES", arena.GAMES))
    log("")
    log("Computer seats: the exact seat against 3 random and 3 greedy seats, %d games of each"
        " per preset, 4 players (share of games the seat pays the round, 95%% interval)" % games)
    res = arena.figures(games, out=log)
    got = None
    if os.environ.get("DICETRAY_PICO_KIT", None) == "":
        log("Seat decision on the Pico skipped: DICETRAY_PICO_KIT is empty")
    else:
        got = pico_decision(log)
    if got is None:
        res["seats_decision_ms_pico"] = None
    else:
        median, worst, n, code, peak, setup = got
        log("Pico         a seat's game setup (strategy.warm, once a game): %.1f ms" % setup)
        log("Pico         a seat's decision (strategy.decide): median %.1f ms, worst %.1f ms"
            " of %d;"
            " the strategy's code and tables keep %d bytes of heap, a decision allocates at most"
            " %d (garbage included)" % (median, worst, n, code, peak))
        res["seats_decision_ms_pico"] = worst
    return res


if __name__ == "__main__":
    print(json.dumps(seats_figures()))
