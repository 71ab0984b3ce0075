"""tools/web/serve.py as a maker at a bar runs it (tools/run.sh --web): it answers on this
computer's network addresses, prints the address a phone opens and a QR code that decodes to it
(read back from the printed characters by a real decoder, zxing-cpp), says what works without
HTTPS; --local answers this computer only; a wrong option is refused before anything is built."""

import os
import queue
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from PIL import Image
from web import serve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVE = os.path.join(ROOT, "tools", "web", "serve.py")
RUN_SH = os.path.join(ROOT, "tools", "run.sh")
PAGE = b"<!doctype html><title>421 dice tray</title><p>the tray</p>\n"
HALF = {"\u2588": (1, 1), "\u2580": (1, 0), "\u2584": (0, 1), " ": (0, 0)}


def ip_command(*args):
    """What Linux's ip command answers (iproute2), or None where there is none."""
    if shutil.which("ip") is None:
        return None
    out = subprocess.run(["ip", *args], capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


def network_addresses():
    """This computer's IPv4 addresses other than loopback, as `ip` lists them."""
    listed = ip_command("-4", "-o", "addr", "show")
    if listed is None:
        pytest.skip("no ip command here to list the addresses")
    found = [line.split("inet ")[1].split("/")[0] for line in listed.splitlines()
             if " inet " in line]
    found = [a for a in found if not a.startswith(("127.", "169.254."))]
    if not found:
        pytest.skip("this computer is on no network: nothing a phone could open")
    return found


@pytest.fixture
def site(tmp_path):
    (tmp_path / "index.html").write_bytes(PAGE)
    return str(tmp_path)


class Started:
    """A command that serves the site, run until the test ends; its printed lines."""

    def __init__(self, args):
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, cwd=ROOT)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def line(self):
        try:
            return self.lines.get(timeout=120)
        except queue.Empty:
            self.stop()
            pytest.fail("the server printed nothing more; stderr:\n" + self.process.stderr.read())

    def until(self, start):
        """The lines up to and with the first that starts with start."""
        seen = []
        while not seen or not seen[-1].startswith(start):
            seen.append(self.line())
        return seen

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def started():
    running = []

    def start(*args):
        running.append(Started(list(args)))
        return running[-1]

    yield start
    for each in running:
        each.stop()


def phone_url(lines):
    """The address the banner gives the phone, and the QR code's lines that follow it."""
    line = lines[-1]
    assert line.startswith("A phone at the table (same Wi-Fi) opens http://")
    return line.split(" opens ")[1].split(" ")[0]


def read_qr(server):
    """The QR code's lines under the phone's line: a square of half blocks, two rows each."""
    first = server.line()
    rows = [first]
    width = len(first.strip())
    while len(rows) < (width + 1) // 2:
        rows.append(server.line())
    return [r[2:] for r in rows]


def decode(lines):
    """The text of the QR code drawn in lines (light modules as blocks), by zxing-cpp."""
    import zxingcpp

    pixels = []
    for line in lines:
        pairs = [HALF[c] for c in line]
        pixels += [[p[0] for p in pairs], [p[1] for p in pairs]]
    img = Image.new("L", (len(pixels[0]), len(pixels)))
    img.putdata([255 if v else 0 for row in pixels for v in row])
    img = img.resize((img.width * 8, img.height * 8), Image.NEAREST)
    found = zxingcpp.read_barcodes(img)
    assert len(found) == 1, "the decoder found %d codes" % len(found)
    return found[0].text


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.headers["Content-Type"], answer.read()


def test_the_phone_address_is_this_computers_route_then_its_other_networks():
    addresses = [a for a, _ in serve.lan_addresses()]
    for address in network_addresses():
        assert address in addresses
    assert not [a for a in addresses if a.startswith("127.")]
    route = ip_command("-4", "route", "get", "10.254.254.254")
    if route and " src " in route:
        assert addresses[0] == route.split(" src ")[1].split()[0]


def test_it_serves_the_network_prints_the_address_and_a_qr_code_of_it(site, started):
    server = started(sys.executable, SERVE, "--port", "0", "--dir", site)
    lines = server.until("A phone at the table")
    url = phone_url(lines)
    host = url.split("//")[1].split(":")[0]
    assert host in network_addresses()
    assert fetch(url) == (200, "text/html; charset=utf-8", PAGE)  # from the network address
    assert decode(read_qr(server)) == url
    text = "\n".join(lines)
    assert "On this computer: http://localhost:%s/" % url.split(":")[2].rstrip("/") in text
    # It says what plain HTTP gives and what needs HTTPS.
    assert "Over plain http:// a phone plays the whole game" in text
    assert "offline copy (service worker) and installing it as an app" in text
    assert max(len(line) for line in lines) <= 80  # an 80-column terminal does not wrap it


def test_local_answers_this_computer_only(site, started):
    server = started(sys.executable, SERVE, "--port", "0", "--dir", site, "--local")
    lines = server.until("On this computer: ")
    url = lines[-1].split(": ", 1)[1]
    port = int(url.split(":")[2].rstrip("/"))
    assert fetch("http://127.0.0.1:%d/" % port)[2] == PAGE
    assert server.line().startswith("This computer only (--local): a phone cannot open it")
    with pytest.raises(urllib.error.URLError):
        fetch("http://%s:%d/" % (network_addresses()[0], port))


def test_the_qr_code_is_white_on_black_in_a_terminal_and_plain_elsewhere():
    plain = serve.qr_lines("http://192.168.1.20:8421/", tty=False)
    coloured = serve.qr_lines("http://192.168.1.20:8421/", tty=True)
    assert coloured == ["\x1b[97;40m%s\x1b[0m" % line for line in plain]
    assert decode(plain) == "http://192.168.1.20:8421/"
    assert len(plain) <= 19  # with the lines above it, it fits a 24-line terminal


def test_no_network_says_so_and_gives_this_computers_address():
    lines = serve.banner(8421, [], local=False, tty=False)
    assert "This computer is on no network a phone could reach" in lines[1]
    assert lines[-1] == "On this computer: http://localhost:8421/"


def test_the_guide_s_command_builds_serves_the_page_and_gives_a_phone_its_address(started):
    from web import browser

    if "MicroPython npm package" in browser.unavailable():
        pytest.skip(browser.unavailable())
    server = started(RUN_SH, "--web", "--port", "0")
    url = phone_url(server.until("A phone at the table"))
    status, kind, body = fetch(url)
    assert status == 200 and b'<canvas id="panel"' in body
    assert fetch(url + "tray.js")[1] == "text/javascript; charset=utf-8"
    assert decode(read_qr(server)) == url


@pytest.mark.parametrize("args", [["--web", "--bogus"], ["--web", "--port"], ["--sim", "--bogus"],
                                  ["--bogus"], ["--web", "--port", "99999"],
                                  ["--web", "--port", "-1"], ["--web", "--port", "web"]])
def test_run_sh_refuses_a_wrong_option_before_building(args, tmp_path):
    site = os.path.join(ROOT, "build", "web", "index.html")
    before = os.stat(site).st_mtime_ns if os.path.exists(site) else None
    out = subprocess.run([RUN_SH, *args], capture_output=True, text=True, timeout=600)
    assert out.returncode == 2
    assert "usage: tools/run.sh" in out.stderr and "error:" in out.stderr
    assert (os.stat(site).st_mtime_ns if os.path.exists(site) else None) == before


def test_without_node_the_build_says_to_install_it_and_builds_nothing(tmp_path, monkeypatch,
                                                                       capsys):
    # No MicroPython from npm (Node.js missing): the page cannot be built, and the message
    # names what to install, not only bootstrap (which skips npm without Node.js).
    from web import build

    monkeypatch.setattr(build, "MICROPYTHON", str(tmp_path / "none"))
    out = tmp_path / "site"
    assert serve.main(["--build", "--dir", str(out)]) == 1
    said = capsys.readouterr().err
    assert "micropython.mjs is missing" in said and "apt install nodejs npm" in said
    assert not (out / "index.html").exists()
