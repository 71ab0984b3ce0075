"""Build the static site of the tray in a browser: one folder to serve or publish as it is.

    python tools/web/build.py [--out build/web]

The page (index.html, tray.css, tray.js), its Python (the firmware's dicetray package, the
trayhost modules its seeded dice come from, webtray.py) bundled in tray-py.json, the pinned
MicroPython WebAssembly build (tools/micropython/node_modules, installed by tools/bootstrap.sh:
nothing is fetched from elsewhere), the web app manifest, its icons and the service worker
that keeps it all for offline use (its cache is named by the hash of everything it holds).
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "web")
MICROPYTHON = os.path.join(ROOT, "tools", "micropython", "node_modules", "@micropython",
                           "micropython-webassembly-pyscript")
PAGE = ("index.html", "tray.css", "tray.js", "manifest.webmanifest")
RUNTIME = ("micropython.mjs", "micropython.wasm")
# trayhost: SeededDice, FakePin, ticks, the page's words
HOST_MODULES = ("__init__.py", "autoplay.py", "pins.py", "hostwords.py")


class BuildError(Exception):
    """Something the build needs is missing; the message says what to do."""


def python_sources():
    """{path in the page's filesystem: text}: the firmware's package, trayhost's few, the glue."""
    sources = {}
    firmware = os.path.join(ROOT, "firmware")
    for folder, dirs, files in sorted(os.walk(os.path.join(firmware, "dicetray"))):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    sources[os.path.relpath(path, firmware).replace(os.sep, "/")] = f.read()
    for name in HOST_MODULES:
        with open(os.path.join(ROOT, "tools", "trayhost", name), encoding="utf-8") as f:
            sources["trayhost/" + name] = f.read()
    with open(os.path.join(HERE, "webtray.py"), encoding="utf-8") as f:
        sources["webtray.py"] = f.read()
    return sources


def icon(size):
    """The icon: a lit die (five pips) on the tray's dark wood, as PNG bytes."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), (27, 29, 32))
    draw = ImageDraw.Draw(img)
    m = size // 8
    draw.rounded_rectangle((m, m, size - m, size - m), radius=size // 7, fill=(200, 232, 255))
    r = size // 13
    for fx, fy in ((0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)):
        cx, cy = int(size * fx), int(size * fy)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(5, 5, 6))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def site_files():
    """{name: bytes} of every file of the site but the service worker."""
    files = {}
    for name in PAGE:
        with open(os.path.join(HERE, name), "rb") as f:
            files[name] = f.read()
    for name in RUNTIME:
        path = os.path.join(MICROPYTHON, name)
        if not os.path.isfile(path):
            raise BuildError("%s is missing: the page runs the tray on MicroPython from npm. "
                             "Install Node.js and npm (Debian: apt install nodejs npm), then "
                             "run tools/bootstrap.sh" % os.path.relpath(path, ROOT))
        with open(path, "rb") as f:
            files[name] = f.read()
    files["tray-py.json"] = json.dumps(python_sources(), sort_keys=True).encode()
    for size in (192, 512):
        files["icon-%d.png" % size] = icon(size)
    return files


def service_worker(files):
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    with open(os.path.join(HERE, "sw.js"), encoding="utf-8") as f:
        text = f.read()
    cached = ["./"] + sorted(files)
    text = text.replace("__CACHE__", "dicetray-" + digest.hexdigest()[:16])
    return text.replace("__FILES__", json.dumps(cached)).encode()


def build(out=OUT):
    """Write the site into out (replaced whole); returns the names of its files."""
    files = site_files()
    files["sw.js"] = service_worker(files)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return sorted(files)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT, help="the site's folder (default build/web)")
    args = ap.parse_args(argv)
    try:
        names = build(args.out)
    except BuildError as e:
        print("web build: %s" % e, file=sys.stderr)
        return 1
    size = sum(os.path.getsize(os.path.join(args.out, n)) for n in names)
    print("web build: %d files, %d KB in %s" % (len(names), size // 1024, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
