"""The bot that plays the tray on the emulated Pico for emupico/bench.py, and its samples.

Kinds of press: keep (KEEP1 on a turn), throw (ROLL on a turn), stop (OK ending a turn),
result (OK on a turn's result, to the next turn), setup (OK on the setup screen). Each is the
kit's `latency` measurement (emupico/kit.py), started where its window cannot meet one of
the display's keepalive refreshes (Keepalive); a window that met one after all is dropped.
"""

from __future__ import annotations

from dicetray.clock import ANIM_MS
from dicetray.panel import Panel

from emupico.kit import PicoError, screen_of
from emupico.panel import UNDO_OFFERED

SAMPLES = 10  # presses measured per kind, at least
KINDS = ("keep", "throw", "stop", "result", "setup")
QUIET_MS = 100  # the roll animation draws every 60 ms: a quieter bus means the panel is done
# ... except while the throw is saved: the save comes after the animation's first frame and
# holds the CPU, so the next frame can come 70-190 ms later. A throw's window waits longer, so
# that the next press (a keep) meets landed dice, not the animation (it would land them).
THROW_QUIET_MS = 300
MAX_PRESSES = 400
KEEPALIVE_MS = Panel.refresh_ms
KEEPALIVE_MARGIN_MS = 120  # how far off a predicted keepalive may be, either way
KEEPALIVE_DRIFT_MS = 12  # each keepalive comes up to a main loop step late


FIRST_THROW = "ROLL OR HOLD OK:TABLE"  # a turn's hints before its first throw (dicetray.ui)


def quiet_ms(key):
    """How long the panel's bus must stay quiet to end key's latency window: a ROLL's waits
    out the throw's save, so the next press meets landed dice."""
    return THROW_QUIET_MS if key == "ROLL" else QUIET_MS


def choose(screen, hints, kept):
    """(key, kind) of the bot's next press; kind None: a press that is not measured.

    On a turn: throw, then (P1 only, while throws are left) keep the first die once, then stop.
    """
    if screen == "setup":
        return "OK", "setup"
    if screen == "turn":
        if hints == FIRST_THROW or hints.startswith(UNDO_OFFERED):  # not KEEP1: the undo
            return "ROLL", "throw"
        if hints.startswith("KEEP") and not kept:
            return "KEEP1", "keep"
        if "OK:" in hints:
            return "OK", "stop"
        return "ROLL", "throw"
    if screen == "contest":
        return ("KEEP1" if hints.startswith("KEEP1:") else "ROLL"), None
    if screen == "result":
        return "OK", "result"
    if screen in ("phase", "outcome", "over", "tally", "notice", "resume", "standings", "quit"):
        return "OK", None  # on "quit": no, back to the game
    raise PicoError("the bot does not know this screen (%s)" % screen)


class Keepalive:
    """Predicts the display's keepalive refreshes from the first main loop step after a boot."""

    def __init__(self, period=KEEPALIVE_MS, margin=KEEPALIVE_MARGIN_MS,
                 drift=KEEPALIVE_DRIFT_MS):
        self.period, self.margin, self.drift = period, margin, drift
        self.anchor = None

    def booted(self, first_step):
        self.anchor = first_step

    def wait_before(self, now, window):
        """Emulated ms to wait so that [now, now + window] holds no keepalive (0: go now)."""
        n = 1
        while True:
            due = self.anchor + n * self.period
            lo, hi = due - self.margin, due + n * self.drift + self.margin
            if now + window < lo:
                return 0
            if now <= hi:
                return hi - now + 1
            n += 1


class Bench:
    """Plays the tray on one emulated Pico (or its host twin, tools/picotwin, whose samples have
    bytes and writes but no times) and collects latency samples per kind of press."""

    def __init__(self, pico, samples=SAMPLES, log=print):
        self.pico = pico
        self.samples = samples
        self.log = log
        self.keepalive = Keepalive()
        self.got = {k: [] for k in KINDS}
        self.kept = False
        self.spoiled = 0  # windows that met a keepalive after all (bytes tell): dropped

    def boot(self, hold=None):
        self.pico.powercycle(hold)
        panel = self.pico.settle(fresh=True, until=lambda p: screen_of(p) is not None)
        # The first step drew the boot screen just before the last write settle saw.
        self.keepalive.booted(self.pico.last_write - 60)
        return panel

    def window(self, kind):
        seen = [s["last_byte_ms"] for s in self.got.get(kind) or ()
                if s["last_byte_ms"] is not None]  # None: the twin, which has no clock
        return (max(seen) if seen else 800) + THROW_QUIET_MS + 150

    def press(self, key, kind, seen=None):
        """Press key (out of the keepalives' way); returns (figures, panel after). Given the
        panel seen when the key was chosen: (None, the panel now) if the tray moved on by
        itself while the bot waited (a turn whose throws are used up ends on its own), and
        the key is not pressed."""
        waited = False
        while True:
            wait = self.keepalive.wait_before(self.pico.now(), self.window(kind))
            if not wait:
                break
            self.pico.wait(wait)
            waited = True
        if waited and seen is not None:
            now = self.pico.panel()
            if now != seen:
                return None, now
        figures = self.pico.latency(key, quiet=quiet_ms(key))
        if kind == "setup":
            figures["ok_at_once"] = True  # OK held means OK there: it acts as it goes down
        last = figures["last_byte_ms"]
        if kind == "throw" and last is not None and last < ANIM_MS:
            raise PicoError("a throw's window ended before its roll animation (%d ms): %r"
                            % (ANIM_MS, figures))
        return figures, self.pico.panel()

    def step(self, panel):
        """One bot press from this panel; records it if measured. Returns the next panel."""
        screen, hints = screen_of(panel), panel.hints()
        key, kind = choose(screen, hints, self.kept)
        figures, after = self.press(key, kind, panel)
        if figures is None:
            return after
        next_screen = screen_of(after)
        if kind == "keep":
            self.kept = True
        if next_screen == "turn" and after.hints() == FIRST_THROW:
            self.kept = False  # a new turn
        if kind == "result" and next_screen != "turn":
            kind = None  # OK on a result that leads to a phase change or the end
        if kind and not figures["bytes"]:
            raise PicoError("%s (%s) drew nothing: %r" % (kind, key, figures))
        if kind and kind != "throw" and figures["bytes"] > self.frame_bytes:
            self.spoiled += 1  # more than a whole frame: a keepalive was in the window
        elif kind:
            self.got[kind].append(figures)
        return after

    frame_bytes = 8 * (4 + 1 + 128) + 8  # a whole frame sent in spans, and a command or two

    def missing(self, kinds):
        return [k for k in kinds if len(self.got[k]) < self.samples]

    def run(self):
        # Setup presses: power up on the resume prompt, ROLL for a new game, OK to start it.
        for _ in range(self.samples):
            panel = self.boot()
            while screen_of(panel) != "setup":
                _, panel = self.press("ROLL" if screen_of(panel) == "resume" else "OK", None)
            panel = self.step(panel)
        self.log("Pico         %d setup presses measured; playing for the others ..."
                 % len(self.got["setup"]))
        presses = 0
        while self.missing(KINDS[:4]):
            presses += 1
            if presses > MAX_PRESSES:
                raise PicoError("still missing %s after %d presses"
                                % (self.missing(KINDS), MAX_PRESSES))
            panel = self.step(panel)
        return self.got
