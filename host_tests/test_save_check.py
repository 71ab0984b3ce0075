"""No saved game can crash or loop the tray: hostile files, saves that disagree (save_check.py,
save_invariants.py), checker bugs, and the boot (boot.py) that resumes or sets a save aside."""

import json
import os
import sys
import types

import pytest
from dicetray import runner, save_check, store_read
from dicetray.app import App
from dicetray.game import Game
from dicetray.options import PRESETS, changed
from dicetray.save_check import load
from dicetray.screens import NOTICE, PLAY, SETUP
from dicetray.state import SaveError
from dicetray.store import Store
from fakes.flash import FakeFlash
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_runner import Script
from test_runner import WatchdogReset, apps, rig  # noqa: F401 (apps is a fixture)
from trayhost import savefuzz

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
DEEP = 550  # lists this deep: 6.5 KB, and repr() of it overflows MicroPython's C stack


def deep_save():
    return savefuzz.nested(DEEP)


def played(preset, players, dice, actions, **options):
    """The save of a scripted game after its actions ("T" throw, "S" stop)."""
    game = Game(players, changed(PRESETS[preset], **options), Script(dice))
    for a in actions:
        game.throw() if a == "T" else game.stop()
    return game.to_dict()


def all_tie_charge():
    # classic, 3 players, everyone throws 653: a one-die roll-off for the loser is open.
    return played("classic", 3, [6, 5, 3] * 3, "TSTSTS", start="seat1")


def low_tie():
    # lebon, 3 players: P1 and P2 throw 653, P3 421: P2 and P1 play off who loses.
    save = played("lebon", 3, [6, 5, 3, 6, 5, 3, 4, 2, 1], "TSTSTS", start="seat1")
    assert save["contest"]["players"] == [1, 0] and save["turn"]["winner"] == 2, save
    return save


def start_rolloff():
    return Game(3, "classic", Script([])).to_dict()


def edited(save, **fields):
    save = json.loads(json.dumps(save))
    for name, value in fields.items():
        if name.startswith("contest_"):
            save["contest"][name[8:]] = value
        elif name.startswith("turn_"):
            save["turn"][name[5:]] = value
        else:
            save[name] = value
    return save


# Each found by trying to break the tray; each used to pass the checker and then crash or loop.
DISAGREEING = [
    ("start phase with a player out", lambda: edited(start_rolloff(), out=[1]),
     "players left the game before the decharge"),
    ("one-player roll-off", lambda: edited(all_tie_charge(), contest_players=[2]),
     "a contest needs two players or more"),
    ("roll-off naming a player not tied", lambda: edited(low_tie(), contest_players=[2, 0]),
     "the contest's players are not tied"),
    ("roll-off leaving a tied player out", lambda: edited(all_tie_charge(),
                                                           contest_players=[0, 1]),
     "a first contest is every tied player's"),
    ("result naming a loser while the loser's tie is played", lambda: edited(
        low_tie(), turn_loser=2), "the loser is settled and contested at once"),
    ("result naming a winner who did not throw the best", lambda: edited(
        low_tie(), turn_winner=0), "the winner did not do the best throw"),
    ("one-die roll-off playing for what comes", lambda: edited(
        all_tie_charge(), contest_round=2, contest_stake="comes"),
     "a stake is announced only for a repeated play-off"),
    ("a follower past the limit", lambda: edited(
        played("classic", 3, [6, 5, 3, 6, 5, 3], "TST", start="seat1"), turn_count=3),
     "a player threw past the limit"),
]


@pytest.mark.parametrize("make, why", [c[1:] for c in DISAGREEING],
                         ids=[c[0] for c in DISAGREEING])
def test_a_save_whose_fields_disagree_is_refused_with_the_reason(make, why):
    with pytest.raises(SaveError) as refused:
        load(make(), Script([]))
    assert str(refused.value) == "bad save: " + why


def test_a_save_says_its_language_only_when_not_the_default_and_resumes_in_it():
    french = Game(3, "classic", Script([]), lang="fr").to_dict()
    assert french["lang"] == "fr" and "lang" not in start_rolloff()  # old saves: the default
    assert load(french, Script([])).lang == "fr"
    assert load(start_rolloff(), Script([])).lang == "en"
    for wrong in ("xx", 7, None, ["fr"]):
        with pytest.raises(SaveError) as refused:
            save_check.check_state(edited(french, lang=wrong))
        assert str(refused.value) == "bad save: lang must be one of en, fr"


def test_a_french_save_resumes_in_french_whatever_the_settings_say():
    from dicetray import words
    from dicetray.store import Store
    from test_tray import glass, make_tray

    flash = FakeFlash()
    game = Game(3, "classic", Script([]), lang="fr")
    Store(fs=flash).save_game(game.to_dict())  # its setup, with its language, and its record
    flash.files["settings.json"] = json.dumps({"lang": "en"}).encode()
    tray = make_tray(5, flash=flash)
    assert tray.app.game.lang == "fr" and words.lang == "fr"
    assert glass(tray).read(2, scale=2).strip() == "REPRISE ?"
    tray.key("r")  # not now: the setup speaks the settings' English, and offers the game still
    assert words.lang == "en" and glass(tray).read(0).strip() == "OK:RESUME THE GAME"


def test_the_saves_behind_those_cases_are_accepted_as_the_engine_wrote_them():
    for save in (start_rolloff(), all_tie_charge(), low_tie()):
        load(save, Script([]))


def test_a_deeply_nested_save_is_refused_with_a_short_reason():
    data = json.loads(deep_save())
    with pytest.raises(SaveError) as refused:
        save_check.check_state(data)
    assert str(refused.value) == "bad save: not a dice tray game (format a list)"
    tokens = edited(start_rolloff(), tokens=json.loads(b"[" * DEEP + b"]" * DEEP))
    with pytest.raises(SaveError, match="tokens must have one entry per player"):
        save_check.check_state(tokens)


def test_the_checker_never_turns_a_long_integer_into_text():
    # That takes time growing with the square of its digits; CPython refuses it past 4300.
    huge = 10**5000
    for field, value in (("players", huge), ("pot", -huge), ("tokens", [huge, 0, 0])):
        with pytest.raises(SaveError, match="got a long integer$"):
            save_check.check_state(edited(start_rolloff(), **{field: value}))
    with pytest.raises(SaveError, match=r"format version a long integer,"):
        save_check.check_state(edited(start_rolloff(), version=huge))
    with pytest.raises(SaveError, match="got -99999999999$"):
        save_check.check_state(edited(start_rolloff(), players=-99999999999))


def test_mutated_real_saves_are_refused_or_play_on_to_an_end():
    outcomes = {"refused": 0, "played": 0}
    for i, data in enumerate(savefuzz.cases(11, 300)):
        kind, _ = savefuzz.play_on(data, i)  # raises on a crash, a loop, a bad state
        outcomes[kind] += 1
    # Both sides are exercised: most mutations break a rule, some keep the game playable.
    assert outcomes["refused"] > 150 and outcomes["played"] > 20, outcomes


def test_a_mutation_changes_what_a_save_means():
    saves = savefuzz.real_saves(5, 10)
    rng = savefuzz.SeededDice(3)
    changed = sum(savefuzz.mutate(s, rng) != s for s in saves for _ in range(5))
    assert changed >= 40


# ---- the tray boots to a clear screen, whatever is on the flash ------------------------------


def boot(flash):
    board, display, _, _ = rig()
    store = Store(fs=flash)
    app = runner.make_app(board, display, store)
    app.boot(board.ticks_ms())
    return app


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.builds(lambda v: json.dumps(v).encode(), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4))),
    st.sampled_from(["game.json", "settings.json", "game.now"]))
def test_any_bytes_in_a_save_boot_to_a_clear_screen_and_are_kept(raw, name):
    """game.json alone is read as an older release's save; game.now as the record of a real
    game's setup, written beside it."""
    flash = FakeFlash()
    if name == "game.now":
        Store(flash).save_game(Game(4, "bar41", Script([])).to_dict())
    setup = flash.files.get("game.json")
    flash.files[name] = raw
    app = boot(flash)
    assert app.screen in (SETUP, NOTICE)
    if name == "game.now":
        assert app.screen == NOTICE and flash.files["game.now.bad"] == raw
        assert flash.files["game.bad"] == setup
    if name == "game.json":
        assert app.screen == NOTICE and flash.files["game.bad"] == raw
    if name != "settings.json":
        assert app.units[NOTICE].told[1][0].startswith("Save ")
    elif "settings.bad" in flash.files:
        assert flash.files["settings.bad"] == raw
    assert name not in flash.files or name == "settings.json"


def test_the_deep_save_boots_to_the_save_lost_notice_without_a_crash(apps):  # noqa: F811
    board, display, flash, store = rig()
    flash.files["game.json"] = deep_save()
    runner.run(board, display, store, loops=200)
    assert apps.boots == [(NOTICE, False)]
    assert apps[0].units[NOTICE].told == ("SAVE LOST", ("Save damaged: kept as game.bad",
                                                        "A NEW GAME STARTS"))
    assert flash.files["game.bad"] == deep_save()
    assert board.resets == 0 and "ERROR" not in flash.files["error.log"].decode()


# What the Pico's parser does where CPython's differs: it reads an integer of any length (CPython
# refuses one over 4300 digits), and runs out of heap where CPython runs out of recursion.
PICO_HEAP_DEPTH = 4096  # lists nested deeper than this want more heap than a Pico has free


def pico_loads(raw):
    """json.loads as on the Pico. The digit limit is lifted while parsing only: turning the
    integer into text afterwards still raises, as it takes seconds on the Pico."""
    depth = deepest = 0
    for b in raw:
        depth += (b in b"[{") - (b in b"]}")
        deepest = max(deepest, depth)
    if deepest > PICO_HEAP_DEPTH:
        raise MemoryError("memory allocation failed, allocating %d bytes" % (4 * deepest))
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(raw)
    finally:
        sys.set_int_max_str_digits(limit)


def parser(monkeypatch, loads):
    monkeypatch.setattr(store_read, "json", types.SimpleNamespace(loads=loads))


@pytest.mark.parametrize("raw", [savefuzz.long_number(), savefuzz.nested()],
                         ids=["long-number", "nested-8170-deep"])
def test_a_save_the_pico_cannot_afford_to_read_boots_to_the_notice_at_once(
        apps, monkeypatch, raw):  # noqa: F811
    assert len(raw) <= Store.GAME_MAX
    parser(monkeypatch, pico_loads)
    board, display, flash, store = rig()
    flash.files["game.json"] = raw
    runner.run(board, display, store, loops=200)
    assert apps.boots == [(NOTICE, False)]
    assert apps[0].units[NOTICE].told == ("SAVE LOST", ("Save damaged: kept as game.bad",
                                                        "A NEW GAME STARTS"))
    assert flash.files["game.bad"] == raw
    assert board.resets == 0 and "ERROR" not in flash.files["error.log"].decode()


def test_a_parser_out_of_heap_is_a_damaged_save_not_a_crash(apps, monkeypatch):  # noqa: F811
    def out_of_heap(raw):
        raise MemoryError("memory allocation failed")

    parser(monkeypatch, out_of_heap)
    board, display, flash, store = rig()
    raw = json.dumps(start_rolloff()).encode()
    flash.files["game.json"] = raw
    runner.run(board, display, store, loops=200)
    assert apps.boots == [(NOTICE, False)]
    assert apps[0].units[NOTICE].told[1][0] == "Save damaged: kept as game.bad"
    assert flash.files["game.bad"] == raw
    assert board.resets == 0 and "ERROR" not in flash.files["error.log"].decode()


def test_a_load_slower_than_the_watchdog_sets_the_save_aside_at_the_next_boot(
        apps, monkeypatch):  # noqa: F811
    raw = json.dumps(start_rolloff()).encode()
    boards = []

    def slow(raw):  # as a long integer once kept the Pico's parser and checker busy
        boards[-1].work(9000)
        return json.loads(raw)

    parser(monkeypatch, slow)
    flash = FakeFlash()
    flash.files["game.json"] = raw
    for _ in range(2):  # a watchdog reset runs no Python: the next boot finds the flash as is
        board, display, _, _ = rig()
        boards.append(board)
        flash = flash.reboot()
        try:
            runner.run(board, display, Store(fs=flash), loops=200)
            break
        except WatchdogReset:
            assert not apps.boots and "game.bad" not in flash.files
    assert len(boards) == 2, "a reset at every boot"
    assert apps.boots == [(NOTICE, False)]
    assert apps[-1].units[NOTICE].told[1][0] == "Save crashed: kept as game.bad"
    assert flash.files["game.bad"] == raw
    assert "stopped while loading" in flash.files["error.log"].decode()
    assert "game.json" not in flash.files and board.resets == 0


# ---- crashes: a bug is a crash, and a game that keeps crashing is set aside -------------------


def always_crash_with_a_game(monkeypatch):
    real = App.step

    def step(self, now):
        if self.game is not None and self.screen == PLAY:
            raise RuntimeError("boom")
        real(self, now)

    monkeypatch.setattr(App, "step", step)


def test_a_game_that_crashes_the_tray_twice_in_a_row_is_set_aside(apps, monkeypatch):  # noqa: F811
    board, display, flash, store = rig()
    board.type("o")  # starts a game; the first step after it crashes, and so does the resume
    always_crash_with_a_game(monkeypatch)
    seen = []
    board.on_sleep = lambda b, ms: ms == 100 and seen.append(dict(flash.files))
    runner.run(board, display, store, loops=5000)
    assert [screen for screen, _ in apps.boots] == [SETUP, PLAY, NOTICE]
    assert apps[-1].units[NOTICE].told[1][0] == "Save crashed: kept as game.bad"
    saved = [files["game.json"] for files in seen if "game.json" in files]
    assert saved and flash.files["game.bad"] == saved[0]  # the game as it was, for a post-mortem
    assert "game.json" not in flash.files and "game.crashes" not in flash.files
    log = flash.files["error.log"].decode()
    assert log.count("RuntimeError: boom") == 2 and "2 crashes in a row" in log
    assert board.resets == 0


def test_a_bug_in_the_checker_is_a_crash_and_the_next_boot_sets_the_save_aside(
        apps, monkeypatch):  # noqa: F811
    board, display, flash, store = rig()
    game = Game(3, "classic", Script([]))
    Store(flash).save_game(game.to_dict())

    def typo(game):
        return game.tokns  # a bug, not a bad save

    monkeypatch.setattr(save_check, "check_agree", typo)
    at_error = []
    board.on_sleep = lambda b, ms: ms == 100 and at_error.append(sorted(flash.files))
    runner.run(board, display, store, loops=3000)
    # The crash keeps the save in place (a fixed firmware would resume it) ...
    assert "game.json" in at_error[0] and "game.bad" not in at_error[0]
    log = flash.files["error.log"].decode()
    assert log.count("AttributeError") == 1 and log.startswith("ERROR E")
    # ... and the boot after it sets it aside instead of crashing again.
    assert [screen for screen, _ in apps.boots] == [NOTICE]
    assert apps[-1].units[NOTICE].told[1][0] == "Save crashed: kept as game.bad"
    assert board.resets == 0


def test_a_game_that_moves_on_between_two_crashes_is_resumed(apps, monkeypatch):  # noqa: F811
    board, display, flash, store = rig()
    board.type("o")  # a game ...
    board.type("r", at=8000)  # ... and once it is resumed, a throw that saves
    real = App.step
    crashed = []

    def step(self, now):
        # Crash right after the start, then again after the next save.
        if self.game is not None and len(crashed) < 2 and (
                not crashed or self.game.to_dict() != crashed[0]):
            crashed.append(self.game.to_dict())
            raise RuntimeError("boom")
        real(self, now)

    monkeypatch.setattr(App, "step", step)
    runner.run(board, display, store, loops=6000)
    assert len(crashed) == 2
    assert [screen for screen, _ in apps.boots] == [SETUP, PLAY, PLAY]
    assert "game.bad" not in flash.files


def test_running_for_good_counts_no_polls(monkeypatch):
    # A countdown from -1 would leave MicroPython's small ints after 2**30 polls (62 days).
    board, display, flash, store = rig()
    seen = set()

    class Stop(BaseException):
        pass

    def on_sleep(b, ms):
        if b.sleeps > 300:
            raise Stop

    def tracer(frame, event, arg):
        if frame.f_code is runner.run.__code__:
            seen.add((frame.f_locals.get("loops"), frame.f_locals.get("left")))
            return tracer
        return None

    board.on_sleep = on_sleep
    sys.settrace(tracer)
    try:
        with pytest.raises(Stop):
            runner.run(board, display, store)
    finally:
        sys.settrace(None)
    assert seen <= {(None, None), (None, 0)}  # nothing counts down


# ---- the same on MicroPython ----------------------------------------------------------------

MICROPYTHON_SCRIPT = """\
import json, os
from trayhost import savefuzz
from dicetray.state import SaveError
from dicetray.save_check import load
from dicetray.store import Store

def build(data):
    try:
        return load(data, None), None
    except SaveError as e:
        return None, str(e)

out = {}
os.mkdir("/flash")
s = Store(root="/flash")
with open("/flash/game.json", "w") as f:
    f.write('{"format": ' + "[" * %(deep)d + "]" * %(deep)d + "}")
out["deep"] = s.load_game(build)
out["deep_kept"] = os.stat("/flash/game.bad")[6]
for name, raw in (("long", savefuzz.long_number()), ("nested", savefuzz.nested())):
    with open("/flash/game.json", "wb") as f:
        f.write(raw)
    out[name] = s.load_game(build)
out["disagree"] = [build(d)[1] for d in json.loads(%(disagree)r)]
out["fuzz"] = [savefuzz.play_on(d, i) for i, d in enumerate(json.loads(%(fuzz)r))]
print(json.dumps(out))
"""


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_micropython_refuses_the_same_saves_and_plays_the_same(micropython, host_package, mpy):
    disagree = [make() for _, make, _ in DISAGREEING]
    fuzz = savefuzz.cases(23, 40)
    script = MICROPYTHON_SCRIPT % {"deep": DEEP, "disagree": json.dumps(disagree),
                                   "fuzz": json.dumps(fuzz)}
    expected_fuzz = [list(savefuzz.play_on(json.loads(json.dumps(d)), i))
                     for i, d in enumerate(fuzz)]
    out = json.loads(micropython(script, paths=[FIRMWARE, host_package], mpy=mpy, timeout=300))
    assert out["deep"] == [None, "Save damaged: kept as game.bad"]
    assert out["deep_kept"] == len(deep_save())
    assert out["long"] == out["nested"] == [None, "Save damaged: kept as game.bad"]
    assert out["disagree"] == ["bad save: " + why for _, _, why in DISAGREEING]
    assert out["fuzz"] == expected_fuzz
    assert {kind for kind, _ in expected_fuzz} == {"refused", "played"}
