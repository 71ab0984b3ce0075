"""The tray's screens and transitions, and its clock: button events in; drawing, sound, saves."""

from dicetray import ui
from dicetray.buttons import LONG
from dicetray.game import Game, GameError, SaveError
from dicetray.rules import (
    OPTIONS,
    PRESET_NAMES,
    PRESETS,
    Options,
    RulesError,
    evaluate,
)

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


KEEPS = ("KEEP1", "KEEP2", "KEEP3")
LONG_BUTTONS = ("OK",)  # only OK has a long meaning (standings / quit); the rest answer at once

# Screens
SETUP = "setup"
PLAY = "play"
RESULT = "result"
PHASE = "phase"
STANDINGS = "standings"
OVER = "over"
RESUME = "resume"
NOTICE = "notice"

DIM_MS = const(60000)  # no press for a minute: dim
SLEEP_MS = const(300000)  # five minutes: display off; the press that wakes it does nothing else
ANIM_MS = const(360)  # the roll animation
ANIM_FRAME_MS = const(60)

DEFAULT_SETTINGS = {"players": 4, "preset": "classic", "options": PRESETS["classic"].to_dict()}

# Tunes: frequency (Hz), milliseconds, frequency, milliseconds...; 0 Hz is a rest. Flat: one
# tuple a tune, not one a note (RAM).
SND_CLICK = (2000, 8)
SND_ROLL = (700, 20, 0, 30, 900, 20, 0, 30, 1100, 20)
SND_NO = (220, 90)
SND_LOSE = (660, 90, 440, 150)
SND_421 = (880, 80, 1175, 80, 1568, 160)
SND_OVER = (523, 120, 392, 120, 330, 120, 262, 300)


class App:
    """One tray. Drive it with step(now) from the main loop (or from tests with fakes)."""

    def __init__(self, display, buttons, store, roll, ticks_diff, ticks_add, buzzer=None, seed=1):
        self.display = display
        self.fb = display.fb
        self.w = display.width
        self.h = display.height
        self.buttons = buttons
        self.store = store
        self.roll = roll
        self.clock = Clock(display, ticks_diff, ticks_add, buzzer, seed)
        self.game = None
        self.screen = SETUP
        self.back = PLAY  # where the standings screen returns to
        self.after = []  # screens to show after the turn result (phase change, game over)
        self.kept = 0  # bit mask of the dice the current player keeps
        self.notice = ("", ())  # (title, lines) for the NOTICE screen
        self.cursor = 0
        self.settings = None
        self.save_failed = False
        self.was_down = False  # any button down at the last step (to wake on a new press)
        self.dirty = True

    # ---- start-up ------------------------------------------------------------------------

    def boot(self, now, resume=False):
        """Load settings and any saved game; show the resume prompt, a notice or the setup.

        resume: go straight back into the saved game (after a crash), no prompt.
        """
        self.clock.last_input = now
        self.settings = self.store.load_settings(DEFAULT_SETTINGS)
        self._check_settings()
        game, problem = self.store.load_game(self._build)
        if problem:
            self.notice = ("SAVE LOST", (problem, "A NEW GAME STARTS"))
            self.screen = NOTICE
        elif game is not None:
            if game.over:
                self._clear()
            else:
                self.game = game
                self.screen = PLAY if resume else RESUME
        self.dirty = True
        self.render()

    def _build(self, data):
        # Only the checker's own refusal means a bad save; anything else is a bug: a crash.
        try:
            return Game.from_dict(data, self.roll), None
        except SaveError as e:
            return None, str(e)

    def _check_settings(self):
        s = self.settings
        players = s.get("players")
        if type(players) is not int or not 2 <= players <= 8:
            s["players"] = DEFAULT_SETTINGS["players"]
        if s.get("preset") not in PRESETS:
            s["preset"] = DEFAULT_SETTINGS["preset"]
        try:
            Options(**s["options"])
        except (RulesError, TypeError):
            s["options"] = PRESETS[s["preset"]].to_dict()

    # ---- the main loop's step ---------------------------------------------------------------

    def step(self, now):
        """Poll the buttons once, act, keep time, and refresh the panel. Allocates nothing idle."""
        ev = self.buttons.poll(now)
        # OK reports at release (it has a long meaning), so a sleeping tray wakes as a button
        # goes down; only on that edge, so a button stuck down cannot keep the panel lit.
        down = self.buttons.any_down()
        pressed = down and not self.was_down
        self.was_down = down
        t = self.clock
        if ev is not None:
            if t.input(now):
                self.buttons.clear()  # the press that wakes the tray does nothing else
            elif t.rolling:
                t.rolling = 0  # a press during the roll shows the dice at once, nothing else
                self.dirty = True
            else:
                self.press(ev[0], ev[1] == LONG, now)
        elif pressed and self.display.asleep:
            t.input(now)
            self.buttons.clear()
        if t.tick(now):
            self.dirty = True
        if self.dirty:
            self.render()
        self.display.show(now)

    # ---- button presses, per screen --------------------------------------------------------

    def press(self, name, long, now):
        screen = self.screen
        if screen == PLAY:
            self._press_play(name, long, now)
        elif screen == SETUP:
            self._press_setup(name)
        elif screen == STANDINGS:
            if name == "OK" and long:
                self._quit()
            elif name == "OK" or name == "ROLL":
                self._show(self.back)
        elif screen == RESULT or screen == PHASE:
            if name == "OK" or name == "ROLL":
                self._show(self.after.pop(0) if self.after else PLAY)
        elif screen == OVER:
            if name == "OK":
                self._clear()
                self.game = None
                self._show(SETUP)
        elif screen == RESUME:
            if name == "OK":
                self._show(PLAY)
            elif name == "ROLL":
                self.game = None
                self._show(SETUP)
        elif screen == NOTICE:
            if name == "OK":
                self._show(SETUP)

    def _press_play(self, name, long, now):
        g = self.game
        if name == "OK" and long:
            self.back = PLAY
            self._show(STANDINGS)
            return
        if g.contest is not None:
            if g.can_announce() and (name == "KEEP1" or name == "KEEP3"):
                self._act(now, "announce", "is" if name == "KEEP1" else "comes")
            elif name == "ROLL":
                self._act(now, "throw", ())
            else:
                self.clock.beep(SND_NO)
            return
        if name in KEEPS:
            bit = 1 << KEEPS.index(name)
            if not g.can_keep() or not g.can_throw():
                self.clock.beep(SND_NO)
            elif self.kept & bit or self._kept_count() < 2:
                self.kept ^= bit
                self.clock.beep(SND_CLICK)
                self.dirty = True
            else:
                self.clock.beep(SND_NO)  # a throw must throw at least one die
        elif name == "ROLL":
            if g.can_throw():
                kept = tuple(i for i in range(3) if self.kept & (1 << i))
                self._act(now, "throw", kept)
            elif g.can_stop():
                self._act(now, "stop", None)
        elif name == "OK":
            if g.can_stop():
                self._act(now, "stop", None)
            else:
                self.clock.beep(SND_NO)

    def _kept_count(self):
        k = self.kept
        return (k & 1) + (k >> 1 & 1) + (k >> 2 & 1)

    def _act(self, now, verb, arg):
        g = self.game
        before = g.current
        try:
            if verb == "throw":
                events = g.throw(arg)
            elif verb == "stop":
                events = g.stop()
            else:
                events = g.announce(arg)
        except GameError:
            self.clock.beep(SND_NO)  # the engine refused: nothing changed
            return
        self._save()
        rolling = 7 & ~self.kept if g.count > 1 else 7
        if g.current != before or g.count == 0:
            self.kept = 0
        self._after_events(events)
        if verb == "throw":
            self.clock.beep(SND_ROLL)
            if self.screen == PLAY and g.contest is None and g.count:
                self.clock.roll(now, rolling)
        self.dirty = True

    def _after_events(self, events):
        ended = False
        for ev in events:
            kind = ev[0]
            if kind == "turn" or kind == "tie_pass":
                ended = True
            elif kind == "phase":
                if ev[1] == "charge":
                    return self._show(PHASE)  # the opening roll-off is over: who starts
                self.after.append(PHASE)
            elif kind == "over":  # always after the last turn's result
                self.after.append(OVER)
                self.clock.beep(SND_OVER)
                self._clear()
                return self._show(RESULT)
        if ended:
            last = self.game.last
            won = evaluate(last["wdice"], self.game.opts).name == "421"
            self.clock.beep(SND_421 if won else SND_LOSE)
            self._show(RESULT)

    def _quit(self):
        self._clear()
        self.game = None
        self._show(SETUP)

    def _show(self, screen):
        self.screen = screen
        self.dirty = True

    # ---- setup ---------------------------------------------------------------------------

    def setup_rows(self):
        s = self.settings
        preset = PRESETS[s["preset"]]
        rows = [("PLAYERS", str(s["players"])), ("RULES", s["preset"].upper())]
        for name, label, allowed, shown, _, _ in OPTIONS:
            value = s["options"][name]
            if value != getattr(preset, name):
                label = "*" + label  # changed from the preset
            i = _place(allowed, value)  # shown[i] names allowed[i]; a number when unnamed
            rows.append((label, shown[i] if shown and i < len(shown) else str(value)))
        return rows

    def _press_setup(self, name):
        n = 2 + len(OPTIONS)
        if name == "KEEP1":
            self.cursor = (self.cursor - 1) % n
        elif name == "KEEP2":
            self.cursor = (self.cursor + 1) % n
        elif name == "KEEP3" or name == "ROLL":
            self._change(-1 if name == "KEEP3" else 1)
        elif name == "OK":
            self._start_game()
            return
        self.dirty = True

    def _change(self, step):
        s = self.settings
        c = self.cursor
        if c == 0:
            s["players"] = 2 + (s["players"] - 2 + step) % 7
        elif c == 1:
            i = (PRESET_NAMES.index(s["preset"]) + step) % len(PRESET_NAMES)
            s["preset"] = PRESET_NAMES[i]
            s["options"] = PRESETS[s["preset"]].to_dict()
        else:
            name, _, allowed, _, _, _ = OPTIONS[c - 2]
            i = _place(allowed, s["options"][name]) + step
            s["options"][name] = allowed[i % len(allowed)]  # in the table's order

    def _start_game(self):
        s = self.settings
        try:
            self.store.save_settings(s)
        except OSError:
            self.save_failed = True
        self.game = Game(s["players"], Options(**s["options"]), self.roll)
        self.game.take_events()
        self.kept = 0
        self.after = []
        self._save()
        self._show(PLAY)

    def _save(self):
        try:
            self.store.save_game(self.game.to_dict())
            self.save_failed = False
        except OSError:
            self.save_failed = True  # the game goes on; the standings say it is not saved

    def _clear(self):
        try:
            self.store.clear_game()
        except OSError:
            pass  # a failing flash must not stop the tray; a finished save is skipped at boot

    # ---- drawing ----------------------------------------------------------------------------

    def render(self):
        self.dirty = False
        fb, w, h, g = self.fb, self.w, self.h, self.game
        s = self.screen
        if s == PLAY:
            if g.contest is not None:
                ui.contest(fb, w, h, g)
            else:
                kept = self.kept if g.can_throw() else 0  # no throw left: nothing to keep
                ui.turn(fb, w, h, g, kept, self.clock.shown_dice(g.dice))
        elif s == SETUP:
            ui.menu(fb, w, h, "NEW GAME  OK:START", self.setup_rows(), self.cursor,
                    "1:^ 2:~ 3:- R:+ OK:GO")
        elif s == RESULT:
            ui.result(fb, w, h, g)
        elif s == PHASE:
            ui.phase(fb, w, h, g)
        elif s == STANDINGS:
            ui.standings(fb, w, h, g, self.save_failed)
        elif s == OVER:
            ui.over(fb, w, h, g)
        elif s == RESUME:
            ui.message(fb, w, h, "RESUME?", (
                "%s %d PLAYERS" % (_preset_name(g.opts), g.n),
                "TURN %d %s" % (g.turn, ui.PHASE_NAMES[g.phase]),
                ui.pname(g.current) + " TO PLAY",
            ), "OK:RESUME ROLL:NEW")
        elif s == NOTICE:
            title, lines = self.notice
            ui.message(fb, w, h, title, lines, "OK:NEW GAME")


def _place(allowed, value):
    # Where value is among the allowed values (a MicroPython range has no index()).
    for i in range(len(allowed)):
        if allowed[i] == value:
            return i
    raise RulesError("not allowed: %r" % (value,))


def _preset_name(opts):
    for name in PRESET_NAMES:
        if PRESETS[name] == opts:
            return name.upper()
    return "CUSTOM"


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
