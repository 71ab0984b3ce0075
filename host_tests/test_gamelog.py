"""The game log tells a whole game, and its end is the engine's end for the same dice."""

import os
import subprocess
import sys

import pytest
from dicetray.game import Game
from dicetray.options import PRESET_NAMES
from trayhost.autoplay import SeededDice, play_random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_log_plays_a_game_to_the_end_the_engine_reaches(preset):
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gamelog.py"), "--preset", preset,
         "--players", "4", "--seed", "7"],
        capture_output=True, text=True, timeout=120, check=True).stdout
    lines = out.strip().splitlines()
    game = Game(4, preset, SeededDice(7))
    play_random(game, SeededDice(7 + 1000))
    r = game.result
    assert "== GAME OVER (%s) ==" % r.reason in lines
    payers = ", ".join("P%d" % (p + 1) for p in r.losers)
    assert payers in lines[-1] and "round" in lines[-1]
    assert sum(1 for line in lines if line.startswith("Turn ")) == game.turn.number
