"""Reading the saves back: the game and the settings at power-up, the crash count.

Used at boot and by the setup only, so the app lets it go afterwards. A file that cannot be
used is set aside (postmortem.py) and the reason logged.
"""

import json

from dicetray import words
from dicetray.postmortem import set_aside
from dicetray.state import SAVE_VERSION, SaveError

# Why a file was not used: the words a catalogue's WHY says on the screen. A problem is
# SAVE_PROBLEM, the why and then KEPT_AS or STUCK, for the app to wrap at a space.
EMPTY = "empty"
DAMAGED = "damaged"
TOO_BIG = "too big"
INVALID = "invalid"
UNREADABLE = "unreadable"
CRASHED = "crashed"

# The bounds of a file the parser is handed: at least twice what the largest file the tray writes
# holds (a game of 8 players in a tie's play-off). They bound the parser's work and heap before
# it starts: it turns a run of digits into an integer in time growing with the square of its
# length, and a level of nesting costs heap, so a file beyond them is damaged, unparsed.
MAX_OPEN = 64  # "[" and "{" in all: the nesting is no deeper
MAX_COMMAS = 512  # the values are no more
MAX_STRETCH = 64  # bytes without a comma: no number is longer
NOW_BAD = "game.now.bad"  # the record of a bad save, kept with it as game.bad
NOW_MAX = 256  # bytes: twice the longest record (save_record), which is read whole


def load_game(store, build):
    """The saved game as (game, None), (None, None) when there is none, or (None, problem).

    build(data) turns the saved dict into (game, None), or says (None, why) when data is
    not a game it can resume; anything it raises is a bug and goes up, the files untouched.
    The saved dict is game.json's setup with the record in game.now (read_record), or
    game.json alone when an older release wrote it (game.now, if any, is then not its).
    A save that cannot be read, parsed or built, whose game crashed the tray CRASH_LIMIT
    times in a row (see note_crash), or whose last load never finished (the tray stopped in
    it: a crash, the watchdog, a power cut), is renamed game.bad and its record game.now.bad
    (older ones are kept as game.bad.1 and game.bad.2...), the reason goes to error.log, and
    problem is a short message for the screen. A leftover game.tmp (a save cut short:
    game.json is still the last whole save) is removed, and so is a record without a setup
    (a game's start cut short).
    """
    store.discard(store.TMP)
    game = store.path(store.GAME)
    loading = store.path(store.LOADING)
    if not store.fs.exists(game):
        store.discard(store.NOW)
        store.discard(store.CRASHES)
        store.discard(store.LOADING)
        return None, None
    store.crashes = read_crashes(store)
    detail = ""
    if store.crashes >= store.CRASH_LIMIT:
        why = CRASHED
        detail = " (%d crashes in a row)" % store.crashes
    elif store.fs.exists(loading):
        why = CRASHED
        detail = " (the tray stopped while loading it)"
    else:
        _mark(store, loading)  # a reset runs no Python: the next boot must find it on flash
        data, why, detail = _read_save(store, game)
        if why is None:
            built, reason = build(data)
            if reason is None:
                store.discard(store.LOADING)
                return built, None
            why = INVALID
            detail = " (%s)" % reason
    store.setup = None
    store.setup_id = 0
    store.record = None
    problem = problem_text(words.T.SAVE_PROBLEM, why, keep_aside(store, store.GAME, store.BAD),
                           store.BAD)
    if store.fs.exists(store.path(store.NOW)):
        keep_aside(store, store.NOW, NOW_BAD)
    store.log_error("%s: %s%s\n" % (game, problem, detail))
    store.crashes = 0
    store.discard(store.CRASHES)
    store.discard(store.LOADING)
    return None, problem


def _read_save(store, game):
    # (data, None, ""), or (None, why, detail): the saved dict the files hold, not yet checked.
    # The store learns the setup on flash, which the game's next save keeps or replaces.
    raw, why = read_bytes(store, game, store.GAME_MAX)
    data, why = parse(raw, why)
    if why is not None or type(data) is not dict or data.get("version") != SAVE_VERSION:
        store.setup_id = None  # an older release's save, whole: a game.now is not its
        return data, why, ""
    now = store.path(store.NOW)
    if not store.fs.exists(now):
        return None, DAMAGED, " (no game.now)"
    record, why = read_bytes(store, now, NOW_MAX)
    if why is not None:
        return None, why, " (game.now)"
    try:
        whole = read_record(data, raw, record)
    except SaveError as e:
        return None, INVALID, " (%s)" % e
    from dicetray.save_record import checksum

    store.setup = data
    store.setup_id = checksum(raw)
    store.record = record  # the state the first stop or stake after the resume may go back to
    return whole, None, ""


def read_record(setup, raw_setup, raw):
    """The saved dict of a game.json holding setup (its parsed dict; raw_setup: its bytes) and
    the record raw (save_record): setup with the record's fields, read by their kinds and not
    yet checked (save_check does). SaveError when the record is torn, of another game or not a
    record."""
    from dicetray.save_record import (
        CHUNK,
        RECORD_FIELDS,
        SETUP_KEYS,
        SETUP_MAY,
        VERSION,
        Io,
        checksum,
        fail,
        fields,
        get,
    )

    end = len(raw) - CHUNK
    if end < 1 + CHUNK or get(raw, end) != checksum(raw[:end]):
        fail("its checksum does not match it")
    if raw[:1] != VERSION:
        fail("it is not of version %d" % SAVE_VERSION)
    if get(raw, 1) != checksum(raw_setup):
        fail("it is of another game")
    if type(setup) is not dict or [k for k in SETUP_KEYS if k not in setup] \
            or [k for k in setup if k not in SETUP_KEYS and k not in SETUP_MAY]:
        fail("game.json is not a setup")
    players = setup["players"]
    options = setup["options"]
    tokens = options.get("tokens") if type(options) is dict else None
    if type(players) is not int or not 2 <= players <= 8 or type(tokens) is not int \
            or not 0 < tokens < 1000:
        fail("the setup's players or tokens are not a game's")  # the radices come from them
    io = Io(raw, 1 + CHUNK, end)
    data = fields(io, dict(setup), RECORD_FIELDS, players, tokens)
    if io.pos != end:
        fail("it is too long")
    return data


def _mark(store, path):
    try:
        store.fs.open(path, "wb").close()  # an empty file: being there is the note
    except OSError:  # a full or failing flash: load unguarded rather than not at all
        pass


def load_settings(store, defaults):
    """A new dict: defaults, with each saved value whose key and type match a default's.

    Nested dicts are merged the same way, key by key; a bool never passes for an int.
    Ranges are the caller's to check. Any problem gives the defaults and never raises: a
    bad settings file is not worth a screen, and the next save_settings replaces it.
    """
    try:
        store.discard(store.SETTINGS_TMP)
        path = store.path(store.SETTINGS)
        if not store.fs.exists(path):
            return _merge(None, defaults)
        saved, why = read_json(store, path, store.SETTINGS_MAX)
        if why is None and type(saved) is not dict:
            why = INVALID
        if why is not None:
            kept = keep_aside(store, store.SETTINGS, store.SETTINGS_BAD)
            store.log_error("%s %s: defaults used%s\n"
                            % (path, why, ", kept as settings.bad" if kept else ""))
            saved = None
        return _merge(saved, defaults)
    except Exception:  # settings must never stop the tray from starting
        return _merge(None, defaults)


def read_json(store, path, limit):
    """(data, None), or (None, why) when the file cannot be used; reads at most limit + 1
    bytes."""
    return parse(*read_bytes(store, path, limit))


def read_bytes(store, path, limit):
    """(raw, None), or (None, why) when the file cannot be read, is empty or is over limit
    bytes; reads at most limit + 1 bytes."""
    try:
        if store.fs.size(path) > limit:
            return None, TOO_BIG
        with store.fs.open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError:
        return None, UNREADABLE
    if not raw:
        return None, EMPTY
    if len(raw) > limit:
        return None, TOO_BIG
    return raw, None


def parse(raw, why):
    """(data, None) for the JSON bytes raw within the bounds (within_bounds); (None, why) when
    why is given or the bytes cannot be parsed."""
    if why is not None:
        return None, why
    if not within_bounds(raw):
        return None, DAMAGED
    try:
        return json.loads(raw), None
    except Exception:  # syntax, bad UTF-8, or out of heap or of stack: no file of ours
        return None, DAMAGED


def within_bounds(raw):
    """True when the bytes raw are within the bounds of a file the tray writes (MAX_OPEN,
    MAX_COMMAS, MAX_STRETCH). Counted in C, then a step per comma: no step per byte."""
    if raw.count(b"[") + raw.count(b"{") > MAX_OPEN or raw.count(b",") > MAX_COMMAS:
        return False
    start = 0
    end = raw.find(b",")
    while end >= 0:
        if end - start > MAX_STRETCH:
            return False
        start = end + 1
        end = raw.find(b",", start)
    return len(raw) - start <= MAX_STRETCH


def problem_text(problem, why, kept, bad):
    """What the screen and the log say of a file set aside for why: problem (a catalogue's
    SAVE_PROBLEM or TALLY_PROBLEM) with why and where the file went (bad), if it was moved."""
    t = words.T
    return problem % (t.WHY[why], t.KEPT_AS % bad if kept else t.STUCK)


def keep_aside(store, name, bad):
    """name -> bad, the older bad files one step older; True when name is out of the way."""
    return set_aside(store.fs, store.path(name), store.path(bad), store.BAD_KEPT)


def read_crashes(store):
    """The crash count on flash: 0 when there is none; a damaged one counts as one crash."""
    path = store.path(store.CRASHES)
    try:
        if not store.fs.exists(path):
            return 0
        with store.fs.open(path, "rb") as f:
            raw = f.read(8)
        return max(1, int(raw.decode()))
    except Exception:  # unreadable or not a number: a crash was being counted
        return 1


def _merge(saved, defaults):
    out = {}
    for key, value in defaults.items():
        if type(saved) is dict and key in saved and type(saved[key]) is type(value):
            new = saved[key]
            out[key] = _merge(new, value) if type(value) is dict else _copy(new)
        else:
            out[key] = _copy(value)
    return out


def _copy(v):
    if type(v) is dict:
        return {k: _copy(x) for k, x in v.items()}
    if type(v) is list:
        return [_copy(x) for x in v]
    return v
