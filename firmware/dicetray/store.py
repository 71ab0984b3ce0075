"""Saves and resumes a game, the last setup and an error log on flash, surviving power cuts."""

import json
import os

from dicetray.postmortem import append, set_aside

_ENOSPC = 28  # MicroPython and Linux agree on this one

# Why a file was not used. The screen is 128 px wide, 16 characters of an 8-px font: a problem
# is "Save <why>:" (16 at most) and then KEPT or STUCK, joined by a space for the app to wrap.
EMPTY = "empty"
DAMAGED = "damaged"
TOO_BIG = "too big"
INVALID = "invalid"
UNREADABLE = "unreadable"
CRASHED = "crashed"
KEPT = "kept as game.bad"
STUCK = "could not move"


class _OsFs:
    """The real filesystem (littlefs on the Pico) through os and the builtin open."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        # CPython's os.rename refuses an existing target on Windows; os.replace does not.
        # MicroPython has no os.replace, and its littlefs rename replaces atomically.
        getattr(os, "replace", os.rename)(old, new)

    def remove(self, path):
        os.remove(path)

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def size(self, path):
        return os.stat(path)[6]


class Store:
    """The files the tray keeps on flash, each replaced atomically: write a .tmp, rename over.

    fs: an object with open(path, mode), rename(old, new), remove(path), exists(path) and
    size(path); None means the real filesystem. root: the folder of the files ("" = current).
    """

    GAME = "game.json"
    TMP = "game.tmp"
    BAD = "game.bad"  # the newest bad save; older ones are game.bad.1, game.bad.2
    CRASHES = "game.crashes"  # how often the saved game crashed the tray since it last moved on
    SETTINGS = "settings.json"
    SETTINGS_TMP = "settings.tmp"
    SETTINGS_BAD = "settings.bad"
    LOG = "error.log"
    LOG_OLD = "error.old"

    GAME_MAX = 16 * 1024  # a saved game is ~1 KB; anything this big is not one of ours
    SETTINGS_MAX = 4 * 1024
    LOG_MAX = 8 * 1024  # error.log and error.old together stay under twice this
    BAD_KEPT = 3  # bad files kept of each kind: the newest and two older
    CRASH_LIMIT = 2  # a saved game that crashed the tray this often in a row is set aside

    def __init__(self, fs=None, root=""):
        self.fs = _OsFs() if fs is None else fs
        self._root = root.rstrip("/") + "/" if root else ""
        self._crashes = 0  # as on flash, once read; cleared by the next save that works

    def path(self, name):
        """Where a file of the store lives: path(Store.GAME)."""
        return self._root + name

    # ---- the game in progress ---------------------------------------------------------

    def save_game(self, data):
        """Replace the saved game with data (a JSON-compatible dict, Game.to_dict()).

        The old game.json is never opened for writing: a power cut at any point leaves either
        the old save or the new one. A full or failing flash raises OSError (e.args[0] is the
        errno, 28 when full) with the old save intact; the app tells the players.
        """
        self._replace(self.TMP, self.GAME, data)
        if self._crashes:
            self._crashes = 0
            self._discard(self.CRASHES)  # the game moved on: its crashes were not its fault

    def load_game(self, build):
        """The saved game as (game, None), (None, None) when there is none, or (None, problem).

        build(data) turns the parsed file into (game, None), or says (None, why) when data is
        not a game it can resume; anything it raises is a bug and goes up, the file untouched.
        A file that cannot be read, parsed or built, or whose game crashed the tray
        CRASH_LIMIT times in a row (see note_crash), is renamed game.bad (older ones are kept as
        game.bad.1 and game.bad.2), the reason goes to error.log, and problem is a short message
        for the screen. A leftover game.tmp (a save cut short: game.json is still the last
        whole save) is removed.
        """
        self._discard(self.TMP)
        game = self.path(self.GAME)
        if not self.fs.exists(game):
            self._discard(self.CRASHES)
            return None, None
        self._crashes = self._read_crashes()
        detail = ""
        if self._crashes >= self.CRASH_LIMIT:
            why = CRASHED
            detail = " (%d crashes in a row)" % self._crashes
        else:
            data, why = self._read_json(game, self.GAME_MAX)
            if why is None:
                built, reason = build(data)
                if reason is None:
                    return built, None
                why = INVALID
                detail = " (%s)" % reason
        problem = "Save %s: %s" % (why, KEPT if self._keep_aside(self.GAME, self.BAD) else STUCK)
        self.log_error("%s: %s%s\n" % (game, problem, detail))
        self._crashes = 0
        self._discard(self.CRASHES)
        return None, problem

    def note_crash(self):
        """Count a crash of the tray against the saved game, if there is one; never raises.

        The count is kept on flash, so it survives the board's reset; the next save that works
        clears it. At CRASH_LIMIT, load_game sets the game aside instead of resuming it.
        """
        try:
            if not self.fs.exists(self.path(self.GAME)):
                return
            self._crashes = self._read_crashes() + 1
            with self.fs.open(self.path(self.CRASHES), "wb") as f:
                f.write(str(self._crashes).encode())
        except Exception:  # the crash handler calls this: a failing flash must not fail it
            pass

    def clear_game(self):
        """Forget the game (it is over): nothing to resume at the next start.

        A missing file is fine; a failing flash raises OSError.
        """
        for name in (self.GAME, self.TMP, self.CRASHES):
            path = self.path(name)
            if self.fs.exists(path):
                self.fs.remove(path)

    # ---- the last setup ---------------------------------------------------------------

    def save_settings(self, settings):
        """Replace the saved setup (a JSON-compatible dict) atomically; OSError as save_game."""
        self._replace(self.SETTINGS_TMP, self.SETTINGS, settings)

    def load_settings(self, defaults):
        """A new dict: defaults, with each saved value whose key and type match a default's.

        Nested dicts are merged the same way, key by key; a bool never passes for an int.
        Ranges are the caller's to check. Any problem gives the defaults and never raises: a
        bad settings file is not worth a screen, and the next save_settings replaces it.
        """
        try:
            self._discard(self.SETTINGS_TMP)
            path = self.path(self.SETTINGS)
            if not self.fs.exists(path):
                return _merge(None, defaults)
            saved, why = self._read_json(path, self.SETTINGS_MAX)
            if why is None and type(saved) is not dict:
                why = INVALID
            if why is not None:
                kept = self._keep_aside(self.SETTINGS, self.SETTINGS_BAD)
                self.log_error("%s %s: defaults used%s\n"
                               % (path, why, ", kept as settings.bad" if kept else ""))
                saved = None
            return _merge(saved, defaults)
        except Exception:  # settings must never stop the tray from starting
            return _merge(None, defaults)

    # ---- the error log ----------------------------------------------------------------

    def log_error(self, text):
        """Append text (a traceback) to error.log; never raises, flash use stays bounded.

        When the log would pass LOG_MAX bytes it first becomes error.old (replacing the older
        one). An entry longer than LOG_MAX keeps its end, where a traceback names the error.
        """
        append(self.fs, self.path(self.LOG), self.path(self.LOG_OLD), self.LOG_MAX, text)

    # ---- helpers ----------------------------------------------------------------------

    def _replace(self, tmp_name, name, data):
        raw = json.dumps(data).encode()
        fs = self.fs
        tmp = self.path(tmp_name)
        try:
            f = fs.open(tmp, "wb")
            try:
                if f.write(raw) != len(raw):
                    raise OSError(_ENOSPC)
            finally:
                f.close()
            fs.rename(tmp, self.path(name))
        except OSError:
            self._discard(tmp_name)  # give back the space a partial copy holds
            raise

    def _read_json(self, path, limit):
        # (data, None) or (None, why); reads at most limit + 1 bytes.
        try:
            if self.fs.size(path) > limit:
                return None, TOO_BIG
            with self.fs.open(path, "rb") as f:
                raw = f.read(limit + 1)
        except OSError:
            return None, UNREADABLE
        if not raw:
            return None, EMPTY
        if len(raw) > limit:
            return None, TOO_BIG
        try:
            return json.loads(raw), None
        except (ValueError, RuntimeError):  # syntax or bad UTF-8; RuntimeError: deep nesting
            return None, DAMAGED

    def _keep_aside(self, name, bad):
        # name -> bad, the older bad files one step older; True when name is out of the way.
        return set_aside(self.fs, self.path(name), self.path(bad), self.BAD_KEPT)

    def _read_crashes(self):
        # The crash count on flash: 0 when there is none; a damaged one counts as one crash.
        path = self.path(self.CRASHES)
        try:
            if not self.fs.exists(path):
                return 0
            with self.fs.open(path, "rb") as f:
                raw = f.read(8)
            return max(1, int(raw.decode()))
        except Exception:  # unreadable or not a number: a crash was being counted
            return 1

    def _discard(self, name):
        path = self.path(name)
        try:
            if self.fs.exists(path):
                self.fs.remove(path)
        except OSError:
            pass


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
