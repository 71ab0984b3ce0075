"""What a press draws in part (a KEEP redraws one die) is what drawing the whole screen gives.

After every key of random play, on both panel sizes, the frame buffer must equal a fresh full
render of the screen shown (App.render), whenever the app has nothing left to draw.
"""

import random

import pytest
from dicetray.screens import PLAY, SETUP
from trayhost.autoplay import SeededDice
from trayhost.trayrun import Tray


@pytest.mark.parametrize("height, seats", [(64, False), (32, False), (64, True), (32, True)])
def test_a_press_drawn_in_part_equals_the_whole_screen_drawn(height, seats):
    rng = random.Random(height)
    tray = Tray(SeededDice(height), height=height, seed=height)
    if seats:  # the tray plays two seats (a press in their turns hurries them), hints shown
        tray.app.units[SETUP].settings.update(computers=2, hints=True)
    tray.key("o")  # the setup's defaults: a game starts
    partial = 0
    for _ in range(600):
        app = tray.app
        k = rng.choice("123123orrro") if app.screen == PLAY else rng.choice("oor")
        dirty_keeps = app.game.turn.kept if app.game else None
        tray.key(k)
        if app.dirty or app.clock.rolling:
            continue
        shown = bytes(tray.display.buffer)
        app.render()
        assert bytes(tray.display.buffer) == shown, (k, app.screen)
        if k in "123" and app.game and app.game.turn.kept != dirty_keeps:
            partial += 1
    assert partial > 30  # keeps that changed a die were drawn in part and checked
