"""Saves and resumes a game, the last setup and an error log on flash, surviving power cuts."""

import json
import os

_ENOSPC = 28  # MicroPython and Linux agree on this one

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
    """The files the tray keeps on flash, each replaced atomically: a .tmp renamed over, or (the
    game's record, save_record) a file littlefs commits whole at its close rewritten in place.

    fs: an object with open(path, mode), rename(old, new), remove(path), exists(path) and
    size(path); None means the real filesystem. root: the folder of the files ("" = current).
    """

    GAME = "game.json"  # what is fixed for the game (save_record), or an older release's save
    NOW = "game.now"  # what changes with each action: the record (save_record)
    TMP = "game.tmp"
    BAD = "game.bad"  # the newest bad save; older ones are game.bad.1, game.bad.2
    CRASHES = "game.crashes"  # how often the saved game crashed the tray since it last moved on
    LOADING = "game.loading"  # there while the saved game loads: if the tray stops, it stays
    SETTINGS = "settings.json"
    SETTINGS_TMP = "settings.tmp"
    SETTINGS_BAD = "settings.bad"
    LOG = "error.log"
    LOG_OLD = "error.old"

    GAME_MAX = 16 * 1024  # many times a saved game: anything this big is not one of ours
    SETTINGS_MAX = 4 * 1024
    LOG_MAX = 8 * 1024  # error.log and error.old together stay under twice this
    BAD_KEPT = 3  # bad files kept of each kind: the newest and two older
    CRASH_LIMIT = 2  # a saved game that crashed the tray this often in a row is set aside

    def __init__(self, fs=None, root=""):
        self.fs = _OsFs() if fs is None else fs
        self._root = root.rstrip("/") + "/" if root else ""
        self.crashes = 0  # as on flash, once read; cleared by the next save that works
        self.setup = None  # the setup in game.json (save_record), once saved or read back
        self.setup_id = 0  # its checksum, which the record names; None: game.json holds this
        # game as an older release saved it (read at boot), until the first save replaces it
        self.record = None  # the game's record (bytes) last written or read back: its state
        # before the next action, which an undo of a stop or a stake goes back to (App.offer)

    def path(self, name):
        """Where a file of the store lives: path(Store.GAME)."""
        return self._root + name

    # ---- the game in progress ---------------------------------------------------------

    def save_game(self, data):
        """Replace the saved game with data (a JSON-compatible dict, Game.to_dict()): its
        record rewritten in place, its setup written when a game starts (save_record.save,
        loaded while a game is saved: dicetray.lazy's SAVE).

        A power cut at any point leaves either the old save or the new one. A full or failing
        flash raises OSError (e.args[0] is the errno, 28 when full) with the old save intact;
        the app tells the players.
        """
        from dicetray.save_record import save

        save(self, data)
        if self.crashes:
            self.crashes = 0
            self.discard(self.CRASHES)  # the game moved on: its crashes were not its fault

    def load_game(self, build):
        """The saved game as (game, None), (None, None) when there is none, or (None, problem):
        store_read.load_game, loaded for the boot only (dicetray.lazy)."""
        from dicetray.store_read import load_game

        return load_game(self, build)

    def note_crash(self):
        """Count a crash of the tray against the saved game, if there is one; never raises.

        The count is kept on flash, so it survives the board's reset; the next save that works
        clears it. At CRASH_LIMIT, load_game sets the game aside instead of resuming it.
        """
        try:
            if not self.fs.exists(self.path(self.GAME)):
                return
            from dicetray.store_read import read_crashes

            self.crashes = read_crashes(self) + 1
            with self.fs.open(self.path(self.CRASHES), "wb") as f:
                f.write(str(self.crashes).encode())
        except Exception:  # the crash handler calls this: a failing flash must not fail it
            pass

    def clear_game(self):
        """Forget the game (it is over): nothing to resume at the next start.

        A missing file is fine; a failing flash raises OSError. The setup goes first: a record
        without it is no game.
        """
        self.setup = None
        self.setup_id = 0
        self.record = None
        for name in (self.GAME, self.NOW, self.TMP, self.CRASHES):
            path = self.path(name)
            if self.fs.exists(path):
                self.fs.remove(path)

    # ---- the last setup ---------------------------------------------------------------

    def save_settings(self, settings):
        """Replace the saved setup (a JSON-compatible dict) atomically; OSError as save_game."""
        self.replace(self.SETTINGS_TMP, self.SETTINGS, settings)

    def load_settings(self, defaults):
        """A new dict: defaults, with each saved value whose key and type match a default's
        (store_read.load_settings, loaded only while the setup needs it); never raises."""
        from dicetray.store_read import load_settings

        return load_settings(self, defaults)

    # ---- the error log ----------------------------------------------------------------

    def log_error(self, text):
        """Append text (a traceback) to error.log; never raises, flash use stays bounded.

        When the log would pass LOG_MAX bytes it first becomes error.old (replacing the older
        one). An entry longer than LOG_MAX keeps its end, where a traceback names the error.
        """
        from dicetray.postmortem import append  # something went wrong: no need to be resident

        append(self.fs, self.path(self.LOG), self.path(self.LOG_OLD), self.LOG_MAX, text)

    # ---- helpers ----------------------------------------------------------------------

    def replace(self, tmp_name, name, data):
        """Write data (as JSON; bytes as they are) to tmp_name, then rename it over name:
        atomic; OSError as save_game."""
        raw = data if type(data) is bytes else json.dumps(data).encode()
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
            self.discard(tmp_name)  # give back the space a partial copy holds
            raise

    def discard(self, name):
        """Remove the file name if it is there; never raises."""
        path = self.path(name)
        try:
            if self.fs.exists(path):
                self.fs.remove(path)
        except OSError:
            pass
