"""A night at the bar (trayhost.night, bench/night.py, emupico/night.py): the switches go through
the setup menu's buttons, the night's first and last games are alike, the figures' arithmetic,
and a tiny night's soak on MicroPython (the whole night is the bench's, not a test's)."""

import json

from bench.night import night_heap
from dicetray import words
from dicetray.app import SETUP
from emupico import night as pico_night
from trayhost import night
from trayhost.autoplay import SeededDice
from trayhost.nightheap import slope, summary
from trayhost.trayrun import Tray


def test_a_setting_changes_by_the_menus_buttons_and_the_cursor_comes_back():
    tray = Tray(SeededDice(1), height=32)
    tray.key(".")
    menu = tray.app.units[SETUP]
    before = tray.i2c.bytes
    keys = list(night.set_row(tray, "lang", "fr"))
    assert words.lang == "fr" and menu.settings["lang"] == "fr"
    assert keys == ["r", "*"] and menu.cursor == 0
    assert tray.i2c.bytes > before  # the panel followed the presses
    list(night.set_row(tray, "computers", 0))
    list(night.set_row(tray, "computers", 3))  # 0 -> 1 -> 2 -> 3: three presses of ROLL
    list(night.set_row(tray, "hints", True))
    list(night.set_row(tray, "tokens", 11, "3"))
    assert (menu.settings["computers"], menu.settings["hints"]) == (3, True)
    assert menu.settings["options"]["tokens"] == 11 and menu.cursor == 0
    assert list(night.set_row(tray, "hints", True)) == []  # already so: no key


def test_the_night_ends_as_it_began():
    # The 10th game and the last speak the same language with the same seats and hints, and
    # every kind of switch happens in between.
    plans = [night.plan(g) for g in range(200)]
    lang_at = []
    lang = 0
    for _, _, switch in plans:
        lang ^= switch
        lang_at.append(lang)
    assert plans[9][:2] == plans[199][:2] == (night.SEATS, True) and lang_at[9] == lang_at[199]
    assert sum(p[2] for p in plans) == 12  # games 4 and 7 (the warm-up), 10, 30 ... 190
    assert lang_at[4:7] == [1, 1, 1] and lang_at[9] == 0  # French once before the 10th game
    assert {p[:2] for p in plans} == {(3, True), (3, False), (0, True)}
    short = pico_night.plan()
    assert len(short) == 20 and sum(p[2] for p in short) == 4 and short[9][:2] == (3, False)


def test_a_short_night_plays_its_games_with_each_switch_made():
    seen = []
    for event in night.night(2, 64):
        if event[0] == "tray":
            tray = event[1]
        elif event[0] == "game":
            s = tray.app.units[SETUP].settings
            seen.append((s["computers"], s["hints"], s["options"]["tokens"], tray.app.screen))
    assert seen == [(3, True, 11, SETUP)] * 2
    assert tray.app.screen == SETUP and sum(tray.app.tally.paid) >= 2  # two games paid for


def test_the_slope_is_least_squares_and_the_drift_from_the_tenth_game():
    assert slope([100 + 16 * i for i in range(30)]) == 16
    assert slope([0, 0, 0, 30]) == 9  # x - 1.5: -1.5 -0.5 0.5 1.5 (sum of squares 5); 45 / 5
    starts = [500] * 9 + [1000 + i for i in range(11)]
    got = summary(starts, [s + 7 for s in starts], spoken=12)
    assert got == {"slope": 1.0, "drift": 10, "peak": 1017, "game_peak": 1009}


def test_the_pico_night_script_reads_its_plan():
    code = pico_night.SCRIPT % (pico_night.plan(),)
    compile(code, "night", "exec")
    assert "PLAN = [(3, True, False)" in code


def test_a_pico_whose_heap_is_not_the_port_s_plays_the_night_and_gets_null_figures(monkeypatch):
    # The host twin's kind: it plays the night (the Pico tier plays one on the real twin), but
    # its VM collects no garbage while the board runs, so its heap says nothing of the Pico's.
    class Twin:
        real_heap = False

        def claim(self):
            return False

        def install_in_safe_mode(self):
            pass

    played = {"starts": [90_000, 95_000, 99_000], "peaks": [1, 2, 3], "polls": 7}
    monkeypatch.setattr(pico_night, "play", lambda pico, games, log: played)
    said = []
    got = pico_night.pico_night_figures(Twin(), games=3, log=said.append)
    assert got == dict.fromkeys(pico_night.KEYS)
    assert "3 games played on Twin" in said[0] and "collects no garbage" in said[0], said


def test_a_tiny_night_on_micropython_reads_each_games_heap(micropython):
    starts, peaks, qstr = night_heap(2, 32, timeout=600)
    assert len(starts) == len(peaks) == 2 and qstr >= 0
    for start, peak in zip(starts, peaks):
        assert 5000 < start < peak < 200_000  # the tray's code and objects; a game adds more


# Let go and loaded again, over and over: the live heap after each round (run.mjs --chunks).
# The first load leaves the modules' new interned strings (MicroPython never frees one); a
# round after it must leave nothing more.
RELOADS = """
import micropython
from dicetray import lazy, words
words.use("en")
after = [0] * 8
n = [0]


def round_trip():
    words.use("fr")
    words.use("en")
    import dicetray.options, dicetray.screens_setup, dicetray.seat, dicetray.strategy
    import dicetray.rewards, dicetray.turn_odds, dicetray.odds
    import dicetray.firsttable, dicetray.save_record
    for phase in (lazy.SEATS, lazy.SETUP, lazy.SAVE):
        lazy.let_go(phase, ())
#---
round_trip()
#---
after[n[0]] = LIVE_HEAP
n[0] += 1
if n[0] < len(after):
    round_trip()
    AGAIN = True
#---
print(after)
"""


def test_modules_let_go_and_loaded_again_leave_nothing_after_their_first_load(micropython):
    from bench.night import FIRMWARE

    after = json.loads(micropython(RELOADS, paths=[FIRMWARE], mpy=True, chunks=True))
    assert len(after) == 8 and after[0] > 10_000
    assert max(after) - min(after) <= 64, after  # 16-byte blocks: a byte left a round shows
