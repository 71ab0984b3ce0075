"""The page's Python glue (tools/web/webtray.py) on CPython: what tray.js reads of it.

The browser tier (test_web.py) plays it on MicroPython in Chromium; here the same class runs
without a browser: its frames are the harness's for the same presses, its state string carries
the buzzer, the dim and sleep of the panel and the count of file writes, its saves resume, and
a crash shows the error screen, is logged and restarts into the game, as runner.run does.
"""

import binascii

from dicetray.clock import DIM_MS, SLEEP_MS
from dicetray.screens import SND_ROLL
from trayhost.autoplay import SeededDice
from trayhost.canvas import CanvasDisplay, pixel_rows
from trayhost.trayrun import KEYS, LONG_MS, POLL_MS, PRESS_MS, REST_MS, Tray
from web.webtray import ASLEEP, DIMMED, RESTART_MS, WebTray


def parse(state):
    hz, flags, saves, _lang, hexed = state.split(" ")
    return int(hz), int(flags), int(saves), binascii.unhexlify(hexed)


class Page:
    """What tray.js does: presses with the clock, a step every POLL_MS, the last state kept."""

    def __init__(self, root, seed=7, now=1000):
        self.now = now
        self.tray = WebTray(seed, 64, now, root=str(root))
        self.state = self.tray.state()

    def keep(self, state):
        if state:
            self.state = state

    def run(self, ms):
        for _ in range(ms // POLL_MS):
            self.now += POLL_MS
            self.keep(self.tray.step(self.now))

    def key(self, k):
        self.keep(self.tray.set_button(KEYS[k], True, self.now))
        self.run(LONG_MS if k == "O" else PRESS_MS)
        self.keep(self.tray.set_button(KEYS[k], False, self.now))
        self.run(REST_MS)

    def pixels(self):
        return pixel_rows(parse(self.state)[3], 128, 64)


def test_the_frames_are_the_harness_frames_for_the_same_keys(tmp_path):
    page = Page(tmp_path)
    display = CanvasDisplay(128, 64)
    ref = Tray(SeededDice(7), display=display, seed=7)
    assert page.pixels() == display.pixels()
    for k in "2r1" + "o" + "r" * 8 + "1r" + "O" + "r":
        page.key(k)
        ref.key(k)
        assert page.pixels() == display.pixels(), k
    assert ref.app.screen == "play" and page.tray.app.screen == "play"


def test_the_buzzer_tone_is_in_the_state_while_it_sounds(tmp_path):
    page = Page(tmp_path)
    page.key("o")  # a game starts: who starts is rolled off
    tray = page.tray
    now = page.now
    assert parse(tray.set_button("ROLL", True, now))[0] == SND_ROLL[0]
    assert parse(tray.step(now + SND_ROLL[1]))[0] == 0  # the tune's rest
    assert parse(tray.step(now + SND_ROLL[1] + SND_ROLL[3]))[0] == SND_ROLL[4]


def test_saves_are_counted_written_in_root_and_resumed(tmp_path):
    page = Page(tmp_path)
    _, _, saves, _ = parse(page.state)
    page.key("o")
    page.key("r")
    assert parse(page.state)[2] > saves  # tray.js mirrors the files when this moves
    assert {p.name for p in tmp_path.iterdir()} >= {"game.json", "settings.json"}
    again = Page(tmp_path)  # a reload: the files tray.js put back
    assert again.tray.app.screen == "resume"


def test_the_panel_dims_and_sleeps_by_the_tray_clock(tmp_path):
    page = Page(tmp_path)
    start = page.now
    assert parse(page.tray.step(start + DIM_MS))[1] == DIMMED
    assert parse(page.tray.step(start + SLEEP_MS))[1] == ASLEEP | DIMMED


def test_a_crash_is_shown_logged_and_restarts_into_the_game(tmp_path):
    page = Page(tmp_path)
    page.key("o")
    page.key("r")
    tray = page.tray
    crashed_app = tray.app

    def broken(now):
        raise ZeroDivisionError("a bug")

    crashed_app.step = broken
    error = CanvasDisplay(128, 64)
    page.run(POLL_MS)
    log = (tmp_path / "error.log").read_text()
    assert "ZeroDivisionError: a bug" in log
    assert (tmp_path / "game.crashes").read_text() == "1"
    from dicetray.crash import show_message

    code = log.split()[1]
    show_message(error, "ERROR " + code, ("SORRY! THE GAME", "IS SAVED AND", "RESTARTS"),
                 "SEE ERROR.LOG")
    assert page.pixels() == error.pixels()
    page.run(RESTART_MS - 2 * POLL_MS)
    assert tray.app is crashed_app  # the error screen stays RESTART_MS
    page.run(2 * POLL_MS)
    assert tray.app is not crashed_app and tray.app.screen == "play"  # no prompt: resumed


def test_the_buttons_are_named_in_the_language_the_tray_speaks(tmp_path):
    page = Page(tmp_path)
    english = page.tray.labels().split("|")
    assert english[:6] == ["en", "KEEP 1", "KEEP 2", "KEEP 3", "ROLL", "OK"]
    # Then the page's own texts, in tray.js's order: sound off and on, the key legend, the
    # status line's (seeded dice, plain http, no storage, stopped), the legend's undo.
    assert english[6:8] == ["sound off", "sound on"] and english[8].startswith("keys: 1 2 3")
    page.key("1")  # up from PLAYERS: the LANGUAGE row
    page.key("r")  # FRANÇAIS
    french = page.tray.labels().split("|")
    assert french[:6] == ["fr", "GARDE 1", "GARDE 2", "GARDE 3", "LANCE", "OK"]
    assert french[6:8] == ["son coupé", "son activé"] and french[8].startswith("touches : 1 2 3")
    assert len(french) == len(english) == 19
    # Last, what a screen reader says of each button, in the same order.
    assert english[14:16] == ["keep die 1 (key 1)", "keep die 2 (key 2)"]
    assert french[14:16] == ["garder le dé 1 (touche 1)", "garder le dé 2 (touche 2)"]
    for mine, yours in zip(english[9:], french[9:], strict=True):
        assert mine != yours and mine.count("%s") == yours.count("%s")


def test_the_pages_picture_in_the_docs_shows_the_turn_the_firmware_draws_today():
    # docs/web.png (tools/web/picture.py, a browser's screenshot) carries the digest of the
    # frame it shows: a firmware that draws that turn otherwise makes it stale.
    from web import picture

    assert picture.up_to_date(), "docs/web.png is stale: run python tools/web/picture.py"
