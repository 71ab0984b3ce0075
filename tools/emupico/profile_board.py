"""The code emupico/profile.py runs on the board: the scripted game, timed in pieces.

It plays the game twice (plain, then with its pieces wrapped in timers) and prints one JSON
line: each pass's presses and animation frames, garbage collection times, the heap, the save's
size and what a timer costs. _ROUNDS is replaced by the number of rounds to play.
"""

BOARD_SCRIPT = r"""
import gc, json, os, time
from dicetray import display as displaym, draw, font, game as gamem, panel as panelm, payout
from dicetray import screens as scr, settle, ui
from dicetray import screens_setup
from dicetray import store as storem
from dicetray.app import App
from dicetray.board import Board
from dicetray.buttons import PRESS
from dicetray.display import Display
from dicetray.save_record import record
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

    def long_meaning(self, name, on):
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
        count = g.turn.count
        if count == 0:
            return "ROLL", "throw"
        if count == 1 and g.can_throw() and not kept_once:
            return "KEEP1", "keep"
        if g.can_throw() and not (count >= 2 and g.can_stop()):
            return "ROLL", "throw"
        return "OK", "stop"
    return ("OK", "result") if s == scr.RESULT else ("OK", s)


def clean():
    for name in ("game.json", "game.now", "game.tmp", "settings.json", "settings.tmp",
                 "tally.json", "error.log"):
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
    app.quiet()  # the main loop's quiet moment after work (runner.run), untimed as there
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
        app.quiet()  # on the setup: the game its settings start is made here, not in OK
    return app


def instrument():
    screens_setup.setup_rows = timed("setup_rows", screens_setup.setup_rows)
    for cls, names in ((App, ("press", "save", "render")),
                       (gamem.Game, ("throw", "stop", "announce", "to_dict")),
                       (Store, ("save_game",)),
                       (Display, ("show",)),
                       (panelm.Panel, ("write", "write_spans"))):
        for name in names:
            setattr(cls, name, timed(cls.__name__ + "." + name, getattr(cls, name)))
    for mod, label in ((settle, "game"), (payout, "game"), (ui, "ui"), (scr, "app")):
        mod.evaluate = timed("evaluate@" + label, mod.evaluate)
    for name in ("turn", "contest", "outcome", "result", "phase", "standings", "over", "menu",
                 "message"):
        setattr(ui, name, timed("ui." + name, getattr(ui, name)))
    font.text = timed("font.text", font.text)
    displaym.plan_page = timed("plan_page", displaym.plan_page)
    draw.die = timed("draw.die", draw.die)

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
save = record(app.game.to_dict(), 0) if app.game else b""
overhead, floor = calibrate()
clean()
print(json.dumps({"plain": plain[1:], "timed": timed_run, "gc_collect_us": collect_us,
                  "gc_boot": plain[0][1:],
                  "live_heap": live, "free_heap": gc.mem_free(), "save_bytes": len(save),
                  "timer_overhead_us": overhead, "timer_floor_us": floor}))
"""
