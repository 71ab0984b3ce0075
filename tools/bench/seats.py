"""The computer seat's figures for the bench: the arena's shares, a decision's and the warm-up's
time and heap, and what of the seat's work a press waits on.

- seats_loss_share_exact / _random / _greedy / _baseline, seats_loss_share_vs_<kind>:
  arena.py, every preset pooled, 4 players (DICETRAY_ARENA_GAMES games per preset and kind,
  default arena.GAMES).
- seats_decision_ms_wasm / _baseline_wasm / _ratio_wasm, seats_tables_bytes,
  seats_decision_alloc_bytes: on the WebAssembly MicroPython (the pinned build, .mpy files, as
  a Pico runs them), the same decisions of the tray's seat and of the released one
  (bench.baseline), after the first throw and the second of the players of games of every
  preset: each decision made cold (what the seat keeps for the player's throws forgotten, so
  each makes all it needs, as the first decision of a player does), REPEAT times to read a
  millisecond clock; the median and the worst of each, and the worst's ratio. The heap the
  seat's tables take: its table's bytes, the index tables and what a game keeps (the live
  heap, run.mjs --chunks, once the code is loaded); what a decision allocates at most
  (gc.mem_alloc() grows by every allocation there: that build never collects during a run).
- seats_warm_ms_wasm, seats_warm_piece_ms_wasm, seats_decision_8p_ms_wasm: on the WebAssembly
  MicroPython at 8 players (GAMES's games and moments with 8 players), the strategy's warm-up
  for a game or its décharge made cold: whole (as a seat's poll made it, in one go, inside
  whatever press came then), and its largest piece (warm(g, True): what one idle poll makes
  now); a cold decision, whole (as a hurrying press or a hint's drawing made it) and its
  largest piece (strategy.prepare's, or the choice made from them), the worst of each.
- seats_calls_before_frame, seats_heap_peak_bytes: on the WebAssembly MicroPython, games at 8
  players, the tray playing four seats, hints on, humans now and then hurrying a seat
  (trayhost.pressmeter.seats_tour): for each kind of press, the seat's work (the strategy's
  warm-up, decisions, stakes, hints) done between the press and its first frame (their sum
  is the figure: none should be), beside the work done at idle polls and elsewhere; and the
  live heap's peak over the first game (run.mjs --chunks, one piece per key or wait, relative
  to the VM with the tray's harness loaded).
- seats_decision_ms_pico: on the emulated Pico (tools/emupico/kit.py: the official rp2 MicroPython,
  the RP2040's instruction timing), the tray installed by flash.sh and booted in safe mode, a
  script times strategy.decide() with time.ticks_us (emulated time) on the moments of GAMES
  (follower and first player moments of every preset, in a charge and a décharge, after the
  first throw: two throws left, the longest, and the second); it prints the median and the
  worst (strategy.warm, the tables made once a game as the seat starts, is timed apart), the
  heap the strategy's code and tables keep
  (gc.mem_alloc() after gc.collect(), strategy and its rooms, odds and firsttable loaded, against
  before) and the
  most a decision allocates (the garbage collector off: an upper bound of its peak). Skipped,
  saying why, without the kit.
"""

from __future__ import annotations

import json
import os
import sys

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from mpy import copy_packages, node_ready, run_micropython  # noqa: E402

from bench import arena  # noqa: E402
from bench.tray import MP_HEAP_STEP  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware")
REPEAT = 50  # a cold decision, made this often to time it on a millisecond clock

# The decisions both seats are timed on: the players of a few turns of two games of every
# preset, in the charge and in the décharge, after their first and second throws (4 players, P1
# starts, rerolls in the charge).
GAMES = r"""
from dicetray.game import Game
from dicetray.options import PRESETS, make
from dicetray.rules import START_SEAT1

state = [12345]


def roll():
    x = state[0]
    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    state[0] = x
    return 1 + (x >> 16) % 6


def games():
    # A game of every preset from its start (rerolls in the charge), and one in its décharge.
    for name in ("classic", "jackpot", "zanzibar", "bar41", "lebon"):
        opts = PRESETS[name].to_dict()
        opts["dry_charge"] = False
        opts["start"] = START_SEAT1
        g = Game(4, make(**opts), roll)
        g.take_events()
        yield g
        g = Game(4, make(**opts), roll)
        g.take_events()
        quarter = g.pot // 4
        g.tokens = [quarter, quarter + 1, quarter - 1, g.pot - 3 * quarter]
        g.pot = 0
        g.phase = "decharge"
        yield g


def moments(play):
    # play(g) for each decision, then the game goes on by the tray seat's own choice.
    for g in games():
        for rounds in range(4):
            if g.over or g.contest is not None:
                break
            g.throw()
            while g.contest is None and not g.over and g.turn.count:
                if not g.can_throw():
                    g.stop()
                    break
                mask = play(g)
                if mask is None:
                    g.stop()
                    break
                g.throw(tuple(i for i in range(3) if mask & (1 << i)))
            while g.contest is not None:
                g.throw()
"""

WASM_TIME = GAMES + r"""
import gc, time
from dicetray import strategy, turn_odds
from baseline import strategy as released

mine, theirs, alloc, alloc_theirs = [], [], [], []


def cold(decide, forget):
    t = time.ticks_ms()
    for _ in range(REPEAT):
        forget()
        mask = decide()
    return time.ticks_diff(time.ticks_ms(), t) / REPEAT, mask


def forget_mine():
    turn_odds._now[0] = None


def forget_theirs():
    released._last[0] = None


def play(g):
    strategy.warm(g)  # once a game, as the seat does when a game starts
    released.warm(g)
    forget_theirs()
    a = gc.mem_alloc()
    released.decide(g)
    alloc_theirs.append(gc.mem_alloc() - a)
    ms, _ = cold(lambda: released.decide(g)[0], forget_theirs)
    theirs.append(ms)
    forget_mine()
    a = gc.mem_alloc()
    mask = strategy.decide(g)[0]
    alloc.append(gc.mem_alloc() - a)
    ms, mask = cold(lambda: strategy.decide(g)[0], forget_mine)
    mine.append(ms)
    return mask


moments(play)
import json
print("SEATWASM " + json.dumps([mine, theirs, max(alloc), max(alloc_theirs)]))
""".replace("REPEAT", str(REPEAT))

# The live heap of the seat's tables: what importing the code keeps is apart (a .mpy's code).
# PACKAGE: dicetray, or baseline for the released seat's.
WASM_HEAP = r"""
from dicetray import words
from dicetray.game import Game
from dicetray.options import PRESETS
game = Game(4, PRESETS["classic"], lambda: 1)
game.phase = "decharge"  # what a game keeps at its most: the décharge's too
words.use(words.DEFAULT)  # the language's texts, loaded by a tray's boot: not the seat's
#---
BARE = LIVE_HEAP
from PACKAGE import odds, strategy
#---
CODE = LIVE_HEAP - BARE
from PACKAGE import firsttable
#---
TABLE = LIVE_HEAP - BARE - CODE
odds.indexes()
#---
INDEX = LIVE_HEAP - BARE - CODE - TABLE
strategy.warm(game)
#---
GAME = LIVE_HEAP - BARE - CODE - TABLE - INDEX
print("SEATHEAP", CODE, TABLE, INDEX, GAME)
"""

SCRIPT = GAMES + r"""
import gc, time
gc.collect()
before = gc.mem_alloc()
from dicetray import firsttable, odds, strategy
odds.indexes()
gc.collect()
loaded = gc.mem_alloc()
times = []
setups = []
peak = [0]
ready = [None]


def play(g):
    if ready[0] is not g:  # once a game: the seat does it as the game starts (Seat.poll)
        ready[0] = g
        gc.collect()
        t = time.ticks_us()
        strategy.warm(g)
        setups.append(time.ticks_diff(time.ticks_us(), t))
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    t = time.ticks_us()
    mask = strategy.decide(g)[0]
    times.append(time.ticks_diff(time.ticks_us(), t))
    peak[0] = max(peak[0], gc.mem_alloc() - a)
    gc.enable()
    return mask


moments(play)
times.sort()
print("SEATBENCH", len(times), times[len(times) // 2], times[-1], loaded - before, peak[0],
      max(setups))
"""


# The seats at 8 players, where a press must never wait on them: the strategy's warm-up made
# cold, whole (what a seat's poll ran in one go) and each of its pieces (warm(g, True): what
# one idle poll runs now), and cold decisions, in a game of every preset in its charge and its
# décharge (GAMES's moments, 8 players).
WASM_WARM = GAMES.replace("Game(4,", "Game(8,").replace(
    "g.tokens = [quarter, quarter + 1, quarter - 1, g.pot - 3 * quarter]",
    "g.tokens = [quarter] * 7 + [g.pot - 7 * quarter]").replace(
    "quarter = g.pot // 4", "quarter = g.pot // 8") + r"""
import json, time
from dicetray import strategy, turn_odds

whole, pieces, decisions, decision_pieces, ready = [], [], [], [], [None]


def play(g):
    if ready[0] is not g:
        ready[0] = g
        t = time.ticks_ms()
        for _ in range(REPEAT):
            turn_odds._game[0] = None  # cold: every table made again
            strategy.warm(g)
        whole.append(time.ticks_diff(time.ticks_ms(), t) / REPEAT)
        spent = []
        for _ in range(REPEAT):
            turn_odds._game[0] = None
            i = 0
            while True:
                t = time.ticks_ms()
                more = strategy.warm(g, True)
                if i == len(spent):
                    spent.append(0)
                spent[i] += time.ticks_diff(time.ticks_ms(), t)
                i += 1
                if not more:
                    break
        pieces.append(max(spent) / REPEAT)
    t = time.ticks_ms()
    for _ in range(REPEAT):
        turn_odds._now[0] = None
        mask = strategy.decide(g)[0]
    decisions.append(time.ticks_diff(time.ticks_ms(), t) / REPEAT)
    spent = []
    for _ in range(REPEAT):  # in pieces: prepare's, then the choice made from them
        turn_odds._now[0] = None
        i = more = 1
        while more:
            t = time.ticks_ms()
            more = strategy.prepare(g)
            if not more:
                strategy.decide(g)
            if i > len(spent):
                spent.append(0)
            spent[i - 1] += time.ticks_diff(time.ticks_ms(), t)
            i += 1
    decision_pieces.append(max(spent) / REPEAT)
    return mask


moments(play)
print("SEATWARM " + json.dumps([whole, pieces, decisions, decision_pieces]))
""".replace("REPEAT", str(REPEAT))

# What runs before each press's first frame at 8 players, the tray playing four seats, hints
# on, humans hurrying the seats now and then (trayhost.pressmeter.seats_tour): the seat's calls
# by where they ran. The seats' modules are loaded first, so the meter's wrappers stay.
WASM_PRESSES = r"""
import json
import dicetray.seat, dicetray.strategy
from trayhost.pressmeter import FirstFrame, merged, seats_tour

meters = []
seats_tour(watch=lambda tray: meters.append(FirstFrame(tray, seats=True)))
print("SEATPRESS " + json.dumps(merged(meters)))
"""

# The live heap over a game at 8 players with four seats and hints (pressmeter.seats_steps:
# seats_tour's first game, unhurried), one piece per key or wait (run.mjs --chunks), its peak
# relative to the VM with the harness.
WASM_SEATS_HEAP = r"""
import trayhost.autoplay, trayhost.trayrun  # the harness, loaded before BARE: not the game's
from trayhost.pressmeter import seats_steps

""" + MP_HEAP_STEP + r"""#---
BARE = LIVE_HEAP
peak = 0
run = seats_steps()
STEPS
#---
peak = max(peak, LIVE_HEAP)
print("SEATSHEAP", peak - BARE)
"""


def seats_heap_steps():
    """How many steps WASM_SEATS_HEAP's game takes (the same game on CPython)."""
    import trayhost  # noqa: F401
    from trayhost.pressmeter import seats_steps

    return sum(1 for _ in seats_steps())


def wasm_press_figures(log=print):
    """{warm: [whole ms], pieces: [largest piece ms], decisions: [ms], presses: pressmeter's
    merged report, heap_peak} on the WebAssembly MicroPython at 8 players, or None."""
    reason = node_ready()
    if reason:
        log("Seats at 8 players on the WebAssembly MicroPython skipped: " + reason)
        return None
    import tempfile

    from mpy import TRAYHOST

    with tempfile.TemporaryDirectory() as tmp:
        host = copy_packages(tmp, TRAYHOST)
        warm = run_micropython(WASM_WARM, paths=[FIRMWARE], mpy=True, timeout=900, heap="8m")
        presses = run_micropython(WASM_PRESSES, paths=[FIRMWARE, host], mpy=True, timeout=900,
                                  heap="4m")
        heap = run_micropython(WASM_SEATS_HEAP.replace(
            "STEPS\n", "#---\npress()\n" * seats_heap_steps()), paths=[FIRMWARE, host],
            mpy=True, chunks=True, timeout=900)
    whole, pieces, decisions, decision_pieces = _line(warm, "SEATWARM ")
    return {"warm": sorted(whole), "pieces": sorted(pieces), "decisions": sorted(decisions),
            "decision_pieces": sorted(decision_pieces),
            "presses": _line(presses, "SEATPRESS "),
            "heap_peak": int(heap.split("SEATSHEAP")[1].split()[0])}


def _line(out, tag):
    return json.loads([x for x in out.splitlines() if x.startswith(tag)][0][len(tag):])


PRESS_KEYS = ("seats_warm_ms_wasm", "seats_warm_piece_ms_wasm", "seats_decision_8p_ms_wasm",
              "seats_decision_piece_ms_wasm", "seats_calls_before_frame",
              "seats_heap_peak_bytes")  # _press_report's


def _press_report(w, log):
    # The figures of wasm_press_figures, printed; the bench's keys.
    warm, pieces, decisions, presses = w["warm"], w["pieces"], w["decisions"], w["presses"]
    log("WebAssembly  8 players: the strategy's warm-up for a game or its décharge (%d, cold)"
        " %.1f ms median, %.1f worst, whole as a seat's poll made it in one go; now in pieces"
        " at idle polls, the largest %.1f ms" % (len(warm), warm[len(warm) // 2], warm[-1],
                                                  pieces[-1]))
    log("WebAssembly  8 players: a decision or a hint (%d, cold) median %.1f ms, worst %.1f,"
        " whole as a press or a drawing made it; now in pieces at idle polls, the largest"
        " %.1f ms" % (len(decisions), decisions[len(decisions) // 2], decisions[-1],
                      w["decision_pieces"][-1]))
    before = 0
    for kind in sorted(k for k in presses if type(presses[k]) is list):
        n, _, us, calls = presses[kind]
        before += calls
        log("WebAssembly  8 players, 4 seats, hints: %-12s %4d presses, the seat's work"
            " before the first frame: %d calls (at most %.0f ms to the frame)"
            % (kind, n, calls, us / 1000))
    log("WebAssembly  the seat's work: %d calls at idle polls, %d elsewhere, %d before a"
        " press's first frame; live heap peak over the game %d bytes"
        % (presses["idle"], presses["elsewhere"], before, w["heap_peak"]))
    return dict(zip(PRESS_KEYS, (warm[-1], pieces[-1], decisions[-1],
                                 w["decision_pieces"][-1], before, w["heap_peak"])))


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


def wasm_figures(log=print):
    """{decisions, ms median/worst of the tray's seat and the released one, ratio, tables'
    heap, a decision's allocation} on the WebAssembly MicroPython, or None without it."""
    reason = node_ready()
    if reason:
        log("Seat decision on the WebAssembly MicroPython skipped: " + reason)
        return None
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        released = copy_packages(tmp, os.path.join(HERE, "baseline"))
        out = run_micropython(WASM_TIME, paths=[FIRMWARE, released], mpy=True, timeout=900,
                              heap="8m")
        heaps = [run_micropython(WASM_HEAP.replace("PACKAGE", package), paths=[FIRMWARE, released],
                                 mpy=True, chunks=True, timeout=300)
                 for package in ("dicetray", "baseline")]
    mine, theirs, alloc, alloc_theirs = _line(out, "SEATWASM ")
    mine, theirs = sorted(mine), sorted(theirs)
    code, table, index, game = _heap(heaps[0])
    theirs_heap = _heap(heaps[1])
    return {"decisions": len(mine), "median": mine[len(mine) // 2], "worst": mine[-1],
            "baseline_median": theirs[len(theirs) // 2], "baseline_worst": theirs[-1],
            "code": code, "table": table, "index": index, "game": game, "alloc": alloc,
            "baseline_alloc": alloc_theirs, "baseline_code": theirs_heap[0],
            "baseline_tables": sum(theirs_heap[1:])}


def _heap(out):
    # (code, table, index, a game's) from WASM_HEAP's line.
    line = [x for x in out.splitlines() if x.startswith("SEATHEAP ")][0]
    return tuple(int(x) for x in line.split()[1:])


def seats_figures(log=print):
    games = int(os.environ.get("DICETRAY_ARENA_GAMES", arena.GAMES))
    log("")
    log("Computer seats: the tray's seat against 3 random, 3 greedy and 3 released seats "
        "(bench.baseline), %d games of each per preset, 4 players (share of games the seat "
        "pays the round, 95%% interval)" % games)
    res = arena.figures(games, out=log)
    w = wasm_figures(log)
    if w is None:
        res.update(dict.fromkeys(("seats_decision_ms_wasm", "seats_decision_ms_baseline_wasm",
                                  "seats_decision_ratio_wasm", "seats_tables_bytes",
                                  "seats_decision_alloc_bytes")))
    else:
        tables = w["table"] + w["index"] + w["game"]
        log("WebAssembly  a cold decision (%d, after a first or second throw): the tray's seat"
            " median %.1f ms, worst %.1f; the released seat median %.1f ms, worst %.1f; ratio"
            " of the worst %.2f" % (w["decisions"], w["median"], w["worst"],
                                    w["baseline_median"], w["baseline_worst"],
                                    w["worst"] / w["baseline_worst"]))
        log("WebAssembly  the seat's tables keep %d bytes of heap (the table %d, the index %d,"
            " a game's %d; its code %d more; the released seat's: %d and %d); a decision"
            " allocates at most %d bytes (garbage included; the released seat's %d)"
            % (tables, w["table"], w["index"], w["game"], w["code"], w["baseline_tables"],
               w["baseline_code"], w["alloc"], w["baseline_alloc"]))
        res["seats_decision_ms_wasm"] = w["worst"]
        res["seats_decision_ms_baseline_wasm"] = w["baseline_worst"]
        res["seats_decision_ratio_wasm"] = round(w["worst"] / w["baseline_worst"], 2)
        res["seats_tables_bytes"] = tables
        res["seats_decision_alloc_bytes"] = w["alloc"]
    w8 = wasm_press_figures(log)
    res.update(dict.fromkeys(PRESS_KEYS) if w8 is None else _press_report(w8, log))
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
