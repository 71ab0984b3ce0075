"""Power cuts at every save of a game played through the buttons; bad saves; a failing flash."""

import json
import types

import pytest
from dicetray import store_read, ui
from dicetray.display import Display
from dicetray.game import Game
from dicetray.screens import NOTICE, OVER, PLAY, RESUME, SETUP
from dicetray.store import Store
from fakes.flash import FakeFlash, PowerCut, saved_game
from test_tray import (
    CountingDice,
    SpyStore,
    assert_panel_shows,
    assert_result_sane,
    fb_rows,
    make_tray,
    play,
    to_first_throw,
    tokens_ok,
)
from trayhost.autoplay import SeededDice
from trayhost.oled import FakeI2C
from trayhost.pins import ticks_diff
from trayhost.trayrun import bot_keys

# Where a cut lands in a save: before the rename of a game's setup (its first save), or after k
# bytes of what the save writes reached flash: the record, then at a game's first save its setup
# ("mid" = half, -1 = all but the last byte, "all" = every byte, the last close not done).
CUTS = ("rename", 0, 1, "mid", -1, "all")


def bytes_saved(store, data):
    """The bytes store's next save of data writes (the record; the setup when it changes)."""
    dry = Store(store.fs.reboot())
    dry.setup, dry.setup_id = store.setup, store.setup_id
    dry.fs.cut_after_bytes = 1 << 30
    dry.save_game(data)
    return dry.fs.written, dry.setup is not store.setup


class CuttingStore(SpyStore):
    """Cuts the power during a save when armed; a save that completes arms the next one."""

    cuts = iter(())  # modes, see CUTS; shared by the stores of one test
    armed = False
    done = None  # called with the completed saves' dict

    def save_game(self, data):
        fs = self.fs
        if self.armed:
            mode = next(self.cuts)
            n, renames = bytes_saved(self, data)
            if mode == "rename" and not renames:  # only a game's first save renames
                mode = next(self.cuts)
            if mode == "rename":
                fs.cut_at_rename = True
            else:
                fs.cut_after_bytes = {"mid": n // 2, -1: n - 1, "all": n}.get(mode, mode)
            self.last_cut = mode
        super().save_game(data)
        fs.cut_at_rename = False
        fs.cut_after_bytes = None
        self.armed = True
        self.done(self.saved[-1])


@pytest.mark.parametrize("preset, players", [("classic", 3), ("bar41", 4)])
def test_a_power_cut_in_every_save_resumes_the_last_whole_save(preset, players):
    """Every action's first save is cut (at the rename or inside a write of either file), the
    tray reboots and resumes; the action is then played again and saved whole, and the next
    one is cut."""
    dice = CountingDice(31)
    bot = SeededDice(32)
    cuts = iter(CUTS * 1000)
    last = [None]  # the last completed save
    whole = []  # every completed save

    def completed(data):
        last[0] = data
        whole.append(data)

    def boot(flash):
        tray = make_tray(flash=flash, dice=dice, store=CuttingStore)
        tray.store.cuts = cuts
        tray.store.done = completed
        return tray

    tray = boot(FakeFlash())
    tray.store.armed = True
    resumed = cuts_made = 0
    modes = set()
    final = None
    seen_over = False
    for _ in range(5000):
        app = tray.app
        if app.screen == OVER:
            seen_over = True
            final = app.game
        if seen_over and app.screen == SETUP:
            break
        try:
            for k in bot_keys(app, bot, (players, preset)):
                tray.key(k)
                if app.game is not None:
                    assert tokens_ok(app.game)
        except PowerCut:
            cuts_made += 1
            modes.add(tray.store.last_cut)
            flash = tray.fs.reboot()
            tray = boot(flash)
            app = tray.app
            assert "game.tmp" not in flash.files  # dropped at boot
            if last[0] is None:  # the very first save of the game was cut: nothing to resume
                assert app.screen == SETUP and not flash.files.keys() & {"game.json", "game.now"}
                assert app.units[SETUP].settings["preset"] == preset  # saved before the game
                continue
            assert saved_game(flash.files) == last[0]
            assert app.screen == RESUME
            assert_panel_shows(tray)
            tray.key("o")
            assert app.screen == PLAY
            assert app.game.to_dict() == last[0]
            assert tokens_ok(app.game)
            resumed += 1
    else:
        raise AssertionError("the game did not end")
    assert modes == set(CUTS)
    # The first save was cut, and each whole save but the last was followed by a cut one.
    assert cuts_made == len(whole) and resumed == cuts_made - 1
    assert whole[-1]["phase"] == "over"
    assert_result_sane(final)
    assert not tray.fs.files.keys() & {"game.json", "game.now"}


@pytest.mark.parametrize("cut", CUTS[1:])
def test_on_a_flash_that_tears_a_file_a_cut_record_is_refused_never_resumed_wrong(cut):
    """On littlefs a record rewritten in place is committed whole at its close. A flash that
    keeps each byte at once (torn, FAT-like) may keep a record cut short: that save is refused
    as a bad one, kept aside with the notice, or resumed whole; never a wrong game."""
    flash = FakeFlash(torn=True)
    tray = make_tray(30, flash=flash, store=CuttingStore)
    store = tray.store
    store.cuts = iter([cut])
    store.done = lambda data: setattr(store, "armed", False)  # armed below, for one save
    g = to_first_throw(tray)
    tray.keys("1")
    before = tray.store.saved[-1]
    tray.store.armed = True
    with pytest.raises(PowerCut):
        tray.key("r")
    after = g.to_dict()
    again = make_tray(31, flash=flash.reboot())
    app = again.app
    if app.screen == NOTICE:
        assert app.units[NOTICE].told[1][0] in ("Save invalid: kept as game.bad",
                                                 "Save empty: kept as game.bad")
        assert {"game.bad", "game.now.bad"} <= again.fs.files.keys()
        assert cut != "all"
    else:
        assert app.screen == RESUME
        again.key("o")
        assert app.game.to_dict() in (before, after) and tokens_ok(app.game)


def test_a_cut_just_after_a_save_resumes_that_save():
    flash = FakeFlash()
    tray = make_tray(33, flash=flash)
    to_first_throw(tray)
    tray.keys("1r")
    tray.fs.cut_after_bytes = 0  # the next write of any file cuts
    saved = tray.store.saved[-1]
    with pytest.raises(PowerCut):
        tray.key("r")
    again = make_tray(34, flash=flash.reboot())
    assert again.app.screen == RESUME
    again.key("o")
    assert again.app.game.to_dict() == saved


@pytest.mark.parametrize("torn", [False, True], ids=["littlefs", "torn"])
def test_a_cut_while_saving_the_settings_keeps_the_older_settings(torn):
    flash = FakeFlash(torn=torn)
    tray = make_tray(35, flash=flash)
    tray.keys("ro")  # 5 players
    tray.keys("O")
    tray.keys("O1")  # quit (KEEP1: yes): back to the setup, the game kept
    old = json.loads(json.dumps(tray.app.units[SETUP].settings))
    n = len(json.dumps(dict(old, players=6)).encode())
    for k in (0, 1, n // 2, n):
        cut = FakeFlash(torn=torn)
        cut.files = dict(flash.files)
        tray = make_tray(36, flash=cut)
        assert tray.app.screen == RESUME
        tray.key("r")  # not now: the setup, the game kept on its last row
        assert tray.app.units[SETUP].settings == old
        tray.keys("2r")  # round to PLAYERS: 6 players
        cut.cut_after_bytes = k
        with pytest.raises(PowerCut):
            tray.key("o")
        again = make_tray(37, flash=cut.reboot())
        assert again.app.screen == RESUME  # the game kept: the new one had no throw yet
        again.key("r")
        assert again.app.units[SETUP].settings == old


# ---- 4. bad saves at boot ------------------------------------------------------------------


def _a_save(**changes):
    tray = make_tray(38)
    to_first_throw(tray)
    data = tray.store.saved[-1]
    data.update(changes)
    return data


def _raw(data):
    return json.dumps(data).encode()


def _released(data):
    # As the last release saved a game: all of it in game.json.
    return _raw(dict(data, version=4))


GOOD = _raw(_a_save())
BAD = [
    ("garbage", b"\x00\xff\xfe\x89PNG\r\n garbage"),
    ("truncated", GOOD[: len(GOOD) // 2]),
    ("last byte lost", GOOD[:-1]),
    ("empty", b""),
    ("not utf-8", b'{"a": "\xff\xfe"}'),
    ("foreign dict", b'{"hello": "world"}'),
    ("list", b"[1, 2, 3]"),
    ("newer version", _raw(_a_save(version=99))),
    ("a token made", _released(_a_save(pot=_a_save()["pot"] + 1))),
    ("nine players", _released(_a_save(players=9))),
    ("too big", b" " * Store.GAME_MAX + GOOD),
]


@pytest.mark.parametrize("raw", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_save_shows_a_notice_then_setup_and_is_kept_as_game_bad(raw):
    flash = FakeFlash()
    flash.files["game.json"] = raw
    tray = make_tray(39, flash=flash)
    app = tray.app
    assert app.screen == NOTICE and app.game is None
    assert_panel_shows(tray)
    for k in "r123":  # only OK leaves the notice
        tray.key(k)
        assert app.screen == NOTICE
    tray.key("o")
    assert app.screen == SETUP
    assert flash.files["game.bad"] == raw
    assert "game.json" not in flash.files
    assert "game.bad" in flash.files["error.log"].decode()
    assert_panel_shows(tray)
    tray.key("o")  # a new game starts and saves as usual
    assert app.screen == PLAY and "game.json" in flash.files
    again = make_tray(40, flash=flash.reboot())
    assert again.app.screen == RESUME  # no notice a second time


def test_a_good_save_with_a_leftover_tmp_resumes():
    flash = FakeFlash()
    Store(flash).save_game(json.loads(GOOD))
    flash.files["game.tmp"] = GOOD[:10]
    tray = make_tray(41, flash=flash)
    assert tray.app.screen == RESUME and "game.tmp" not in flash.files
    tray.key("o")
    assert tray.app.game.to_dict() == json.loads(GOOD)


def test_a_save_of_the_last_release_resumes_and_its_next_save_is_in_two_files():
    flash = FakeFlash()
    old = dict(json.loads(GOOD), version=4)
    flash.files["game.json"] = json.dumps(old).encode()
    tray = make_tray(42, flash=flash)
    assert tray.app.screen == RESUME
    tray.key("o")
    assert tray.app.game.to_dict() == json.loads(GOOD)
    assert flash.files["game.json"] == json.dumps(old).encode()  # until the next action
    tray.key("r")
    assert json.loads(flash.files["game.json"])["version"] == 5
    assert saved_game(flash.files) == tray.app.game.to_dict()
    again = make_tray(43, flash=flash.reboot())
    again.key("o")
    assert again.app.game == tray.app.game


def test_a_power_cut_while_the_save_loads_sets_it_aside_at_the_next_boot(monkeypatch):
    # The next boot cannot tell the cut from a reset by the watchdog in a load that never ends.
    def cut(raw):
        raise PowerCut("while the save is parsed")

    flash = FakeFlash()
    Store(flash).save_game(json.loads(GOOD))
    files = dict(flash.files)
    monkeypatch.setattr(store_read, "json", types.SimpleNamespace(loads=cut))
    with pytest.raises(PowerCut):
        make_tray(49, flash=flash)
    monkeypatch.undo()
    again = make_tray(50, flash=flash.reboot())
    assert again.app.screen == NOTICE
    assert again.app.units[NOTICE].told[1][0] == "Save crashed: kept as game.bad"
    # not lost: renamed back, it resumes
    assert again.fs.files["game.bad"] == files["game.json"]
    assert again.fs.files["game.now.bad"] == files["game.now"]
    again.fs.rename("game.bad", "game.json")
    again.fs.rename("game.now.bad", "game.now")
    assert make_tray(51, flash=again.fs.reboot()).app.screen == RESUME


def test_a_power_cut_while_the_record_is_read_sets_both_files_aside_at_the_next_boot(
        monkeypatch):
    def cut(setup, raw_setup, raw):
        raise PowerCut("while the record is read")

    flash = FakeFlash()
    Store(flash).save_game(json.loads(GOOD))
    files = dict(flash.files)
    monkeypatch.setattr(store_read, "read_record", cut)
    with pytest.raises(PowerCut):
        make_tray(52, flash=flash)
    monkeypatch.undo()
    after = flash.reboot()
    assert "game.loading" in after.files  # the mark the next boot finds
    again = make_tray(53, flash=after)
    assert again.app.units[NOTICE].told[1][0] == "Save crashed: kept as game.bad"
    assert again.fs.files["game.bad"] == files["game.json"]
    assert again.fs.files["game.now.bad"] == files["game.now"]
    assert "game.loading" not in again.fs.files


def test_a_finished_game_on_flash_is_not_offered():
    g = Game(2, "classic", SeededDice(43))
    while not g.over:
        g.throw() if g.contest is not None or g.turn.count == 0 else g.stop()
    flash = FakeFlash()
    Store(flash).save_game(g.to_dict())
    tray = make_tray(44, flash=flash)
    assert tray.app.screen == SETUP and not flash.files.keys() & {"game.json", "game.now"}


# ---- a failing flash ------------------------------------------------------------------------


def standings_picture(game, unsaved):
    d = Display(FakeI2C(), ticks_diff=ticks_diff)
    ui.standings(d.fb, 128, 64, game, unsaved, "ROLL:BACK OK:TALLY")  # the standings unit's keys
    return fb_rows(d)


def test_a_flash_that_cannot_remove_files_does_not_stop_the_tray():
    """clear_game raises OSError on a failing flash: the end of a game must survive it, and
    the finished game left on flash must not stop the next boot either."""
    flash = FakeFlash()
    tray = make_tray(45, flash=flash)
    flash.broken = {"remove"}
    (game,) = play(tray, 2, "classic", SeededDice(46))
    assert_result_sane(game)
    assert saved_game(flash.files)["phase"] == "over"  # could not be removed
    again = make_tray(47, flash=flash.reboot())
    again.fs.broken = {"remove"}
    assert again.app.screen == SETUP
    again.key("o")  # a new game replaces it (rename needs no remove)
    assert again.app.screen == PLAY
    assert saved_game(again.fs.files) == again.app.game.to_dict()


@pytest.mark.parametrize("broken", ["open", "write", "close"])
def test_a_flash_that_cannot_save_lets_the_game_go_on_and_says_so(broken):
    flash = FakeFlash()
    tray = make_tray(48, flash=flash)
    g = to_first_throw(tray)
    app = tray.app
    saved = saved_game(flash.files)
    flash.broken = {broken}
    tray.keys("rr")
    assert g.turn.count == 3 and app.save_failed
    assert saved_game(flash.files) == saved  # the last good save is intact
    tray.key("O")
    assert app.screen == "standings"
    assert tray.i2c.panel.pixels() == standings_picture(g, unsaved=True)  # "NOT SAVED!"
    assert tray.i2c.panel.pixels() != standings_picture(g, unsaved=False)
    flash.broken = set()
    tray.keys("ro")  # back (ROLL), then stop: saved again
    assert not app.save_failed
    assert saved_game(flash.files) == app.game.to_dict()
