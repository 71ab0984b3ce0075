"""The desktop simulator: headless key scripts with screenshots, and a real terminal (tmux)."""

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")


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
    # How many games end depends on where the keys fall on the setup menu between games.
    games = int(out.stdout.split("games over: ")[1].split(",")[0])
    assert 1 <= games <= 6
    count = int(out.stdout.strip().splitlines()[-1].split()[0])
    assert count > 50


def test_headless_is_deterministic_and_rejects_unknown_keys(tmp_path):
    a = sim("--headless", "--seed", "9", "--keys", "orr")
    b = sim("--headless", "--seed", "9", "--keys", "orr")
    assert a.stdout == b.stdout
    bad = sim("--headless", "--keys", "x")
    assert bad.returncode != 0 and "unknown key" in bad.stderr


def test_sim_without_a_terminal_says_so():
    out = subprocess.run([sys.executable, SIM], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode != 0 and "--headless" in out.stderr


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


def test_interactive_in_a_real_terminal(tmp_path):
    _tmux_or_skip()
    session = "sim-" + uuid.uuid4().hex[:8]
    cmd = "%s %s --seed 3 --save-dir %s" % (sys.executable, SIM, tmp_path)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "45", cmd],
                   check=True)
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
        while subprocess.run(["tmux", "has-session", "-t", session],
                             capture_output=True).returncode == 0:
            assert time.time() < end, "q did not quit the simulator"
            time.sleep(0.2)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_the_readme_run_command_starts_the_simulator(tmp_path):
    out = subprocess.run([os.path.join(ROOT, "tools", "run.sh"), "--sim", "--headless", "--seed",
                          "1", "--keys", "or", "--shots", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "games over: 0, now on the play screen" in out.stdout
    assert len(os.listdir(tmp_path)) >= 2
