"""Code loaded only while it is needed, as the one registry of it (dicetray.lazy) says: the boot
and a save's loader, the setup menu and the options table, the computer seats. On MicroPython a
module's code is heap, so the app lets each phase's modules go after it (App.forget). The
game's engine is loaded at the setup's first quiet moment (App.quiet: OK then starts at once)
and stays. These tests watch sys.modules on real MicroPython, through the buttons."""

import json
import os
import sys

import pytest
from bench.tray import MP_LOADS
from dicetray import app as app_mod
from dicetray import lazy
from dicetray.lazy import BOOT, GAME, LOADER, PHASES, SAVE, SEATS
from dicetray.screens import NOTICE, PLAY, RESUME, SETUP
from test_micropython_app import FIRMWARE
from test_tray import make_tray

SCRIPT = """
import json, sys
from trayhost import trayrun
from trayhost.autoplay import SeededDice

resident = ()


def loaded():
    # The firmware's modules loaded now that were not when the first App was built, but the
    # catalogue of the language spoken (dicetray.words: one, whatever the phase).
    return sorted(name[9:] for name in sys.modules if name.startswith("dicetray.")
                  and name not in resident and not name.startswith("dicetray.words_"))


def catalogues():
    return sorted(name[9:] for name in sys.modules if name.startswith("dicetray.words_"))


out = {}
tray = trayrun.Tray(SeededDice(5), seed=5)
resident = tray.app.resident
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
saved = fs.files["game.json"]
tray = trayrun.Tray(SeededDice(7), fs=fs, seed=7)  # a power cut: the saved game is offered
out["resume"] = [tray.app.screen, loaded()]
tray.run(10)  # idle: the quiet moment readies the setup, where the prompt's ROLL leads
out["resume_quiet"] = [tray.app.screen, loaded()]
tray.key("o")
out["resumed"] = [tray.app.screen, loaded()]
played = 0
for _ in trayrun.game_keys(tray, 2, "classic", SeededDice(7)):
    played += 1
out["resumed_game"] = [tray.app.screen, played]

seen = []  # every module loaded at some moment of a game the tray plays P2 in
for _ in trayrun.seats_game(tray, 2, "classic", SeededDice(8), 1):
    if tray.app.game is not None and not tray.app.game.over:
        seen = sorted(set(seen + loaded()))
out["seats"] = seen
out["seats_over"] = [tray.app.screen, loaded()]

bad = json.loads(saved)
bad["players"] = 1  # read and checked (the engine loaded for it), then refused
bad["version"] = 4  # as the last release saved a game: game.json alone
fs.files["game.json"] = json.dumps(bad).encode()
tray = trayrun.Tray(SeededDice(9), fs=fs, seed=9)
out["refused"] = [tray.app.screen, loaded()]
out["catalogues"] = catalogues()
tray.keys("o1r")  # the setup, in French
out["french"] = [catalogues(), loaded()]
tray.key("o")  # a game: the settings are saved with it
tray = trayrun.Tray(SeededDice(9), fs=fs, seed=9)  # a tray whose settings say French
out["french_boot"] = catalogues()
print(json.dumps(out))
"""


def modules(*phases):
    return sorted(set(name for phase in phases for name in PHASES[phase]))


@pytest.fixture(scope="module")
def run(micropython, host_package):
    out = micropython(SCRIPT, paths=[FIRMWARE, host_package], mpy=True, timeout=600)
    return json.loads(out.strip().splitlines()[-1])


def test_every_module_the_registry_names_is_one_of_the_firmware():
    assert set(PHASES) == {BOOT, LOADER, lazy.SETUP, GAME, SEATS, SAVE, lazy.UNDO}
    for phase, names in PHASES.items():
        assert names, phase
        for name in names:
            assert os.path.isfile(os.path.join(FIRMWARE, "dicetray", name + ".py")), (phase, name)


def test_a_phase_the_registry_does_not_name_is_an_error():
    tray = make_tray(2)
    with pytest.raises(KeyError):
        tray.app.forget("menu")  # not a phase: nothing is skipped silently


def test_the_boot_and_the_loader_are_gone_once_the_setup_shows_its_menu_and_table(run):
    assert run["setup"] == [SETUP, modules(lazy.SETUP)]


def test_the_setups_quiet_moment_loads_the_engine(run):
    assert run["setup_quiet"] == [SETUP, modules(lazy.SETUP, GAME)]


def test_a_game_lets_the_setup_go_and_keeps_only_the_engine_and_its_record(run):
    assert run["play"] == [PLAY, modules(GAME, SAVE)]


def test_back_at_the_setup_the_engine_stays_for_the_next_game(run):
    assert run["again"] == [SETUP, modules(lazy.SETUP, GAME)]


def test_the_seats_code_comes_for_a_game_the_tray_plays_in_and_goes_after_it(run):
    assert run["seats"] == modules(GAME, SEATS, SAVE)  # the setup's went as the game started
    assert run["seats_over"] == [SETUP, modules(lazy.SETUP, GAME)]


def test_a_resumed_game_keeps_the_engine_but_not_the_loader(run):
    assert run["resume"] == [RESUME, modules(GAME)]
    # The prompt's quiet moment loads the setup's code and reads the settings; resumed, the
    # game lets them go.
    assert run["resume_quiet"] == [RESUME, modules(lazy.SETUP, GAME)]
    assert run["resumed"] == [PLAY, modules(GAME)]
    screen, played = run["resumed_game"]
    assert screen == SETUP and played > 0  # played on to its end, from the reloaded engine


def test_a_refused_save_leaves_nothing_of_the_boot_the_loader_or_the_engine(run):
    assert run["refused"] == [NOTICE, []]


def test_one_catalogue_is_loaded_the_language_spoken_s(run):
    assert run["catalogues"] == ["words_en"]
    assert run["french"][0] == ["words_fr"]  # the English one let go as the setup switched
    assert run["french_boot"] == ["words_fr"]  # the English one never loaded


@pytest.fixture(scope="module")
def loads(micropython, host_package):
    # The bench's script: trayhost.pressmeter's loads_tour, each press's loads by its kind.
    out = micropython(MP_LOADS, paths=[FIRMWARE, host_package], mpy=True, timeout=600)
    return json.loads(out.strip().splitlines()[-1])


def test_no_press_loads_code_before_its_first_frame(loads):
    # The presses that leave for the setup (the resume prompt's ROLL, quitting, the end's OK,
    # the tally's OK at a game's end) find its code loaded at the quiet moment before them; no
    # other press of a game loads any (trayhost.pressmeter lists them by kind).
    for kind in ("resume->", "quit->", "over->", "tally->", "setup->game", "throw", "keep",
                 "stop"):
        assert loads[kind][0] > 0, kind  # pressed
    loaded = {kind: v[1] for kind, v in loads.items() if type(v) is list and v[1]}
    assert loaded == {}


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
    for name in PHASES[lazy.SETUP]:  # all restored after the test
        monkeypatch.delitem(sys.modules, "dicetray." + name)
        monkeypatch.delattr(sys.modules["dicetray"], name, raising=False)
    monkeypatch.setattr(app, "resident", set(sys.modules))
    app.show(SETUP)
    app.render()  # the setup imports its menu and the options table again
    assert "dicetray.screens_setup" in sys.modules and "dicetray.options" in sys.modules
    tray.keys("o")  # a game starts: both are let go
    assert app.screen == PLAY
    assert "dicetray.screens_setup" not in sys.modules and "dicetray.options" not in sys.modules
    assert not hasattr(sys.modules["dicetray"], "screens_setup")
