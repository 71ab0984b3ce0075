"""The tray's clock: the one owner of time (animation, tunes, marks, a turn's end, dim, sleep)."""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


DIM_MS = const(60000)  # no press for a minute: dim (still readable: a press acts)
SLEEP_MS = const(300000)  # five minutes: display off; the press that wakes it does nothing else
ANIM_MS = const(360)  # the roll animation
ANIM_FRAME_MS = const(60)
READ_MS = const(2000)  # the last throw's dice stay this long once landed, then the turn ends
MARK_MS = const(1000)  # how long a refused press says why on the panel
WAIT_STEPS = const(21)  # a screen that moves on by itself: its bar's steps, a letter's cell each
REDRAW = const(1)  # tick(): draw the screen again
TURN_DUE = const(2)  # tick(): the player's throws are used up and were read: end them


class Clock:
    """Everything that happens by the clock: the roll animation, tunes, a refusal's mark, the
    end of a turn whose throws are used up, dim and sleep (their state is the display's).

    The dice of the roll animation come from its own xorshift, so the game's dice are never
    touched. tick(now) runs once per main-loop step and allocates nothing.
    """

    def __init__(self, display, ticks_diff, ticks_add, buzzer=None, seed=1):
        self.display = display
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add
        self.buzzer = buzzer
        self.last_input = 0
        self.x = seed & 0xFFFFFFFF or 1
        self.faces = [0, 0, 0]
        self.rolling = 0  # bit mask of the dice in the roll animation
        self.anim_end = 0
        self.anim_next = 0
        self.mark = None  # what a refused press says on the panel, until mark_end
        self.mark_end = 0
        self.ending = False  # the turn ends by itself at end_at (App.step)
        self.end_at = 0
        self.wait_ms = 0  # the screen shown moves on by itself at wait_end (0: it waits)
        self.wait_end = 0
        self.wait_left = 0  # its bar's length in WAIT_STEPS, as drawn
        self.tune = ()
        self.note = 0
        self.note_next = 0
        self.later = None  # while not None, a tune asked for waits here (hold)
        self.held_end = (False, 0)  # the turn's end when a press was made ahead (hold)

    def touch(self, now):
        """Tunes and dimming count from now, as from a press; the panel is not woken (a dark
        panel stays dark until a press wakes it)."""
        self.last_input = now

    def input(self, now):
        """A press at now lights the panel. True when it was dark: that press only wakes it."""
        self.last_input = now
        d = self.display
        if d.dimmed:
            d.dim(False)
        if not d.asleep:
            return False
        d.sleep(False)
        return True

    def tick(self, now):
        """Move the animation, the tune, the mark, the turn's end, dim and sleep on to now.
        Returns REDRAW | TURN_DUE bits: what the app must do now (0: nothing)."""
        diff = self.ticks_diff
        due = 0
        if self.rolling and diff(now, self.anim_next) >= 0:
            due = REDRAW
            if diff(now, self.anim_end) >= 0:
                self.rolling = 0  # the roll is over: the real dice
            else:  # new faces for the rolling dice, from the animation's own xorshift
                for i in range(3):
                    if self.rolling & (1 << i):
                        x = self.x
                        x ^= (x << 13) & 0xFFFFFFFF
                        x ^= x >> 17
                        x ^= (x << 5) & 0xFFFFFFFF
                        self.x = x
                        self.faces[i] = 1 + (x >> 8) % 6  # looks only: bias does not matter
                self.anim_next = self.ticks_add(now, ANIM_FRAME_MS)
        if self.mark and diff(now, self.mark_end) >= 0:
            self.mark = None
            due = REDRAW
        if self.wait_ms:
            left = diff(self.wait_end, now)
            steps = (left * WAIT_STEPS + self.wait_ms - 1) // self.wait_ms if left > 0 else 0
            if steps != self.wait_left:
                self.wait_left = steps
                due = REDRAW
        if self.ending and not self.rolling and diff(now, self.end_at) >= 0:
            self.ending = False
            due |= TURN_DUE
        if self.tune and diff(now, self.note_next) >= 0:
            self._note(now)
        d = self.display
        if not d.asleep:
            idle = diff(now, self.last_input)
            if idle >= SLEEP_MS:
                d.sleep(True)
            elif idle >= DIM_MS and not d.dimmed:
                d.dim(True)
        return due

    def refuse(self, why, tune):
        """Say why a press was refused (ui.refusal) for MARK_MS from it; play tune."""
        self.say(why, self.last_input, MARK_MS)
        self.beep(tune)

    def say(self, text, now, ms):
        """Show text over the screen (ui.refusal) for ms from now."""
        self.mark = text
        self.mark_end = self.ticks_add(now, ms)

    def unmark(self):
        """Take what the panel says over the screen away (the next press does)."""
        self.mark = None

    def wait(self, now, ms):
        """The screen shown moves on by itself ms from now (its bar drains till then: the
        screen draws it from wait_left); a new screen ends that (clear)."""
        self.wait_ms = ms
        self.wait_end = self.ticks_add(now, ms)
        self.wait_left = WAIT_STEPS

    def clear(self):
        """The screen's moment is over: what was said over it goes, and a turn's end due or
        a screen's moving on is no longer (a new screen, a throw, a stop)."""
        self.mark = None
        self.ending = False
        self.wait_ms = 0

    def end_turn(self, now):
        """End the player's throws READ_MS after the dice are on the panel: after the roll
        animation, or from now when none is under way."""
        self.end_at = self.ticks_add(self.anim_end if self.rolling else now, READ_MS)
        self.ending = True

    # ---- the roll animation ------------------------------------------------------------------

    def roll(self, now, mask):
        """Animate the dice in mask (bit i: die i) for ANIM_MS from now (its first frame: at the
        next tick, which comes before the next drawing)."""
        self.rolling = mask
        self.anim_end = self.ticks_add(now, ANIM_MS)
        self.anim_next = now

    def land(self):
        """The dice of the roll animation land at once."""
        self.rolling = 0

    def shown_dice(self, dice):
        """The faces to draw while rolling (the kept dice from dice), else None."""
        if not self.rolling:
            return None
        faces = self.faces
        dice = dice or faces
        for i in range(3):
            if not self.rolling & (1 << i):
                faces[i] = dice[i]
        return faces

    # ---- tunes -------------------------------------------------------------------------------

    def beep(self, tune):
        """Play tune from the last press on (a tune always answers a press)."""
        if self.buzzer is None:
            return
        if self.later is not None:  # held: the last tune asked for waits (hold)
            self.later = tune
            return
        self.tune = tune
        self.note = 0
        self._note(self.last_input)

    def hold(self):
        """A press is made ahead of being shown (App.stop_ahead): the tunes it asks for wait
        (release), and the turn's end it clears may come back (take_back)."""
        self.later = ()
        self.held_end = (self.ending, self.end_at)

    def release(self):
        """The press made ahead is shown: the last tune it asked for plays, from the last
        press on (input it first)."""
        tune = self.later
        self.later = None
        if tune:
            self.beep(tune)

    def take_back(self):
        """The press made ahead is taken back unseen: its tunes go, the turn's end comes back."""
        self.later = None
        self.ending, self.end_at = self.held_end

    def _note(self, now):
        if self.note >= len(self.tune):
            self.buzzer.off()
            self.tune = ()
            return
        freq = self.tune[self.note]
        ms = self.tune[self.note + 1]
        self.note += 2
        if freq:
            self.buzzer.tone(freq)
        else:
            self.buzzer.off()
        self.note_next = self.ticks_add(now, ms)
