"""Where a press's time goes on the emulated Pico: each piece of a press timed with ticks_us.

    python tools/emupico/profile.py [--rounds 2] [--json FILE]

On the emulated Pico (emupico/kit.py; the RP2040's instruction timing, the I2C bus and the
flash chip modelled) the tray's own .mpy files, installed by tools/flash.sh, play a scripted
game: 4 players, the classic rules (a new tray's setup), dice from a fixed pseudo-random
sequence. The board runs in safe mode and this script drives the App itself, with the real
Display on the real I2C bus, a Store on the real flash (in the folder "profile", so the saved
game stays) and the buzzer; only the buttons are a stand-in that hands the App one press per
step, as the debounced buttons would. After each press (and its animation) the App has its quiet
moment, untimed, as the main loop gives it (App.quiet).

The game is played twice, the same presses on the same dice. The first pass times each press's
whole step (poll, act, save, draw, send: what stands between the press and its first byte on
the panel) with nothing else. The second wraps the pieces in timers and gives their inclusive
times; a wrapper costs a few tens of microseconds per call, which is why font.text's share is
given with its call count and the instrumented step is shown beside the plain one.

Every press starts with gc.collect() (outside the timing), so no collection falls inside one:
what a collection costs when one does is measured apart, with the game's live heap.

It uses an emulator already running in $PICO_STATE (left running), else starts one (and stops
it): a new board in a temporary folder, or $PICO_STATE's kept flash image when that is set.
The board's side is emupico/profile_board.py; this file makes the report.
"""

import argparse
import json
import os
import statistics
import sys

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from emupico.kit import Pico, unavailable  # noqa: E402
from emupico.profile_board import BOARD_SCRIPT  # noqa: E402

# The report's rows: a label and how to get its microseconds from one press's pieces.
# Inclusive times: "self" rows take the nested pieces out.


def _sum(p, *names):
    return sum(p.get(n, (0, 0))[0] for n in names)


def _calls(p, name):
    return p.get(name, (0, 0))[1]


UI = ("ui.turn", "ui.contest", "ui.outcome", "ui.result", "ui.phase", "ui.standings", "ui.over",
      "ui.menu", "ui.message")
GAME = ("Game.throw", "Game.stop", "Game.announce")
EVALUATE = ("evaluate@game", "evaluate@ui", "evaluate@app")

ROWS = (
    ("  handle the press (App.press)", lambda p: _sum(p, "App.press")),
    ("    game logic: Game.throw/stop/announce", lambda p: _sum(p, *GAME)),
    ("      of which evaluate()", lambda p: _sum(p, "evaluate@game")),
    ("    save: Game.to_dict", lambda p: _sum(p, "Game.to_dict")),
    ("    save: the record built and written (Store.save_game)",
     lambda p: _sum(p, "Store.save_game")),
    ("      open game.now (and game.tmp at a game's start)", lambda p: _sum(p, "file.open")),
    ("      write", lambda p: _sum(p, "file.write")),
    ("      close (the data reaches flash)", lambda p: _sum(p, "file.close")),
    ("      rename over game.json (a game's start)", lambda p: _sum(p, "file.rename")),
    ("    the rest (events, sound, new game)", lambda p: _sum(p, "App.press")
     - _sum(p, *GAME, "Game.to_dict", "Store.save_game", "evaluate@app")),
    ("    evaluate() in the app", lambda p: _sum(p, "evaluate@app")),
    ("  draw the screen (App.render)", lambda p: _sum(p, "App.render")),
    ("    font.text", lambda p: _sum(p, "font.text")),
    ("      calls", lambda p: _calls(p, "font.text")),
    ("    evaluate() in the screen", lambda p: _sum(p, "evaluate@ui")),
    ("    setup rows (screens_setup.setup_rows)", lambda p: _sum(p, "setup_rows")),
    ("    the rest: dice, bars, strings", lambda p: _sum(p, "App.render") - _sum(
        p, "font.text", "evaluate@ui", "setup_rows")),
    ("  send to the panel (Display.show)", lambda p: _sum(p, "Display.show")),
    ("    compare with the panel, the rest", lambda p: _sum(p, "Display.show")
     - _sum(p, "plan_page", "Panel.write", "Panel.write_spans")),
    ("    lay out the changed spans (plan_page)", lambda p: _sum(p, "plan_page")),
    ("    I2C writes (bus time)", lambda p: _sum(p, "Panel.write", "Panel.write_spans")),
    ("  the rest of the step (poll, timers)", None),
)
KIND_ORDER = ("setup", "roll-off", "phase", "throw", "keep", "stop", "stop, round over",
              "result -> turn", "roll animation frame")
SHORT = {"setup": "setup>game", "roll-off": "roll-off", "phase": "phase>turn",
         "throw": "throw", "keep": "keep", "stop": "stop", "stop, round over": "stop>result",
         "result -> turn": "result>turn", "roll animation frame": "anim frame"}


def summarise(data):
    """{kind: figures} from the board's two passes."""
    return {kind: _figures(k) for kind, k in _by_kind(data).items()}


def _by_kind(data):
    """{kind: {"plain", "timed", "alloc", "sent", "pieces": a list each}} from both passes."""
    kinds = {}

    def add(kind, field, value):
        k = kinds.setdefault(kind, {"plain": [], "timed": [], "alloc": [], "sent": [],
                                    "pieces": []})
        k[field].append(value)

    # Presses pair up across the passes; animation frames do not (their count depends on how
    # long each frame takes), so each pass gives its own.
    plain = [e for e in data["plain"] if e[0] == "press"]
    timed = [e for e in data["timed"] if e[0] == "press"]
    if [e[1] for e in plain] != [e[1] for e in timed]:
        raise RuntimeError("the two passes played different presses")
    for (_, kind, step, alloc, sent, _), (_, _, step2, _, _, pieces) in zip(plain, timed):
        add(kind, "plain", step / 1000)
        add(kind, "alloc", alloc)
        add(kind, "sent", sent)
        add(kind, "timed", step2 / 1000)
        add(kind, "pieces", pieces)
    for _, kind, step, _, sent, _ in (e for e in data["plain"] if e[0] == "frame"):
        add(kind, "plain", step / 1000)
        add(kind, "sent", sent)
        add(kind, "alloc", 0)
    for _, kind, step, _, _, pieces in (e for e in data["timed"] if e[0] == "frame"):
        add(kind, "timed", step / 1000)
        add(kind, "pieces", pieces)
    return kinds


def _figures(k):
    """One kind's figures from its lists (_by_kind)."""
    return {
        "n": len(k["plain"]),
        "plain_median_ms": statistics.median(k["plain"]),
        "plain_max_ms": max(k["plain"]),
        "timed_mean_ms": statistics.fmean(k["timed"]),
        "rows": _rows(k),
        "alloc_bytes": statistics.fmean(k["alloc"]),
        "panel_bytes": statistics.fmean(k["sent"]),
    }


def _rows(k):
    """[(label, mean ms, or mean calls)] for ROWS; the last row is what the others leave of the
    instrumented step."""
    rows = []
    for label, fn in ROWS:
        if fn is None:
            value = statistics.fmean(k["timed"]) - sum(
                statistics.fmean(f(p) for p in k["pieces"]) / 1000
                for lab, f in ROWS if f and lab.startswith("  ") and lab[2] != " ")
        elif label.endswith("calls"):
            value = statistics.fmean(fn(p) for p in k["pieces"])
        else:
            value = statistics.fmean(fn(p) for p in k["pieces"]) / 1000
        rows.append((label, value))
    return rows


def table(summary, data):
    kinds = [k for k in KIND_ORDER if k in summary] + sorted(set(summary) - set(KIND_ORDER))
    width = 44
    col = 12
    lines = ["%-*s" % (width, "ms per press (mean; the first line: median)")
             + "".join("%*s" % (col, SHORT.get(k, k[:col - 1])) for k in kinds)]
    lines.append("%-*s" % (width, "presses") + "".join(
        "%*d" % (col, summary[k]["n"]) for k in kinds))

    def row(label, values, fmt="%*.1f"):
        lines.append("%-*s" % (width, label) + "".join(fmt % (col, v) for v in values))

    row("press step, plain (median)", [summary[k]["plain_median_ms"] for k in kinds])
    row("press step, plain (max)", [summary[k]["plain_max_ms"] for k in kinds])
    row("press step, instrumented", [summary[k]["timed_mean_ms"] for k in kinds])
    for i, (label, _) in enumerate(ROWS):
        values = [summary[k]["rows"][i][1] for k in kinds]
        row(label, values, "%*.0f" if label.endswith("calls") else "%*.1f")
    row("bytes sent to the panel", [summary[k]["panel_bytes"] for k in kinds], "%*.0f")
    row("bytes allocated", [summary[k]["alloc_bytes"] for k in kinds], "%*.0f")
    lines.append("")
    boot_heap, boot_us = data["gc_boot"]
    lines.append("A timer adds %d us per call (an empty call reads %d us). A garbage collection"
                 " takes %.1f ms with the %d-byte live heap after boot, %.1f ms with %d bytes"
                 " at the end (this script's records included; %d bytes free). An action's"
                 " save is a %d-byte record in game.now." % (
                     data["timer_overhead_us"], data["timer_floor_us"], boot_us / 1000,
                     boot_heap, data["gc_collect_us"] / 1000, data["live_heap"],
                     data["free_heap"], data["save_bytes"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2, help="rounds of 4 turns to play (2)")
    ap.add_argument("--json", help="also write the board's raw timings to this file")
    args = ap.parse_args(argv)
    reason = unavailable()
    if reason:
        print("profile: " + reason, file=sys.stderr)
        return 2
    pico = Pico()
    owned = pico.claim()
    try:
        pico.install_in_safe_mode()
        out = pico.exec(BOARD_SCRIPT.replace("_ROUNDS", str(args.rounds)), timeout=3600)
    finally:
        if owned:
            pico.stop()
    data = json.loads(out.strip().splitlines()[-1])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f)
    print("Where a press's time goes on the emulated Pico (RP2040 at 125 MHz, MicroPython 1.27,"
          " the tray's .mpy files; I2C at 400 kHz and flash busy times modelled). 4 players,"
          " classic rules, %d rounds, each piece's inclusive time." % args.rounds)
    print()
    print(table(summarise(data), data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
