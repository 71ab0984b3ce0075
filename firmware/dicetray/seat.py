"""The computer seats: the tray plays the seats of game.computers through the buttons' path.

An actor (App.add_actor's kind): poll(app, now) returns the press a computer seat makes now, or
None. It plays at a pace people can follow: each throw stays on the panel THINK_MS before the
seat acts on it, its keeps come KEEP_MS apart (each die drawn kept as a human's), and its stop
is announced on the panel for SAY_MS before it is made. Between turns it moves on by itself
after SHOW_MS only when a computer seat plays next. A human's press during a computer's turn
hurries it along (hurry) instead of playing for it. The choices: dicetray.strategy.
"""

from dicetray.buttons import LONG, PRESS
from dicetray.draw import pname
from dicetray.screens_between import OUTCOME, PHASE, PLAY, RESULT

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


THINK_MS = const(1500)  # a throw on the panel before the seat acts on it
KEEP_MS = const(600)  # between two presses of one decision
SAY_MS = const(1200)  # its stop, announced on the panel
SHOW_MS = const(6000)  # a result or a phase change, when a computer plays next
_KEYS = ("KEEP1", "KEEP2", "KEEP3")


class Seat:
    """Plays app.game's computer seats; one for the whole tray."""

    def __init__(self):
        self.moment = None  # what the seat last saw: it waits from when that changed
        self.due = 0
        self.said = False  # its stop was announced: now make it
        self.choice = -1  # the keeps chosen at this moment (None: stop), -1 not yet
        self.ready = None  # the game whose tables the strategy has made, in this phase,
        self.phase = None  # with this many players gone
        self.out = 0

    def owns(self, app):
        """Whether the moment is a computer seat's: its turn or its roll."""
        g = app.game
        return g is not None and app.screen == PLAY and not g.over \
            and g.current in g.computers

    def press(self, app, ev, now):
        """The press of app's step, a game with computer seats under way: a human's (ev, from
        the buttons) in a computer's turn hurries it instead of playing for it; with none, an
        actor's (App.add_actor), else the seat's own (poll)."""
        if ev is not None and ev[1] != LONG and self.owns(app):
            if not app.clock.input(now):
                self.hurry(app, now)
            ev = None
        elif ev is None:
            ev = app.actor_press(now)
        if ev is None:
            ev = self.poll(app, now)
        return ev

    def hurry(self, app, now):
        """A human's press during a computer's turn: the seat acts at once (the dice land)."""
        self._see(app)
        self.due = now
        if app.clock.rolling:
            app.clock.land()
            app.redraw()

    def _see(self, app):
        # True when the moment is new (a throw, a player, a roll, a screen): nothing is chosen
        # or said for it yet.
        moment = _moment(app)
        if moment == self.moment:
            return False
        self.moment = moment
        self.said = False
        self.choice = -1
        return True

    def poll(self, app, now):
        g = app.game
        if g is None or g.over:
            return None
        if self.ready is not g or self.phase != g.phase or self.out != len(g.out):
            from dicetray.strategy import warm  # before any decision: the strategy's tables

            warm(g)
            self.ready = g
            self.phase = g.phase
            self.out = len(g.out)
        screen = app.screen
        if screen == PLAY:
            if g.current not in g.computers:
                return None
        elif not (screen == RESULT or screen == PHASE or screen == OUTCOME):
            return None
        if self._see(app):
            self.due = app.clock.ticks_add(now, THINK_MS if screen == PLAY else SHOW_MS)
        if app.clock.rolling or app.clock.ticks_diff(now, self.due) < 0:
            return None
        self.due = app.clock.ticks_add(now, KEEP_MS)
        if screen != PLAY:
            # Between turns: on when a computer seat plays next; a human moves on himself.
            return ("OK", PRESS) if g.current in g.computers else None
        return self._press(app, g, now)

    def _press(self, app, g, now):
        if g.contest is not None:
            if g.can_announce():
                from dicetray.strategy import stake

                return ("KEEP1" if stake(g) == "is" else "KEEP3", PRESS)
            return ("ROLL", PRESS)
        t = g.turn
        if not t.count:
            return ("ROLL", PRESS)
        if g.must_stop():
            return None  # the clock ends the turn once its dice were read
        if self.choice == -1:
            from dicetray.strategy import decide

            self.choice = decide(g)[0]
        mask = self.choice
        if mask is None:
            if not self.said:  # say it first, as a player would
                self.said = True
                early = t.pos and t.count < g.max_throws()
                said = "LE BON" if early else "STOP"
                app.clock.say("%s: %s" % (pname(g.current), said), now, SAY_MS)
                app.redraw()
                self.due = app.clock.ticks_add(now, SAY_MS)
                return None
            return ("OK", PRESS)
        for bits in (t.kept & ~mask, mask & ~t.kept):  # releases first: two kept at most
            for i in range(3):
                if bits & (1 << i):
                    return (_KEYS[i], PRESS)
        return ("ROLL", PRESS)


def _moment(app):
    # What the seat acts on: a new one (a throw, a player, a roll, a screen) waits its time.
    g = app.game
    t = g.turn
    c = g.contest
    return (app.screen, t.number, t.pos, t.count, len(c.results) if c else -1,
            c.round if c else 0, c.stake if c else None)
