"""The store: atomic saves that survive power cuts, bad files kept aside, settings, error log;
reading them back (store_read.py) and what is kept for a post-mortem (postmortem.py)."""

import json
import types
from pathlib import Path

import pytest
from dicetray import store_read
from dicetray.game import Game
from dicetray.options import PRESETS
from dicetray.save_check import load as load_save
from dicetray.state import SaveError
from dicetray.store import Store
from fakes.flash import ENOSPC, FakeFlash, PowerCut, saved_game
from trayhost import savefuzz

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
VECTORS = Path(__file__).resolve().parent / "vectors"
TOKENS = PRESETS["lebon"].tokens
DICE = [4, 2, 1, 6, 3, 5, 2, 2, 1, 5, 5, 3, 6]  # ties in the roll-off, then tokens move


class Cycle:
    """A scripted die: the same faces over and over."""

    def __init__(self, faces=DICE):
        self.faces = faces
        self.i = 0

    def __call__(self):
        face = self.faces[self.i % len(self.faces)]
        self.i += 1
        return face


def act(game):
    # A simple player: throw in roll-offs and until stopping is allowed, then stop.
    if game.contest is None and game.can_stop():
        game.stop()
    else:
        game.throw()


def snapshots(count, every=1):
    """Saved dicts of one game of "lebon" for 3, taken every `every` actions."""
    game = Game(3, "lebon", Cycle())
    out = [game.to_dict()]
    while len(out) < count:
        for _ in range(every):
            act(game)
        out.append(game.to_dict())
    return out


def check(data):
    # What the app hands the store: the checker's own refusal is a bad save, with its reason.
    try:
        load_save(data, Cycle())
    except SaveError as e:
        return None, str(e)
    return data, None


def assert_whole(data):
    """data resumes as a game and no token was lost or made."""
    game = load_save(data, Cycle())
    assert sum(game.tokens) + game.pot == TOKENS


def load(flash):
    data, problem = Store(flash).load_game(check)
    assert not flash.handles, "the store left a file open"
    return data, problem


def saved(*games, **fake):
    """A flash on which each of games was saved in turn."""
    return saving(*games, **fake).fs


def saving(*games, **fake):
    """The store that saved each of games in turn on a new flash: it knows the setup there."""
    store = Store(FakeFlash(**fake))
    for g in games:
        store.save_game(g)
    return store


def as_released(data):
    """The bytes of data as the last release saved it: the whole game in game.json."""
    return json.dumps(dict(data, version=4)).encode()


# ---- saving and resuming ----------------------------------------------------------------


def test_a_save_is_its_setup_in_game_json_and_a_short_record_in_game_now():
    flash = FakeFlash()
    data = snapshots(8, every=3)[-1]
    Store(flash).save_game(data)
    assert Store(flash).load_game(lambda d: (d, None)) == (data, None)
    assert flash.listdir() == ["game.json", "game.now"]
    setup = json.loads(flash.files["game.json"])
    assert setup == {k: data[k] for k in ("format", "version", "players", "options",
                                          "computers", "hints")}
    assert len(flash.files["game.now"]) <= 128  # inline in littlefs's metadata on a Pico
    assert not flash.handles


def test_a_save_of_the_same_game_rewrites_only_its_record():
    store = saving(*snapshots(2, every=5))
    flash = store.fs
    setup = flash.files["game.json"]
    writes = []
    flash_open = flash.open
    flash.open = lambda path, mode: writes.append((path, mode)) or flash_open(path, mode)
    data = snapshots(3, every=5)[-1]
    store.save_game(data)
    assert writes == [("game.now", "wb")] and flash.files["game.json"] == setup
    assert saved_game(flash.files) == data


def test_a_real_game_resumes_where_it_stopped_and_plays_on_the_same():
    game = Game(3, "lebon", Cycle())
    for _ in range(20):
        act(game)
    assert game.pot < TOKENS  # tokens have moved: the save has something to lose
    flash = saved(game.to_dict())
    data, problem = load(flash.reboot())
    assert problem is None
    twin = load_save(data, Cycle())
    twin.roll.i = game.roll.i  # the same dice from here on
    assert twin == game
    for _ in range(30):
        act(game)
        act(twin)
    assert twin == game


def test_nothing_saved_means_no_resume_and_no_problem():
    assert load(FakeFlash()) == (None, None)


def test_a_new_save_replaces_the_old():
    old, new = snapshots(2, every=10)
    flash = saved(old, new)
    assert load(flash) == (new, None)
    assert flash.listdir() == ["game.json", "game.now"]


def test_files_live_under_root():
    flash = FakeFlash()
    flash.mkdir("data")
    store = Store(flash, root="data/")
    game = snapshots(1)[0]
    store.save_game(game)
    store.save_settings({"players": 4})
    store.log_error("boom")
    assert flash.listdir() == ["data", "data/error.log", "data/game.json", "data/game.now",
                               "data/settings.json"]
    assert saved_game(flash.files, "data/") == game
    assert store.load_game(lambda d: (d, None)) == (game, None)
    assert store.load_settings({"players": 2}) == {"players": 4}


def test_clear_game_leaves_nothing_to_resume():
    flash = saved(*snapshots(2))
    flash.files["game.tmp"] = b"{"
    Store(flash).clear_game()
    assert flash.listdir() == []
    assert load(flash) == (None, None)
    Store(flash).clear_game()  # nothing there: fine


# ---- power cuts -------------------------------------------------------------------------


@pytest.mark.parametrize("torn", [False, True], ids=["littlefs", "torn"])
def test_power_cut_at_every_byte_of_three_saves_keeps_the_last_whole_one(torn):
    """On littlefs a cut anywhere leaves the last whole save. A flash that tears a file
    rewritten in place (torn, FAT-like) may lose the record being rewritten: that save is
    then refused as torn, never resumed wrong."""
    games = snapshots(3, every=8)
    assert len({json.dumps(g) for g in games}) == 3
    dry = FakeFlash()
    dry.cut_after_bytes = 1 << 30
    store = Store(dry)
    for g in games:
        store.save_game(g)
    outcomes = set()
    for k in range(dry.written + 1):
        flash = FakeFlash(torn=torn)
        flash.cut_after_bytes = k
        store = Store(flash)
        done = -1
        with pytest.raises(PowerCut):
            for g in games:
                store.save_game(g)
                done += 1
            raise AssertionError("no cut at byte %d" % k)  # the last byte cuts at the latest
        after = flash.reboot()
        data, problem = load(after)
        if torn and problem is not None:
            assert done >= 0 and problem in ("Save invalid: kept as game.bad",
                                              "Save empty: kept as game.bad"), (k, problem)
            assert data is None and "game.now.bad" in after.files
            outcomes.add("torn")
            continue
        assert problem is None, (k, problem)
        if done < 0:
            assert data is None
        else:  # a torn flash keeps each byte at once: a record whose close was cut is whole
            assert data == games[done] or torn and data == games[done + 1], k
            assert_whole(data)
        # game.tmp is gone, and so is a record whose setup never reached flash
        assert after.listdir() == ([] if done < 0 else ["game.json", "game.now"])
        outcomes.add(done)
    # cuts before any save, and inside the second and third
    assert outcomes == ({-1, 0, 1, "torn"} if torn else {-1, 0, 1})


@pytest.mark.parametrize("torn", [False, True], ids=["littlefs", "torn"])
def test_power_cut_at_a_new_game_s_rename_leaves_no_game(torn):
    # Another game's save goes before the new game's record: the two never pair.
    old = snapshots(2, every=10)[1]
    new = Game(4, "classic", Cycle()).to_dict()
    store = saving(old, torn=torn)
    store.fs.cut_at_rename = True
    with pytest.raises(PowerCut):
        store.save_game(new)
    after = store.fs.reboot()
    assert sorted(after.files) == ["game.now", "game.tmp"]  # a whole but unused copy
    assert load(after) == (None, None)
    assert after.listdir() == []


@pytest.mark.parametrize("cut", ["record", "rename"])
def test_power_cut_in_the_first_save_after_resuming_an_older_release_s_keeps_it(cut):
    old, new = snapshots(2, every=10)
    flash = FakeFlash()
    flash.files["game.json"] = as_released(old)
    store = Store(flash)
    assert store.load_game(check) == (dict(old, version=4), None)
    if cut == "rename":
        flash.cut_at_rename = True
    else:
        flash.cut_after_bytes = 5
    with pytest.raises(PowerCut):
        store.save_game(new)
    after = flash.reboot()
    assert after.files["game.json"] == as_released(old)
    assert load(after) == (dict(old, version=4), None)  # the record beside it is not its


def test_a_save_never_opens_game_json():
    # Torn flash truncates at open: only a store that never opens game.json keeps it whole.
    old, new = snapshots(2, every=10)
    store = saving(old, torn=True)
    setup = store.fs.files["game.json"]
    store.fs.cut_after_bytes = 0
    with pytest.raises(PowerCut):
        store.save_game(new)
    assert store.fs.reboot().files["game.json"] == setup


# ---- a full or failing flash -------------------------------------------------------------


def test_full_flash_during_a_save_keeps_the_old_save():
    old, new = snapshots(2, every=10)
    store = saving(old)
    flash = store.fs
    record = len(saved(old, new).files["game.now"])
    flash.capacity = flash.used() + record - 1  # one byte short of the record's new copy
    with pytest.raises(OSError) as failure:
        store.save_game(new)
    assert failure.value.args[0] == ENOSPC
    assert not flash.handles
    assert flash.listdir() == ["game.json", "game.now"]
    assert load(flash.reboot()) == (old, None)
    flash.capacity += 1
    store.save_game(new)  # the same flash takes it once there is room
    assert load(flash) == (new, None)


@pytest.mark.parametrize("capacity", [10, 150])  # the record does not fit, or the setup
def test_full_flash_on_the_first_save_leaves_no_game(capacity):
    flash = FakeFlash(capacity=capacity)
    with pytest.raises(OSError):
        Store(flash).save_game(snapshots(1)[0])
    assert "game.json" not in flash.files and "game.tmp" not in flash.files
    assert load(flash) == (None, None)
    assert flash.listdir() == []


@pytest.mark.parametrize("op", ["open", "write", "close"])
def test_a_failing_flash_raises_oserror_and_keeps_the_old_save(op):
    old, new = snapshots(2, every=10)
    store = saving(old)
    flash = store.fs
    flash.broken = {op}
    with pytest.raises(OSError):
        store.save_game(new)
    flash.broken = set()
    assert not flash.handles
    assert load(flash) == (old, None)
    store.save_game(new)
    assert load(flash) == (new, None)


@pytest.mark.parametrize("op", ["open", "write", "close", "rename"])
def test_a_new_game_that_cannot_be_saved_leaves_no_game(op):
    store = saving(snapshots(2, every=10)[1])
    flash = store.fs
    flash.broken = {op}
    new = Game(5, "bar41", Cycle()).to_dict()
    with pytest.raises(OSError):
        store.save_game(new)
    flash.broken = set()
    assert not flash.handles
    assert load(flash) == (None, None)
    store.save_game(new)  # the next save writes its setup too
    assert load(flash) == (new, None)


# ---- bad files --------------------------------------------------------------------------


def _truncated():
    raw = json.dumps(snapshots(1)[0]).encode()
    return raw[: len(raw) // 2]


def _tampered():
    data = snapshots(1)[0]
    data["pot"] -= 1  # a token vanished
    return as_released(data)


BAD_FILES = [
    ("garbage", b"\x00\xff\xfe\x89PNG\r\n garbage", "Save damaged: kept as game.bad"),
    ("truncated", _truncated(), "Save damaged: kept as game.bad"),
    ("not utf-8", b'{"a": "\xff\xfe"}', "Save damaged: kept as game.bad"),
    ("empty", b"", "Save empty: kept as game.bad"),
    ("foreign dict", b'{"hello": "world"}', "Save invalid: kept as game.bad"),
    ("list", b"[1, 2, 3]", "Save invalid: kept as game.bad"),
    ("null", b"null", "Save invalid: kept as game.bad"),
    ("lost token", _tampered(), "Save invalid: kept as game.bad"),
    ("too big", b" " * Store.GAME_MAX + b"{}", "Save too big: kept as game.bad"),
]


@pytest.mark.parametrize("raw, message", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES])
def test_a_bad_save_is_kept_aside_with_a_clear_message(raw, message):
    flash = FakeFlash()
    flash.files["game.json"] = raw
    assert load(flash) == (None, message)
    assert flash.files["game.bad"] == raw  # the bad bytes, for a post-mortem
    assert "game.json" not in flash.files
    assert message in flash.files["error.log"].decode()
    assert load(flash) == (None, None)  # a fresh start, and no message again
    Store(flash).save_game(snapshots(1)[0])  # new games save as usual
    assert load(flash)[1] is None


def _pair(case):
    """game.json and game.now of a save, changed: torn, the record of another game..."""
    store = saving(*snapshots(6, every=2))
    setup, record = store.fs.files["game.json"], store.fs.files["game.now"]
    other = saving(Game(3, "classic", Cycle()).to_dict()).fs.files["game.now"]
    cases = {
        "torn": (setup, record[:-1]),
        "a byte changed": (setup, record[:20] + bytes([record[20] ^ 1]) + record[21:]),
        "of another game": (setup, other),
        "empty": (setup, b""),
        "none": (setup, None),
        "too big": (setup, record + b"0" * store_read.NOW_MAX),
        "not a record": (setup, b"5" + b"\xff" * 60),
        "its setup changed": (setup.replace(b'"hints": false', b'"hints": true'), record),
    }
    return cases[case]


PAIRS = [
    ("torn", "Save invalid: kept as game.bad", "checksum does not match"),
    ("a byte changed", "Save invalid: kept as game.bad", "checksum does not match"),
    ("of another game", "Save invalid: kept as game.bad", "it is of another game"),
    ("empty", "Save empty: kept as game.bad", "(game.now)"),
    ("none", "Save damaged: kept as game.bad", "(no game.now)"),
    ("too big", "Save too big: kept as game.bad", "(game.now)"),
    ("not a record", "Save invalid: kept as game.bad", "a character is not a digit"),
    ("its setup changed", "Save invalid: kept as game.bad", "it is of another game"),
]


@pytest.mark.parametrize("case, message, why", PAIRS, ids=[c[0] for c in PAIRS])
def test_a_torn_or_foreign_record_is_a_bad_save_kept_aside_with_its_setup(case, message, why):
    setup, record = _pair(case)
    flash = FakeFlash()
    flash.files["game.json"] = setup
    if record is not None:
        flash.files["game.now"] = record
    assert load(flash) == (None, message)
    assert flash.files["game.bad"] == setup
    assert flash.files.get("game.now.bad") == record
    assert why in flash.files["error.log"].decode()
    assert flash.listdir() == sorted(["error.log", "game.bad"]
                                     + (["game.now.bad"] if record is not None else []))
    assert load(flash) == (None, None)


def test_the_record_names_the_game_json_it_belongs_to_not_an_equal_one():
    # A setup written again with its keys in another order (as MicroPython may): its bytes
    # differ, so the record is not its: a record pairs with the very file it was written with.
    store = saving(*snapshots(3, every=2))
    setup = json.loads(store.fs.files["game.json"])
    flash = FakeFlash()
    flash.files["game.json"] = json.dumps(dict(reversed(list(setup.items())))).encode()
    flash.files["game.now"] = store.fs.files["game.now"]
    assert load(flash) == (None, "Save invalid: kept as game.bad")


def test_the_log_says_why_a_save_was_invalid():
    flash = FakeFlash()
    flash.files["game.json"] = b"[1, 2, 3]"
    load(flash)
    log = flash.files["error.log"].decode()
    assert "Save invalid: kept as game.bad (bad save: not a dict)" in log


def test_a_bug_in_the_check_is_a_crash_and_the_save_stays_in_place():
    flash = FakeFlash()
    flash.files["game.json"] = b'{"players": "x"}'
    with pytest.raises(KeyError):
        Store(flash).load_game(lambda d: d["tokens"])  # a typo in a checker is not a bad save
    assert flash.files["game.json"] == b'{"players": "x"}'
    assert "game.bad" not in flash.files


def test_a_too_big_save_is_refused_without_reading_it():
    flash = FakeFlash()
    flash.files["game.json"] = b"[" * (Store.GAME_MAX + 1)
    flash.broken = {"open", "read"}
    assert load(flash) == (None, "Save too big: kept as game.bad")


def test_the_last_three_bad_files_are_kept_newest_first():
    flash = FakeFlash()
    for raw in (b"first", b"second", b"third", b"fourth"):
        flash.files["game.json"] = raw
        assert load(flash)[1] == "Save damaged: kept as game.bad"
    assert flash.files["game.bad"] == b"fourth"
    assert flash.files["game.bad.1"] == b"third"
    assert flash.files["game.bad.2"] == b"second"
    assert sorted(n for n in flash.files if n.startswith("game.")) == [
        "game.bad", "game.bad.1", "game.bad.2"]


def test_a_folder_named_game_json_is_moved_aside():
    flash = FakeFlash()
    flash.mkdir("game.json")
    flash.files["game.json/x"] = b"1"
    flash.files["game.bad"] = b"an older bad file"  # a folder cannot replace a file
    assert load(flash) == (None, "Save unreadable: kept as game.bad")
    assert flash.listdir() == ["error.log", "game.bad", "game.bad.1", "game.bad/x"]
    assert flash.files["game.bad.1"] == b"an older bad file"
    game = snapshots(1)[0]
    Store(flash).save_game(game)
    assert Store(flash).load_game(lambda d: (d, None)) == (game, None)


def test_a_file_replaces_an_empty_folder_named_game_bad():
    flash = FakeFlash()
    flash.mkdir("game.bad")
    flash.files["game.json"] = b"{"
    assert load(flash) == (None, "Save damaged: kept as game.bad")
    assert flash.files["game.bad"] == b"{"


def test_an_unreadable_save_that_cannot_be_moved_is_reported_not_fatal():
    flash = FakeFlash()
    flash.files["game.json"] = json.dumps(snapshots(1)[0]).encode()
    flash.broken = {"read", "rename"}
    assert load(flash) == (None, "Save unreadable: could not move")
    assert "game.json" in flash.files


@pytest.mark.parametrize("with_game", [True, False])
def test_a_leftover_tmp_is_ignored_and_removed(with_game):
    game = snapshots(1)[0]
    flash = saved(game) if with_game else FakeFlash()
    flash.files["game.tmp"] = json.dumps(snapshots(2, every=10)[1]).encode()[:100]
    assert load(flash) == ((game, None) if with_game else (None, None))
    assert "game.tmp" not in flash.files


def test_every_message_fits_two_lines_of_a_128_px_screen():
    messages = {m for _, _, m in BAD_FILES}
    messages |= {"Save unreadable: kept as game.bad", "Save unreadable: could not move"}
    for message in messages:
        lines = [""]
        for word in message.split():
            if lines[-1] and len(lines[-1]) + 1 + len(word) > 16:
                lines.append(word)
            else:
                lines[-1] = (lines[-1] + " " + word).strip()
        assert len(lines) <= 2 and max(map(len, lines)) <= 16, message


# Files no release writes, each costly for the Pico to parse or to check: refused unparsed.
BEYOND_BOUNDS = [
    ("a long number", savefuzz.long_number()),
    ("nested deep", savefuzz.nested()),
    ("many lists", b"[" + b"[], " * 100 + b"[]]"),
    ("many items", b"[" + b"0, " * 600 + b"0]"),
    ("a long string", b'{"format": "' + b"x" * 100 + b'"}'),
]


def parses(monkeypatch):
    """The bytes the store hands the parser from now on."""
    parsed = []

    def loads(raw):
        parsed.append(raw)
        return json.loads(raw)

    monkeypatch.setattr(store_read, "json", types.SimpleNamespace(loads=loads))
    return parsed


@pytest.mark.parametrize("raw", [c[1] for c in BEYOND_BOUNDS], ids=[c[0] for c in BEYOND_BOUNDS])
def test_a_save_beyond_a_real_save_s_bounds_is_refused_unparsed(monkeypatch, raw):
    parsed = parses(monkeypatch)
    flash = FakeFlash()
    flash.files["game.json"] = raw
    assert load(flash) == (None, "Save damaged: kept as game.bad")
    assert flash.files["game.bad"] == raw and parsed == []


def files_the_tray_writes():
    """Saves of random games (up to 8 players, ties played off), the last release's saves, the
    settings and a full tally, as the tray writes them."""
    saves = [save for seed in range(1, 60) for save in savefuzz.real_saves(seed, 30)]
    for name in ("saves_v1.json", "saves_v2.json", "saves_v4.json"):
        saves += [v["save"] for v in json.loads((VECTORS / name).read_text())]
    saves.append({"players": 8, "preset": "classic", "options": PRESETS["classic"].to_dict(),
                  "computers": 7, "hints": False})
    saves.append({"format": "dicetray-tally", "version": 1, "paid": [99999] * 8,
                  "last": [1 << 30] + [21] * 8 + list(range(8))})
    return [json.dumps(save).encode() for save in saves]


def test_what_the_tray_writes_uses_at_most_half_of_each_bound_of_a_read():
    opens = commas = stretch = 0
    for raw in files_the_tray_writes():
        assert store_read.within_bounds(raw)
        opens = max(opens, raw.count(b"[") + raw.count(b"{"))
        commas = max(commas, raw.count(b","))
        stretch = max(stretch, max(len(piece) for piece in raw.split(b",")))
    assert opens > 20 and commas > 100  # games of 8 players were among them
    assert 2 * opens <= store_read.MAX_OPEN and 2 * commas <= store_read.MAX_COMMAS
    assert 2 * stretch <= store_read.MAX_STRETCH


# ---- settings ---------------------------------------------------------------------------

DEFAULTS = {
    "players": 3,
    "preset": "classic",
    "options": PRESETS["classic"].to_dict(),
    "sound": True,
}


def test_settings_round_trip():
    flash = FakeFlash()
    mine = {"players": 5, "preset": "bar41", "options": PRESETS["bar41"].to_dict(), "sound": False}
    Store(flash).save_settings(mine)
    assert Store(flash.reboot()).load_settings(DEFAULTS) == mine
    assert sorted(flash.files) == ["settings.json"]


def test_no_settings_gives_a_copy_of_the_defaults():
    got = Store(FakeFlash()).load_settings(DEFAULTS)
    assert got == DEFAULTS
    got["options"]["tokens"] = 99
    assert DEFAULTS["options"]["tokens"] == 21


@pytest.mark.parametrize(
    "raw",
    [b"\x00\xffgarbage", b'{"players": 4', b"", b"[4, 2, 1]", b"42", b" " * (8 * 1024)],
    ids=["garbage", "truncated", "empty", "list", "number", "too big"],
)
def test_bad_settings_give_the_defaults(raw):
    flash = FakeFlash()
    flash.files["settings.json"] = raw
    assert Store(flash).load_settings(DEFAULTS) == DEFAULTS
    assert not flash.handles


@pytest.mark.parametrize("raw", [savefuzz.nested(2000), b'{"players": 1' + b"0" * 4000 + b"}"],
                         ids=["nested deep", "a long number"])
def test_settings_beyond_a_real_save_s_bounds_are_refused_unparsed(monkeypatch, raw):
    parsed = parses(monkeypatch)
    flash = FakeFlash()
    flash.files["settings.json"] = raw
    assert Store(flash).load_settings(DEFAULTS) == DEFAULTS
    assert flash.files["settings.bad"] == raw and parsed == []


def test_one_bad_setting_is_defaulted_and_the_others_kept():
    options = dict(PRESETS["lebon"].to_dict(), tokens="many", le_bon=1, extra=3)
    mine = {"players": True, "preset": "lebon", "options": options, "unknown": 1}
    flash = FakeFlash()
    flash.files["settings.json"] = json.dumps(mine).encode()
    got = Store(flash).load_settings(DEFAULTS)
    want_options = dict(PRESETS["lebon"].to_dict(), tokens=21, le_bon=False)
    assert got == {"players": 3, "preset": "lebon", "options": want_options, "sound": True}


def test_a_settings_folder_or_a_broken_flash_give_the_defaults():
    flash = FakeFlash()
    flash.mkdir("settings.json")
    assert Store(flash).load_settings(DEFAULTS) == DEFAULTS
    for op in ("open", "read", "stat", "remove"):
        flash = FakeFlash()
        flash.files["settings.json"] = b'{"players": 4}'
        flash.files["settings.tmp"] = b"{"
        flash.broken = {op}
        assert Store(flash).load_settings(DEFAULTS)["players"] in (3, 4)


def test_a_leftover_settings_tmp_is_removed():
    flash = FakeFlash()
    flash.files["settings.tmp"] = b'{"players": 8}'
    assert Store(flash).load_settings(DEFAULTS) == DEFAULTS
    assert flash.listdir() == []


def test_power_cut_while_saving_settings_keeps_the_old_ones():
    flash = FakeFlash()
    Store(flash).save_settings({"players": 4})
    flash.cut_after_bytes = 5
    with pytest.raises(PowerCut):
        Store(flash).save_settings({"players": 6})
    assert Store(flash.reboot()).load_settings(DEFAULTS)["players"] == 4


# ---- the error log ----------------------------------------------------------------------


def test_errors_are_appended_one_per_line():
    flash = FakeFlash()
    store = Store(flash)
    store.log_error("Traceback: one")
    store.log_error("Traceback: two\n")
    assert flash.files["error.log"] == b"Traceback: one\nTraceback: two\n"


def test_the_log_rotates_and_stays_bounded():
    flash = FakeFlash()
    store = Store(flash)
    prev = b""
    rotations = 0
    for i in range(300):
        entry = ("error %d " % i + "x" * (i * 37 % 900) + "\n").encode()
        store.log_error(entry.decode())
        log = flash.files["error.log"]
        old = flash.files.get("error.old", b"")
        assert len(log) <= Store.LOG_MAX and len(old) <= Store.LOG_MAX
        if log != prev + entry:  # rotated: the whole previous log is error.old now
            assert (old, log) == (prev, entry)
            assert len(prev + entry) > Store.LOG_MAX
            rotations += 1
        prev = log
    assert rotations > 10
    assert flash.used() <= 2 * Store.LOG_MAX


def test_a_huge_entry_keeps_its_end():
    flash = FakeFlash()
    Store(flash).log_error("start " + "x" * (3 * Store.LOG_MAX) + " ZeroDivisionError")
    log = flash.files["error.log"]
    assert len(log) == Store.LOG_MAX and log.endswith(b"ZeroDivisionError\n")


@pytest.mark.parametrize("op", ["open", "write", "close", "rename", "remove", "stat"])
def test_logging_never_raises_on_a_failing_flash(op):
    flash = FakeFlash()
    flash.files["error.log"] = b"x" * Store.LOG_MAX  # the next entry rotates
    flash.broken = {op, "rename"} if op == "remove" else {op}
    Store(flash).log_error("Traceback: boom")
    assert not flash.handles
    assert len(flash.files.get("error.log", b"")) <= Store.LOG_MAX


def test_logging_never_raises_on_a_full_flash_or_odd_input():
    flash = FakeFlash(capacity=4)
    store = Store(flash)
    store.log_error("Traceback: boom")
    store.log_error(None)
    store.log_error(b"bytes")
    assert not flash.handles


def test_logging_does_not_swallow_a_power_cut():
    flash = FakeFlash()
    flash.cut_after_bytes = 3
    with pytest.raises(PowerCut):
        Store(flash).log_error("Traceback: boom")


# ---- the fake itself: it must model littlefs, or the tests above prove nothing ----------


def test_fake_commits_at_close_only():
    flash = FakeFlash()
    flash.files["old"] = b"committed"
    a = flash.open("old", "wb")
    a.write(b"new content")
    b = flash.open("fresh", "wb")
    b.write(b"data")
    after = flash.reboot()
    assert after.files == {"old": b"committed", "fresh": b""}
    a.close()
    b.close()
    assert flash.reboot().files == {"old": b"new content", "fresh": b"data"}


def test_fake_cut_after_k_bytes():
    for torn, kept in [(False, b""), (True, b"abc")]:
        flash = FakeFlash(torn=torn)
        flash.cut_after_bytes = 3
        f = flash.open("f", "wb")
        f.write(b"a")
        with pytest.raises(PowerCut):
            f.write(b"bcdef")
        with pytest.raises(PowerCut):
            flash.exists("f")  # the power is off
        assert flash.reboot().files == {"f": kept}


def test_fake_errors_are_micropython_shaped():
    flash = FakeFlash(capacity=2)
    with pytest.raises(OSError) as failure:
        flash.open("missing", "rb")
    assert failure.value.args == (2,)
    with flash.open("f", "wb") as f, pytest.raises(OSError) as failure:
        f.write(b"abc")
    assert failure.value.args == (ENOSPC,)
    assert flash.files == {"f": b""}  # an errored file commits nothing


# ---- the real filesystem ------------------------------------------------------------------


def test_real_filesystem_on_cpython(tmp_path):
    store = Store(root=str(tmp_path))
    old, new = snapshots(2, every=10)
    store.save_game(old)
    store.save_game(new)  # the record is rewritten
    assert store.load_game(check) == (new, None)
    (tmp_path / "game.tmp").write_bytes(b"{")
    store.log_error("x" * Store.LOG_MAX)
    store.log_error("y")
    assert (tmp_path / "error.old").stat().st_size == Store.LOG_MAX
    (tmp_path / "game.json").unlink()
    (tmp_path / "game.json").mkdir()
    (tmp_path / "game.bad").write_bytes(b"old")
    assert store.load_game(check) == (None, "Save unreadable: kept as game.bad")
    assert (tmp_path / "game.bad").is_dir()
    assert (tmp_path / "game.bad.1").read_bytes() == b"old"
    assert (tmp_path / "game.now.bad").is_file()  # the record, kept with its setup
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "error.log", "error.old", "game.bad", "game.bad.1", "game.now.bad"]
    store.save_settings({"players": 5})
    assert store.load_settings({"players": 3, "preset": "classic"})["players"] == 5
    store.clear_game()


MICROPYTHON_SCRIPT = """\
import json, os
from dicetray.game import Game
from dicetray.state import SaveError
from dicetray.save_check import load as load_save
from dicetray.store import Store

faces = %r
state = [0]

def roll():
    state[0] += 1
    return faces[state[0] %% len(faces)]

def check(d):
    try:
        load_save(d, roll)
    except SaveError as e:
        return None, str(e)
    return d, None

os.mkdir("/flash")
s = Store(root="/flash")
s.LOG_MAX = 300
out = {}
g = Game(3, "lebon", roll)
s.save_game(g.to_dict())
for _ in range(20):
    if g.contest is None and g.can_stop():
        g.stop()
    else:
        g.throw()
s.save_game(g.to_dict())
data, problem = s.load_game(check)
out["resumed"] = [data == g.to_dict(), problem]
with open("/flash/game.json", "wb") as f:
    f.write(b'{"format": "dicetray')
out["damaged"] = s.load_game(check)
with open("/flash/game.bad", "rb") as f:
    out["bad"] = f.read().decode()
os.mkdir("/flash/game.json")
out["folder"] = s.load_game(check)
for i in range(40):
    s.log_error("error %%d %%s" %% (i, "x" * i))
out["log"] = [os.stat("/flash/error.log")[6], os.stat("/flash/error.old")[6]]
s.save_settings({"players": 5, "preset": 7})
out["settings"] = s.load_settings({"players": 3, "preset": "classic"})
s.clear_game()
out["files"] = sorted(os.listdir("/flash"))
print(json.dumps(out))
"""


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_real_filesystem_on_micropython(micropython, mpy):
    out = json.loads(micropython(MICROPYTHON_SCRIPT % (DICE,), paths=[FIRMWARE], mpy=mpy))
    assert out["resumed"] == [True, None]
    assert out["damaged"] == [None, "Save damaged: kept as game.bad"]
    assert out["bad"] == '{"format": "dicetray'
    assert out["folder"] == [None, "Save unreadable: kept as game.bad"]
    assert all(0 < n <= 300 for n in out["log"])
    assert out["settings"] == {"players": 5, "preset": "classic"}
    assert out["files"] == ["error.log", "error.old", "game.bad", "game.bad.1", "game.now.bad",
                            "settings.json"]
