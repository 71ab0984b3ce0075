"""Serve the built site on this machine only (127.0.0.1), with the types a browser insists on.

    python tools/web/serve.py [--port 8421] [--dir build/web]

A browser loads a module script only as JavaScript and compiles WebAssembly fastest as
application/wasm; Python's own server does not know .mjs everywhere. Every answer says
no-cache, so a rebuilt site is seen at the next load (the service worker keeps the offline copy).
"""

import argparse
import functools
import http.server
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "web")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = TYPES

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        pass  # quiet: the page is the program here


def start(directory=OUT, port=0, host="127.0.0.1"):
    """A server for directory on a thread; port 0 picks a free one (server.server_port)."""
    handler = functools.partial(Handler, directory=directory)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8421)
    ap.add_argument("--dir", default=OUT, help="the built site (default build/web)")
    args = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        print("web serve: no site in %s: run tools/web/build.py" % args.dir, file=sys.stderr)
        return 1
    try:
        server = start(args.dir, args.port)
    except OSError as e:
        print("web serve: port %d: %s (try --port)" % (args.port, e), file=sys.stderr)
        return 1
    print("The tray in your browser: http://localhost:%d/  (Ctrl+C stops)" % server.server_port)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
