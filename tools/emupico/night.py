"""A short night at the bar on the Pico's heap: the bench's pico_soak_* figures.

The real main loop (runner.run on the real Board and Display, started through mpremote in safe
mode, so no watchdog, as emupico/bench.py's heap run) plays GAMES games back to back, the host
pressing the buttons as a quick player (the emupico bot, reading the panel; on a screen it
cannot read, a French one, ROLL and OK in turn: any press moves a screen on or hurries a seat).
4 players, the tray playing 3 seats, hints, 11 tokens (the settings file written first). At
each game's start (the setup shown again) the board's script reads gc.mem_alloc() after
gc.collect(), then switches what trayhost.night's plan says for a short night (the language
every 5 games from the 10th, seats or hints every 5) through the setup menu's own code
(screens_setup.change_setting, as its buttons would; not the buttons: the host's bot cannot
walk a menu it may not read); every 10 polls it reads the heap for the game's peak. Figures:
trayhost.nightheap.summary's, the port's absolute heap (MicroPython's own and this script's
included); printed too, the largest free block at each game's start (micropython.mem_info's
"max free sz"): a heap that stays flat can still break into pieces no allocation fits.

Takes any object with emupico.kit.Pico's interface (install_in_safe_mode, write_files,
exec_background, settle, latency, panel). The host twin (picotwin) plays the same night, but
its WebAssembly MicroPython runs the board as one run and so never collects garbage while it
runs, its gc.mem_alloc() only growing (Twin.real_heap is False): its figures are null, with the
reason; there the night's live heap is bench/night.py's, on the same VM with run.mjs's
collections between steps.
"""

from __future__ import annotations

import json
import os
import sys

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (first: the firmware importable)
from dicetray.options import PRESETS  # noqa: E402
from trayhost import night  # noqa: E402
from trayhost.nightheap import FIRST, summary  # noqa: E402

from emupico.bench import BOARD_RUN, SAVES  # noqa: E402
from emupico.bot import choose, quiet_ms  # noqa: E402
from emupico.kit import PicoError, screen_of  # noqa: E402

GAMES = 20
KEYS = ("pico_soak_games", "pico_soak_heap_slope_bytes_per_game", "pico_soak_heap_drift_bytes",
        "pico_soak_heap_peak_bytes")
MAX_PRESSES = 400  # a game's, at most
SETTINGS = {"players": night.PLAYERS, "preset": night.PRESET, "computers": night.SEATS,
            "hints": True, "lang": "en",
            "options": dict(PRESETS[night.PRESET].to_dict(), tokens=night.TOKENS)}


def plan(games=GAMES):
    """[(seats, hints, language switched)] for each game of the short night."""
    return [night.plan(g, 5, 10, 5) for g in range(games)]


# On the board: the main loop, and at each poll the night's bookkeeping (board.feed).
SCRIPT = """
import gc, json, micropython
from dicetray import runner
from dicetray.screens import SETUP
from dicetray.board import Board
from dicetray.display import Display

PLAN = %r
GAMES = len(PLAN)


""" + BOARD_RUN + """starts = [0] * GAMES
peaks = [0] * GAMES
st = [0, -1, False]  # polls, the game under way (-1: none yet), the setup shown


def setting(app, row, want):
    # The setup menu's row stepped (its own code, as ROLL would) until want says it is done.
    from dicetray import screens_setup

    menu = app.units[SETUP]
    screens_setup.read_settings(menu, app)
    for _ in range(8):
        if want(menu.settings):
            break
        screens_setup.change_setting(menu.settings, row, 1)
    app.redraw()


def game_start(app, game):
    from dicetray.options import OPTIONS

    seats, hints, switch = PLAN[game]
    after = 2 + len(OPTIONS)  # the rows after the options': seats, hints, tally, language
    setting(app, after, lambda s: s["computers"] == seats)
    setting(app, after + 1, lambda s: s["hints"] == hints)
    if switch:
        setting(app, after + 3, lambda s, lang=app.units[SETUP].settings["lang"]:
                s["lang"] != lang)


def feed():
    st[0] += 1
    app = apps[-1]
    at_setup = app.screen == SETUP
    if at_setup and not st[2]:  # a game's start: the setup shown again
        game = st[1] + 1
        if game == GAMES:
            raise Done
        gc.collect()
        starts[game] = gc.mem_alloc()
        micropython.mem_info()  # its "max free sz": the largest free block, in 16-byte blocks
        st[1] = game
        game_start(app, game)
    st[2] = at_setup
    if st[0] %% 10 == 1 and st[1] >= 0:
        gc.collect()
        peaks[st[1]] = max(peaks[st[1]], gc.mem_alloc())


board.feed = feed
try:
    runner.run(board, display)
except Done:
    pass
print("NIGHT " + json.dumps({"starts": starts, "peaks": peaks, "polls": st[0],
                             "free": gc.mem_free()}))
"""


def play(pico, games=GAMES, log=print):
    """The short night on pico (in safe mode): {starts, peaks, polls, free} from the board."""
    pico.write_files(dict({n: None for n in SAVES},
                          **{"settings.json": json.dumps(SETTINGS).encode()}))
    run = pico.exec_background(SCRIPT % (plan(games),))
    try:
        panel = pico.settle(fresh=True, until=lambda p: screen_of(p) == "setup")
        kept, blind, presses = False, 0, 0
        while run.poll() is None:
            screen = screen_of(panel)
            if screen is None:  # a screen the bot cannot read (French): ROLL, OK in turn
                key, blind = ("ROLL", "OK")[blind % 2], blind + 1
            else:
                key, kind = choose(screen, panel.hints(), kept)
                kept = (kept or kind == "keep") and screen == "turn"
            try:
                pico.latency(key, quiet=quiet_ms(key))
            except PicoError as e:
                if run.poll() is not None:
                    break  # the night is over: the board's script ended, the tray with it
                if "did not settle" not in str(e):
                    raise
                # The tray kept the panel busy past the window (its seats play on, a screen
                # that moves on by itself drains its bar): read it as it is now.
            panel = pico.panel()
            presses += 1
            if presses > MAX_PRESSES * games:
                raise PicoError("the night did not end in %d presses" % presses)
        out, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    lines = [line for line in out.splitlines() if line.startswith("NIGHT ")]
    if not lines:
        raise PicoError("the night printed no figures:\n" + out)
    got = json.loads(lines[-1][len("NIGHT "):])
    got["largest_free"] = [16 * int(line.rsplit("max free sz:", 1)[1])
                           for line in out.splitlines() if "max free sz:" in line]
    return got


def report(got, log=print):
    """Print a night's figures (play's); the bench's keys."""
    starts, peaks = got["starts"], got["peaks"]
    s = summary(starts, peaks, spoken=15)  # its first games, each language spoken in them
    log("Pico         a night of %d games: heap at the start of each game %s bytes (free at the"
        " end %d)" % (len(starts), " ".join(str(x) for x in starts), got["free"]))
    log("Pico         slope %.1f bytes a game (from the %dth game), last game's start minus the"
        " %dth's %d bytes, peak %d bytes (the night's first 15 games' %d)"
        % (s["slope"], FIRST + 1, FIRST + 1, s["drift"], s["peak"], s["game_peak"]))
    free = got.get("largest_free")
    if free:  # fragmentation: what one allocation could still take at each game's start
        log("Pico         the largest free block at each game's start: first %d, smallest %d,"
            " last %d bytes" % (free[0], min(free), free[-1]))
    return dict(zip(KEYS, (len(starts), s["slope"], s["drift"], s["peak"])))


def pico_night_figures(pico=None, games=GAMES, log=print):
    """The bench's pico_soak_* keys: on pico (the kit's Pico when None), null with the reason
    when the kit cannot run here."""
    if pico is None:
        from emupico.kit import Pico, unavailable

        reason = unavailable()
        if reason:
            log("Pico night's soak skipped: " + reason)
            return dict.fromkeys(KEYS)
        pico = Pico()
    owned = pico.claim()
    try:
        pico.install_in_safe_mode()
        got = play(pico, games, log)
    finally:
        if owned:
            pico.stop()
    if not getattr(pico, "real_heap", True):
        log("Pico night's soak: %d games played on %s, %d polls; no heap figures: its VM collects"
            " no garbage while the board runs (bench/night.py is the night on that VM)"
            % (len(got["starts"]), type(pico).__name__, got["polls"]))
        return dict.fromkeys(KEYS)
    return report(got, log)


if __name__ == "__main__":
    print(json.dumps(pico_night_figures(games=int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)))
