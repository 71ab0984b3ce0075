"""Renders every screen the tray can show to PNG pictures, from what the decoded panel shows.

    python tools/screens/pictures.py            # (re)write docs/screens/*.png and list them
    python tools/screens/pictures.py --check    # exit 1 listing pictures stale or missing
    python tools/screens/pictures.py --out DIR  # somewhere else

Each picture comes from a whole tray on fakes (tools/trayhost/trayrun.py) whose I2C bus is the
decoding fake panel (tools/trayhost/oled.py): keys are pressed with scripted dice, and the
picture is what the glass would show, not the frame buffer. The scenes that press the keys are
in scenes.py, the tray that takes the pictures in rig.py; this file draws the panel white on
black, 4x, nearest neighbour, inside a one-panel-pixel dark grey border, and writes the PNG
files. Everything is scripted, so two runs give the same files.
"""

import argparse
import io
import os
import sys

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402, F401  (first: the firmware importable as on the Pico)
from dicetray import words  # noqa: E402
from PIL import Image  # noqa: E402

from screens import rig  # noqa: E402
from screens.scenes import SCENES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "docs", "screens")
SCALE = 4
BORDER = 1  # in panel pixels, so SCALE picture pixels
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
GREY = (80, 80, 80)


def render():
    """Every picture, in walkthrough order, as Shots: in the default language, then in each of
    the others, named <name>_<language> (setup_fr)."""
    shots = []
    for lang in (words.DEFAULT,) + tuple(c for c in words.LANGS if c != words.DEFAULT):
        made = render_in(lang, SCENES)
        if lang != words.DEFAULT:
            for shot in made:
                shot.name += "_" + lang
        shots += made
    names = [s.name for s in shots]
    if len(set(names)) != len(names):
        raise RuntimeError("two pictures share a name")
    return shots


def render_in(lang, scenes):
    """The pictures of scenes with the trays speaking lang (their settings say it; the default:
    no settings file, as a new tray)."""
    shots = []
    rig.LANG = None if lang == words.DEFAULT else lang
    try:
        for scene in scenes:
            scene(shots)
    finally:
        rig.LANG = None
        words.use(words.DEFAULT)  # as a new tray speaks
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
            print("run: python tools/screens/pictures.py")
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
