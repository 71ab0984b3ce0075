"""The tray in a real browser: the built site in headless Chromium, played by clicks.

The page (tools/web) runs the firmware on MicroPython's WebAssembly build. With seeded dice
(?seed=N: trayhost's SeededDice, as here) every canvas it paints after a press must be, pixel
for pixel, the frame buffer the tray harness (trayhost.trayrun, the firmware on CPython) shows
after the same press; a reload mid-game offers the game again and resumes it; with the server
stopped, a reload still plays (the service worker's copy). Skipped, saying why, without
Chromium or Playwright; under CI=true it must run (tools/bootstrap.sh installs both).
"""

import json
import os
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from trayhost.autoplay import SeededDice
from trayhost.canvas import CanvasDisplay
from trayhost.trayrun import LONG_MS, PRESS_MS, REST_MS, Tray, bot_keys
from web import browser, build, serve

SEED = 7
WANT = (3, "classic")  # the bot sets up 3 players of the classic rules, then plays
BUTTONS = {"1": "KEEP1", "2": "KEEP2", "3": "KEEP3", "r": "ROLL", "o": "OK", "O": "OK"}
KEYBOARD = {"1": "1", "2": "2", "3": "3", "r": " ", "o": "Enter"}  # the simulator's keys
MATCH_MS = 3000  # a frame that has not shown by then never will


def frame(display):
    return "".join("".join(map(str, row)) for row in display.pixels())


class Reference:
    """The firmware on CPython: a tray on the harness's fakes, its canvas, the bot's choices."""

    def __init__(self, fs=None):
        self.display = CanvasDisplay(128, 64)
        self.tray = Tray(SeededDice(SEED), fs=fs, display=self.display, seed=SEED)

    def frame(self):
        return frame(self.display)

    def play(self, bot, count):
        """Let the bot press count keys; returns [(key, frame after it)]."""
        out = []
        while len(out) < count:
            for k in bot_keys(self.tray.app, bot, WANT):
                self.tray.key(k)
                out.append((k, self.frame()))
        return out

    def press(self, keys):
        out = []
        for k in keys:
            self.tray.key(k)
            out.append((k, self.frame()))
        return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    reason = browser.unavailable()
    if reason and os.environ.get("CI") == "true":
        pytest.fail("CI must run the browser tier: " + reason)
    if reason:
        pytest.skip(reason)
    out = str(tmp_path_factory.mktemp("site"))
    build.build(out)
    return out


@pytest.fixture(scope="module")
def pw(site):
    """Playwright, once for the module: its sync API runs one instance at a time."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def page(site, pw):
    server = serve.start(site)
    with tempfile.TemporaryDirectory() as profile:
        context = browser.launch(pw, profile)
        page = context.pages[0] if context.pages else context.new_page()
        page.server = server
        page.url_home = "http://127.0.0.1:%d/?seed=%d" % (server.server_port, SEED)
        try:
            yield page
        finally:
            context.close()
            server.shutdown()
            server.server_close()


def started(page):
    page.wait_for_function("() => window.trayStats && (window.trayStats.startMs !== null"
                           " || window.trayStats.error)", timeout=30000)
    assert page.evaluate("window.trayStats.error") is None


def shows(page, expected, what):
    """Wait until the canvas shows expected; fail showing the rows that differ."""
    try:
        page.wait_for_function("exp => window.trayPixels() === exp", arg=expected,
                               polling=20, timeout=MATCH_MS)
    except Exception:
        got = page.evaluate("window.trayPixels()")
        rows = [y for y in range(64) if row(got, y) != row(expected, y)]
        pytest.fail("%s: the canvas differs from CPython's frame in rows %s\n%s" % (
            what, rows, "\n".join(row(got, y) for y in rows[:8])))


def row(pixels, y):
    return pixels[y * 128:(y + 1) * 128]


def press(page, key, keyboard=False):
    """A finger on the button, as trayrun's key: held PRESS_MS, or LONG_MS for "O" (by the
    page's clock, from when the tray saw it go down: a busy machine may hand the page the
    press late, and the release must not come sooner); or the same on the keyboard (Shift+O:
    the page itself holds OK LONG_MS)."""
    if keyboard and key == "O":
        page.keyboard.press("Shift+O")
        time.sleep(LONG_MS / 1000)
        return
    before = page.evaluate("window.trayStats.downAt")
    if keyboard:
        page.keyboard.down(KEYBOARD[key])
    else:
        box = page.locator("#" + BUTTONS[key]).bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
    page.wait_for_function(
        "([before, ms]) => window.trayStats.downAt !== before"
        " && performance.now() - window.trayStats.downAt >= ms",
        arg=[before, LONG_MS if key == "O" else PRESS_MS], polling=5)
    if keyboard:
        page.keyboard.up(KEYBOARD[key])
    else:
        page.mouse.up()


def play(page, steps, label, keyboard=False):
    for i, (key, expected) in enumerate(steps):
        press(page, key, keyboard)
        shows(page, expected, "%s, key %d (%r)" % (label, i, key))
        # The next key comes as the harness's does, no sooner (a key must not land in the roll
        # animation): REST_MS after the release, by the page's clock from when the tray saw
        # the press; then the frame is looked at again.
        held = LONG_MS if key == "O" else PRESS_MS
        page.wait_for_function("ms => performance.now() - window.trayStats.downAt >= ms",
                               arg=held + REST_MS, polling=10)
        shows(page, expected, "%s, key %d (%r), at rest" % (label, i, key))


def saved_game(page):
    raw = page.evaluate("localStorage.getItem('dicetray-seed%d/game.json')" % SEED)
    return None if raw is None else json.loads(raw)


def test_a_game_by_clicks_shows_cpythons_frames_resumes_and_plays_offline(page):
    bot = SeededDice(99)
    ref = Reference()
    page.goto(page.url_home)
    started(page)
    shows(page, ref.frame(), "the setup at start")
    # The bot sets up and plays; OK held shows the standings, ROLL goes back; the bot again.
    play(page, ref.play(bot, 14), "first keys")
    play(page, ref.press("Or"), "standings and back")
    play(page, ref.play(bot, 10), "more keys")
    assert ref.tray.app.screen == "play", "the script must stop mid-game"
    # A phone may install it: Chromium finds a manifest, its icons and a service worker.
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    assert saved_game(page) == json.loads(ref.tray.fs.files["game.json"])

    # Reload mid-game: the page boots on the saved files and offers the game, as a power cut.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    again = Reference(ref.tray.fs)
    assert again.tray.app.screen == "resume"
    page.reload()
    started(page)
    shows(page, again.frame(), "the resume prompt after a reload")
    play(page, again.press("o"), "resumed")
    play(page, again.play(bot, 6), "after the resume, on the keyboard", keyboard=True)
    play(page, again.press("Or"), "standings and back, on the keyboard", keyboard=True)

    # The server stops: the service worker's copy starts the tray, the game is offered again.
    page.server.shutdown()
    page.server.server_close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(page.url_home, timeout=2)
    offline = Reference(again.tray.fs)
    page.reload()
    started(page)
    shows(page, offline.frame(), "the resume prompt, offline")
    play(page, offline.press("o"), "resumed offline")
    play(page, offline.play(bot, 4), "offline keys")
    assert saved_game(page) == json.loads(offline.tray.fs.files["game.json"])
    # What the bench reads: each press repainted the canvas, and the time it took was taken;
    # the rolls played their tune.
    stats = page.evaluate("window.trayStats")
    latencies = stats["latencies"]
    assert len(latencies) == 1 + 4 and all(0 <= ms < MATCH_MS for ms in latencies)
    assert stats["tones"] > 0


# ---- the page on a phone and on a desktop; over plain http from the network -----------------

# Where everything is, in CSS pixels: the viewport, the scroll size, each control's box.
LAYOUT_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
            height: r.height, shown: getComputedStyle(el).display !== "none" && r.height > 0}; };
  const out = {width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight};
  for (const id of ["panel", "KEEP1", "KEEP2", "KEEP3", "ROLL", "OK", "sound", "legend"])
    out[id] = box(document.getElementById(id));
  return out;
}"""
CONTROLS = ("panel", "KEEP1", "KEEP2", "KEEP3", "ROLL", "OK", "sound")


def layout(site, pw, viewport, **options):
    """The page's layout in a fresh browser of that viewport, once started; then a tap on OK
    (touch) or a click (mouse) must change the canvas."""
    server = serve.start(site)
    try:
        with tempfile.TemporaryDirectory() as profile:
            context = browser.launch(pw, profile, viewport=viewport, **options)
            try:
                page = context.pages[0] if context.pages else context.new_page()
                page.goto("http://127.0.0.1:%d/?seed=%d" % (server.server_port, SEED))
                started(page)
                found = page.evaluate(LAYOUT_JS)
                before = page.evaluate("window.trayPixels()")
                if options.get("has_touch"):
                    page.tap("#OK")
                else:
                    page.click("#OK")
                page.wait_for_function("b => window.trayPixels() !== b", arg=before,
                                       timeout=MATCH_MS)
                return found
            finally:
                context.close()
    finally:
        server.shutdown()
        server.server_close()


def inside(box, found):
    return (box["left"] >= 0 and box["top"] >= 0 and box["right"] <= found["width"]
            and box["bottom"] <= found["height"])


def fits_without_scrolling(found):
    assert found["scrollWidth"] <= found["width"] and found["scrollHeight"] <= found["height"]
    for name in CONTROLS:
        assert found[name]["shown"] and inside(found[name], found), name


def keeps_under_their_dice(found):
    """Each KEEP button's middle lies under its third of the panel, where its die is drawn."""
    panel = found["panel"]
    third = panel["width"] / 3
    for i in range(3):
        keep = found["KEEP%d" % (i + 1)]
        middle = (keep["left"] + keep["right"]) / 2
        assert panel["left"] + i * third < middle < panel["left"] + (i + 1) * third
        assert keep["top"] > panel["bottom"]


def test_on_a_phone_the_panel_and_buttons_fill_the_screen_and_no_key_legend_shows(site, pw):
    found = layout(site, pw, browser.PHONE, has_touch=True, is_mobile=True)
    fits_without_scrolling(found)
    keeps_under_their_dice(found)
    height = found["height"]
    assert found["panel"]["width"] >= 0.85 * found["width"]  # the panel as wide as it can be
    # The lower half is the buttons': big enough for a thumb, down to the bottom of the screen,
    # and no wide empty band between them and the panel.
    for name in ("KEEP1", "ROLL", "OK"):
        assert found[name]["height"] >= 0.2 * height, name
    assert found["OK"]["bottom"] >= 0.9 * height
    assert found["KEEP1"]["top"] - found["panel"]["bottom"] <= 0.1 * height
    assert not found["legend"]["shown"]  # keys mean nothing to a finger
    assert found["sound"]["shown"]


def test_on_a_desktop_it_fits_the_window_with_the_key_legend(site, pw):
    found = layout(site, pw, browser.DESKTOP)
    fits_without_scrolling(found)
    keeps_under_their_dice(found)
    assert found["legend"]["shown"] and inside(found["legend"], found)
    assert found["panel"]["width"] <= 640  # a panel, not a wall
    assert found["OK"]["height"] <= 280


def test_a_tray_speaking_french_names_the_page_s_buttons_and_texts_in_french(site, pw):
    # Its own profile: the language is kept in the settings, and the module's page plays on.
    server = serve.start(site)
    try:
        with tempfile.TemporaryDirectory() as profile:
            context = browser.launch(pw, profile)
            try:
                page = context.pages[0] if context.pages else context.new_page()
                page.goto("http://127.0.0.1:%d/?seed=%d" % (server.server_port, SEED))
                started(page)

                def text(id_):
                    return page.locator("#" + id_).inner_text()

                assert text("sound") == "sound on" and text("legend").startswith("keys:")
                assert text("status") == "fixed dice (seed %d)" % SEED
                press(page, "1")  # up from PLAYERS: the LANGUAGE row
                press(page, "r")  # FRANÇAIS
                page.wait_for_function("() => document.getElementById('ROLL').textContent"
                                       " === 'LANCE'")
                assert page.evaluate("document.documentElement.lang") == "fr"
                assert text("KEEP1") == "GARDE 1"
                assert page.locator("#ROLL").get_attribute("aria-label") == (
                    "lancer (touche r ou espace)")
                assert text("sound") == "son activé"
                assert text("legend").startswith("touches : 1 2 3 garde")
                assert text("status") == "dés fixés (graine %d)" % SEED
                page.locator("#sound").click()
                assert text("sound") == "son coupé"
            finally:
                context.close()
    finally:
        server.shutdown()
        server.server_close()


def test_from_the_network_over_plain_http_it_plays_and_says_what_needs_https(site, pw):
    addresses = serve.lan_addresses()
    if not addresses:
        pytest.skip("this computer is on no network: nothing a phone could open")
    server = serve.start(site, host=serve.EVERYWHERE)
    ref = Reference()
    try:
        with tempfile.TemporaryDirectory() as profile:
            context = browser.launch(pw, profile, has_touch=True, is_mobile=True)
            try:
                page = context.pages[0] if context.pages else context.new_page()
                page.goto("http://%s:%d/?seed=%d" % (addresses[0][0], server.server_port, SEED))
                started(page)
                # Not a secure context: no service worker to keep an offline copy, and the page
                # says so; the game plays all the same, frame for frame.
                assert page.evaluate("window.isSecureContext") is False
                assert page.evaluate("'serviceWorker' in navigator") is False
                status = page.locator("#status").inner_text()
                assert "offline and install need https" in status
                shows(page, ref.frame(), "the setup over plain http")
                play(page, ref.press("o"), "a game over plain http")
            finally:
                context.close()
    finally:
        server.shutdown()
        server.server_close()
