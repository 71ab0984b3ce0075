"""The tray's router: presses (buttons, actors, the clock) to the screen shown; drawing, sound,
saves out. OK's stop on a human's turn is made as OK goes down (StopAhead, App's part).
"""

# StopAhead is a part of App: the fields it reads and changes are App.__init__'s, which pyright
# cannot see in it.
# pyright: reportAttributeAccessIssue=false

import sys

from dicetray import font, lazy, ui, words
from dicetray.buttons import LONG
from dicetray.clock import TURN_DUE, Clock
from dicetray.lazy import Ready
from dicetray.save_write import GAME_DUE, Saves
from dicetray.screens import NOTICE, OVER, PLAY, QUIT, RESUME, SETUP, SND_NO, TALLY, units
from dicetray.tally import Tally

LONG_BUTTONS = ("OK",)  # only OK has a long meaning (standings / quit); the rest answer at once
# The setup, and the screens a press leaves for it.
_TO_SETUP = (SETUP, RESUME, QUIT, TALLY, OVER, NOTICE)
# Where OK held means what OK means: there it acts as it goes down, as the other buttons do
# (Buttons.long_meaning, switched with the screen shown).
_OK_AT_ONCE = (SETUP, RESUME, NOTICE, QUIT)
_resident = None  # the modules loaded when the first App was built: never let go


class StopAhead:
    """A human's stop made as OK goes down (App's part). OK acts as it is let go, since held it
    opens the table, so on a human's turn the stop it means is made while the finger is on it
    (stop_ahead), and by the release (let_go) only the frame is left to send. Till then nothing
    of it is shown, saved or heard; held long or beaten by another key, it is taken back
    unseen (take_ahead_back). Its fields are the app's (held: what taking it back restores, or
    None)."""

    def may_stop_ahead(self):
        """Whether OK, held now, will stop a human's turn when let go, and that stop may be
        made now (stop_ahead): the dice are still, nothing is said over the turn, the panel is
        lit, and the game is as saved last (Store.record), which taking it back restores."""
        g = self.game
        t = self.clock
        d = self.display
        return self.screen == PLAY and not self.unsaved and g.contest is None \
            and not t.rolling and t.mark is None and not d.dimmed and not d.asleep \
            and self.store.record is not None and g.current not in g.computers \
            and g.can_stop()

    def stop_ahead(self, now):
        """Make the stop OK means as OK goes down, while the finger is on it: the engine's work
        and the drawing are done by the time it is let go (let_go), which then only sends the
        frame (OK acts on its release: held, it opens the table). Till then nothing of the stop
        is shown, saved or heard."""
        t = self.clock
        self.held = (self.undo, self.tally.now())
        t.hold()
        self.press("OK", False, now)

    def let_go(self, ev, now):
        """The press of this step, a stop made ahead (stop_ahead): OK let go shows it, as made
        now (None: nothing else to do); OK held long, or any other press, takes it back as if
        it never was (dicetray.takeback), then acts (ev returned)."""
        if ev is None:
            if self.buttons.pending("OK"):
                return None  # still held
        elif ev[0] == "OK" and ev[1] != LONG:
            self.held = None
            t = self.clock
            t.input(now)  # the stop answers the press now, as made on OK's release
            t.release()
            return None
        self.take_ahead_back()
        return ev

    def take_ahead_back(self):
        """Take a stop made ahead (stop_ahead) back before it was shown: the game as saved last
        (Store.record: dicetray.takeback), the turn shown again, the undo, the turn's end and
        the tally as they were; its save and its tune, held till OK's release, are dropped."""
        held = self.held
        if held is None:
            return  # nothing made ahead
        from dicetray.takeback import restore

        undo, tally = held
        self.held = None
        restore(self.game, self.store.record)
        self.forget(lazy.UNDO)
        self.undo = undo
        self.tally.back_to(tally)  # a game's end counted in memory only
        self.unsaved = 0  # nothing of it was written
        self.screen = PLAY
        self.dirty = True
        self.clock.take_back()


class App(StopAhead, Saves, Ready):
    """One tray. Drive it with step(now) from the main loop (or from tests with fakes).

    The screen shown is a name (dicetray.screens); its unit draws it and answers its presses,
    and keeps its own state. A press comes from the buttons or from an actor (add_actor): both
    take the same path. The units, the boot and the seats read the app's fields and change
    them only through its methods: show and tell (the screen shown, and what a unit is to
    show), play, leave, resume_kept and quit (the game), refuse, redraw, needs_save,
    count_round, reset_tally, offer and take_back (the undo of a stop or a stake), forget.

    Where OK held means OK (_OK_AT_ONCE) it acts as it goes down. Elsewhere it acts as it is
    let go (held, it opens the table), but the stop it means on a human's turn is made as it
    goes down: StopAhead, above. Its other parts, each in the room of its job:
    its saves (save_write's Saves), what a quiet moment readies (lazy's Ready).
    """

    def __init__(self, display, buttons, store, roll, ticks_diff, ticks_add, buzzer=None, seed=1):
        self.display = display
        self.fb = font.frame(display)  # what the screens draw on
        self.w = display.width
        self.h = display.height
        self.buttons = buttons
        self.store = store
        self.roll = roll
        self.clock = Clock(display, ticks_diff, ticks_add, buzzer, seed)
        self.actors = []
        self.seat = None  # plays the game's computer seats (dicetray.seat), loaded for them
        self.unsaved = 0  # dicetray.save_write's GAME_DUE | SETTINGS_DUE...: done after the step
        self.save_failed = False  # the last save failed: the standings say so
        self.game = None
        # A game left for the setup (leave), still saved: the setup offers it (resume_kept)
        # until a new game's first save replaces it (save).
        self.kept = None
        self.undo = None  # what a human's last stop or stake may be taken back to (offer)
        self.screen = SETUP
        buttons.long_meaning("OK", SETUP not in _OK_AT_ONCE)  # as show() sets it
        self.units = units()  # each screen's unit, with its own state
        self.tally = Tally(store)
        global _resident
        if _resident is None:
            _resident = set(sys.modules)
        self.resident = _resident  # a test's or a tool's modules stay
        self.was_down = False  # any button down at the last step (to wake on a new press)
        self.dirty = True
        # A human's stop made as OK went down (stop_ahead), shown once OK is let go: what
        # taking it back restores (the undo, the tally), or None.
        self.held = None
        self.working = False  # the last step made a piece of the seats' work: more may wait

    def boot(self, now, resume=False):
        """Load settings and any saved game; show the resume prompt, a notice or the setup.

        resume: go straight back into the saved game (after a crash), no prompt. The code
        (dicetray.boot) is loaded for this only, and goes with the loader of a save.
        """
        from dicetray.boot import boot

        if boot(self, now, resume) is None:  # no saved game is played on
            self.forget(lazy.GAME, lazy.SEATS)  # loaded for a save that is not played on
        self.render()

    def add_actor(self, actor):
        """Let actor press buttons: actor.poll(app, now) returns None or (name, kind) like
        Buttons.poll, and that press takes the very path of a button's (wake, roll, screen)."""
        self.actors.append(actor)

    def actor_press(self, now):
        """The first press an actor makes now (add_actor), or None."""
        for actor in self.actors:
            ev = actor.poll(self, now)
            if ev is not None:
                return ev
        return None

    def step(self, now):
        """Poll the buttons and actors once, act, keep time, refresh the panel. Idle: no alloc.
        True when the step was busy: a press or an actor's, a button down, something drawn or
        saved, or the roll animation under way (the main loop tidies the heap when it is not).
        working: the step made a piece of the seats' work (Seat.work), and the main loop polls
        again without a pause."""
        ev = self.buttons.poll(now)
        answers = ev is not None  # its frame goes first, a keepalive due then at the next poll
        # OK reports at release (it has a long meaning), so a sleeping tray wakes as a button
        # goes down; only on that edge, so a button stuck down cannot keep the panel lit.
        down = self.buttons.any_down()
        pressed = down and not self.was_down
        self.was_down = down
        held = self.held
        if held is not None:  # a stop made ahead: OK let go shows it, any other press takes
            ev = self.let_go(ev, now)  # it back first
        g = self.game
        seat = None
        if held is not None and ev is None:
            pass  # OK held on a stop made ahead, or let go: its press is this step's, no other
        elif g is not None and not g.over and (g.computers or g.hints):
            seat = self.seat
            if seat is None:
                from dicetray.seat import Seat

                seat = self.seat = Seat()
            ev = seat.press(self, ev, now)  # a human's press in a computer's turn hurries it
        elif ev is None and self.actors:
            ev = self.actor_press(now)
        if ev is not None:
            answers = True
            self.press(ev[0], ev[1] == LONG, now)
        elif down and self.held is None and self.buttons.pending("OK") and self.may_stop_ahead():
            self.stop_ahead(now)
        elif pressed and self.display.asleep:
            self.clock.input(now)
            self.buttons.clear()  # the press that wakes the tray does nothing else
        due = self.clock.tick(now)
        if due & TURN_DUE and self.screen == PLAY:
            self.clock.touch(now)  # tunes and dimming count from here, as from a press
            self.units[PLAY](self, "OK", False, now)  # the throws end as OK would end them
        elif due:
            self.dirty = True
        busy = ev is not None or self.dirty or self.unsaved or self.clock.rolling
        # The seats' own work: a piece at an idle poll; a key held in a seat's turn waits on
        # nothing (it hurried the seat, whose next press may wait on that work).
        worked = False
        if not busy and seat is not None and (not down or seat.owns(self)):
            busy = worked = seat.work(self)
        self.working = worked
        busy = busy or down
        if self.dirty:
            self.render()
        if self.held is None:  # a stop made ahead is shown, saved and heard as OK is let go
            self.display.show(now, answers)
            if self.unsaved:
                self.save()  # after the panel: a flash write never delays what a press shows
        return busy

    def press(self, name, long, now):
        """A press acts on the screen shown, a dimmed panel's too; only a dark panel takes it
        to wake. During the roll animation the dice land at once: a KEEP then keeps one of
        them, ROLL and OK do nothing more (a throw or a stop is for dice that were seen)."""
        t = self.clock
        if t.input(now):
            self.buttons.clear()  # the press that wakes a dark tray does nothing else
            return
        if t.mark:
            t.unmark()  # the next press takes a refusal's mark away
            self.dirty = True
        if t.rolling:
            t.land()
            self.dirty = True
            if name == "ROLL" or name == "OK":
                return
        self.units[self.screen](self, name, long, now)

    def refuse(self, why):
        """A press that cannot act: the panel says why for a moment, and the buzzer buzzes."""
        self.clock.refuse(why, SND_NO)
        self.dirty = True

    def redraw(self):
        """Draw the screen again at the end of this step (what it shows has changed)."""
        self.dirty = True

    def render(self):
        """Draw the screen shown into the frame buffer (the next display.show() sends it)."""
        self.dirty = False
        self.units[self.screen](self, None, False, 0)
        if self.clock.mark:
            ui.refusal(self.fb, self.w, self.h, self.clock.mark, self.game)

    def show(self, screen):
        """Show screen from the next drawing on. A turn whose throws are used up ends by itself
        READ_MS after it shows again (back from the standings, a resume). Back at the setup the
        game ends; leaving the setup, the menu's code and the table go."""
        if screen == SETUP:
            self.game = None  # the engine's code stays: the next game needs it (App.quiet)
            self.undo = None
            self.forget(lazy.UNDO)
            self.seat = None
            self.tell(PLAY, None)  # the hint it keeps was about the game
            self.forget(lazy.SEATS, lazy.SAVE)  # the seats' goes: most games have none
        elif self.screen in _TO_SETUP:  # the menu's code, loaded for it (quiet), goes
            self.forget(lazy.SETUP)
        self.screen = screen
        self.buttons.long_meaning("OK", screen not in _OK_AT_ONCE)
        self.dirty = True
        t = self.clock
        t.clear()  # a refusal is about the screen it was made on
        if screen == PLAY and self.game.must_stop():
            t.end_turn(t.last_input)

    def tell(self, screen, what):
        """Hand the unit of screen what it is to show (the screens after a turn's result, a
        notice's words, the resumed game's preset): the unit keeps it."""
        self.units[screen].tell(what)

    def play(self, game, screen):
        """Play game (a new one, or one saved) from screen on, in its language."""
        words.use(game.lang)
        self.game = game
        self.undo = None
        self.show(screen)

    def offer(self, what, player):
        """After an action: what ("stop", "lebon": a follower's stop before the limit, or
        "announce": a stake) player did may be taken back
        (take_back) until the next die is thrown; None: nothing may (a die was thrown, a seat
        of the tray acted, or the throws were used up). Called before the action's save: the
        state it goes back to is the record saved last (Store.record), kept as it is, so the
        undo costs a reference (no copy) and no flash. None too while that record is not the
        state before the action (a change not saved yet, no save read back)."""
        record = self.store.record
        if what is None or record is None or self.unsaved & GAME_DUE:
            if self.undo is not None:
                self.undo = None
                self.forget(lazy.UNDO)  # the question's code, if it was shown
        else:
            self.undo = (record, what, player)

    def take_back(self):
        """Take back the stop or stake offered (offer): the game as it was just before it, dice
        and keeps, its turn shown again, saved like any action; a game's end taken back takes
        its round off the tally (replayed, it is counted once). Its code: dicetray.takeback."""
        from dicetray.takeback import take_back

        take_back(self)
        self.forget(lazy.UNDO)

    def forget(self, *phases):
        """Let go of the modules of phases (dicetray.lazy) this app loaded, not those resident
        when it was built (a test's or a tool's)."""
        for phase in phases:
            lazy.let_go(phase, self.resident)

    def quit(self):
        """End the game (it is over) and go back to the setup."""
        self.clear()
        self.show(SETUP)

    def leave(self):
        """Leave the game under way for the setup: it stays saved, and the setup offers it
        (resume_kept), as the resume prompt does at power-up, until a new game's first save
        replaces it. A new game left before that keeps the game it would have replaced."""
        kept = self.game if self.kept is None else self.kept
        self.show(SETUP)
        self.kept = kept
        self.tell(SETUP, kept)  # its cursor goes to the game's row

    def resume_kept(self):
        """Play on the game left for the setup (leave), as saved."""
        g = self.kept
        self.kept = None
        self.play(g, PLAY)
