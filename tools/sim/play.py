"""The tray on a laptop: the real firmware app on fake hardware, its screen drawn in the terminal.

    python tools/sim/play.py                     play in this terminal
    python tools/sim/play.py --headless --keys "o.rrrr" --shots DIR   play keys, a PNG per screen

Keys (the same in both modes): 1 2 3 = KEEP1..3, r or space = ROLL, o or Enter = OK,
O = OK held long (the table, quit?, undo?), . = wait one second, q = quit (interactive).
The picture fits the terminal (view.py): half blocks at the panel's true size from 130x36, braille
cells (2x4 pixels each) in an 80x24 terminal, else one line naming the size needed; under it, a
status line marks the buzzer's tunes (a refused press apart) and a dimmed or dark panel.
The screen is the display interface on a bare frame buffer (trayhost.canvas): what the app drew
and showed, no bus and no driver (tools/screens draws from the driver's bytes instead).
An interactive game is saved in .sim/ (--save-dir) and offered on restart; q says so. Headless
runs keep nothing unless given --save-dir.
"""

import argparse
import os
import random
import select
import sys
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable as on the Pico)
from dicetray import words  # noqa: E402
from dicetray.runner import die_from_bits  # noqa: E402
from dicetray.store import Store  # noqa: E402
from trayhost import hostwords  # noqa: E402
from trayhost.canvas import CanvasDisplay  # noqa: E402
from trayhost.pins import TICKS_MAX, ticks_add, ticks_diff  # noqa: E402
from trayhost.trayrun import KEYS, LONG_MS, POLL_MS, PRESS_MS, Tray  # noqa: E402

from sim.view import SoundCue, fit, framed, half_blocks, status  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAVE_DIR = os.path.join(ROOT, ".sim")

KEY_ALIASES = {" ": "r", "\n": "o", "\r": "o"}

def frame_text(pixels):
    """The panel at its true size, one half block per two pixels (headless: no terminal)."""
    return framed(half_blocks(pixels))


def save_png(pixels, path, scale=4):
    from PIL import Image

    h, w = len(pixels), len(pixels[0])
    img = Image.new("L", (w, h))
    img.putdata([255 if v else 0 for row in pixels for v in row])
    img.resize((w * scale, h * scale), Image.NEAREST).save(path)


def script_keys(text):
    """The keys of a headless script, aliases resolved; an unknown key stops the run."""
    keys = [KEY_ALIASES.get(k, k) for k in text]
    for k in keys:
        if k not in KEYS and k != ".":
            raise SystemExit("unknown key %r: use 1 2 3 r o O . (space = r, Enter = o)" % k)
    return keys


def shown_path(path):
    """path as the player would type it: relative to the repository when inside it."""
    path = os.path.abspath(path)
    inside = os.path.relpath(path, ROOT)
    return inside if not inside.startswith("..") else path


def quit_note(store, again):
    """What to tell the player as the simulator stops: where the game is kept and how it comes
    back (the command to run again), or that there is none."""
    t = hostwords.of(words.lang)  # the tray's language
    saved, nothing = t.SIM_SAVED, t.SIM_NOTHING_TO_RESUME
    if store.fs.exists(store.path(store.GAME)):
        return (saved[0] % shown_path(store.path(store.GAME)), saved[1] % again)
    settings = store.path(store.SETTINGS)
    if store.fs.exists(settings):
        return (nothing[0], nothing[1] % shown_path(settings))
    return nothing[:1]


# The screens as words' SIM_SCREENS names them, in its order ("contest": a play screen's
# roll-off or play-off).
SCREENS = ("setup", "play", "contest", "result", "phase", "outcome", "standings", "tally", "quit",
           "over", "resume", "notice", "undo")


def screen_name(app):
    """The screen app shows, as the README's key table names it, in the tray's language."""
    screen = app.screen
    if screen == "play" and app.game.contest is not None:
        screen = "contest"
    return hostwords.of(words.lang).SIM_SCREENS.split("|")[SCREENS.index(screen)]


def open_store(save_dir):
    os.makedirs(save_dir, exist_ok=True)
    return Store(root=save_dir)


def headless(args):
    """Play the key string on a simulated clock; write a PNG each time the screen changes.
    Nothing is kept unless --save-dir names a folder: then the game is saved there, and the
    next run with the same folder offers it again, as the interactive simulator does."""
    keys = script_keys(args.keys)
    seed = args.seed if args.seed is not None else 1
    display = CanvasDisplay(128, args.height)
    store = open_store(args.save_dir) if args.save_dir else None
    tray = Tray(die_from_bits(random.Random(seed).getrandbits), display=display, seed=seed,
                store=store)
    cue = SoundCue(lambda: tray.now)
    cue.listen(tray.buzzer)
    shots = []
    last = None

    def shoot():
        nonlocal last
        pixels = display.pixels()
        if pixels != last:
            last = pixels
            if args.shots:
                os.makedirs(args.shots, exist_ok=True)
                path = os.path.join(args.shots, "screen_%03d.png" % len(shots))
                save_png(pixels, path)
            shots.append(pixels)

    shoot()
    ended = []  # each game that ended, once, however often its end and tally are shown again
    for k in keys:
        tray.key(k)
        g = tray.app.game
        if g is not None and g.over and not any(e is g for e in ended):
            ended.append(g)
        shoot()
    print("\n".join(frame_text(last)))
    line = status(display, cue, tray.now)  # as the terminal would show it after the last key
    if line:
        print(line)
    said = hostwords.of(words.lang).SIM_SUMMARY  # in the tray's language, as the panel's
    print(said[0] % (len(ended), screen_name(tray.app)))
    print(said[2] % (len(shots), args.shots) if args.shots else said[1] % len(shots))
    if store is None:
        print(hostwords.of(words.lang).SIM_NOT_KEPT)
    else:
        again = "tools/run.sh --headless --save-dir %s" % shown_path(args.save_dir)
        print("\n".join(quit_note(store, again)))
    return 0


def terminal_size(fd):
    try:
        return tuple(os.get_terminal_size(fd))
    except OSError:  # not a terminal after all: the size every terminal has
        return (80, 24)


def paint(lines, rows):
    """Escapes drawing lines from the top left, each line cleared first, the rest of the screen
    cleared after. No newline: a full last row would scroll, a full-width line would wrap."""
    out = ["\x1b[%d;1H\x1b[K%s" % (i + 1, line) for i, line in enumerate(lines)]
    if len(lines) < rows:
        out.append("\x1b[%d;1H\x1b[J" % (len(lines) + 1))
    return "".join(out)


def ticks():
    return int(time.monotonic() * 1000) & TICKS_MAX


class Interactive:
    """The tray in a terminal, in real time; the game is kept in .sim/ between runs."""

    def __init__(self, args):
        rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
        self.display = CanvasDisplay(128, args.height)
        self.store = open_store(args.save_dir)
        self.again = "tools/run.sh" if args.save_dir == SAVE_DIR else \
            "tools/run.sh --save-dir %s" % shown_path(args.save_dir)
        self.tray = Tray(die_from_bits(rng.getrandbits), display=self.display,
                         store=self.store, start_ms=ticks(), seed=rng.getrandbits(30))
        self.cue = SoundCue(ticks)
        self.cue.listen(self.tray.buzzer)
        self.releases = {}  # pin name -> ticks when the simulated finger lifts
        self.seen = None  # what the terminal shows: the panel's changes, the status, its size

    def press(self, k, now):
        name = KEYS[k]
        self.tray.pins[name].press()
        self.releases[name] = ticks_add(now, LONG_MS if k == "O" else PRESS_MS)

    def step(self, now):
        for name, at in list(self.releases.items()):
            if ticks_diff(now, at) >= 0:
                self.tray.pins[name].release()
                del self.releases[name]
        self.tray.app.step(now)

    def draw(self, out, now):
        """Redraw when the panel, the status line or the terminal's size changed."""
        size = terminal_size(out.fileno())  # asked each step: a resized terminal redraws
        line = status(self.display, self.cue, now)
        if (self.display.changes, line, size) == self.seen:
            return
        self.seen = (self.display.changes, line, size)
        cols, rows = size
        legend = hostwords.of(words.lang).SIM_KEYS  # the tray's language, as the panel's
        out.write(paint(fit(self.display.pixels(), (line, legend), cols, rows), rows))
        out.flush()

    def run(self):
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        out = sys.stdout
        out.write("\x1b[?25l\x1b[2J")
        try:
            tty.setcbreak(fd)
            while True:
                if select.select([fd], [], [], POLL_MS / 1000)[0]:
                    ch = os.read(fd, 1).decode("utf-8", "ignore")
                    if ch in ("q", "\x03", "\x04"):
                        break
                    k = KEY_ALIASES.get(ch, ch)
                    if k in KEYS:
                        self.press(k, ticks())
                now = ticks()
                self.step(now)
                self.draw(out, now)
        except KeyboardInterrupt:  # Ctrl+C quits as q does: the game is saved all the same
            pass
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            out.write("\x1b[?25h\n")
            out.flush()
        # On the screen the player leaves: the panel stays above it, the note closes the run.
        print("\n".join(quit_note(self.store, self.again)))
        return 0


HELP_KEYS = """\
keys (in the terminal and in --keys):
  1 2 3       keep or release the die above that button (KEEP1..3)
  r, space    ROLL
  o, Enter    OK
  O           OK held long (the table; on the table or the tally: quit?, whose 1 says yes and
              keeps the game for the setup to offer)
  .           (--keys only) one second with no press: the roll animation lands, a turn whose
              throws are used up moves on, the computer seats play
  q           quit (in the terminal): the game stays saved in .sim/ (or --save-dir), and the
              next run offers it: OK resumes it

tools/run.sh runs this simulator; its own options, before any of the above:
  --sim            the simulator even with a Pico on USB (without one it is the default)
  --web [--port N] [--local]
                   the tray in a browser: build it and serve it to the phones on this
                   computer's network (--local: this computer only; tools/run.sh --web --help)

the player's guide explains them: docs/playing.md#playing-without-a-tray
"""


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/run.sh", description=__doc__.splitlines()[0],
                                 epilog=HELP_KEYS,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--headless", action="store_true", help="no terminal UI: play --keys")
    ap.add_argument("--keys", default="", help="keys to play in headless mode (see below)")
    ap.add_argument("--shots", metavar="DIR", help="headless: write a PNG per screen change")
    ap.add_argument("--seed", type=int, help="fixed dice (default: random when interactive)")
    ap.add_argument("--height", type=int, choices=(64, 32), default=64,
                    help="the panel's height in pixels (default 64)")
    ap.add_argument("--save-dir", default=None,
                    help="where the game is saved and resumed from (default: .sim/ in the "
                    "terminal; headless keeps nothing unless given)")
    args = ap.parse_args(argv)
    if args.headless:
        return headless(args)
    if not sys.stdin.isatty():
        raise SystemExit("sim: no terminal here; use --headless --keys KEYS [--shots DIR]")
    if args.save_dir is None:
        args.save_dir = SAVE_DIR
    return Interactive(args).run()


if __name__ == "__main__":
    sys.exit(main())
