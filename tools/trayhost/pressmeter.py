"""What a press runs before its first frame: the firmware's modules it loads, and the computer
seats' work (the strategy's warm-up, decisions, hints, stakes) wherever it runs. On CPython and
on MicroPython (the bench's figures, test_lazy.py and test_seat.py).

A press's first frame is the first display.show() after the poll that read it. Presses are
counted by kind (kind()): the screen they were made on and what they do there.
"""

import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


SEAT_WORK = ("warm", "prepare", "decide", "hint", "stake")  # the strategy's ways in
IDLE = "idle"  # seat work at an idle poll (Seat.work): no press waits on it
ELSEWHERE = "elsewhere"  # seat work in a step that read no press but outside Seat.work


def kind(app, event):
    """What the press event (Buttons.poll's) does on the screen shown: "setup->game", "keep",
    "throw", "stop" (OK, or ROLL with no throw left), "hurry" (a press in a computer's turn),
    "contest", "standings" (OK held), or "<screen>->" for the screens around a game."""
    screen = app.screen
    name, how = event
    g = app.game
    if getattr(app, "held", None) is not None and name == "OK" and how != "long":
        return "stop"  # a stop made as OK went down (App.stop_ahead), shown as it is let go
    if screen == "setup":
        return "setup->game" if name == "OK" else "setup"
    if screen != "play":
        return screen + "->"
    if how == "long":
        return "standings"
    if g.contest is not None:
        return "contest"
    if g.current in g.computers:
        return "hurry"
    if name.startswith("KEEP"):
        return "keep"
    return "throw" if name == "ROLL" and g.can_throw() else "stop"


def _loaded():
    return set(name for name in sys.modules if name.startswith("dicetray."))


class FirstFrame:
    """Hooks one tray (a trayrun.Tray) for what runs between each press and its first frame:
    presses[kind] how many, loads[kind] the modules loaded then (a set), us[kind] the
    microseconds to it (the worst). With seats=True the strategy's ways in (SEAT_WORK) and
    Seat.work are wrapped too, on their modules: work[where] counts the seat's calls by where
    they ran, a press's kind (before its first frame), IDLE or ELSEWHERE. seats=True must
    come before the first App is built (the wrapped modules stay loaded then), and remove()
    puts them back. The tray plays the same."""

    def __init__(self, tray, seats=False):
        self.presses = {}
        self.loads = {}
        self.us = {}
        self.work = {}
        self._pending = None  # the kind of the press read in this step, until its frame
        self._t = 0
        self._before = None
        self._idle = False
        self._depth = 0
        self._undo = []
        app = tray.app
        poll, show, step = tray.buttons.poll, tray.display.show, app.step

        def poll_hook(now):
            event = poll(now)
            if event is not None and self._pending is None:
                self._pending = k = kind(app, event)
                self.presses[k] = self.presses.get(k, 0) + 1
                self._before = _loaded()
            return event

        def show_hook(now=None, pressed=False):
            k = self._pending
            if k is not None:
                self._pending = None
                us = ticks_diff(ticks_us(), self._t)
                self.us[k] = max(self.us.get(k, 0), us)
                self.loads.setdefault(k, set()).update(_loaded() - self._before)
            return show(now, pressed)

        def step_hook(now):
            self._t = ticks_us()
            return step(now)

        tray.buttons.poll = poll_hook
        tray.display.show = show_hook
        app.step = step_hook
        if seats:
            self._wrap_seats()

    def _wrap_seats(self):
        from dicetray import seat, strategy

        for name in SEAT_WORK:
            if hasattr(strategy, name):  # a strategy of before (a bench's comparison) may lack one
                self._patch(strategy, name, self._counted(getattr(strategy, name)))
        work = getattr(seat.Seat, "work", None)
        if work is None:  # a seat that works only as it presses (for a bench's comparison)
            return

        def idle_work(s, app):
            self._idle = True
            try:
                return work(s, app)
            finally:
                self._idle = False

        self._patch(seat.Seat, "work", idle_work)

    def _patch(self, owner, name, fn):
        self._undo.append((owner, name, getattr(owner, name)))
        setattr(owner, name, fn)

    def _counted(self, fn):
        def counted(*args):
            self._depth += 1
            try:
                return fn(*args)
            finally:
                self._depth -= 1
                if not self._depth:  # only the outermost: the strategy calls its own too
                    where = IDLE if self._idle else self._pending or ELSEWHERE
                    self.work[where] = self.work.get(where, 0) + 1

        return counted

    def remove(self):
        """Put back what seats=True wrapped."""
        while self._undo:
            owner, name, fn = self._undo.pop()
            setattr(owner, name, fn)

    def report(self):
        """{kind: [presses, the modules loaded before its first frame (sorted), the most
        microseconds to it, the seat's calls before it]}, and the seat's calls at IDLE and
        ELSEWHERE under their names."""
        out = {}
        for k in self.presses:
            out[k] = [self.presses[k], sorted(n[9:] for n in self.loads.get(k, ())),
                      self.us.get(k, 0), self.work.get(k, 0)]
        out[IDLE] = self.work.get(IDLE, 0)
        out[ELSEWHERE] = self.work.get(ELSEWHERE, 0)
        return out


def seats_steps(seed=1, players=8, computers=4, preset="classic"):
    """A game at players, the tray playing the last computers seats, hints on, the bot at the
    buttons for the others: yields the fresh tray, then each key or wait ("." ) once done."""
    from trayhost import trayrun
    from trayhost.autoplay import SeededDice

    tray = trayrun.Tray(SeededDice(seed), seed=seed)
    yield tray
    yield from trayrun.seats_game(tray, players, preset, SeededDice(seed + 10), computers,
                                  hints=True, wait_ms=200, limit=5000)


def seats_tour(seeds=(1, 2), players=8, computers=4, preset="classic", hurry=3, watch=None):
    """Games at players, the tray playing the last computers seats, hints on, the bot at the
    buttons for the others; while a computer plays, every hurry-th wait a human presses ROLL
    (it hurries the seat). watch(tray), if given, sees each fresh tray first; returns it
    trays."""
    trays = []
    for seed in seeds:
        steps = seats_steps(seed, players, computers, preset)
        tray = next(steps)
        if watch is not None:
            watch(tray)
        waits = 0
        for k in steps:
            if k == ".":
                waits += 1
                if waits % hurry == 0:
                    tray.key("r")
        trays.append(tray)
    return trays


def loads_tour(seed=4, watch=None):
    """The presses that leave a game or the resume prompt for the setup, each on trays
    watched by watch(tray) first: a game played to its end (the end's OK; then one through the
    rounds paid, and the tally's OK), a game quit
    (OK held twice, then ROLL), and after a power cut the resume prompt's ROLL (a new game)
    and its OK (the game resumed). Returns the last tray."""
    from trayhost import trayrun
    from trayhost.autoplay import SeededDice

    def fresh(fs=None):
        tray = trayrun.Tray(SeededDice(seed), fs=fs, seed=seed)
        if watch is not None:
            watch(tray)
        return tray

    from dicetray.screens import OVER

    tray = fresh()
    for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(seed)):
        pass  # the bot's OK at the game's end: a new game
    for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(seed + 2)):
        if tray.app.screen == OVER:
            tray.run(20)  # its quiet moment
            tray.keys("r")  # the rounds paid
            tray.run(20)
            tray.keys("o")  # then the setup
    for quit_keys in ("OOr", None, "o"):
        keys = trayrun.game_keys(tray, 2, "classic", SeededDice(seed + 1))
        for _ in range(8):  # the game starts: a few presses
            next(keys)
        if quit_keys == "OOr":
            tray.keys(quit_keys)  # the standings, quit?, yes
            continue
        tray = fresh(tray.fs)  # a power cut: the saved game is offered
        tray.run(20)  # the prompt's quiet moment
        tray.keys("r" if quit_keys is None else quit_keys)
    return tray


def merged(meters):
    """The FirstFrame reports of meters as one: presses and seat calls summed, modules joined,
    the worst time."""
    out = {}
    for meter in meters:
        for k, v in meter.report().items():
            if type(v) is int:
                out[k] = out.get(k, 0) + v
                continue
            was = out.get(k, [0, [], 0, 0])
            out[k] = [was[0] + v[0], sorted(set(was[1]) | set(v[1])), max(was[2], v[2]),
                      was[3] + v[3]]
    return out
