"""What a game's save costs the flash, on the real littlefs code mounted as the rp2 port mounts it.

    python tools/bench/flashsave.py

littlefs-python (pinned in the dev dependencies) runs the littlefs C code on a RAM block device
with MicroPython rp2's configuration (trayhost.picoflash: a Pico's 1.4 MB filesystem). A tray on
fakes (trayhost.trayrun) plays a game of every preset through its buttons, for 3 players and for 8,
its store on that filesystem. The device counts the erases and the programs of each game saved
(save_game: each action, and each game's first save, which writes its setup too); its modelled
flash time is at the W25Q16JV's typical times: PAGE_PROGRAM_MS a program (littlefs programs at most
its cache, 128 bytes: one 256-byte page) and SECTOR_ERASE_MS a 4 KB erase. Reads and the CPU are
not counted. The save of the last release (the whole game as JSON in game.tmp, renamed over
game.json: format version 4) is measured on the same games beside today's (format 5: the record
rewritten in place), and today's again on games where each stop or stake is first slipped and taken
back (save_undo_: the undo keeps its state in RAM, and its save is an action's). Percentiles are
nearest-rank.

The Python time of an action's save before it reaches the file, on MicroPython (the WebAssembly
build, .mpy files): Game.to_dict() and save_record.record() today, Game.to_dict() and
json.dumps() for format 4, the mean over every action of a game of 4 (skipped, saying why,
without node).
"""

import os
import sys
import tempfile

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable as on the Pico)
from dicetray.store import Store  # noqa: E402
from littlefs import LittleFS  # noqa: E402
from littlefs.errors import LittleFSError  # noqa: E402
from trayhost.picoflash import LFS_CONFIG, CountingDevice  # noqa: E402

PAGE_PROGRAM_MS = 0.4  # W25Q16JV tPP, typical
SECTOR_ERASE_MS = 45.0  # W25Q16JV tSE (4 KB), typical
PLAYERS = (3, 8)


class LittleFsAdapter:
    """The store's filesystem interface (open, rename, remove, exists, size) on littlefs: a new
    filesystem, or the one on image (bytes of a device) mounted."""

    def __init__(self, image=None):
        self.device = CountingDevice(image)
        self.lfs = LittleFS(context=self.device, mount=False, **LFS_CONFIG)
        if image is None:
            self.lfs.format()
        self.lfs.mount()  # an image that does not mount raises

    def open(self, path, mode):
        return _os(self.lfs.open, path, mode)

    def rename(self, old, new):
        _os(self.lfs.rename, old, new)

    def remove(self, path):
        _os(self.lfs.remove, path)

    def exists(self, path):
        try:
            self.lfs.stat(path)
            return True
        except LittleFSError:
            return False

    def size(self, path):
        return _os(self.lfs.stat, path).size


def _os(call, *args):
    # The store expects MicroPython's errors: OSError with the errno (littlefs's, negated).
    try:
        return call(*args)
    except LittleFSError as e:
        raise OSError(-e.code) from None


class LastReleaseStore(Store):
    """The save of the last release: the whole game as JSON, game.tmp renamed over game.json."""

    def save_game(self, data):
        self.replace(self.TMP, self.GAME, dict(data, version=4))


class CountedStore:
    """Wraps a store class: the cost (erases, programs) of each game it saves, in costs."""

    def __init__(self, store_class, costs):
        self.store_class = store_class
        self.costs = costs

    def __call__(self, fs):
        store = self.store_class(fs=fs)
        save = store.save_game
        device = fs.device
        costs = self.costs

        def counted(data):
            erases, programs = device.erases, device.programs
            save(data)
            costs.append((device.erases - erases, device.programs - programs))

        store.save_game = counted
        return store


def measure(store_class, players=PLAYERS, seed=3, slips=False):
    """[(erases, programs)] of every game saved, a game of every preset for each of players,
    played through the buttons on littlefs; and the tray's files at each game's end. slips:
    each stop or stake the bot could make is first slipped and taken back (the undo's save is
    one more action)."""
    from dicetray.options import PRESET_NAMES
    from trayhost.autoplay import SeededDice
    from trayhost.slips import slips_game
    from trayhost.trayrun import Tray, play_game

    costs = []
    make = CountedStore(store_class, costs)
    for n in players:
        for i, preset in enumerate(PRESET_NAMES):
            tray = Tray(SeededDice(seed + i), store=make(LittleFsAdapter()), seed=seed + i)
            if slips:
                for _ in slips_game(tray, n, preset, SeededDice(seed + 100 + i)):
                    pass
            else:
                play_game(tray, n, preset, seed + 100 + i)
    return costs


def summary(costs, prefix="save_"):
    """The figures of a list of per-save costs (erases, programs)."""
    from bench.tray import percentile

    ms = [e * SECTOR_ERASE_MS + p * PAGE_PROGRAM_MS for e, p in costs]
    n = len(ms)
    return {
        prefix + "actions": n,
        prefix + "erases_per_action": round(sum(e for e, _ in costs) / n, 3),
        prefix + "programs_per_action": round(sum(p for _, p in costs) / n, 2),
        prefix + "flash_ms_p50": round(percentile(ms, 50), 2),
        prefix + "flash_ms_p95": round(percentile(ms, 95), 2),
        prefix + "flash_ms_max": round(max(ms), 2),
    }


BUILD_TIME = """
import json, time
from dicetray.game import Game
from dicetray.save_record import record
from trayhost.autoplay import SeededDice, apply, bot_action
g = Game(4, "lebon", SeededDice(5))
bot = SeededDice(6)
now = old = n = 0
while not g.over:
    t = time.ticks_us()
    record(g.to_dict(), 0x1234abc)
    now += time.ticks_diff(time.ticks_us(), t)
    t = time.ticks_us()
    json.dumps(g.to_dict()).encode()
    old += time.ticks_diff(time.ticks_us(), t)
    n += 1
    apply(g, bot_action(g, bot))
print(n, now, old)
"""


def build_times_us():
    """The mean MicroPython time of building an action's save (today's, format 4's) in µs, or
    (None, None) without node."""
    from mpy import TRAYHOST, copy_packages, node_ready, run_micropython

    from bench.tray import FIRMWARE

    if node_ready():
        return None, None
    with tempfile.TemporaryDirectory() as tmp:
        helpers = copy_packages(tmp, TRAYHOST)
        out = run_micropython(BUILD_TIME, [FIRMWARE, helpers], mpy=True)
    n, now, old = (int(x) for x in out.split()[-3:])
    return round(now / n), round(old / n)


def flash_figures(log=print):
    """The figures of the save today (save_*) and of the last release's (save_v4_*)."""
    out = summary(measure(Store))
    out.update(summary(measure(LastReleaseStore), "save_v4_"))
    out.update(summary(measure(Store, slips=True), "save_undo_"))
    out["save_build_us_micropython"], out["save_v4_build_us_micropython"] = build_times_us()
    log("Saves on littlefs (rp2 configuration), games of every preset for %s players"
        % " and ".join(str(n) for n in PLAYERS))
    for key in ("actions", "erases_per_action", "programs_per_action", "flash_ms_p50",
                "flash_ms_p95", "flash_ms_max", "build_us_micropython"):
        log("%-34s today %-9s format 4 %s" % ("save_" + key, out["save_" + key],
                                              out["save_v4_" + key]))
    log("The same games, each stop or stake the bot could make first slipped and taken back")
    for key in ("actions", "erases_per_action", "programs_per_action", "flash_ms_max"):
        log("%-34s today %s" % ("save_undo_" + key, out["save_undo_" + key]))
    return out


if __name__ == "__main__":
    flash_figures()
