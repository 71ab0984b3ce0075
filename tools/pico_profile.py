"""Where a press's time goes on the emulated Pico: each piece of a press timed with ticks_us.

    python tools/pico_profile.py [--rounds 2] [--json FILE]

On the emulated Pico (tools/picokit.py; the RP2040's instruction timing, the I2C bus and the
flash chip modelled) the tray's own .mpy files, installed by tools/flash.sh, play a scripted
game: 4 players, the classic rules (a new tray's setup), dice from a fixed pseudo-random
sequence. The board runs in safe mode and this script drives the App itself, with the real
Display on the real I2C bus, a Store on the real flash (in the folder "profile", so the saved
game stays) and the buzzer; only the buttons are a stand-in that hands the App one press per
step, as the debounced buttons would.

The game is played twice, the same presses on the same dice. The first pass times each press's
whole step (poll, act, save, draw, send: what stands between the press and its first byte on
the panel) with nothing else. The second wraps the pieces in timers and gives their inclusive
times; a wrapper costs a few tens of microseconds per call, which is why font.text's share is
given with its call count and the instrumented step is shown beside the plain one.

Every press starts with gc.collect() (outside the timing), so no collection falls inside one:
what a collection costs when one does is measured apart, with the game's live heap.

It uses an emulator already running in $PICO_STATE (left running), else starts one (and stops
it): a new board in a temporary folder, or $PICO_STATE's kept flash image when that is set.
"""

import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from picokit import Pico, unavailable  # noqa: E402

BOARD_SCRIPT = r"""
import gc, json, os, time
from dicetray import font, game as gamem, panel as panelm, screens as scr, settle, ui
from dicetray import store as storem
from dicetray.app import App
from dicetray.board import Board
from dicetray.buttons import PRESS
from dicetray.display import Display
from dicetray.store import Store

us = time.ticks_us
diff = time.ticks_diff
ROUNDS = _ROUNDS
MAX_PRESSES = 400
DIR = "profile"
T = {}


def timed(name, fn):
    def timer(*a, **k):
        t = us()
        r = fn(*a, **k)
        d = diff(us(), t)
        e = T.get(name)
        if e is None:
            T[name] = [d, 1]
        else:
            e[0] += d
            e[1] += 1
        return r
    return timer


class Keys:
    # The App's buttons: one press per step, handed over as the debounced buttons would.
    ev = None

    def poll(self, now):
        ev = self.ev
        self.ev = None
        return ev

    def any_down(self):
        return False

    def clear(self):
        pass


class Dice:
    def __init__(self):
        self.x = 2463534242

    def __call__(self):
        while True:
            x = self.x
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            self.x = x
            if x & 7 < 6:
                return (x & 7) + 1


def choose(app, kept_once):
    # The next press and its kind: each player throws, keeps the first die, throws again, stops.
    s = app.screen
    g = app.game
    if s == scr.SETUP:
        return "OK", "setup"
    if s == scr.PLAY:
        if g.contest is not None:
            if g.can_announce():
                return "KEEP1", "announce"
            return "ROLL", "roll-off"
        if g.count == 0:
            return "ROLL", "throw"
        if g.count == 1 and g.can_throw() and not kept_once:
            return "KEEP1", "keep"
        if g.can_throw() and not (g.count >= 2 and g.can_stop()):
            return "ROLL", "throw"
        return "OK", "stop"
    return ("OK", "result") if s == scr.RESULT else ("OK", s)


def clean():
    for name in ("game.json", "game.tmp", "settings.json", "settings.tmp", "error.log"):
        try:
            os.remove(DIR + "/" + name)
        except OSError:
            pass


def play(board, out):
    clean()
    display = Display(board.i2c, ticks_diff=board.ticks_diff, **board.display_settings())
    keys = Keys()
    app = App(display, keys, Store(root=DIR), Dice(), time.ticks_diff, time.ticks_add,
              board.buzzer, 12345)
    app.boot(time.ticks_ms())
    app.step(time.ticks_ms())
    if not out:  # a garbage collection with only the tray's objects alive
        gc.collect()
        t = us()
        gc.collect()
        out.append(["gc", gc.mem_alloc(), diff(us(), t)])
    results = 0
    kept_once = False
    presses = 0
    while results < ROUNDS and presses < MAX_PRESSES:
        key, kind = choose(app, kept_once)
        before = app.screen
        who = app.game.current if app.game else None
        gc.collect()
        snap = dict((k, (v[0], v[1])) for k, v in T.items())
        sent = display.bytes_sent
        alloc = gc.mem_alloc()
        keys.ev = (key, PRESS)
        t = us()
        app.step(time.ticks_ms())
        step = diff(us(), t)
        alloc = gc.mem_alloc() - alloc
        sent = display.bytes_sent - sent
        pieces = {}
        for k, v in T.items():
            s0 = snap.get(k, (0, 0))
            if v[1] != s0[1]:
                pieces[k] = (v[0] - s0[0], v[1] - s0[1])
        if kind == "keep":
            kept_once = True
        if kind == "stop" and app.screen == scr.RESULT:
            kind = "stop, round over"
        if before == scr.RESULT:
            results += 1
            kind = "result -> turn" if app.screen == scr.PLAY else "result -> " + app.screen
        if app.game is not None and app.game.current != who:
            kept_once = False
        out.append(["press", kind, step, alloc, sent, pieces])
        presses += 1
        frames = 0
        while app.clock.rolling or app.dirty:  # the roll animation, one frame every 60 ms
            time.sleep_ms(5)
            gc.collect()
            snap = dict((k, (v[0], v[1])) for k, v in T.items())
            sent = display.bytes_sent
            t = us()
            app.step(time.ticks_ms())
            step = diff(us(), t)
            if display.bytes_sent != sent:
                pieces = {}
                for k, v in T.items():
                    s0 = snap.get(k, (0, 0))
                    if v[1] != s0[1]:
                        pieces[k] = (v[0] - s0[0], v[1] - s0[1])
                frames += 1
                out.append(["frame", "roll animation frame", step, 0,
                            display.bytes_sent - sent, pieces])
    return app


def instrument():
    scr.setup_rows = timed("setup_rows", scr.setup_rows)
    for cls, names in ((App, ("press", "save", "render")),
                       (gamem.Game, ("throw", "stop", "announce", "to_dict")),
                       (Store, ("_replace",)),
                       (Display, ("show", "_send_span")),
                       (panelm.Panel, ("write",))):
        for name in names:
            setattr(cls, name, timed(cls.__name__ + "." + name, getattr(cls, name)))
    for mod, label in ((settle, "game"), (ui, "ui"), (scr, "app")):
        mod.evaluate = timed("evaluate@" + label, mod.evaluate)
    for name in ("turn", "contest", "result", "phase", "standings", "over", "menu", "message"):
        setattr(ui, name, timed("ui." + name, getattr(ui, name)))
    font.text = timed("font.text", font.text)

    class File:
        # The flash file the store writes through: its write and close timed.
        def __init__(self, f):
            self.f = f
            self.write = timed("file.write", f.write)
            self.close = timed("file.close", f.close)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

    fs_open = storem._OsFs.open
    storem._OsFs.open = timed("file.open", lambda fs, path, mode: File(fs_open(fs, path, mode)))
    storem._OsFs.rename = timed("file.rename", storem._OsFs.rename)

    class Json:
        pass

    shim = Json()
    shim.dumps = timed("json.dumps", json.dumps)
    shim.loads = json.loads
    storem.json = shim


def calibrate():
    # What a timer adds around a call, and what it reports for a call that does nothing.
    def nothing(*a):
        return None

    wrapped = timed("calibration", nothing)
    t = us()
    for _ in range(200):
        nothing(1, 2)
    bare = diff(us(), t)
    t = us()
    for _ in range(200):
        wrapped(1, 2)
    full = diff(us(), t)
    floor = T.pop("calibration")[0]
    return (full - bare) // 200, floor // 200


try:
    os.mkdir(DIR)
except OSError:
    pass
board = Board()
plain = []
play(board, plain)
instrument()
timed_run = []
app = play(board, timed_run)
gc.collect()
live = gc.mem_alloc()
t = us()
gc.collect()
collect_us = diff(us(), t)
save = json.dumps(app.game.to_dict()) if app.game else ""
overhead, floor = calibrate()
clean()
print(json.dumps({"plain": plain[1:], "timed": timed_run, "gc_collect_us": collect_us,
                  "gc_boot": plain[0][1:],
                  "live_heap": live, "free_heap": gc.mem_free(), "save_bytes": len(save),
                  "timer_overhead_us": overhead, "timer_floor_us": floor}))
"""

# The report's rows: a label and how to get its microseconds from one press's pieces.
# Inclusive times: "self" rows take the nested pieces out.


def _sum(p, *names):
    return sum(p.get(n, (0, 0))[0] for n in names)


def _calls(p, name):
    return p.get(name, (0, 0))[1]


UI = ("ui.turn", "ui.contest", "ui.result", "ui.phase", "ui.standings", "ui.over", "ui.menu",
      "ui.message")
GAME = ("Game.throw", "Game.stop", "Game.announce")
EVALUATE = ("evaluate@game", "evaluate@ui", "evaluate@app")

ROWS = (
    ("  handle the press (App.press)", lambda p: _sum(p, "App.press")),
    ("    game logic: Game.throw/stop/announce", lambda p: _sum(p, *GAME)),
    ("      of which evaluate()", lambda p: _sum(p, "evaluate@game")),
    ("    save: Game.to_dict", lambda p: _sum(p, "Game.to_dict")),
    ("    save: json.dumps", lambda p: _sum(p, "json.dumps")),
    ("    save: write + rename on flash", lambda p: _sum(p, "Store._replace")
     - _sum(p, "json.dumps")),
    ("      open game.tmp", lambda p: _sum(p, "file.open")),
    ("      write", lambda p: _sum(p, "file.write")),
    ("      close (the data reaches flash)", lambda p: _sum(p, "file.close")),
    ("      rename over game.json", lambda p: _sum(p, "file.rename")),
    ("    the rest (events, sound, new game)", lambda p: _sum(p, "App.press")
     - _sum(p, *GAME, "Game.to_dict", "Store._replace", "evaluate@app")),
    ("    evaluate() in the app", lambda p: _sum(p, "evaluate@app")),
    ("  draw the screen (App.render)", lambda p: _sum(p, "App.render")),
    ("    font.text", lambda p: _sum(p, "font.text")),
    ("      calls", lambda p: _calls(p, "font.text")),
    ("    evaluate() in the screen", lambda p: _sum(p, "evaluate@ui")),
    ("    setup rows (screens.setup_rows)", lambda p: _sum(p, "setup_rows")),
    ("    the rest: dice, bars, strings", lambda p: _sum(p, "App.render") - _sum(
        p, "font.text", "evaluate@ui", "setup_rows")),
    ("  send to the panel (Display.show)", lambda p: _sum(p, "Display.show")),
    ("    compare with the panel (Python loops)", lambda p: _sum(p, "Display.show")
     - _sum(p, "Display._send_span")),
    ("    copy the changed spans", lambda p: _sum(p, "Display._send_span")
     - _sum(p, "Panel.write")),
    ("    I2C writes (bus time)", lambda p: _sum(p, "Panel.write")),
    ("  the rest of the step (poll, timers)", None),
)
KIND_ORDER = ("setup", "roll-off", "phase", "throw", "keep", "stop", "stop, round over",
              "result -> turn", "roll animation frame")
SHORT = {"setup": "setup>game", "roll-off": "roll-off", "phase": "phase>turn",
         "throw": "throw", "keep": "keep", "stop": "stop", "stop, round over": "stop>result",
         "result -> turn": "result>turn", "roll animation frame": "anim frame"}


def summarise(data):
    """{kind: figures} from the board's two passes."""
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
    out = {}
    for kind, k in kinds.items():
        n = len(k["plain"])
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
        out[kind] = {
            "n": n,
            "plain_median_ms": statistics.median(k["plain"]),
            "plain_max_ms": max(k["plain"]),
            "timed_mean_ms": statistics.fmean(k["timed"]),
            "rows": rows,
            "alloc_bytes": statistics.fmean(k["alloc"]),
            "panel_bytes": statistics.fmean(k["sent"]),
        }
    return out


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
                 " at the end (this script's records included; %d bytes free). The saved game"
                 " is %d bytes of JSON." % (
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
        print("pico_profile: " + reason, file=sys.stderr)
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
