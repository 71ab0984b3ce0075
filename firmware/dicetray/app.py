"""The tray's router and its clock: presses (buttons, actors) in; drawing, sound, saves out."""

import sys

from dicetray.buttons import LONG
from dicetray.screens import NOTICE, PLAY, RESUME, SETUP, UNITS

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


LONG_BUTTONS = ("OK",)  # only OK has a long meaning (standings / quit); the rest answer at once
GAME_DUE = const(1)
SETTINGS_DUE = const(2)
CLEAR_DUE = const(4)
DIM_MS = const(60000)  # no press for a minute: dim
SLEEP_MS = const(300000)  # five minutes: display off; the press that wakes it does nothing else
ANIM_MS = const(360)  # the roll animation
ANIM_FRAME_MS = const(60)

# Code loaded only while it is needed, and let go after (on MicroPython, code is heap): the
# loader of a save, the setup menu with the options table, a game's engine.
LOADER_CODE = ("savecheck", "saveagree", "savemigrate", "options", "storeload", "postmortem")
SETUP_CODE = ("setupmenu", "options")
GAME_CODE = ("game", "settle")
_resident = None  # the modules loaded when the first App was built: never let go


class App:
    """One tray. Drive it with step(now) from the main loop (or from tests with fakes).

    The screen shown is a name (dicetray.screens); its unit draws it and answers its presses.
    A press comes from the buttons or from an actor (add_actor): both take the same path.
    """

    def __init__(self, display, buttons, store, roll, ticks_diff, ticks_add, buzzer=None, seed=1):
        self.display = display
        self.fb = display.fb
        self.w = display.width
        self.h = display.height
        self.buttons = buttons
        self.store = store
        self.roll = roll
        self.clock = Clock(display, ticks_diff, ticks_add, buzzer, seed)
        self.actors = []
        self.unsaved = 0  # GAME_DUE | SETTINGS_DUE | CLEAR_DUE: done at the end of the step
        self.game = None
        self.screen = SETUP
        self.after = []  # screens to show after the turn result (phase change, game over)
        self.kept = 0  # bit mask of the dice the current player keeps
        self.notice = ("", ())  # (title, lines) for the NOTICE screen
        self.cursor = 0  # the setup menu's row
        self.settings = None  # loaded by the setup the first time it shows
        self.rules_name = "CUSTOM"  # the resumed game's preset, for the resume prompt
        global _resident
        if _resident is None:
            _resident = set(sys.modules)
        self.resident = _resident  # a test's or a tool's modules stay
        self.save_failed = False
        self.was_down = False  # any button down at the last step (to wake on a new press)
        self.dirty = True

    def boot(self, now, resume=False):
        """Load settings and any saved game; show the resume prompt, a notice or the setup.

        resume: go straight back into the saved game (after a crash), no prompt.
        """
        self.clock.last_input = now
        game, problem = self.store.load_game(self._build)
        self.forget(LOADER_CODE)
        if game is not None and not game.over:
            self.game = game
            self.screen = PLAY if resume else RESUME
        else:
            self.forget(GAME_CODE)  # loaded for a save that is not played on
            if problem:
                self.notice = ("SAVE LOST", (problem, "A NEW GAME STARTS"))
                self.screen = NOTICE
            elif game is not None:
                self._clear()  # over: cleared at once, boot is no press to answer
        self.render()

    def _build(self, data):
        # Only the checker's own refusal means a bad save; anything else is a bug: a crash.
        # The loader is imported here, only when there is a save; boot() lets it go.
        from dicetray.options import preset_name
        from dicetray.savecheck import SaveError, load

        try:
            game = load(data, self.roll)
        except SaveError as e:
            return None, str(e)
        self.rules_name = (preset_name(game.opts) or "custom").upper()
        return game, None

    def add_actor(self, actor):
        """Let actor press buttons: actor.poll(app, now) returns None or (name, kind) like
        Buttons.poll, and that press takes the very path of a button's (wake, roll, screen)."""
        self.actors.append(actor)

    def step(self, now):
        """Poll the buttons and actors once, act, keep time, refresh the panel. Idle: no alloc."""
        ev = self.buttons.poll(now)
        # OK reports at release (it has a long meaning), so a sleeping tray wakes as a button
        # goes down; only on that edge, so a button stuck down cannot keep the panel lit.
        down = self.buttons.any_down()
        pressed = down and not self.was_down
        self.was_down = down
        if ev is None and self.actors:
            for actor in self.actors:
                ev = actor.poll(self, now)
                if ev is not None:
                    break
        if ev is not None:
            self.press(ev[0], ev[1] == LONG, now)
        elif pressed and self.display.asleep:
            self.clock.input(now)
            self.buttons.clear()  # the press that wakes the tray does nothing else
        if self.clock.tick(now):
            self.dirty = True
        if self.dirty:
            self.render()
        self.display.show(now)
        if self.unsaved:
            self.save()  # after the panel: a flash erase (~45 ms) never delays what a press shows

    def press(self, name, long, now):
        """A press: wakes the panel, or shows the rolling dice at once, or acts on the screen."""
        t = self.clock
        if t.input(now):
            self.buttons.clear()  # the press that wakes the tray does nothing else
        elif t.rolling:
            t.rolling = 0  # a press during the roll shows the dice at once, nothing else
            self.dirty = True
        else:
            UNITS[self.screen](self, name, long, now)

    def render(self):
        """Draw the screen shown into the frame buffer (the next display.show() sends it)."""
        self.dirty = False
        UNITS[self.screen](self, None, False, 0)

    def show(self, screen):
        if screen == SETUP:
            self.game = None  # a new game: the engine's code goes until the setup starts one
            self.forget(GAME_CODE)
        elif self.screen == SETUP:
            self.forget(SETUP_CODE)  # the game starts: the menu and the table go
        self.screen = screen
        self.dirty = True

    def forget(self, names):
        """Let go of the modules of names this app loaded (not those resident when it was
        built: a test's or a tool's): their code leaves the heap; an import loads it again."""
        package = sys.modules["dicetray"]
        for name in names:
            full = "dicetray." + name
            if full in sys.modules and full not in self.resident:
                del sys.modules[full]
                try:
                    delattr(package, name)
                except AttributeError:
                    pass

    def quit(self):
        """End the game (finished or not) and go back to the setup."""
        self.clear()
        self.show(SETUP)

    def save(self):
        """Save what an action changed: the settings of a new game, the game. Any power cut
        leaves the last whole save, which the panel showed a moment ago at most."""
        unsaved = self.unsaved
        self.unsaved = 0
        if unsaved & SETTINGS_DUE:
            try:
                self.store.save_settings(self.settings)
            except OSError:
                self.save_failed = True
        if unsaved & GAME_DUE and self.game is not None:
            try:
                self.store.save_game(self.game.to_dict())  # a finished one too, then cleared
                self.save_failed = False
            except OSError:
                self.save_failed = True  # the game goes on; the standings say it is not saved
        if unsaved & CLEAR_DUE:
            self._clear()

    def _clear(self):
        try:
            self.store.clear_game()
        except OSError:
            pass  # a failing flash must not stop the tray; a finished save is skipped at boot

    def clear(self):
        """Forget the saved game (it is over, or quit), once the panel shows what follows."""
        self.unsaved |= CLEAR_DUE


class Clock:
    """Everything that happens by the clock. The panel's dim and sleep state is the display's.

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
        self.tune = ()
        self.note = 0
        self.note_next = 0

    def input(self, now):
        """A press at now. True when it only woke the panel, and must do nothing else."""
        self.last_input = now
        d = self.display
        if not (d.asleep or d.dimmed):
            return False
        if d.asleep:
            d.sleep(False)
        d.dim(False)
        return True

    def tick(self, now):
        """Move the animation, the tune, dim and sleep on to now. True: redraw the dice."""
        diff = self.ticks_diff
        redraw = False
        if self.rolling and diff(now, self.anim_next) >= 0:
            redraw = True
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
        if self.tune and diff(now, self.note_next) >= 0:
            self._note(now)
        d = self.display
        if not d.asleep:
            idle = diff(now, self.last_input)
            if idle >= SLEEP_MS:
                d.sleep(True)
            elif idle >= DIM_MS and not d.dimmed:
                d.dim(True)
        return redraw

    # ---- the roll animation ------------------------------------------------------------------

    def roll(self, now, mask):
        """Animate the dice in mask (bit i: die i) for ANIM_MS from now (its first frame: at the
        next tick, which comes before the next drawing)."""
        self.rolling = mask
        self.anim_end = self.ticks_add(now, ANIM_MS)
        self.anim_next = now

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
        self.tune = tune
        self.note = 0
        self._note(self.last_input)

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
