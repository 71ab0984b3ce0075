"""A human's stop made as OK goes down (App's part): OK acts as it is let go, since held it
opens the table, so on a human's turn the stop it means is made while the finger is on it and
by the release only the frame is left to send.

Till then nothing of it is shown, saved or heard; held long or beaten by another key, it is
taken back unseen (take_ahead_back). App inherits these methods: they read and change the
app's own fields, declared in App.__init__.
"""

# A part of App: the fields it reads and changes are App.__init__'s, which pyright cannot see.
# pyright: reportAttributeAccessIssue=false

from dicetray import lazy
from dicetray.buttons import LONG
from dicetray.screens_between import PLAY


class StopAhead:
    """The stop OK means, made as it goes down (stop_ahead), shown as it is let go (let_go), or
    taken back before it showed (take_ahead_back); App's, with the app's fields (held: what
    taking it back restores, or None)."""

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
