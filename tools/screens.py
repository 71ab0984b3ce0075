"""Renders every screen the tray can show to PNG pictures, from what the decoded panel shows.

    python tools/screens.py              # (re)write docs/screens/*.png and list them
    python tools/screens.py --check      # exit 1 listing pictures that are stale or missing
    python tools/screens.py --out DIR    # somewhere else

Each picture comes from a whole tray on fakes (host_tests/trayrun.py) whose I2C bus is the
decoding fake panel (host_tests/fakes/oled.py): keys are pressed with scripted dice, and the
picture is what the glass would show, not the frame buffer. A few states that keys reach only
after a long game are set up directly on the app's game, then played on with keys. The panel
is drawn white on black, 4x, nearest neighbour, inside a one-panel-pixel dark grey border.
Everything is scripted, so two runs give the same files.
"""

import argparse
import io
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(_HERE)
for _p in (os.path.join(ROOT, "host_tests"), _HERE, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from autoplay import ScriptedDice  # noqa: E402
from dicetray import runner  # noqa: E402
from dicetray.display import Display  # noqa: E402
from dicetray.screens import NOTICE, OVER, PHASE, PLAY, RESULT, RESUME, SETUP, STANDINGS  # noqa: E402
from dicetray.store import Store  # noqa: E402
from fakes.oled import FakeI2C  # noqa: E402
from PIL import Image  # noqa: E402
from trayrun import NAMES, Buzzer, MemFS, Pin, Tray, ticks_add, ticks_diff  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screens")
SCALE = 4
BORDER = 1  # in panel pixels, so SCALE picture pixels
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
GREY = (80, 80, 80)
SEED = 7  # the roll animation's seed; no picture is taken during the animation anyway
# What runner.run shows comes from the traceback, which names this checkout's paths: a fixed
# text keeps the error picture the same on every machine.
FIXED_TRACEBACK = "Traceback (most recent call last):\nRuntimeError: made up for the picture\n"


class Shot:
    """One picture: its file name (no .png), what it shows, and the panel's lit pixels."""

    def __init__(self, name, caption, width, height, bits, screen=None):
        self.name = name
        self.screen = screen  # the app's screen (None: drawn by runner, no app)
        self.caption = caption
        self.width = width
        self.height = height
        self.bits = bits  # width * height bytes, 1 = lit, row by row


def _bits(i2c):
    return b"".join(bytes(row) for row in i2c.panel.pixels())


class Rig:
    """A tray on the decoding panel; dice are fed in just before the keys that throw them."""

    def __init__(self, shots, width=128, height=64, fs=None):
        self.shots = shots
        self.dice = ScriptedDice(())
        self.i2c = FakeI2C(width=width, height=height)
        self.tray = Tray(self.dice, i2c=self.i2c, fs=fs, width=width, height=height, seed=SEED)
        self.app = self.tray.app

    @property
    def game(self):
        return self.app.game

    def play(self, keys, *throws):
        """Press keys; throws: the dice (lists) the keys will throw, in order."""
        for dice in throws:
            self.dice.values.extend(dice)
        self.tray.keys(keys)

    def redraw(self):
        """After state was set up directly: draw it and send it, as the main loop would."""
        self.app.render()
        self.tray.display.show(self.tray.now)

    def snap(self, name, screen, caption):
        # Fail loudly when the app has moved on elsewhere: a wrong picture is worse than none.
        app = self.app
        if app.screen != screen:
            raise RuntimeError("%s: the tray shows %r, not %r" % (name, app.screen, screen))
        left = len(self.dice.values) - self.dice.i
        if left:
            raise RuntimeError("%s: %d scripted dice were not thrown" % (name, left))
        if app.clock.rolling or app.dirty:
            raise RuntimeError("%s: the panel is not up to date" % name)
        w, h = self.tray.display.width, self.tray.display.height
        self.shots.append(Shot(name, caption, w, h, _bits(self.i2c), screen))


# ---- the scenes: each plays a game (or part of one) and takes its pictures -------------------


def setup_menu(shots):
    rig = Rig(shots)
    rig.snap("setup", SETUP, "setup menu (the last setup, classic rules, 4 players)")
    rig.play("22r")  # down to TOKENS, one more
    rig.snap("setup_changed", SETUP, "setup with an option changed from its preset (*)")


def classic_game(shots):
    """Four players, classic rules: the roll-off, a whole charge turn, a décharge, the end."""
    rig = Rig(shots)
    rig.play("o")
    rig.play("rr", [6, 5, 3], [6, 3, 1])
    rig.snap("start_rolloff", PLAY, "who starts: everybody throws, the best throw starts")
    rig.play("rr", [3, 3, 3], [6, 6, 2])
    rig.snap("phase_charge", PHASE, "the charge begins: the pot, who starts")
    rig.play("o")
    rig.snap("turn_ready", PLAY, "a turn before the first throw")
    rig.play("r", [4, 5, 2])
    rig.snap("turn_thrown", PLAY, "a turn after a throw")
    rig.play("13")
    rig.snap("turn_kept", PLAY, "two dice kept (drawn solid)")
    rig.play("rr", [6], [3])
    rig.snap("turn_last_throw", PLAY, "the last throw is used: ROLL or OK ends the throws")
    rig.play("o")
    rig.play("rrro", [1, 5, 6], [2, 4, 6], [6, 3, 2])  # P4: exactly three throws too
    rig.play("rrro", [2, 3, 6], [1, 1, 5], [4, 2, 1])  # P1: 421
    rig.play("rrro", [3, 5, 5], [1, 6, 4], [2, 6, 3])  # P2: 632 like P4: a roll-off for last
    rig.play("r", [5])
    rig.snap("tie_rolloff", PLAY, "a tie for the worst throw: a roll-off with one die")
    rig.play("r", [2])
    rig.snap("result", RESULT, "the turn's result: who lost, tokens moved, the two throws")
    rig.play("o")
    rig.play("O")
    rig.snap("standings_4", STANDINGS, "standings (long OK), 4 players")
    rig.play("o")

    resumed = Rig(shots, fs=rig.tray.fs)  # the tray switched off and on again
    resumed.snap("resume", RESUME, "a game was saved: resume it or start a new one")

    g = rig.game  # skip to the end of the charge: one token left in the pot
    g.tokens[:] = [4, 10, 3, 3]
    g.pot = 1
    rig.redraw()
    rig.play("ro", [6, 5, 1])  # P2 stops after one throw: everybody gets one
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [5, 4, 1])  # P4 loses, takes the last token
    rig.play("ro", [6, 4, 1])
    rig.play("o")
    rig.snap("phase_decharge", PHASE, "the décharge begins: the pot is empty")
    rig.play("o")
    g.tokens[:] = [5, 1, 11, 4]
    rig.redraw()
    rig.play("ro", [6, 5, 2])
    rig.play("ro", [5, 3, 2])  # P1 loses...
    rig.play("ro", [4, 2, 1])  # ...to P2, whose last token ends the game (first out)
    rig.play("ro", [6, 4, 3])
    rig.snap("result_decharge", RESULT, "a décharge result: the winner gives the loser tokens")
    rig.play("o")
    rig.snap("over", OVER, "game over: who pays the round")


def _choose(rig, players, presses):
    # From the default setup (4 players, classic): KEEP3 lowers players, ROLL raises them,
    # then ROLL on RULES moves through the presets.
    step = "r" if players > 4 else "3"
    rig.play(step * abs(players - 4) + "2" + "r" * presses + "o")


def espagnole(shots):
    """Jackpot rules: the charge ends with one player holding every token."""
    rig = Rig(shots)
    _choose(rig, 3, 1)
    rig.play("rrr", [3], [6], [2])  # one die each: P2 starts
    g = rig.game
    g.tokens[:] = [0, 20, 0]
    g.pot = 1
    rig.redraw()
    rig.play("o")
    rig.play("ro", [5, 3, 2])  # P2 loses the last token of the pot
    rig.play("ro", [6, 6, 4])
    rig.play("ro", [6, 5, 5])
    rig.play("o")
    rig.snap("over_espagnole", OVER, "game over by l'Espagnole: one player took every token")


def tie_pass(shots):
    """Bar41 rules, two players: a tie passes the hand."""
    rig = Rig(shots)
    _choose(rig, 2, 3)
    rig.play("rr", [4], [2])
    rig.play("o")
    rig.play("ro", [6, 5, 2])
    rig.play("ro", [6, 5, 2])
    rig.snap("result_tie_pass", RESULT, "two players tie: nothing is paid, the hand passes")


def playoff(shots):
    """Le bon rules: a tie for the worst throw is played off with three dice, from the last."""
    rig = Rig(shots)
    _choose(rig, 3, 4)
    rig.play("rrr", [5], [2], [3])
    rig.play("o")
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [6, 5, 3])
    rig.play("ro", [6, 5, 3])
    rig.play("r", [6, 4, 2])
    rig.snap("playoff", PLAY, "a play-off: three dice, from the last of the tied players")
    rig.play("r", [6, 4, 2])
    rig.snap("playoff_stake", PLAY, "a play-off tied again: play for what is or what comes")


def eight_players(shots):
    rig = Rig(shots)
    _choose(rig, 8, 4)
    rig.play("r" * 8, [6], [2], [3], [4], [5], [1], [2], [3])
    rig.play("o")
    g = rig.game  # well into the décharge, three players out
    g.phase = "decharge"
    g.pot = 0
    g.tokens[:] = [3, 0, 7, 2, 0, 5, 4, 0]
    g.out[:] = [1, 4, 7]
    rig.play("O")
    rig.snap("standings_8", STANDINGS, "standings, 8 players (-- : out, a winner)")


def small_panel(shots):
    rig = Rig(shots, height=32)
    rig.play("o")
    rig.play("rrrr", [6, 5, 3], [6, 3, 1], [3, 3, 3], [6, 6, 2])
    rig.play("o")
    rig.play("r1", [4, 5, 2])
    rig.snap("turn_32", PLAY, "a turn on a 128x32 panel")
    rig.play("O")
    rig.snap("standings_32", STANDINGS, "standings on a 128x32 panel")


def save_lost(shots):
    fs = MemFS()
    fs.files["game.json"] = b'{"format": "dicetray-game", "vers'  # cut short by a power loss
    rig = Rig(shots, fs=fs)
    rig.snap("save_lost", NOTICE, "the saved game could not be read: a new game starts")


def safe_mode(shots):
    i2c = FakeI2C()
    display = Display(i2c, ticks_diff=ticks_diff)
    runner.safe_mode(display)
    shots.append(Shot("safe_mode", "safe mode (OK held at power-up)", 128, 64, _bits(i2c)))


class _CrashBoard:
    """What runner.run needs of a Board; the clock moves only when slept."""

    def __init__(self):
        self.now = 0
        self.pins = [(n, Pin()) for n in NAMES]
        self.buzzer = Buzzer()
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now = ticks_add(self.now, ms)

    def random_bits(self, k):
        return 0x2545F491 & ((1 << k) - 1)

    def start_watchdog(self):
        pass

    def feed(self):
        pass

    def reset(self):
        raise RuntimeError("the board would reset")


class _CrashingStore(Store):
    def load_settings(self, defaults):
        raise RuntimeError("made up for the picture")


def error_screen(shots):
    """runner.run itself catches a crash and shows its error screen."""
    i2c = FakeI2C()
    board = _CrashBoard()
    display = Display(i2c, ticks_diff=ticks_diff)
    real = runner.traceback_text
    runner.traceback_text = lambda exc: FIXED_TRACEBACK
    try:
        runner.run(board, display, _CrashingStore(fs=MemFS()), loops=1)
    finally:
        runner.traceback_text = real
    shots.append(Shot("error", "an unexpected error: the game restarts", 128, 64, _bits(i2c)))


SCENES = (setup_menu, classic_game, espagnole, tie_pass, playoff, eight_players, small_panel,
          save_lost, safe_mode, error_screen)


def render():
    """Every picture, in walkthrough order, as Shots."""
    shots = []
    for scene in SCENES:
        scene(shots)
    names = [s.name for s in shots]
    if len(set(names)) != len(names):
        raise RuntimeError("two pictures share a name")
    return shots


# ---- pictures ------------------------------------------------------------------------------


def picture(shot):
    """The shot as an image: palette 0 black, 1 white, 2 the border grey; SCALE x, bordered."""
    inner = Image.frombytes("P", (shot.width, shot.height), shot.bits)
    img = Image.new("P", (shot.width + 2 * BORDER, shot.height + 2 * BORDER), 2)
    img.paste(inner, (BORDER, BORDER))
    img.putpalette(BLACK + WHITE + GREY)
    return img.resize((img.width * SCALE, img.height * SCALE), Image.Resampling.NEAREST)


def png_bytes(shot):
    buf = io.BytesIO()
    picture(shot).save(buf, "PNG", bits=2, optimize=True)
    return buf.getvalue()


def same_picture(shot, path):
    """Whether the PNG at path shows the same pixels as the shot (whatever encoder wrote it)."""
    try:
        with Image.open(path) as img:
            old = img.convert("RGB")
    except (OSError, ValueError):
        return False
    new = picture(shot).convert("RGB")
    return old.size == new.size and old.tobytes() == new.tobytes()


def problems(shots, out):
    """Lines naming each picture in out that is missing, stale or no longer made."""
    lines = []
    made = set()
    for shot in shots:
        path = os.path.join(out, shot.name + ".png")
        made.add(shot.name + ".png")
        if not os.path.exists(path):
            lines.append("missing: %s" % path)
        elif not same_picture(shot, path):
            lines.append("stale: %s" % path)
    if os.path.isdir(out):
        for name in sorted(os.listdir(out)):
            if name.endswith(".png") and name not in made:
                lines.append("no longer made: %s" % os.path.join(out, name))
    return lines


def write(shots, out):
    """Write every picture whose bytes differ; returns the paths written."""
    os.makedirs(out, exist_ok=True)
    written = []
    for shot in shots:
        path = os.path.join(out, shot.name + ".png")
        data = png_bytes(shot)
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        with open(path, "wb") as f:
            f.write(data)
        written.append(path)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT, help="folder of the pictures (default docs/screens)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a picture is stale or missing")
    args = ap.parse_args(argv)
    shots = render()
    if args.check:
        found = problems(shots, args.out)
        for line in found:
            print(line)
        if found:
            print("run: python tools/screens.py")
            return 1
        print("%d pictures up to date in %s" % (len(shots), args.out))
        return 0
    written = set(write(shots, args.out))
    for shot in shots:
        path = os.path.join(args.out, shot.name + ".png")
        mark = "*" if path in written else " "
        print("%s %-22s %dx%d  %s" % (mark, shot.name + ".png", shot.width, shot.height,
                                     shot.caption))
    print("%d pictures in %s (* written now)" % (len(shots), args.out))
    for line in problems(shots, args.out):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
