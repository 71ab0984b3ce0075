"""Draw docs/web.png: the page on a phone's screen (390x844, touch), a turn with a die kept.

    python tools/web/picture.py [--out docs/web.png]

Headless Chromium (tools/web/browser.py) plays the keys on the page with seeded dice; the
canvas must then show the frame the firmware shows on CPython after the same keys, or no
picture is written. The picture carries that frame's digest (a PNG text chunk, FRAME_KEY), so a
test tells when the firmware draws that turn otherwise and the picture is stale
(up_to_date()).
"""

import argparse
import hashlib
import os
import sys
import tempfile
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable as on the Pico)
from trayhost.autoplay import SeededDice  # noqa: E402
from trayhost.canvas import CanvasDisplay  # noqa: E402
from trayhost.trayrun import PRESS_MS, REST_MS, Tray  # noqa: E402

from web import browser, build  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 7
KEYS = "orrrroor2"  # 4 players: who starts, the charge, the first throw, the middle die kept


FRAME_KEY = "dicetray-frame"  # the PNG text chunk: the sha256 of expected_frame()
OUT = os.path.join(ROOT, "docs", "web.png")


def expected_frame():
    display = CanvasDisplay(128, 64)
    tray = Tray(SeededDice(SEED), display=display, seed=SEED)
    for k in KEYS:
        tray.key(k)
    return "".join("".join(map(str, row)) for row in display.pixels())


def draw(out):
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        build.build(site)
        with browser.served(site, os.path.join(tmp, "profile"), has_touch=True,
                            is_mobile=True) as (_, page, url):
            page.goto("%s?seed=%d" % (url, SEED))
            browser.started(page)
            for k in KEYS:
                page.keyboard.down(k)
                time.sleep(PRESS_MS / 1000)
                page.keyboard.up(k)
                time.sleep(REST_MS / 1000)
            frame = expected_frame()
            if page.evaluate("window.trayPixels()") != frame:
                raise SystemExit("web picture: the page does not show the expected turn")
            page.screenshot(path=out)
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    with Image.open(out) as shot:
        shot.load()
    info = PngInfo()
    info.add_text(FRAME_KEY, frame_digest(frame))
    shot.save(out, pnginfo=info)


def frame_digest(frame=None):
    """The sha256 of frame (expected_frame() when None), as the picture carries it."""
    return hashlib.sha256((expected_frame() if frame is None else frame).encode()).hexdigest()


def up_to_date(path=OUT):
    """Whether the picture at path shows the turn the firmware draws today (its digest)."""
    from PIL import Image

    with Image.open(path) as shot:
        return shot.info.get(FRAME_KEY) == frame_digest()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    reason = browser.unavailable()
    if reason:
        print("web picture: " + reason, file=sys.stderr)
        return 1
    draw(args.out)
    print("web picture: " + args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
