"""The computer seats: the tray plays the seats of game.computers through the buttons' path.

An actor (App.add_actor's kind): poll(app, now) returns the press a computer seat makes now, or
None. It plays at a pace people can follow: each throw stays on the panel THINK_MS before the
seat acts on it, its keeps come KEEP_MS apart (each die drawn kept as a human's), and its stop
is announced on the panel for SAY_MS before it is made. Between turns it moves on by itself
after SHOW_MS only when a computer seat plays next. A human's press during a computer's turn
hurries it along (hurry) instead of playing for it. The choices: dicetray.strategy.

What the seats work out (the strategy's tables for a game and its décharge, a seat's choice, a
human's hint, App.tell'd to the play unit) is made at the main loop's idle polls (work, called
by App.step), one piece a poll, where no press waits on it: a press, a seat's own press
included, never works it out before its first frame.
"""

from dicetray import words
from dicetray.buttons import LONG, PRESS
from dicetray.draw import pname
from dicetray.screens import hint_is_of, hint_of, hint_wanted
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
        self.moment = [None] * 7  # type: list  # what it last saw (_see): waits from its change
        self.due = 0
        self.said = False  # its stop was announced: now make it
        self.choice = -1  # chosen at this moment: the keeps (None: stop) or a stake; -1 not yet
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
        """A human's press during a computer's turn: the seat acts at once. Rolling dice land;
        a last throw being read ends the turn there, as the clock would once it was read (and
        as the player's own ROLL or OK would); else the seat's next press comes at this poll,
        or at the poll after its choice is made."""
        self._see(app)
        self.due = now
        if app.clock.rolling:
            app.clock.land()
            app.redraw()
        elif app.game.must_stop() and app.game.turn.count:
            app.units[PLAY](app, "OK", False, now)

    def _see(self, app):
        # True when the moment is new (a throw, a player, a roll, a screen): nothing is chosen
        # or said for it yet. What it is: the screen, the turn's number, position and throws,
        # a contest's rolls, round and stake; compared in place (no allocation: idle polls).
        g = app.game
        t = g.turn
        c = g.contest
        m = self.moment
        rolls = len(c.results) if c else -1
        rnd = c.round if c else 0
        stake = c.stake if c else None
        if m[0] == app.screen and m[1] == t.number and m[2] == t.pos and m[3] == t.count \
                and m[4] == rolls and m[5] == rnd and m[6] == stake:
            return False
        m[0] = app.screen
        m[1] = t.number
        m[2] = t.pos
        m[3] = t.count
        m[4] = rolls
        m[5] = rnd
        m[6] = stake
        self.said = False
        self.choice = -1
        return True

    def work(self, app):
        """A piece of the seats' own work, at an idle poll (App.step: no press waits on it):
        the strategy's tables for the game, then the choice a computer seat makes at this
        moment, or the hint a human's turn shows; True when a piece was done (one at a time,
        so that a press waits on one at most)."""
        g = app.game
        if g is None or g.over or app.clock.rolling or app.screen != PLAY:
            return False
        if self.ready is not g or self.phase != g.phase or self.out != len(g.out):
            from dicetray.strategy import warm

            if not warm(g, True):  # each part of it at an idle poll of its own
                self.ready = g
                self.phase = g.phase
                self.out = len(g.out)
            return True
        if g.current in g.computers:
            if self.choice != -1 or not _chooses(g):
                return False
            from dicetray.strategy import prepare

            if g.contest is None and prepare(g):  # a piece of the decision
                return True
            self.choice = _choice(g)  # the moment is seen: poll saw it in this step
            return True
        told = app.units[PLAY].told
        if g.hints and hint_wanted(g) and (told is None or not hint_is_of(told, g)):
            from dicetray.strategy import hint, prepare

            if prepare(g):
                return True
            app.tell(PLAY, hint_of(g, hint(g)))
            app.redraw()
            return True
        return False

    def poll(self, app, now):
        g = app.game
        if g is None or g.over:
            return None
        screen = app.screen
        if screen == PLAY:
            if g.current not in g.computers:
                return None
        elif not (screen == RESULT or screen == PHASE or screen == OUTCOME):
            return None
        if self._see(app):
            self.due = app.clock.ticks_add(now, THINK_MS if screen == PLAY else SHOW_MS)
            if screen != PLAY and g.current in g.computers:  # it moves on by itself: it says so
                app.clock.wait(now, SHOW_MS)
                app.redraw()
        if app.clock.rolling or app.clock.ticks_diff(now, self.due) < 0:
            return None
        if screen != PLAY:
            self.due = app.clock.ticks_add(now, KEEP_MS)
            # Between turns: on when a computer seat plays next; a human moves on himself.
            return ("OK", PRESS) if g.current in g.computers else None
        if self.choice == -1 and _chooses(g):
            # Chosen at an idle poll (work), where no press waits on it; made here only when
            # none came for as long again (a button held down all along).
            if app.clock.ticks_diff(now, self.due) < THINK_MS:
                return None
            self.choice = _choice(g)
        self.due = app.clock.ticks_add(now, KEEP_MS)
        return self._press(app, g, now)

    def _press(self, app, g, now):
        if g.contest is not None:
            if g.can_announce():
                return (_KEYS[0] if self.choice == 1 else _KEYS[2], PRESS)
            return ("ROLL", PRESS)
        t = g.turn
        if not t.count:
            return ("ROLL", PRESS)
        if g.must_stop():
            return None  # the clock ends the turn once its dice were read
        mask = self.choice
        if mask is None:
            if not self.said:  # say it first, as a player would
                self.said = True
                early = t.pos and t.count < g.max_throws()
                said = words.T.SAY_LE_BON if early else words.T.SAY_STOP
                app.clock.say(words.T.SAY % (pname(g.current, g.computers), said), now, SAY_MS)
                app.redraw()
                self.due = app.clock.ticks_add(now, SAY_MS)
                return None
            return ("OK", PRESS)
        for bits in (t.kept & ~mask, mask & ~t.kept):  # releases first: two kept at most
            for i in range(3):
                if bits & (1 << i):
                    return (_KEYS[i], PRESS)
        return ("ROLL", PRESS)


def _chooses(g):
    # Whether the player throwing has a choice to make now: a stake to announce, or dice
    # thrown that may be kept or stopped on.
    if g.contest is not None:
        return g.can_announce()
    return g.turn.count and not g.must_stop()


def _choice(g):
    # The choice of the player throwing (_chooses): the stake as the KEEP that announces it
    # (1: KEEP1, "is"; 4: KEEP3, "comes"), or the dice to keep (None: stop).
    if g.contest is not None:
        from dicetray.strategy import stake

        return 1 if stake(g) == "is" else 4
    from dicetray.strategy import decide

    return decide(g)[0]

