"""The desktop simulator: headless key scripts with screenshots, the picture fitted to the
terminal (braille in 80x24), the marks for its sounds, and a real terminal (tmux)."""

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from dicetray import screens, words
from PIL import Image
from sim.play import paint
from sim.view import CUE_MS, SoundCue, braille, fit, status
from trayhost import hostwords
from trayhost.autoplay import SeededDice
from trayhost.canvas import CanvasDisplay
from trayhost.trayrun import Tray

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim", "play.py")


def sim(*args):
    return subprocess.run([sys.executable, SIM, *args], capture_output=True, text=True,
                          timeout=300)


def test_headless_writes_a_png_per_screen_change(tmp_path):
    out = sim("--headless", "--seed", "4", "--keys", "o.rrrr", "--shots", str(tmp_path))
    assert out.returncode == 0, out.stderr
    shots = sorted(os.listdir(tmp_path))
    assert len(shots) >= 4  # setup, who starts, its rolls, the charge, a turn ...
    sizes = {Image.open(tmp_path / s).size for s in shots}
    assert sizes == {(512, 256)}
    frames = [Image.open(tmp_path / s).tobytes() for s in shots]
    assert len(set(frames)) == len(frames), "a PNG is written only when the panel changes"
    assert "█" in out.stdout and "screens written" in out.stdout


def test_headless_plays_a_whole_game_to_the_end(tmp_path):
    # Setup -> start a 2-player game, then ROLL/OK until game over and back to the setup.
    keys = "o" + "rrrroo" * 150
    out = sim("--headless", "--seed", "2", "--keys", keys)
    assert out.returncode == 0, out.stderr
    over = int(out.stdout.split("games over: ")[1].split(",")[0])
    assert over >= 1  # how many depends on the screens ROLL passes (a roll-off's outcome too)
    count = int(out.stdout.split(" screens")[0].splitlines()[-1])
    assert count > 50


def _keys_to_the_game_over(seed):
    """Keys that play a 2-player game from the setup to its game over, on the headless
    simulator's tray (the same dice for the seed)."""
    import random

    from dicetray.runner import die_from_bits

    tray = Tray(die_from_bits(random.Random(seed).getrandbits), display=CanvasDisplay(128, 64),
                seed=seed)
    keys = "3o"
    tray.keys(keys)
    for k in "rrrroo" * 150:
        tray.key(k)
        keys += k
        if tray.app.screen == "over":
            return keys
    raise AssertionError("no game over")


def test_headless_counts_each_game_once_and_names_screens_as_the_readme():
    keys = _keys_to_the_game_over(2)
    # ROLL between the game over and its tally, back and forth: still one game.
    out = sim("--headless", "--seed", "2", "--keys", keys + "rrrrr")
    assert out.returncode == 0, out.stderr
    assert "games over: 1, now on the tally screen" in out.stdout
    out = sim("--headless", "--seed", "2", "--keys", keys + "rrrrrr")
    assert "games over: 1, now on the game over screen" in out.stdout
    out = sim("--headless", "--seed", "2", "--keys", "oO")
    assert "games over: 0, now on the table screen" in out.stdout


def test_headless_speaks_the_tray_s_language():
    out = sim("--headless", "--seed", "2", "--keys", "1ro")  # LANGUAGE: French, then OK
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "parties finies : 0, à l'écran départage" in lines, lines[-4:]
    assert lines[-1] == ("Sans terminal : rien n'est gardé (--save-dir DOSSIER garde la "
                         "partie).")


def test_headless_is_deterministic_and_rejects_unknown_keys(tmp_path):
    a = sim("--headless", "--seed", "9", "--keys", "orr")
    b = sim("--headless", "--seed", "9", "--keys", "orr")
    assert a.stdout == b.stdout
    bad = sim("--headless", "--keys", "x")
    assert bad.returncode != 0 and "unknown key" in bad.stderr


def panel_of(out):
    return out.stdout.split("┘")[0]  # the framed panel, without the status line


def test_headless_says_it_keeps_nothing_without_a_save_dir():
    out = sim("--headless", "--seed", "4", "--keys", "o.rr")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == (
        "Headless: nothing is kept after this run (--save-dir DIR keeps the game).")


def test_headless_with_a_save_dir_says_where_the_game_is_and_ok_resumes_it(tmp_path):
    first = sim("--headless", "--seed", "4", "--keys", "o.rr", "--save-dir", str(tmp_path))
    assert first.returncode == 0, first.stderr
    game = tmp_path / "game.json"
    assert game.is_file()
    assert first.stdout.splitlines()[-2:] == [
        "The game is saved in %s." % game,
        "Run tools/run.sh --headless --save-dir %s again: it offers the game, OK (o) resumes it."
        % tmp_path]
    # As the note says: the same command, then OK, and the panel is where the first run left it.
    again = sim("--headless", "--seed", "4", "--keys", "o", "--save-dir", str(tmp_path))
    assert panel_of(again) == panel_of(first)
    fresh = sim("--headless", "--seed", "4", "--keys", "o")
    assert panel_of(fresh) != panel_of(first)  # so OK did resume, not start a game


def test_a_finished_or_unstarted_game_leaves_nothing_to_resume(tmp_path):
    unstarted = sim("--headless", "--keys", "", "--save-dir", str(tmp_path))
    assert unstarted.stdout.splitlines()[-1] == "No game in progress: nothing to resume."
    # Two players, the classic rules, ROLL and OK until the first game is over.
    keys = "o" + "rrrroo" * 150
    out = sim("--headless", "--seed", "2", "--keys", keys, "--save-dir", str(tmp_path))
    over = int(out.stdout.split("games over: ")[1].split(",")[0])
    assert over >= 1
    if not (tmp_path / "game.json").exists():
        assert out.stdout.splitlines()[-2:] == [
            "No game in progress: nothing to resume.",
            "Your last setup is kept in %s." % (tmp_path / "settings.json")]


def test_a_french_tray_says_its_quit_note_in_french(tmp_path):
    # "1r": the setup's LANGUAGE row to FRANÇAIS; OK starts the game in it.
    out = sim("--headless", "--seed", "4", "--keys", "1ro")
    assert out.stdout.splitlines()[-1] == (
        "Sans terminal : rien n'est gardé (--save-dir DOSSIER garde la partie).")
    first = sim("--headless", "--seed", "4", "--keys", "1ro.rr", "--save-dir", str(tmp_path))
    assert first.stdout.splitlines()[-2:] == [
        "La partie est gardée dans %s." % (tmp_path / "game.json"),
        "Relancer tools/run.sh --headless --save-dir %s : la partie est proposée, OK (o) la"
        " reprend." % tmp_path]
    # Resumed, the game still speaks French; its note too.
    again = sim("--headless", "--seed", "4", "--keys", "o", "--save-dir", str(tmp_path))
    assert again.stdout.splitlines()[-2] == "La partie est gardée dans %s." % (
        tmp_path / "game.json")


def test_sim_without_a_terminal_says_so():
    out = subprocess.run([sys.executable, SIM], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode != 0 and "--headless" in out.stderr


# Braille dots, counted by hand from the Unicode numbering (dot n = bit n-1 after U+2800):
# left column top to bottom dots 1 2 3 7 (0x01 0x02 0x04 0x40), right column 4 5 6 8
# (0x08 0x10 0x20 0x80).
def test_braille_dots_counted_by_hand():
    pixels = [
        [1, 0, 1, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 1, 1, 1, 0],
        [0, 0, 0, 0, 1],
    ]
    # Cell 1: (0,0) dot 1, (1,3) dot 8: 0x81. Cell 2: the left column whole (1 2 3 7 = 0x47)
    # and (3,3) dot 8: 0xC7. Cell 3, half a cell wide: nothing. Second text row: (4,4) is the
    # top of the left column of cell 3: dot 1.
    assert braille(pixels) == ["\u2881\u28c7\u2800", "\u2800\u2800\u2801"]


def test_braille_of_the_panel_is_64_by_16_cells_and_64_by_8_on_a_strip():
    for height in (64, 32):
        d = CanvasDisplay(128, height)
        d.fb.fill_rect(0, 0, 2, 4, 1)  # the first cell, all eight dots
        d.fb.pixel(127, height - 1, 1)  # the last cell's bottom right: dot 8
        d.fb.pixel(64, 5, 1)  # cell 33 of the second row, left column, second dot: dot 2
        d.show()
        lines = braille(d.pixels())
        assert [len(line) for line in lines] == [64] * (height // 4)
        assert lines[0][0] == "\u28ff" and lines[-1][-1] == "\u2880" and lines[1][32] == "\u2802"
        lit = sum(c != "\u2800" for line in lines for c in line)
        assert lit == 3


def _fits(lines, cols, rows):
    return len(lines) <= rows and all(len(line) <= cols for line in lines)


def test_the_whole_screen_fits_80_by_24_for_both_panels():
    for height, rows_needed in ((64, 20), (32, 12)):
        pixels = CanvasDisplay(128, height).pixels()
        below = ("✗ refused  dimmed: a press still acts", "1 2 3 keep | q quit")
        lines = fit(pixels, below, 80, 24)
        assert _fits(lines, 80, 24) and len(lines) == rows_needed
        assert lines[0] == "┌" + "─" * 64 + "┐" and lines[1][1] == "\u2800"
        assert lines[-2].startswith("✗ refused")


def test_the_big_picture_when_it_fits_and_one_line_when_nothing_does():
    pixels = CanvasDisplay(128, 64).pixels()
    big = fit(pixels, ("", "keys"), 130, 36)
    assert big[0] == "┌" + "─" * 128 + "┐" and len(big) == 36  # 32 rows of half blocks
    assert fit(pixels, ("", "keys"), 129, 36)[0] == "┌" + "─" * 64 + "┐"  # one column short
    assert fit(pixels, ("", "keys"), 66, 20)[0] == "┌" + "─" * 64 + "┐"  # braille's least
    for cols, rows in ((65, 24), (80, 19), (40, 10)):
        small = fit(pixels, ("", "keys"), cols, rows)
        need = "terminal %dx%d is too small: the tray needs 66x20 or more; q quits" % (cols, rows)
        assert small == [need]
    strip = CanvasDisplay(128, 32).pixels()
    assert "needs 66x12" in fit(strip, ("", "keys"), 80, 11)[0]


def test_paint_addresses_each_row_and_never_writes_a_newline():
    text = paint(["ab", "c"], 24)
    assert "\n" not in text
    assert text == "\x1b[1;1H\x1b[Kab\x1b[2;1H\x1b[Kc\x1b[3;1H\x1b[J"
    assert not paint(["x"] * 24, 24).endswith("\x1b[J")  # a full screen: nothing left below


def test_no_other_tune_shares_a_note_with_the_refused_press():
    tunes = {name: getattr(screens, name) for name in dir(screens) if name.startswith("SND_")}
    refused = set(tunes.pop("SND_NO")[0::2]) - {0}
    assert refused and tunes
    for name, tune in tunes.items():
        assert not refused & set(tune[0::2]), name  # else the simulator cannot tell them apart


def test_the_status_line_marks_a_refused_press_a_beep_and_a_dimmed_panel():
    display = CanvasDisplay()
    tray = Tray(SeededDice(3), display=display, seed=3)
    cue = SoundCue(lambda: tray.now)
    cue.listen(tray.buzzer)
    tray.key("o")  # a game: who starts is rolled off, where KEEP1 means nothing
    tones = tray.buzzer.tones
    tray.key("1")
    assert status(display, cue, tray.now) == "✗ refused"
    assert tray.buzzer.tones == tones + 1  # the tray's buzzer still plays it
    assert status(display, cue, tray.now + CUE_MS) == ""  # for a moment only
    tray.key(".")
    assert status(display, cue, tray.now) == ""
    tray.key("r")
    assert status(display, cue, tray.now) == "♪ beep"
    tray.keys("." * 61)  # a minute without a press
    assert status(display, cue, tray.now) == "dimmed: a press still acts"


def test_headless_shows_the_refused_mark_after_the_last_key():
    out = sim("--headless", "--seed", "3", "--keys", "o1")
    assert out.returncode == 0, out.stderr
    assert "✗ refused" in out.stdout.split("┘\n")[1].splitlines()[0]  # under the panel
    assert "✗" not in sim("--headless", "--seed", "3", "--keys", "o1.").stdout


def _tmux_or_skip():
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the terminal test: tmux is missing")
        pytest.skip("tmux is not installed: the real-terminal test is skipped")


def _pane(session):
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                          text=True).stdout


def _wait_for(session, predicate, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        text = _pane(session)
        if predicate(text):
            return text
        time.sleep(0.2)
    raise AssertionError("terminal never showed the expected screen:\n" + _pane(session))


def _start_in_tmux(save_dir, cols, rows):
    """The simulator in a new tmux session of cols x rows; its name. The pane stays when the
    simulator ends, so what it printed last can be read."""
    _tmux_or_skip()
    session = "sim-" + uuid.uuid4().hex[:8]
    cmd = "%s %s --seed 3 --save-dir %s" % (sys.executable, SIM, save_dir)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", str(cols), "-y", str(rows),
                    cmd, ";", "set-option", "-w", "-t", session, "remain-on-exit", "on"],
                   check=True)
    return session


def _ended(session):
    return subprocess.run(["tmux", "display-message", "-p", "-t", session, "#{pane_dead}"],
                          capture_output=True, text=True).stdout.strip() == "1"


def test_interactive_in_a_real_terminal(tmp_path):
    session = _start_in_tmux(tmp_path, 140, 45)
    try:
        setup = _wait_for(session, lambda t: "1 2 3 keep" in t and "█" in t)
        assert "┌" + "─" * 128 + "┐" in setup  # the panel at its true 128-pixel width
        subprocess.run(["tmux", "send-keys", "-t", session, "o"], check=True)
        started = _wait_for(session, lambda t: t != setup and "█" in t)
        assert started != setup  # OK started a game: the screen changed
        assert os.path.exists(tmp_path / "settings.json")  # and the settings were saved
        subprocess.run(["tmux", "send-keys", "-t", session, "r"], check=True)
        _wait_for(session, lambda t: t != started)
        assert os.path.exists(tmp_path / "game.json")  # every action is saved
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        end = time.time() + 10
        while not _ended(session):
            assert time.time() < end, "q did not quit the simulator"
            time.sleep(0.2)
        # Quitting mid-game says the game is kept, where, and how it comes back.
        text = subprocess.run(["tmux", "capture-pane", "-p", "-J", "-t", session],
                              capture_output=True, text=True).stdout
        assert "The game is saved in %s." % (tmp_path / "game.json") in text
        assert ("Run tools/run.sh --save-dir %s again: it offers the game, OK (o) resumes it."
                % tmp_path) in text
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def _resize(session, cols, rows):
    subprocess.run(["tmux", "resize-window", "-t", session, "-x", str(cols), "-y", str(rows)],
                   check=True)


def test_an_80_by_24_terminal_shows_braille_the_beep_and_a_resize(tmp_path):
    session = _start_in_tmux(tmp_path, 80, 24)
    try:
        frame = "┌" + "─" * 64 + "┐"
        setup = _wait_for(session, lambda t: frame in t and "1 2 3 keep" in t)
        assert "█" not in setup and any("\u2801" <= c <= "\u28ff" for c in setup)
        for key in "o1":  # a game, then KEEP1 where it means nothing
            subprocess.run(["tmux", "send-keys", "-t", session, key], check=True)
            time.sleep(0.3)
        _wait_for(session, lambda t: "✗ refused" in t)
        _wait_for(session, lambda t: "✗ refused" not in t)  # only for a moment
        _resize(session, 60, 15)
        _wait_for(session, lambda t: "60x15 is too small: the tray needs 66x20" in t)
        _resize(session, 80, 24)
        _wait_for(session, lambda t: frame in t and "too small" not in t)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_the_readme_run_command_starts_the_simulator(tmp_path):
    out = subprocess.run([os.path.join(ROOT, "tools", "run.sh"), "--sim", "--headless", "--seed",
                          "1", "--keys", "or", "--shots", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "games over: 0, now on the roll-off screen" in out.stdout
    assert len(os.listdir(tmp_path)) >= 2


def test_the_status_line_speaks_the_tray_s_language():
    display = CanvasDisplay()
    tray = Tray(SeededDice(3), display=display, seed=3)
    cue = SoundCue(lambda: tray.now)
    cue.listen(tray.buzzer)
    tray.keys("1r")  # the setup's LANGUAGE row: FRANÇAIS
    tray.key("o")  # a game: who starts is rolled off, where KEEP1 means nothing
    tray.key("1")
    assert status(display, cue, tray.now) == "✗ refusé"
    tray.keys("." * 61)  # a minute without a press
    assert status(display, cue, tray.now) == "atténué : une touche agit encore"


def test_a_terminal_too_small_is_told_so_in_the_tray_s_language():
    tray = Tray(SeededDice(4), display=CanvasDisplay(), seed=4)
    pixels = CanvasDisplay(128, 64).pixels()
    assert fit(pixels, ("", "keys"), 60, 15) == [
        "terminal 60x15 is too small: the tray needs 66x20 or more; q quits"]
    tray.keys("1r")  # the setup's LANGUAGE row: FRANÇAIS
    try:
        assert fit(pixels, ("", "keys"), 60, 15) == [
            "terminal 60x15 trop petit : le plateau demande 66x20 ou plus ; q quitte"]
    finally:
        words.use("en")


def test_the_headless_runner_names_every_screen_in_each_language():
    from sim.play import SCREENS

    assert set(SCREENS) == set(screens.units()) | {"contest"}  # a play screen's roll-off
    for lang in words.LANGS:
        names = hostwords.of(lang).SIM_SCREENS.split("|")
        assert len(names) == len(SCREENS) == len(set(names)), lang
    words.use(words.DEFAULT)
