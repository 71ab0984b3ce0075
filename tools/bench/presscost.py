"""What a press costs before the panel starts to change, per kind of press, on the WebAssembly
MicroPython: a host proxy for the emulated Pico's "press to first byte" (tools/emupico/bench.py).

    python tools/bench/presscost.py

The real App on fakes (trayhost.trayrun, the .mpy files a Pico runs) plays through its buttons
the classic 2-player bot game (trayrun.game_keys, two games; one on MicroPython) and a game at 8
players, the tray playing the last four seats, hints on (trayhost.pressmeter.seats_steps), where
a human presses ROLL at every third wait during a tray seat's turn (as pressmeter.seats_tour;
on MicroPython its first SEATS_STEPS keys and waits: the whole game takes too long there). A
few minutes: DICETRAY_PRESSCOST_BENCH=0 skips it. Given a folder, it measures that firmware
instead of this tree's (python tools/bench/presscost.py /tmp/old/firmware: a before and after).
For each press (from the step whose buttons.poll() read it) to the first byte the fake I2C bus
takes:

- ms: the tray's fake milliseconds from that poll to the first byte (the host clock is the
  harness's own: exact). 0 means the press's own step sent it; a press that draws later (a
  press during a tray seat's turn, which hurries the seat) counts the polls it waited.
- us: wall microseconds (Node's performance.now(), through the build's js module) of the
  step that sent the first byte, from its start to that byte, split into act (App.press: the
  unit, the engine), draw (App.render: ui) and send (display.show up to its first transfer:
  the frame compared, the first page planned). Wall time on a PC is noisy, and the WebAssembly
  build runs the frame's text and the page planning in plain Python where the Pico runs
  machine code (font.Frame, fast.plan_page): a proxy for where the time goes, not the Pico's
  figures (read the lines first; time.ticks_us, used where the js module is missing, counts
  whole milliseconds in the pinned build). A first byte that is not a frame's (a dimmed panel
  lit again by the press) counts its send from the step's start. Median and 95th percentile,
  nearest rank; act's too (act p95, presscost_<game>_<kind>_act_us_p95): the interpreter
  runs there the very bytecode the Pico runs, no machine code stands in.
- alloc: bytes allocated over the same (gc.mem_alloc() deltas: that build never collects
  during a run, so they are exact).
- bytes: bytes on the bus between the press and its first byte (0: nothing sent before the
  press's own frame), and the bytes of the show() that sent the first one.
- loads: the firmware modules loaded between the press and its first byte.

Kinds: keep, throw, stop (OK or ROLL ending a human's turn), result (a key on the screens
between turns), setup (OK starting a game), rolloff (a key in a roll-off or play-off), hurry
(a human's press during a tray seat's turn). Other presses (the setup menu, the standings) are
"other". OK's stop is made as OK goes down (App.stop_ahead) and sent as it is let go: its
"stop" is the release's, and "ahead" is the work done while the finger is on OK (from
stop_ahead's call to the end of its step: what a release quicker than that would wait on; no
byte is sent there, so ms, send and frame are 0).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from mpy import TRAYHOST, copy_packages, node_ready, run_micropython  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEATS_STEPS = 400  # the 8-player game's first keys and waits, on MicroPython (minutes each)
FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware")
KINDS = ("keep", "throw", "stop", "ahead", "result", "setup", "rolloff", "hurry")
GAMES = ("classic 2 players", "8 players, 4 seats, hints")

MP_COST = """
import gc, json, sys, time
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.pressmeter import kind as press_kind, seats_steps
from trayhost.wallclock import ticks_us

KINDS = {"setup->game": "setup", "keep": "keep", "throw": "throw", "stop": "stop",
         "contest": "rolloff", "hurry": "hurry", "result->": "result", "phase->": "result",
         "outcome->": "result"}


def loaded():
    return set(n for n in sys.modules if n.startswith("dicetray."))


class Meter:
    def __init__(self, tray):
        self.rows = []
        self.open = None  # [kind, poll ms, bus bytes then, modules then]
        app, i2c, display = tray.app, tray.i2c, tray.display
        self.tray = tray
        poll, step, press, render, show = (tray.buttons.poll, app.step, app.press, app.render,
                                           display.show)
        write = i2c.writeto
        t = [0, 0, 0, 0, 0]  # step start, act, draw, show start, alloc at step start
        sent = [0]  # bytes of the show under way (its first byte's)

        def poll_hook(now):
            ev = poll(now)
            if ev is not None and self.open is None:
                k = press_kind(app, ev)
                self.open = [KINDS.get(k, "other"), now, i2c.bytes, loaded(), None]
            return ev

        def step_hook(now):
            t[1] = t[2] = 0
            t[4] = gc.mem_alloc()
            t[0] = t[3] = ticks_us()  # send: from here if a byte comes before a show
            return step(now)

        def press_hook(name, long, now):
            a = ticks_us()
            press(name, long, now)
            t[1] += time.ticks_diff(ticks_us(), a)

        def render_hook():
            a = ticks_us()
            render()
            t[2] += time.ticks_diff(ticks_us(), a)

        def show_hook(now=None, pressed=False):
            t[3] = ticks_us()
            before = i2c.bytes
            ok = show(now, pressed)
            if self.open is not None and self.open[4] is not None:
                o = self.open
                self.open = None
                o[4][6] = i2c.bytes - before
                self.rows.append(o[4])
            return ok

        def write_hook(addr, buf):
            o = self.open
            if o is not None and o[4] is None:
                us = time.ticks_diff(ticks_us(), t[0])
                alloc = gc.mem_alloc() - t[4]
                first = time.ticks_diff(ticks_us(), t[3])
                o[4] = [o[0], time.ticks_diff(self.tray.now, o[1]), us, t[1], t[2], first,
                        0, i2c.bytes - o[2], alloc, sorted(n[9:] for n in loaded() - o[3])]
            return write(addr, buf)

        ahead = getattr(app, "stop_ahead", None)  # not in an older tree
        made = [None]  # [us, alloc, act us, draw us then, modules] of a stop made ahead

        def ahead_hook(now):
            mods = loaded()  # slow on a big heap, as mem_alloc: neither timed nor counted
            m = made[0] = [0, gc.mem_alloc(), 0, t[2], mods]
            a = m[0] = ticks_us()
            ahead(now)
            m[2] = time.ticks_diff(ticks_us(), a)

        def stepped(now):
            busy = step_hook(now)
            m = made[0]
            if m is not None:
                made[0] = None
                self.rows.append(["ahead", 0, time.ticks_diff(ticks_us(), m[0]), m[2],
                                  t[2] - m[3], 0, 0, 0, gc.mem_alloc() - m[1],
                                  sorted(n[9:] for n in loaded() - m[4])])
            return busy

        tray.buttons.poll = poll_hook
        app.step = step_hook if ahead is None else stepped
        if ahead is not None:
            app.stop_ahead = ahead_hook
        app.press = press_hook
        app.render = render_hook
        display.show = show_hook
        i2c.writeto = write_hook


rows = []
# The classic 2-player game, the bot at the buttons.
for seed in (3,):
    tray = trayrun.Tray(SeededDice(seed), seed=seed)
    m = Meter(tray)
    for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(seed + 7)):
        pass
    rows += [[0] + r for r in m.rows]
# 8 players, the tray playing four seats, hints on; ROLL every third wait in a seat's turn.
for seed in (1,):
    steps = seats_steps(seed)
    tray = next(steps)
    m = Meter(tray)
    waits = 0
    for n, k in enumerate(steps):
        if n == SEATS_STEPS:
            break
        if k == ".":
            waits += 1
            if waits % 3 == 0:
                tray.key("r")
    rows += [[1] + r for r in m.rows]
print(json.dumps(rows))
"""


# Run as machine code on the Pico (viper: fast.py, font.Frame's text), in Python on CPython,
# or called only by font.text's Python drawing (_palette, _accents), which the Pico's Frame
# skips: their lines are not the interpreter's work on the Pico, so they are left out.
# What they call is left out with them (_glyph, which font.raised calls on the Pico too).
MACHINE_CODE = ("_columns", "_columns2", "next_span", "plan_page", "_palette", "_accents")


def line_rows():
    """On CPython: [game, kind, lines, bytecodes] per press of the same games as MP_COST: the
    firmware's Python lines run from the poll that read the press to its first bus byte
    (sys.settrace line events in dicetray's files, MACHINE_CODE's left out, and font.text's
    fallback past its first test), and the bytecodes run there (opcode events: a loop's line
    without a call and a line that calls a function count alike as lines, not as bytecodes).
    Deterministic, unlike wall time: what the Pico's interpreter runs."""
    import trayhost  # noqa: F401  (the firmware importable)
    from trayhost import trayrun
    from trayhost.autoplay import SeededDice
    from trayhost.pressmeter import kind as press_kind
    from trayhost.pressmeter import seats_steps

    names = {"setup->game": "setup", "keep": "keep", "throw": "throw", "stop": "stop",
             "contest": "rolloff", "hurry": "hurry", "result->": "result", "phase->": "result",
             "outcome->": "result"}
    rows = []
    count = [0, 0]  # lines, bytecodes
    fallback = {}  # font.text's code: its lines past the Frame test are the Pico's draw_text

    def tracer(frame, event, arg):
        code = frame.f_code
        if "dicetray" not in code.co_filename or code.co_name in MACHINE_CODE or (
                event == "call" and frame.f_back.f_code.co_name in MACHINE_CODE):
            return None
        if event == "call":
            frame.f_trace_opcodes = True
        elif event in ("line", "opcode") and not (
                code.co_name == "text" and frame.f_lineno > fallback.get(code, 1 << 30)):
            count[event == "opcode"] += 1
        return tracer

    def meter(tray, game):
        from dicetray import font

        text = font.text.__code__
        # The line that returns draw_text's answer ends what the Pico runs of text().
        fallback[text] = next(n for _, _, n in text.co_lines() if n is not None and
                              "draw_text(" in _source(text, n))
        app = tray.app
        poll, write = tray.buttons.poll, tray.i2c.writeto
        open_ = [None]

        def poll_hook(now):
            ev = poll(now)
            if ev is not None and open_[0] is None:
                open_[0] = names.get(press_kind(app, ev), "other")
                count[:] = [0, 0]
                sys.settrace(tracer)
            return ev

        def write_hook(addr, buf):
            if open_[0] is not None:
                sys.settrace(None)
                rows.append([game, open_[0], count[0], count[1]])
                open_[0] = None
            return write(addr, buf)

        tray.buttons.poll = poll_hook
        tray.i2c.writeto = write_hook
        ahead, step = getattr(app, "stop_ahead", None), app.step  # None: an older tree
        made = [False]

        def ahead_hook(now):  # counted from here to the end of its step
            count[:] = [0, 0]
            made[0] = True
            sys.settrace(tracer)
            ahead(now)

        def step_hook(now):
            busy = step(now)
            if made[0]:
                sys.settrace(None)
                made[0] = False
                rows.append([game, "ahead", count[0], count[1]])
            return busy

        if ahead is not None:
            app.stop_ahead = ahead_hook
            app.step = step_hook

    for seed in (3, 4):
        tray = trayrun.Tray(SeededDice(seed), seed=seed)
        meter(tray, 0)
        for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(seed + 7)):
            pass
    steps = seats_steps(1)
    tray = next(steps)
    meter(tray, 1)
    waits = 0
    for k in steps:
        if k == ".":
            waits += 1
            if waits % 3 == 0:
                tray.key("r")
    sys.settrace(None)
    return rows


def _source(code, line):
    import linecache

    return linecache.getline(code.co_filename, line)


def percentile(values, p):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(1, -(-len(ordered) * p // 100)) - 1]


def measure(firmware=FIRMWARE):
    """The rows: [game, kind, ms, us, act us, draw us, send us, frame bytes, bytes before,
    alloc, loads], one per press, measured on the WebAssembly MicroPython (.mpy builds) of
    firmware (a folder holding dicetray: this tree's, or another's to compare)."""
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        script = MP_COST.replace("SEATS_STEPS", str(SEATS_STEPS))
        out = run_micropython(script, paths=[firmware, helpers], mpy=True, heap="8m",
                              timeout=1800)
    return json.loads(out.strip().splitlines()[-1])


def empty():
    """Every JSON key, None: presscost_<game>_<kind>_<figure>, game classic or seats; a kind a
    game never pressed stays None."""
    figures = ("lines_p95", "ops_p95", "us_p95", "act_us_p95", "ms_max", "alloc_max")
    return dict.fromkeys("presscost_%s_%s_%s" % (game, k, what) for game in ("classic", "seats")
                         for k in KINDS for what in figures)


def line_table(rows, figures):
    """The printed lines of line_rows()'s counts; their p95 into figures."""
    lines = ["Press lines  firmware Python lines and bytecodes from the press to its first bus"
             " byte (CPython trace, machine code left out: see line_rows)",
             "Press lines  %-26s %4s %6s %6s %6s %9s %6s %6s" % (
                 "game, kind", "n", "median", "p95", "max", "bytecodes", "p95", "max")]
    for g, game in enumerate(GAMES):
        for k in KINDS + ("other",):
            s = [r[2] for r in rows if r[0] == g and r[1] == k]
            if not s:
                continue
            ops = [r[3] for r in rows if r[0] == g and r[1] == k]
            lines.append("Press lines  %-26s %4d %6d %6d %6d %9d %6d %6d" % (
                game[:15] + ", " + k, len(s), percentile(s, 50), percentile(s, 95), max(s),
                percentile(ops, 50), percentile(ops, 95), max(ops)))
            if k != "other":
                key = "presscost_%s_%s_" % ("classic" if g == 0 else "seats", k)
                figures[key + "lines_p95"] = percentile(s, 95)
                figures[key + "ops_p95"] = percentile(ops, 95)
    return lines


def table(rows):
    """The printed lines and the JSON figures (empty()'s keys)."""
    lines = ["Press cost   from the press to its first bus byte, WebAssembly MicroPython (.mpy;"
             " wall us are a noisy proxy: see presscost.py)",
             "Press cost   %-26s %4s %5s %7s %7s %7s %6s %6s %6s %6s %6s %6s %s" % (
                 "game, kind", "n", "ms max", "us med", "us p95", "act p95", "act", "draw",
                 "send", "alloc", "frame", "before", "loads")]
    figures = empty()
    for g, game in enumerate(GAMES):
        for k in KINDS + ("other",):
            s = [r for r in rows if r[0] == g and r[1] == k]
            if not s:
                continue
            us = [r[3] for r in s]
            worst = max(s, key=lambda r: r[3])
            loads = sorted(set(n for r in s for n in r[10]))
            lines.append("Press cost   %-26s %4d %5d %7d %7d %7d %6d %6d %6d %6d %6d %6d %s" % (
                game[:15] + ", " + k, len(s), max(r[2] for r in s), percentile(us, 50),
                percentile(us, 95), percentile([r[4] for r in s], 95), worst[4], worst[5],
                worst[6], max(r[9] for r in s),
                max(r[7] for r in s), max(r[8] for r in s), ",".join(loads) or "-"))
            if k == "other":
                continue
            key = "presscost_%s_%s_" % ("classic" if g == 0 else "seats", k)
            figures[key + "us_p95"] = percentile(us, 95)
            figures[key + "act_us_p95"] = percentile([r[4] for r in s], 95)
            figures[key + "ms_max"] = max(r[2] for r in s)
            figures[key + "alloc_max"] = max(r[9] for r in s)
    lines.append("Press cost   (act p95: App.press alone, the engine and the unit, the same"
                 " bytecode as on the Pico; act, draw, send: the slowest press's split of its"
                 " us; alloc: the"
                 " most bytes allocated; frame: the most bytes its first show sent; before: bus"
                 " bytes between the press and its first)")
    return lines, figures


def presscost_figures(log=print, firmware=FIRMWARE):
    """Measure, print the table, return the bench's JSON keys (None where skipped, saying
    why: no MicroPython, or DICETRAY_PRESSCOST_BENCH=0)."""
    if os.environ.get("DICETRAY_PRESSCOST_BENCH") == "0":
        log("Press cost figures skipped: DICETRAY_PRESSCOST_BENCH is 0")
        return empty()
    figures = empty()
    lines = line_table(line_rows(), figures)
    reason = node_ready()
    if reason:
        lines.append("Press cost figures on MicroPython skipped: " + reason)
    else:
        more, got = table(measure(firmware))
        lines += more
        figures.update((k, v) for k, v in got.items() if v is not None)
    for line in lines:
        log(line)
    return figures


if __name__ == "__main__":  # [a firmware folder to measure instead of this tree's]
    if len(sys.argv) > 1:
        sys.path.insert(0, sys.argv[1])  # its dicetray, on CPython too
        FIRMWARE = sys.argv[1]
    if os.environ.get("DICETRAY_PRESSCOST_LINES_ONLY") == "1":  # the CPython count alone
        for line in line_table(line_rows(), {}):
            print(line)
    else:
        print(json.dumps(presscost_figures(firmware=FIRMWARE)))
