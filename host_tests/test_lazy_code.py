"""Code loaded only while it is needed: the setup menu and the options table, a save's loader.
On MicroPython a module's code is heap, so the app lets each go after use (App.forget). The
game's engine is loaded at the setup's first quiet moment (App.quiet: OK then starts at once)
and stays. These tests watch sys.modules on real MicroPython, through the buttons."""

import json
import sys

import pytest
from dicetray import app as app_mod
from dicetray.screens import PLAY, RESUME, SETUP
from test_micropython_app import FIRMWARE
from test_tray import make_tray

WATCHED = ("setupmenu", "options", "game", "settle", "payout", "boot", "savecheck", "saveagree",
           "savemigrate", "seat", "strategy", "odds", "firsttable")

SCRIPT = """
import json, sys
from trayhost import trayrun
from trayhost.autoplay import SeededDice

WATCHED = %r


def loaded():
    return [name for name in WATCHED if "dicetray." + name in sys.modules]


out = {}
tray = trayrun.Tray(SeededDice(5), seed=5)
out["setup"] = [tray.app.screen, loaded()]
tray.run(10)  # idle: the quiet moment
out["setup_quiet"] = [tray.app.screen, loaded()]
keys = trayrun.game_keys(tray, 2, "classic", SeededDice(5))
for _ in range(12):  # the game starts, a few throws
    next(keys)
out["play"] = [tray.app.screen, loaded()]
for _ in keys:  # to the end, and the setup shows again
    pass
out["again"] = [tray.app.screen, loaded()]

fs = tray.fs
keys = trayrun.game_keys(tray, 2, "classic", SeededDice(6))
for _ in range(12):
    next(keys)
tray = trayrun.Tray(SeededDice(7), fs=fs, seed=7)  # a power cut: the saved game is offered
out["resume"] = [tray.app.screen, loaded()]
tray.key("o")
out["resumed"] = [tray.app.screen, loaded()]
played = 0
for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(7)):
    played += 1
out["resumed_game"] = [tray.app.screen, played]
print(json.dumps(out))
""" % (WATCHED,)


@pytest.fixture(scope="module")
def run(micropython, host_package):
    out = micropython(SCRIPT, paths=[FIRMWARE, host_package], mpy=True, timeout=600)
    return json.loads(out.strip().splitlines()[-1])


def test_the_setup_loads_its_menu_and_table_then_when_quiet_the_engine(run):
    assert run["setup"] == [SETUP, ["setupmenu", "options"]]  # the first screen drawn
    assert run["setup_quiet"] == [SETUP, ["setupmenu", "options", "game", "settle", "payout"]]


def test_a_game_lets_the_setup_go_and_keeps_only_the_engine(run):
    assert run["play"] == [PLAY, ["game", "settle", "payout"]]


def test_back_at_the_setup_the_engine_stays_for_the_next_game(run):
    assert run["again"] == [SETUP, ["setupmenu", "options", "game", "settle", "payout"]]


def test_a_resumed_game_keeps_the_engine_but_not_the_loader(run):
    assert run["resume"] == [RESUME, ["game", "settle", "payout"]]
    assert run["resumed"] == [PLAY, ["game", "settle", "payout"]]
    screen, played = run["resumed_game"]
    assert screen == SETUP and played > 0  # played on to its end, from the reloaded engine


def test_modules_loaded_before_the_first_app_stay(monkeypatch):
    # A test's or a tool's modules are never let go: their classes must stay the ones it holds.
    from dicetray import game

    tray = make_tray(3)
    tray.keys("o")
    assert tray.app.screen == PLAY
    assert sys.modules["dicetray.game"] is game
    assert "dicetray.game" in app_mod._resident


def test_forget_drops_a_module_the_app_loaded(monkeypatch):
    tray = make_tray(4)
    app = tray.app
    for name in ("setupmenu", "options"):  # all restored after the test
        monkeypatch.delitem(sys.modules, "dicetray." + name)
        monkeypatch.delattr(sys.modules["dicetray"], name, raising=False)
    monkeypatch.setattr(app, "resident", set(sys.modules))
    app.show(SETUP)
    app.render()  # the setup imports its menu and the options table again
    assert "dicetray.setupmenu" in sys.modules and "dicetray.options" in sys.modules
    tray.keys("o")  # a game starts: both are let go
    assert app.screen == PLAY
    assert "dicetray.setupmenu" not in sys.modules and "dicetray.options" not in sys.modules
    assert not hasattr(sys.modules["dicetray"], "setupmenu")
