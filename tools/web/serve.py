"""Serve the built site to the phones at the table, with the types a browser insists on.

    python tools/web/serve.py [--port 8421] [--local] [--dir build/web] [--build]

By default it answers on every network this computer is on, and prints the addresses a phone on
the same Wi-Fi opens, with a QR code of the first; --local answers this computer only
(127.0.0.1). --build builds the site first (tools/run.sh --web passes it), after the command
line was found good. A browser loads a module script only as JavaScript and compiles
WebAssembly fastest as application/wasm; Python's own server does not know .mjs everywhere.
Every answer says no-cache, so a rebuilt site is seen at the next load (the service worker keeps
the offline copy).
"""

import argparse
import functools
import http.server
import ipaddress
import os
import socket
import struct
import sys
import threading

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "web")
EVERYWHERE = "0.0.0.0"
LOOPBACK = "127.0.0.1"
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

# What the server tells the person who started it, in one place. The phone's address and its
# QR code come last, so they stay on the screen of an 80x24 terminal.
SERVING = "The tray in a browser, on port %d of this computer (Ctrl+C stops it)."
PLAIN_HTTP = (
    "Over plain http:// a phone plays the whole game, keeps it (a reload offers it",
    "again) and plays the sounds. Only HTTPS (or localhost on this computer) gives",
    "the offline copy (service worker) and installing it as an app; a home-screen",
    "shortcut to this address works while this computer serves it. To play offline",
    "on a phone, publish build/web on an HTTPS host (docs/playing.md: To publish it).",
)
UNREACHABLE = (
    "A phone cannot open it? It must be on this computer's network (a guest Wi-Fi",
    "may keep devices apart), and the firewall must let port %d in.",
)
ALSO = "This computer's other networks:"
HERE_ONLY = "On this computer: %s"
PHONE = "A phone at the table (same Wi-Fi) opens %s or scans this:"
NO_NETWORK = ("This computer is on no network a phone could reach: join the bar's Wi-Fi (or",
              "share one from the phone) and start it again.")
LOCAL_ONLY = ("This computer only (--local): a phone cannot open it; without --local, a phone",
              "on the same Wi-Fi can.")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = TYPES

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        pass  # quiet: the page is the program here


def start(directory=OUT, port=0, host=LOOPBACK):
    """A server for directory on a thread; port 0 picks a free one (server.server_port)."""
    handler = functools.partial(Handler, directory=directory)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---- the addresses a phone can open ---------------------------------------------------------


def reachable(address):
    """An IPv4 address another device may reach: not loopback, link-local or unspecified."""
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def route_address():
    """The address this computer sends from on its default route, or None. A UDP socket's
    connect only picks the route: nothing is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 9))
            return s.getsockname()[0]
        except OSError:
            return None


def interface_addresses():
    """[(interface, IPv4 address)] of this computer's interfaces, on Linux (SIOCGIFADDR);
    elsewhere [], and the route and the host name give the addresses."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without IPv4
                continue
            found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def host_addresses():
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [info[4][0] for info in infos]


def lan_addresses():
    """[(address, interface or "")]: where a phone on this computer's networks finds it; the
    default route's first (the Wi-Fi or the cable a laptop is on)."""
    named = interface_addresses()
    names = dict((address, name) for name, address in named)
    first = route_address()
    out = []
    for address in [first or ""] + [a for _, a in named] + host_addresses():
        if address and reachable(address) and address not in [a for a, _ in out]:
            out.append((address, names.get(address, "")))
    return out


def url(host, port):
    return "http://%s:%d/" % (host, port)


# ---- the QR code ----------------------------------------------------------------------------


def qr_lines(text, tty):
    """text as a QR code in half blocks, two modules per character row: light modules drawn,
    dark ones left blank, a quiet zone of four. In a terminal the code is forced white on black
    so a light theme does not invert it; elsewhere (a file, a test) plain characters."""
    import segno
    from sim.view import half_blocks

    code = segno.make(text, error="l", micro=False)  # raised where the size allows
    light = [[0 if dark else 1 for dark in row] for row in code.matrix_iter(border=4)]
    lines = half_blocks(light)
    if tty:
        return ["\x1b[97;40m%s\x1b[0m" % line for line in lines]
    return lines


def banner(port, addresses, local, tty):
    """What the server prints as it starts: what needs HTTPS, the addresses, the QR code."""
    here = HERE_ONLY % url("localhost", port)
    if local:
        return [SERVING % port, here, *LOCAL_ONLY]
    if not addresses:
        return [SERVING % port, *NO_NETWORK, here]
    lines = [SERVING % port, "", *PLAIN_HTTP, UNREACHABLE[0], UNREACHABLE[1] % port, ""]
    if addresses[1:]:
        lines += [ALSO] + ["  %s%s" % (url(a, port), "  (%s)" % name if name else "")
                           for a, name in addresses[1:]]
    first = url(addresses[0][0], port)
    lines += [here, "", PHONE % first]
    return lines + ["  " + line for line in qr_lines(first, tty)]


def port_number(text):
    """--port's value: a TCP port (0: a free one), checked before anything is built."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("%r is not a port: give 0 to 65535 (0: a free one)"
                                         % text)
    return port


def main(argv=None, out=None):
    out = out or sys.stdout
    ap = argparse.ArgumentParser(prog="tools/run.sh --web", description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=port_number, default=8421,
                    help="the port (default 8421; 0: a free one)")
    ap.add_argument("--local", action="store_true",
                    help="answer this computer only (127.0.0.1), not the phones on its network")
    ap.add_argument("--dir", default=OUT, help="the built site (default build/web)")
    ap.add_argument("--build", action="store_true", help="build the site into --dir first")
    args = ap.parse_args(argv)
    if args.build:
        from web import build

        try:
            build.build(args.dir)
        except build.BuildError as e:
            print("web build: %s" % e, file=sys.stderr)
            return 1
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        print("web serve: no site in %s: run tools/web/build.py" % args.dir, file=sys.stderr)
        return 1
    try:
        server = start(args.dir, args.port, LOOPBACK if args.local else EVERYWHERE)
    except OSError as e:
        print("web serve: port %d: %s (try --port)" % (args.port, e), file=sys.stderr)
        return 1
    addresses = [] if args.local else lan_addresses()
    print("\n".join(banner(server.server_port, addresses, args.local, out.isatty())), file=out,
          flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
