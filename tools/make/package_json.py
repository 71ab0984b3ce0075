"""Writes package.json, the mip manifest: `mpremote mip install --target / github:OWNER/REPO`.

It lists every file of firmware/ (main.py and the dicetray package) at its place on the Pico.
    python tools/make/package_json.py           rewrite package.json
    python tools/make/package_json.py --check   exit 1 if it is stale
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
VERSION = "0.1.0"


def manifest():
    urls = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), FIRMWARE).replace(os.sep, "/")
                urls.append([rel, "firmware/" + rel])
    return {"urls": urls, "deps": [], "version": VERSION}


def text():
    return json.dumps(manifest(), indent=2) + "\n"


def main(argv):
    path = os.path.join(ROOT, "package.json")
    if "--check" in argv:
        with open(path) as f:
            if f.read() != text():
                print("package.json is stale: run python tools/make/package_json.py")
                return 1
        return 0
    with open(path, "w") as f:
        f.write(text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
