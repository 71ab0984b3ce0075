"""The stop that ends a turn, timed on the WebAssembly MicroPython: the engine's work
(Game.stop: the ranking, the payment, the next turn) and the drawing of the result it shows
(ui.result, its text left out: the Pico writes text with machine code, that build in Python),
for this tree's firmware or for each firmware folder given, old against new.

    python tools/bench/turnend.py [FIRMWARE ...] [--reps N] [--rounds N]

The lines and bytecodes presscost.py counts are CPython's, and MicroPython weighs code otherwise
(a call, an allocation, a sort by a key function cost it far more): a change that cuts one can
cost the other. This times the very bytecode the Pico runs, at 8 players (the classic rules and
lebon's) and at 2: the turn's last player stops, from saved games taken before six such stops of
a bot's game, each loaded afresh and readied as at the quiet moment before the stop
(ui.ready_turn, the turn's places read as its screen reads them). Wall time on a PC is noisy:
each figure is the fastest of N runs, and the firmwares take turns, round after round, so that
a slow spell of the machine does not fall on one of them alone. Not part of figures.py: a tool
to compare two trees (e.g. git worktree add /tmp/old HEAD~1; then /tmp/old/firmware firmware).
"""

from __future__ import annotations

import os
import sys
import tempfile

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from mpy import TRAYHOST, copy_packages, node_ready, run_micropython  # noqa: E402

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")
GAMES = (("classic", 8), ("lebon", 8), ("classic", 2))
STOPS = 6  # the turn-ending stops of each bot's game replayed

SCRIPT = r'''
import gc, json, framebuf
from dicetray import font, ui
from dicetray.game import Game
from dicetray.save_check import load
from trayhost.autoplay import SeededDice, apply, bot_action
from trayhost.wallclock import ticks_us as now_us


def quiet_text(fb, s, x, y, scale=1, c=1):
    return x  # the text left out: machine code on the Pico


out = []
for preset, players in GAMES:
    seats = tuple(range(players // 2, players))
    rng = SeededDice(players)
    g = Game(players, preset, SeededDice(players * 7), computers=seats)
    saves = []
    while not g.over and len(saves) < STOPS:
        t = g.turn
        if g.contest is None and t.count and t.pos == len(t.order) - 1 and g.can_stop():
            saves.append(json.dumps(g.to_dict()))
            g.stop()
        else:
            apply(g, bot_action(g, rng))
    buf = bytearray(1024)
    fb = font.frame_of(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), buf, 128, 64)
    text = font.text
    stop = draw = 1 << 30
    for r in range(REPS):
        font.text = text
        g = load(json.loads(saves[r % len(saves)]), SeededDice(1))
        g.computers = list(seats)
        ui.ready_turn(128, 64, g)  # the quiet moment before the stop
        g.ranked()  # the turn screen's reading of the places so far
        font.text = quiet_text
        gc.collect()
        t0 = now_us()
        g.stop()
        t1 = now_us()
        ui.result(fb, 128, 64, g)
        t2 = now_us()
        stop = min(stop, t1 - t0)
        draw = min(draw, t2 - t1)
    font.text = text
    out.append([preset, players, round(stop), round(draw)])
print(json.dumps(out))
'''


def measure(firmware, reps):
    """[[preset, players, stop us, result drawn us]] per game of GAMES: the fastest of reps."""
    import json

    script = SCRIPT.replace("REPS", str(reps)).replace("STOPS", str(STOPS)).replace(
        "GAMES", repr(GAMES))
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        out = run_micropython(script, paths=[firmware, helpers], mpy=True, heap="8m",
                              timeout=900)
    return json.loads(out.strip().splitlines()[-1])


def compare(firmwares, reps=300, rounds=3, log=print):
    """Each firmware measured rounds times in turn; the fastest of all its runs printed and
    returned: {firmware: [[preset, players, stop us, drawn us]]}."""
    best = {}
    for _ in range(rounds):
        for fw in firmwares:
            got = measure(fw, reps)
            was = best.get(fw)
            best[fw] = got if was is None else [
                [a[0], a[1], min(a[2], b[2]), min(a[3], b[3])] for a, b in zip(was, got)]
    log("Turn's end   the stop that ends a turn on the WebAssembly MicroPython (us, the fastest"
        " of %d runs x %d rounds; text left out)" % (reps, rounds))
    log("Turn's end   %-40s %-14s %8s %14s" % ("firmware", "game", "stop", "result drawn"))
    for fw in firmwares:
        for preset, players, stop, drawn in best[fw]:
            log("Turn's end   %-40s %-14s %8d %14d" % (
                fw[-40:], "%s, %d" % (preset, players), stop, drawn))
    return best


def main(argv):
    reps, rounds, firmwares = 300, 3, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--help", "-h"):
            print(__doc__)
            return 0
        if a.startswith("-") and a not in ("--reps", "--rounds"):
            print("turnend.py: unknown option %s (see --help)" % a, file=sys.stderr)
            return 2
        if a in ("--reps", "--rounds"):
            value = int(args.pop(0))
            reps, rounds = (value, rounds) if a == "--reps" else (reps, value)
        elif not os.path.isdir(os.path.join(a, "dicetray")):
            print("turnend.py: %s holds no dicetray package (a firmware folder)" % a,
                  file=sys.stderr)
            return 2
        else:
            firmwares.append(os.path.abspath(a))
    reason = node_ready()
    if reason:
        print("Turn's end figures skipped: " + reason)
        return 0
    compare(firmwares or [FIRMWARE], reps, rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
