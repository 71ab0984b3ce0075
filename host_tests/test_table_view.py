"""The table view: what a player at the table sees on the tray, read back from the panel's glass.

Games are played through the buttons with scripted dice (tools/screenrig.py's Rig, the tray
the pictures come from); the text is read with the tray's own font (tools/picopanel.py).
Expected values come from the rules, worked out by hand in the comments.
"""

from picopanel import Panel
from screenrig import Rig


def glass(rig):
    """What the panel shows now (128x64)."""
    return Panel([bytes(row) for row in rig.i2c.panel.pixels()])


def new_game(players=4, preset_options=None, height=64):
    """A tray at the first turn (P1 starts, no roll-off) of a classic game of `players`."""
    rig = Rig([], height=height)
    s = rig.app.settings
    s["players"] = players
    s["options"]["start"] = "seat1"
    s["options"].update(preset_options or {})
    rig.play("o")
    return rig


def test_a_turn_shows_the_best_and_lowest_throws_so_far_and_who_made_them():
    rig = new_game(4)
    assert glass(rig).read(47) == "NOTHING TO BEAT YET"  # P1 plays first
    rig.play("ro", [2, 6, 3])  # P1: 632 in one throw, so one throw each
    rig.play("ro", [4, 2, 1])  # P2: 421
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P3"
    # 421 beats every other throw; 632 is an ordinary throw. The dice read highest first.
    assert panel.read(47, x1=64) == "TOP P2 421"
    assert panel.read(47, x0=64) == "LOW P1 632"
    assert "THROW -/1" in panel.read(0)  # the throws allowed: one, as P1 made
    rig.play("ro", [1, 2, 2])  # P3: nenette, the lowest throw of all in classic
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P4"
    assert (panel.read(47, x1=64), panel.read(47, x0=64)) == ("TOP P2 421", "LOW P3 221")
