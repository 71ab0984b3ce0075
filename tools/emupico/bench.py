"""The tray's press-to-panel latency and heap on the emulated Pico: the bench's Pico figures.

On the emulated Pico (emupico/kit.py: the RP2040's instruction timing, the I2C bus and the
flash chip modelled) the tray is installed with tools/flash.sh and played through its buttons.
Each press is the kit's `latency` measurement: the button is held 120 ms, and the emulated
milliseconds from the press to the first byte the panel receives ("first byte": the press's
effect starts to show) and to the last one before the bus has been quiet for QUIET_MS ("panel
complete"; for a throw that includes the 360 ms roll animation, and the quiet is THROW_QUIET_MS,
as the throw's save holds up the animation's frames for a moment). OK acts when it is let go (it
has a long meaning: held, it opens the table), so its figures are counted from the release,
120 ms after the press (acted()): the stop it means is made while it is held (App.stop_ahead),
and its release sends the frame; KEEP and ROLL act as they go down.

Kinds of press: keep (KEEP1 on a turn), throw (ROLL on a turn), stop (OK ending a turn),
result (OK on a turn's result, to the next turn), setup (OK on the setup screen: settings and a
new game saved, the first screen drawn; there OK held means OK, so it acts as it goes down and
is counted from the press). The game: 2 players, the classic rules with P1
starting (no roll-off); P1 throws, keeps a die and stops, P2 throws once. Setup presses come
from power cycles: the resume prompt, ROLL for a new game, then OK.

The display resends the whole frame every Panel.refresh_ms as a keepalive; a keepalive inside
a measured window would look like part of the press. Keepalives follow the first main loop
step after power-up at that period, so no press is started where its window could meet one.

Heap: a tiny instrumented run of the real main loop (runner.run on the real Board and Display,
started through mpremote in safe mode, so no watchdog) plays a whole game through the buttons
(5 tokens, so that it ends soon) and reads gc.mem_alloc() after gc.collect() every 10 polls:
after boot (the first poll) and the highest over the game. These are the port's absolute
figures: they include MicroPython's own allocations and the measuring script (its baseline is
printed).

The emulator: one already running in $PICO_STATE is used (its saves and settings replaced) and
left running; else one is started in $PICO_STATE (its kept flash image) or a temporary folder
(a new board), and stopped.

The bot and its samples are emupico/bot.py; this file gives the figures.

    python tools/emupico/bench.py [SAMPLES]          the Pico figures (JSON, last line)
    python tools/emupico/bench.py --twin [SAMPLES]   the same bot on the host twin
                                                     (tools/picotwin): bytes and writes to the
                                                     panel per kind of press, and the twin's
                                                     estimate of the Pico's ms beside the
                                                     kit's figures (picotwin/cost.py's KIT)
                                                     and their ratio

The twin's times are estimates (picotwin/cost.py), its figures twin_*: a change that slows a
press shows there before it reaches the Pico, whose own figures (pico_*) are the kit's.
"""

from __future__ import annotations

import json
import os
import sys
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable)
from dicetray.options import PRESETS  # noqa: E402
from dicetray.rules import START_SEAT1  # noqa: E402

from emupico.bot import FIRST_THROW, KINDS, QUIET_MS, SAMPLES, Bench, Keepalive, choose, quiet_ms  # noqa: E402
from emupico.kit import Pico, PicoError, screen_of, unavailable  # noqa: E402

__all__ = ["KINDS", "QUIET_MS", "SAMPLES", "Bench", "Keepalive", "acted", "choose", "empty",
           "heap_figures", "percentile", "pico_figures", "summary", "table", "twin_figures",
           "twin_table"]

HEAP_MAX_PRESSES = 80
SETTINGS = {"players": 2, "preset": "classic",
            "options": dict(PRESETS["classic"].to_dict(), start=START_SEAT1)}
HEAP_SETTINGS = dict(SETTINGS, options=dict(SETTINGS["options"], tokens=5))
SAVES = ("game.json", "game.now", "game.tmp", "game.bad", "game.now.bad", "settings.tmp",
         "tally.json", "error.log", "error.old")

# On the board, after a script's imports (dicetray.runner, .board, .display): the real main loop
# on the real Board and Display, no watchdog (the script ends), every App it makes kept in
# apps (apps[-1] is the one running), Done raised from board.feed to end it.
BOARD_RUN = """
class Done(BaseException):
    pass


board = Board()
display = Display(board.i2c, ticks_diff=board.ticks_diff, **board.display_settings())
board.start_watchdog = lambda: None  # this run ends; a watchdog would then reset the board
apps = []
make = runner.make_app


def make_app(*args):
    apps.append(make(*args))
    return apps[-1]


runner.make_app = make_app
"""
HEAP_SCRIPT = """
import gc, json
gc.collect()
base = gc.mem_alloc()
from dicetray import runner
from dicetray.screens import PLAY, SETUP
from dicetray.board import Board
from dicetray.display import Display


""" + BOARD_RUN + """st = [0, 0, 0, False]  # polls, heap after boot, peak, a game was played
keep1, keep3 = board.pins["KEEP1"], board.pins["KEEP3"]


def feed():
    st[0] += 1
    if st[0] % 10 == 1:
        gc.collect()
        used = gc.mem_alloc()
        if not st[1]:
            st[1] = used
        st[2] = max(st[2], used)
    screen = apps[-1].screen
    st[3] = st[3] or screen == PLAY
    if (st[3] and screen == SETUP) or not (keep1.value() or keep3.value()):
        raise Done  # the game is over, or KEEP1 + KEEP3 are held: stop


board.feed = feed
try:
    runner.run(board, display)
except Done:
    pass
print(json.dumps({"base": base, "boot": st[1], "peak": st[2], "polls": st[0],
                  "free": gc.mem_free()}))
"""


def percentile(values, p):
    """Nearest-rank percentile, as the bench computes its own."""
    ordered = sorted(values)
    return ordered[max(1, -(-len(ordered) * p // 100)) - 1]


def heap_figures(pico, log=print):
    """The instrumented main loop's heap over a game; the board must be in safe mode."""
    pico.write_files(dict({n: None for n in SAVES},
                          **{"settings.json": json.dumps(HEAP_SETTINGS).encode()}))
    run = pico.exec_background(HEAP_SCRIPT)
    try:
        panel = pico.settle(fresh=True, until=lambda p: screen_of(p) == "setup")
        kept, played = False, False
        for _ in range(HEAP_MAX_PRESSES):
            screen = screen_of(panel)
            played = played or screen == "turn"
            if played and screen == "setup":
                break
            key, kind = choose(screen, panel.hints(), kept)
            pico.latency(key, quiet=quiet_ms(key))
            panel = pico.panel()
            kept = (kept or kind == "keep") and panel.hints() != FIRST_THROW
        else:
            log("Pico         heap: the game did not end in %d presses; stopped there"
                % HEAP_MAX_PRESSES)
            pico.ctl("down KEEP1")
            pico.ctl("down KEEP3")
        out, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        pico.ctl("up KEEP1")
        pico.ctl("up KEEP3")
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise PicoError("the heap run printed no figures:\n" + out)
    return json.loads(lines[-1])


def empty():
    keys = ["pico_press_ms_p95", "pico_press_first_ms_p95"]
    for kind in KINDS:
        keys += ["pico_%s_ms_p95" % kind, "pico_%s_first_ms_p95" % kind]
    return dict.fromkeys(keys + ["pico_heap_boot", "pico_heap_peak"])


def acted(sample, field):
    """A sample's figure (first_byte_ms or last_byte_ms) counted from when the press acts: the
    press for KEEP and ROLL, the release for OK, which has a long meaning and so cannot act
    before it is let go (the kit's figures count from the press: OK's include its hold), but
    from the press for OK where held it means the same (ok_at_once: the bot's setup press)."""
    value = sample[field]
    if sample.get("key") == "OK" and not sample.get("ok_at_once"):
        value -= sample.get("hold_ms", 0)
    return value


def summary(got):
    """The JSON figures from the samples per kind (emulated ms from when the press acts, see
    acted(); p95 nearest rank)."""
    result = empty()
    every = [s for kind in KINDS for s in got[kind]]
    if every:
        result["pico_press_ms_p95"] = percentile([acted(s, "last_byte_ms") for s in every], 95)
        result["pico_press_first_ms_p95"] = percentile(
            [acted(s, "first_byte_ms") for s in every], 95)
    for kind in KINDS:
        if got[kind]:
            result["pico_%s_ms_p95" % kind] = percentile(
                [acted(s, "last_byte_ms") for s in got[kind]], 95)
            result["pico_%s_first_ms_p95" % kind] = percentile(
                [acted(s, "first_byte_ms") for s in got[kind]], 95)
    return result


def table(got):
    lines = ["Pico         press to panel (emulated ms; OK: from its release)",
             "Pico                                       n   first byte      panel complete",
             "Pico                                           median   p95   median   p95"]
    for kind in KINDS + ("all",):
        s = got[kind] if kind != "all" else [x for k in KINDS for x in got[k]]
        if not s:
            continue
        first = [acted(x, "first_byte_ms") for x in s]
        last = [acted(x, "last_byte_ms") for x in s]
        lines.append("Pico         %-28s %3d %7.1f %7.1f %7.1f %7.1f" % (
            kind, len(s), percentile(first, 50), percentile(first, 95), percentile(last, 50),
            percentile(last, 95)))
    return lines


def pico_figures(samples=SAMPLES, log=print):
    """Measure on the emulated Pico, print the figures, return the bench's JSON keys."""
    reason = unavailable()
    if reason:
        log("Pico figures skipped: " + reason)
        return empty()
    log("")
    log("The tray on the emulated Pico (its own emulator; a few minutes) ...")
    started = time.time()
    pico = Pico()
    owned = pico.claim()
    try:
        pico.install_in_safe_mode()
        pico.write_files(dict({n: None for n in SAVES},
                              **{"settings.json": json.dumps(SETTINGS).encode()}))
        bench = Bench(pico, samples, log)
        got = bench.run()
        pico.powercycle("OK")
        pico.settle(fresh=True, until=lambda p: screen_of(p) == "safe")
        heap = heap_figures(pico, log)
    finally:
        if owned:
            pico.stop()
    for line in table(got):
        log(line)
    log("Pico         (stop, result and setup are OK presses, which act when let go: their"
        " figures count from the release, 120 ms after the press)")
    if bench.spoiled:
        log("Pico         %d samples dropped: a keepalive refresh met their window"
            % bench.spoiled)
    log("Pico         heap (gc.mem_alloc() after gc.collect()): %d bytes after boot, peak %d over"
        " a game (%d polls; the measuring script and MicroPython's own: %d; free at the end: %d)"
        % (heap["boot"], heap["peak"], heap["polls"], heap["base"], heap["free"]))
    log("Pico         measured in %.0f s" % (time.time() - started))
    result = summary(got)
    result["pico_heap_boot"] = heap["boot"]
    result["pico_heap_peak"] = heap["peak"]
    return result


def twin_table(got, kit=None):
    """The twin's lines: per kind of press its bytes and writes to the panel, and its estimate
    of the Pico's ms (picotwin/cost.py; from when the press acts, as the Pico's, see acted())
    to the first byte and to the panel complete, p95, beside the emulated Pico's figure the
    model is calibrated on (cost.KIT: panel complete, a throw's first byte) and their ratio."""
    if kit is None:
        from picotwin.cost import KIT as kit
    lines = ["Twin         per press: bytes and writes to the panel, and the twin's estimate of"
             " the Pico's ms (from when it acts), p95",
             "Twin                           n   bytes  writes   first  complete     kit"
             "  twin/kit"]
    for kind in KINDS:
        s = got[kind]
        if not s:
            continue
        size = percentile([x["bytes"] for x in s], 95)
        writes = percentile([x["transactions"] for x in s], 95)
        timed = all(x["last_byte_ms"] is not None for x in s)
        first = percentile([acted(x, "first_byte_ms") for x in s], 95) if timed else None
        last = percentile([acted(x, "last_byte_ms") for x in s], 95) if timed else None
        ref, mine = (kit.get(kind), last) if kind != "throw" else (kit.get("throw_first"), first)
        line = "Twin         %-16s %3d %7d %7d" % (kind, len(s), size, writes)
        if timed:
            line += " %7.1f %9.1f" % (first, last)
            if ref:
                line += " %7.1f %8.2f%s" % (ref, mine / ref, "  (first byte)" if kind == "throw"
                                             else "")
        lines.append(line)
    return lines


def twin_figures(samples=SAMPLES, log=print, costs=None):
    """The bot on the host twin: prints bytes, writes and the twin's time estimates per kind of
    press beside the emulated Pico's figures (twin_table), returns them ({"twin_<kind>_bytes_p95",
    "twin_<kind>_writes_p95", "twin_<kind>_ms_p95", "twin_<kind>_first_ms_p95": ...}; {} without
    node)."""
    from picotwin import cost
    from picotwin.twin import Twin
    from picotwin.twin import unavailable as twin_unavailable

    reason = twin_unavailable()
    if reason:
        log("Twin figures skipped: " + reason)
        return {}
    started = time.time()
    board = Twin(costs=cost.PICO if costs is None else costs)  # the estimate, no margin
    board.start(fresh=True)
    try:
        board.install_in_safe_mode()
        board.write_files(dict({n: None for n in SAVES},
                               **{"settings.json": json.dumps(SETTINGS).encode()}))
        got = Bench(board, samples, log).run()
    finally:
        board.stop()
    for line in twin_table(got):
        log(line)
    log("Twin         measured in %.0f s" % (time.time() - started))
    out = {}
    for kind in KINDS:
        if got[kind]:
            out["twin_%s_bytes_p95" % kind] = percentile([x["bytes"] for x in got[kind]], 95)
            out["twin_%s_writes_p95" % kind] = percentile(
                [x["transactions"] for x in got[kind]], 95)
            out["twin_%s_ms_p95" % kind] = percentile(
                [acted(x, "last_byte_ms") for x in got[kind]], 95)
            out["twin_%s_first_ms_p95" % kind] = percentile(
                [acted(x, "first_byte_ms") for x in got[kind]], 95)
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or "-h" in args:
        print("usage: bench.py [--twin] [SAMPLES]\n  the press figures on the emulated Pico;"
              " --twin: on the host twin, its time estimates beside the kit's figures")
        sys.exit(0)
    twin = "--twin" in args
    args = [a for a in args if a != "--twin"]
    samples = int(args[0]) if args else SAMPLES
    print(json.dumps(twin_figures(samples) if twin else pico_figures(samples)))
