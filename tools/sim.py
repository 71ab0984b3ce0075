"""The tray on a laptop: the real firmware app on fake hardware, its screen drawn in the terminal.

    python tools/sim.py                     play in this terminal
    python tools/sim.py --headless --keys "o.rrrr" --shots DIR   play keys, a PNG per screen

Keys (the same in both modes): 1 2 3 = KEEP1..3, r or space = ROLL, o or Enter = OK,
O = OK held long (standings, quit), . = wait one second, q = quit (interactive).
The screen is the display interface on a bare frame buffer (trayhost.canvas): what the app drew
and showed, no bus and no driver (tools/screens.py draws from the driver's bytes instead).
An interactive game is saved in .sim/ and offered on restart.
"""

import argparse
import os
import random
import select
import sys
import time

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray.runner import die_from_bits
from dicetray.store import Store
from trayhost.canvas import CanvasDisplay
from trayhost.pins import TICKS_MAX, ticks_add, ticks_diff
from trayhost.trayrun import KEYS, LONG_MS, POLL_MS, PRESS_MS, Tray

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEY_ALIASES = {" ": "r", "\n": "o", "\r": "o"}
LEGEND = "1 2 3 keep | r/space roll | o/Enter OK | O long OK | q quit"


def half_blocks(pixels):
    """Two panel rows per text row: upper half, lower half, full or empty block."""
    lines = []
    for y in range(0, len(pixels), 2):
        top, bottom = pixels[y], pixels[y + 1] if y + 1 < len(pixels) else [0] * len(pixels[y])
        lines.append("".join(" ▄▀█"[(t and 2) | (b and 1)] for t, b in zip(top, bottom)))
    return lines


def frame_text(pixels):
    width = len(pixels[0])
    body = ["│" + line + "│" for line in half_blocks(pixels)]
    return ["┌" + "─" * width + "┐"] + body + ["└" + "─" * width + "┘"]


def save_png(pixels, path, scale=4):
    from PIL import Image

    h, w = len(pixels), len(pixels[0])
    img = Image.new("L", (w, h))
    img.putdata([255 if v else 0 for row in pixels for v in row])
    img.resize((w * scale, h * scale), Image.NEAREST).save(path)


def headless(args):
    """Play the key string on a simulated clock; write a PNG each time the screen changes."""
    seed = args.seed if args.seed is not None else 1
    display = CanvasDisplay(128, args.height)
    tray = Tray(die_from_bits(random.Random(seed).getrandbits), display=display, seed=seed)
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
    finished = 0
    for k in args.keys:
        k = KEY_ALIASES.get(k, k)
        if k not in KEYS and k != ".":
            raise SystemExit("unknown key %r: use 1 2 3 r o O . (space = r, Enter = o)" % k)
        before = tray.app.screen
        tray.key(k)
        if tray.app.screen == "over" and before != "over":
            finished += 1
        shoot()
    print("\n".join(frame_text(last)))
    print("games over: %d, now on the %s screen" % (finished, tray.app.screen))
    print("%d screens%s" % (len(shots), (" written to " + args.shots) if args.shots else ""))
    return 0


def ticks():
    return int(time.monotonic() * 1000) & TICKS_MAX


class Interactive:
    """The tray in a terminal, in real time; the game is kept in .sim/ between runs."""

    def __init__(self, args):
        os.makedirs(args.save_dir, exist_ok=True)
        rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
        self.display = CanvasDisplay(128, args.height)
        self.tray = Tray(die_from_bits(rng.getrandbits), display=self.display,
                         store=Store(root=args.save_dir), start_ms=ticks(),
                         seed=rng.getrandbits(30))
        self.releases = {}  # pin name -> ticks when the simulated finger lifts

    def press(self, k, now):
        name = KEYS[k]
        self.tray.pins[name].press()
        self.releases[name] = ticks_add(now, LONG_MS if k == "O" else PRESS_MS)

    def draw(self, out):
        lines = frame_text(self.display.pixels())
        out.write("\x1b[H" + "\n".join(lines) + "\n" + LEGEND + "\x1b[K\n")
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
            seen = -1
            while True:
                if select.select([fd], [], [], POLL_MS / 1000)[0]:
                    ch = os.read(fd, 1).decode("utf-8", "ignore")
                    if ch in ("q", "\x03", "\x04"):
                        break
                    k = KEY_ALIASES.get(ch, ch)
                    if k in KEYS:
                        self.press(k, ticks())
                now = ticks()
                for name, at in list(self.releases.items()):
                    if ticks_diff(now, at) >= 0:
                        self.tray.pins[name].release()
                        del self.releases[name]
                self.tray.app.step(now)
                if self.display.changes != seen:
                    seen = self.display.changes
                    self.draw(out)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            out.write("\x1b[?25h\n")
            out.flush()
        return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--headless", action="store_true", help="no terminal UI: play --keys")
    ap.add_argument("--keys", default="", help="keys to play in headless mode")
    ap.add_argument("--shots", metavar="DIR", help="headless: write a PNG per screen change")
    ap.add_argument("--seed", type=int, help="fixed dice (default: random when interactive)")
    ap.add_argument("--height", type=int, choices=(64, 32), default=64)
    ap.add_argument("--save-dir", default=os.path.join(ROOT, ".sim"),
                    help="interactive: where the game is saved (default .sim/)")
    args = ap.parse_args(argv)
    if args.headless:
        return headless(args)
    if not sys.stdin.isatty():
        raise SystemExit("sim: no terminal here; use --headless --keys KEYS [--shots DIR]")
    return Interactive(args).run()


if __name__ == "__main__":
    sys.exit(main())
