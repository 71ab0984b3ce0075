"""The tray's figures for the bench: bus bytes and time from a press to the panel, heap
after boot and at its peak, allocation of the idle main loop (on MicroPython), and what a
language costs: its catalogue's heap (on MicroPython), the French glyphs' bytes in the font."""

import json
import os
import tempfile

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from mpy import TRAYHOST, copy_packages, node_ready, run_micropython
from trayhost import trayrun
from trayhost.autoplay import SeededDice

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")

TOUR_SEED = 3  # trayrun.tour()'s defaults: the games the MicroPython test plays
TOUR_PLAYERS = 3
I2C_HZ = 400_000
BITS_PER_BYTE = 9  # 8 data bits + ACK
BITS_PER_TRANSFER = 11  # start + address byte and its ACK + stop
IDLE_POLLS = 1000

# One piece of a live heap's run (run.mjs --chunks): the peak so far, then the next step of
# the generator run.
MP_HEAP_STEP = """
def press():
    global peak
    if LIVE_HEAP > peak:
        peak = LIVE_HEAP
    try:
        next(run)
    except StopIteration:
        pass
"""

# The tray's live heap, on MicroPython, in pieces cut by "#---" (run.mjs --chunks). The first
# piece only defines what the others use, so the baseline includes this harness's own code.
MP_TRAY_HEAP = """
import gc
import json


def games(tray, seed, players, results):
    # trayrun.tour, one step per next(): every preset, each from a fresh tray, then its keys.
    from dicetray.options import PRESET_NAMES
    from trayhost.autoplay import SeededDice
    for i, preset in enumerate(PRESET_NAMES):
        if tray is None:
            tray = trayrun.Tray(SeededDice(seed + i), seed=seed + i)
            yield
        keys = 0
        for _ in trayrun.game_keys(tray, players, preset, SeededDice(seed + i)):
            keys += 1
            yield
        results.append(trayrun.game_line(preset, keys, tray))
        tray = None
        # The collector scans this frame's whole value stack, stale slots too: the last calls'
        # arguments would keep the finished game's tray alive, counted in the next game's heap.
        overwrite(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def overwrite(*slots):
    pass

""" + MP_HEAP_STEP + """#---
BARE = LIVE_HEAP
import dicetray.app, dicetray.buttons, dicetray.display, dicetray.rules, dicetray.store
#---
FIRMWARE_CODE = LIVE_HEAP - BARE
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.autoplay import SeededDice
#---
HARNESS_CODE = LIVE_HEAP - BARE - FIRMWARE_CODE
tray = trayrun.Tray(SeededDice(SEED), seed=SEED)
#---
BOOT = LIVE_HEAP - BARE
peak = LIVE_HEAP
results = []
run = games(tray, SEED, PLAYERS, results)
del tray
PRESSES
#---
peak = max(peak, LIVE_HEAP)
print(json.dumps({"bare": BARE, "firmware_code": FIRMWARE_CODE, "harness_code": HARNESS_CODE,
                  "boot": BOOT, "peak": peak - BARE, "games": results}))
"""

# Allocation of the idle main loop on MicroPython: no press, one app.step(now) every 5 ms.
MP_IDLE = """
import gc
import json
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.autoplay import SeededDice
from trayhost.pins import ticks_add


class NullI2C:
    def writeto(self, addr, buf):
        return len(buf)


def noop(now):
    pass


def polls(fn, n, now):
    before = gc.mem_alloc()
    for _ in range(n):
        now = ticks_add(now, trayrun.POLL_MS)
        fn(now)
    return gc.mem_alloc() - before, now


def to_turn(tray):
    # Through the roll-off for who starts and the charge's phase screen, to a turn.
    while tray.app.screen != "play" or tray.app.game.contest is not None:
        tray.keys("r" if tray.app.screen == "play" else "o")


tray = trayrun.Tray(SeededDice(1), seed=1)
tray.display.panel.i2c = NullI2C()
out = []
overhead = polls(noop, IDLE_POLLS, 0)[0]  # the loop's own cost, taken off each figure
for label, keys, n in (("setup", "", IDLE_POLLS), ("play, a roll-off", "o", IDLE_POLLS),
                      ("play, a refused press", "1", IDLE_POLLS),
                      ("play, 2 dice kept", "*r12", IDLE_POLLS),
                      ("standings", "O", IDLE_POLLS), ("the tally", "o", IDLE_POLLS),
                      ("play, through dim and sleep", "r", 62000)):
    if keys[:1] == "*":
        to_turn(tray)
        keys = keys[1:]
    tray.keys(keys)
    # What a press set going by the clock is its own: the roll animation's frames, a refused
    # press's mark (a second), each ending with a drawing. Idle starts once they are over.
    tray.run(1500)
    alloc, tray.now = polls(tray.app.step, n, tray.now)
    out.append([label, tray.app.screen, alloc - overhead, n])

# A game the tray plays a seat in, hints on: a human's throw, its hint made (the seats' work
# done at the idle polls after it), then nothing left for them to do.
tray = trayrun.Tray(SeededDice(2), seed=2)
tray.display.panel.i2c = NullI2C()
tray.app.units["setup"].settings.update(computers=1, hints=True)
to_turn(tray)
for _ in range(400):
    g = tray.app.game
    if tray.app.screen == "play" and g.contest is None and g.current not in g.computers:
        break
    if tray.app.screen != "play":
        tray.keys("o")
    else:
        tray.run(500)  # the seat plays its turn
tray.keys("r")
tray.run(1500)
alloc, tray.now = polls(tray.app.step, IDLE_POLLS, tray.now)
out.append(["play, a seat and hints, a human's hint shown", tray.app.screen, alloc - overhead,
            IDLE_POLLS])
print(json.dumps(out))
"""


# The modules each kind of press loads before its first frame (trayhost.pressmeter's
# loads_tour: a game to its end, a game quit, a resume prompt's ROLL and OK after a power cut).
MP_LOADS = """
import json
from trayhost.pressmeter import FirstFrame, loads_tour, merged

meters = []
loads_tour(watch=lambda tray: meters.append(FirstFrame(tray)))
print(json.dumps(merged(meters)))
"""


# One catalogue's live heap on MicroPython (run.mjs --chunks), in a fresh VM: loaded as the tray
# loads it (words.use), against the VM with dicetray.words imported and no catalogue yet.
MP_WORDS = """
from dicetray import words
BEFORE = 0
#---
BEFORE = LIVE_HEAP
words.use("CODE")
#---
print(LIVE_HEAP - BEFORE)
"""


def words_heap_figures():
    """Each language's catalogue: its live heap once loaded, by code (MicroPython, .mpy)."""
    from dicetray import words

    return {code: int(run_micropython(MP_WORDS.replace("CODE", code), paths=[FIRMWARE],
                                      mpy=True, chunks=True).split()[-1])
            for code in words.LANGS}


def font_accent_bytes():
    """The bytes the glyphs beyond ASCII (French's accented capitals, « ») add to the font's
    tables: their columns in _GLYPHS, the _INDEX entries past code 126 and their characters in
    CHARS (UTF-8, as the .mpy keeps them)."""
    from dicetray import font

    extra = [ch for ch in font.CHARS if ord(ch) > 126]
    per_glyph = len(font._GLYPHS) // (len(font.CHARS) + 1)  # the box, last, has no character
    index = len(font._INDEX) - (127 - font._FIRST)
    return per_glyph * len(extra) + index + len("".join(extra).encode())


def percentile(values, p):
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[rank - 1]


def bus_ms(nbytes, transfers, hz=I2C_HZ):
    """Milliseconds on an I2C bus: 9 bit times per byte, 11 per transfer (see the docstring)."""
    return (BITS_PER_BYTE * nbytes + BITS_PER_TRANSFER * transfers) * 1000 / hz


class PressMeter:
    """Hooks one tray: for each press, the bytes and transfers of the show() that draws it.

    The app draws a press in the step that registers it (app.step: poll, act, render, show), so
    that step's show() is the first to send its effect; when it sends nothing the press changed
    nothing on the panel (a refused key) and is counted in `unchanged`, not measured: a later
    show (a keepalive refresh, the next press) would not be its effect. Wraps the tray's
    buttons.poll and display.show on the instance; the tray behaves the same.
    """

    def __init__(self, tray):
        self.samples = []  # (bytes, transfers) per press that changed the panel
        self.unchanged = 0
        self._pressed = False
        poll, show, i2c, display = tray.buttons.poll, tray.display.show, tray.i2c, tray.display

        def poll_hook(now):
            event = poll(now)
            self._pressed = event is not None
            return event

        def show_hook(now=None, pressed=False):
            before, writes = i2c.bytes, display.writes
            ok = show(now, pressed)
            if self._pressed:
                self._pressed = False
                if i2c.bytes != before:
                    self.samples.append((i2c.bytes - before, display.writes - writes))
                else:
                    self.unchanged += 1
            return ok

        tray.buttons.poll = poll_hook
        tray.display.show = show_hook


def press_figures():
    """Scripted games of every preset (trayrun.tour's), each press metered."""
    meters = []
    lines = trayrun.tour(TOUR_SEED, TOUR_PLAYERS, lambda tray: meters.append(PressMeter(tray)))
    if lines != trayrun.tour(TOUR_SEED, TOUR_PLAYERS):
        raise RuntimeError("the metered games differ from trayrun.tour(): the hooks changed them")
    samples = [sample for meter in meters for sample in meter.samples]
    unchanged = sum(meter.unchanged for meter in meters)
    display = trayrun.Tray(SeededDice(1)).display
    full = display.full_frame_bytes()
    nbytes = [b for b, _ in samples]
    times = [bus_ms(b, t) for b, t in samples]
    return {
        "presses": len(samples),
        "unchanged": unchanged,
        "median": percentile(nbytes, 50),
        "p95": percentile(nbytes, 95),
        "max": max(nbytes),
        "full": full,
        "ms_median": round(percentile(times, 50), 3),
        "ms_p95": round(percentile(times, 95), 3),
        "ms_full": round(bus_ms(full, 2 * display.pages), 3),  # per page: position, then data
        "lines": lines,
    }


def tray_heap_figures(lines):
    """Live heap after boot and its peak over the games, on MicroPython (.mpy builds)."""
    presses = sum(line[1] for line in lines) + len(lines)  # every key, and every fresh tray
    script = (MP_TRAY_HEAP.replace("SEED", str(TOUR_SEED)).replace("PLAYERS", str(TOUR_PLAYERS))
              .replace("PRESSES\n", "#---\npress()\n" * presses))
    with tempfile.TemporaryDirectory() as helpers:
        copy_packages(helpers, TRAYHOST)
        out = run_micropython(script, paths=[FIRMWARE, helpers], mpy=True, chunks=True,
                              timeout=600)
        idle_out = run_micropython(MP_IDLE.replace("IDLE_POLLS", str(IDLE_POLLS)),
                                   paths=[FIRMWARE, helpers], mpy=True, timeout=600)
        loads_out = run_micropython(MP_LOADS, paths=[FIRMWARE, helpers], mpy=True, timeout=600)
    heap = json.loads(out.strip().splitlines()[-1])
    if heap["games"] != lines:
        raise RuntimeError("MicroPython played other games than CPython: %r" % heap["games"])
    idle = json.loads(idle_out.strip().splitlines()[-1])
    heap["loads"] = json.loads(loads_out.strip().splitlines()[-1])
    return heap, idle


def tray_figures():
    p = press_figures()
    print()
    print("The tray: a game of every preset through the buttons, %d presses that changed the"
          " panel (and %d refused ones that did not)" % (p["presses"], p["unchanged"]))
    print("I2C          full frame: %d bytes, %.3f ms at 400 kHz" % (p["full"], p["ms_full"]))
    print("I2C          bytes from a press to its effect on the panel: median %d (%.1f%% of a full"
          " frame), 95th percentile %d, most %d"
          % (p["median"], 100 * p["median"] / p["full"], p["p95"], p["max"]))
    print("I2C          bus time from a press to the panel at 400 kHz: median %.3f ms, 95th"
          " percentile %.3f ms" % (p["ms_median"], p["ms_p95"]))
    accents = font_accent_bytes()
    print("Font         bytes the glyphs beyond ASCII (accented capitals, « ») add: %d" % accents)
    result = {
        "i2c_bytes_per_press_median": p["median"],
        "i2c_bytes_per_press_p95": p["p95"],
        "full_frame_bytes": p["full"],
        "press_to_panel_ms_400k_p95": p["ms_p95"],
        "heap_after_boot_bytes": None,
        "heap_peak_bytes": None,
        "idle_alloc_bytes_per_poll": None,
        "press_loads_before_frame": None,
        "font_accent_bytes": accents,
    }
    from dicetray import words

    for code in words.LANGS:
        result["words_heap_bytes_" + code] = None
    reason = node_ready()
    if reason:
        print("MicroPython tray figures skipped: " + reason)
        return result
    result.update(_heap_report(p["lines"]))
    for code, nbytes in sorted(words_heap_figures().items()):
        print("MicroPython  live heap of the %s catalogue once loaded: %d bytes" % (code, nbytes))
        result["words_heap_bytes_" + code] = nbytes
    return result


def _heap_report(lines):
    heap, idle = tray_heap_figures(lines)
    objects = heap["boot"] - heap["firmware_code"] - heap["harness_code"]
    print("MicroPython  live heap after boot: %d bytes (firmware code %d, trayhost harness code"
          " %d, the tray's objects %d)"
          % (heap["boot"], heap["firmware_code"], heap["harness_code"], objects))
    print("MicroPython  live heap, peak after a key press over every game: %d bytes"
          % heap["peak"])
    worst = 0.0
    for label, screen, alloc, polls in idle:
        print("MicroPython  idle main loop, %s (screen %s): %d bytes allocated in %d polls"
              % (label, screen, alloc, polls))
        worst = max(worst, alloc / polls)
    print("MicroPython  idle allocation, worst screen: %s bytes per poll" % worst)
    loaded = 0
    loads = heap["loads"]
    for kind in sorted(k for k in loads if type(loads[k]) is list):
        n, modules = loads[kind][:2]
        loaded += len(modules)
        print("MicroPython  %-12s %4d presses: modules loaded before the first frame: %s"
              % (kind, n, " ".join(modules) or "none"))
    return {"heap_after_boot_bytes": heap["boot"], "heap_peak_bytes": heap["peak"],
            "idle_alloc_bytes_per_poll": worst, "press_loads_before_frame": loaded}
