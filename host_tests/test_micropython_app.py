"""The whole tray on real MicroPython (from .py and from .mpy): the same games, the same frames.

trayhost.trayrun's tray (app, buttons, display, store on portable fakes) is played through its
buttons on
both VMs by the same probe text, and everything it reports must be equal: keys pressed, the byte
count and checksum of everything sent on the I2C bus (every frame, every command), the screens
reached and the saves written. Only the firmware and the trayhost package are mounted, and
main.py's board is never imported: the probe must not import main, board or machine.
"""

import json
import os

import pytest
from dicetray.options import OPTION_NAMES, OPTIONS

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")

# (seed, players) of the whole-game tours: every preset played to its end through the buttons.
TOURS = ((3, 3), (10, 2))

# The same text runs on CPython (exec) and on MicroPython; probe() returns plain JSON data.
PROBE = """
import json
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from dicetray.options import PRESET_NAMES
from dicetray.screens import SETUP
from dicetray.screens_setup import setup_rows


def bus(label, tray):
    return [label, tray.app.screen, tray.i2c.bytes, tray.i2c.sum]


def saves(fs):
    # game.now is a record, not JSON: its fields, without the checksums (the game.json they
    # name lists its keys in another order on MicroPython, whose dicts keep none).
    return {name: data[6:-5].decode() if name == "game.now" else json.loads(data)
            for name, data in sorted(fs.files.items())}


def visits():
    # Screens the bot never opens: standings, the tally, the resume prompt, a lost save,
    # quitting (asked, refused, confirmed).
    tray = trayrun.Tray(SeededDice(4), seed=4)
    try:
        trayrun.play_game(tray, 4, "classic", 4, max_keys=30)
    except RuntimeError:
        pass  # stopped mid-game on purpose
    out = [bus("mid-game", tray), saves(tray.fs)]
    for keys in ("o", "O", "o", "."):
        tray.keys(keys)
        out.append(bus(keys, tray))
    again = trayrun.Tray(SeededDice(5), fs=tray.fs, seed=5)  # power back on: resume?
    out.append(bus("power on", again))
    for keys in ("o", "r", "O", "o", "o", "OO", "o", "OOr"):
        again.keys(keys)
        out.append(bus(keys, again))
    out.append(saves(again.fs))
    again.fs.files["game.json"] = b'{"version": 1, "players": '  # a save cut short
    lost = trayrun.Tray(SeededDice(6), fs=again.fs, seed=6)
    out.append(bus("power on", lost))
    lost.keys("o")
    out.append(bus("o", lost))
    out.append(sorted(lost.fs.files))
    return out


def menus():
    # The setup menu's rows, in order, for every preset (KEEP2: down to RULES, ROLL: next).
    tray = trayrun.Tray(SeededDice(1), seed=1)
    tray.keys("2")
    out = []
    for _ in PRESET_NAMES:
        settings = tray.app.units[SETUP].settings
        out.append([settings["preset"], setup_rows(settings), bus("menu", tray)])
        tray.keys("r")
    return out


def seats():
    # Whole games where the tray plays seats (the bot presses for the humans), hints shown.
    out = []
    for preset, players, computers in (("lebon", 3, 2), ("bar41", 4, 3)):
        tray = trayrun.Tray(SeededDice(8), seed=8)
        moves = []
        last = None
        for k in trayrun.seats_game(tray, players, preset, SeededDice(9), computers, True):
            moves.append(k)
            if tray.app.game is not None:
                last = tray.app.game
        out.append([preset, "".join(moves), bus("seats", tray), saves(tray.fs), last.to_dict()])
    return out


def probe():
    return {
        "seats": seats(),
        "tours": [trayrun.tour(seed, players) for seed, players in TOURS],
        "visits": visits(),
        "menus": menus(),
    }
"""

RUN = "import json, sys\n" + PROBE + """
TOURS = TOURS_HERE
out = probe()
out["modules"] = sorted(sys.modules)
out["files"] = {name: sys.modules[name].__file__ for name in ("trayhost.trayrun",
                "trayhost.autoplay", "dicetray.app", "dicetray.display", "dicetray.ui")}
import os
out["mounted"] = sorted(os.listdir("/mnt/0"))
print(json.dumps(out))
"""


def cpython_probe():
    ns = {"TOURS": TOURS}
    exec(PROBE, ns)
    return json.loads(json.dumps(ns["probe"]()))  # tuples -> lists, as they come back from JSON


@pytest.fixture(scope="module")
def expected():
    return cpython_probe()


@pytest.fixture(scope="module", params=[False, True], ids=["py", "mpy"])
def on_micropython(request, micropython, host_package):
    script = RUN.replace("TOURS_HERE", repr(TOURS))
    out = micropython(script, paths=[FIRMWARE, host_package], mpy=request.param, timeout=600)
    return request.param, json.loads(out.strip().splitlines()[-1])


def test_whole_games_of_every_preset_put_the_same_bytes_on_the_bus(on_micropython, expected):
    _, got = on_micropython
    for mine, theirs in zip(got["tours"], expected["tours"], strict=True):
        assert mine == theirs  # [preset, keys, bus bytes, bus checksum, back at setup] each
    for tour in expected["tours"]:
        assert all(line[4] for line in tour), "every game ended back at the setup screen"


def test_the_other_screens_and_the_saves_match(on_micropython, expected):
    _, got = on_micropython
    assert got["visits"] == expected["visits"]
    screens = {v[1] for v in expected["visits"] if isinstance(v, list) and len(v) == 4}
    assert screens >= {"play", "standings", "tally", "quit", "resume", "notice", "setup"}
    assert "game.bad" in expected["visits"][-1]  # the cut-short save was kept aside


def test_games_with_computer_seats_and_hints_are_the_same(on_micropython, expected):
    _, got = on_micropython
    assert got["seats"] == expected["seats"]
    for preset, moves, _, _, game in expected["seats"]:
        assert game["result"] is not None and game["computers"] and game["hints"], preset
        assert "." in moves  # the tray played its seats while the bot waited


def test_the_setup_menu_lists_the_options_in_the_same_order(on_micropython, expected):
    _, got = on_micropython
    assert got["menus"] == expected["menus"]
    labels = [row[0] for row in expected["menus"][0][1]]
    assert labels[:4] == ["PLAYERS", "RULES", "TOKENS", "RANKING"]


def test_only_the_firmware_and_the_fakes_are_loaded(on_micropython):
    mpy, got = on_micropython
    assert "main.py" in got["mounted"]  # the firmware root is there, yet main never ran
    for name in ("main", "dicetray.board", "dicetray.runner", "machine"):
        assert name not in got["modules"], name
    suffix = ".mpy" if mpy else ".py"
    for name, path in got["files"].items():
        assert path.endswith(suffix), (name, path)


def test_option_names_are_every_option_once_in_the_tables_order():
    # The table is a tuple, not a dict: MicroPython's dicts keep no order, and the menu would
    # list the options in another order on the Pico than on the simulator.
    assert isinstance(OPTIONS, tuple)
    assert OPTION_NAMES == tuple(row[0] for row in OPTIONS)
    assert len(set(OPTION_NAMES)) == len(OPTION_NAMES)
