"""The table view: what a player at the table sees on the tray, read back from the panel's glass:
the screens as ui.py draws them, the roll-offs and play-offs as ui_contest.py does.

Games are played through the buttons with scripted dice (tools/screens/rig.py's Rig, the tray
the pictures come from); the text is read with the tray's own font (tools/emupico/panel.py).
Expected values come from the rules, worked out by hand in the comments.
"""

import json

from dicetray import ui
from dicetray.display import Display
from dicetray.save_check import load
from dicetray.screens import SETUP
from emupico.panel import Panel
from screens.rig import Rig
from trayhost.autoplay import ScriptedDice
from trayhost.oled import FakeI2C
from trayhost.pins import ticks_diff


def glass(rig):
    """What the panel shows now (128x64)."""
    return Panel([bytes(row) for row in rig.i2c.panel.pixels()])


def new_game(players=4, preset_options=None, height=64):
    """A tray at the first turn (P1 starts, no roll-off) of a classic game of `players`."""
    rig = Rig([], height=height)
    s = rig.app.units[SETUP].settings
    s["players"] = players
    s["options"]["start"] = "seat1"
    s["options"].update(preset_options or {})
    rig.play("o")
    return rig


def test_a_turn_shows_the_best_and_lowest_throws_so_far_and_who_made_them():
    rig = new_game(4)
    assert glass(rig).read(18) == "NONE TO BEAT"  # P1 plays first
    rig.play("ro", [2, 6, 3])  # P1: 632 in one throw, so one throw each
    rig.play("ro", [4, 2, 1])  # P2: 421
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P3"
    # 421 beats every other throw; 632 is an ordinary throw. The dice read highest first.
    assert panel.read(18, x1=64) == "TOP P2 421"
    assert panel.read(18, x0=64) == "LOW P1 632"
    assert "THROW 0/1" in panel.read(0)  # the throws allowed: one, as P1 made
    rig.play("ro", [1, 2, 2])  # P3: nenette, the lowest throw of all in classic
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P4"
    assert (panel.read(18, x1=64), panel.read(18, x0=64)) == ("TOP P2 421", "LOW P3 221")


def cell(panel, y, col, cols=2):
    """The words of one table cell (dark on a lit cell or lit on dark), and whether it is lit;
    the line between two columns (x = the next column's start - 2) is no part of a cell."""
    w = 128 // cols
    x0, x1 = col * w, col * w + w - 3
    lit = panel.pixel(x0, y - 1) == 1
    return " ".join(panel.read(y, ink=0 if lit else 1, x0=x0, x1=x1).split()), lit


def row_cells(panel, y, rows, cols=2):
    """A list's cells as a player reads them: across each row, then down."""
    return [cell(panel, y + 9 * r, c, cols) for r in range(rows) for c in range(cols)]


# Eight throws of one throw each (P1 stops after one, so the limit is one), and their places by
# the classic ranking: 421, then the fiche 1-1-6 (two aces first: AA6), brelan 5, the suite
# 6-5-4, then the ordinary throws by their highest dice (662 > 632 > 322), and the nenette last
# of all. Each throw is written before its player, whose tokens follow the name.
EIGHT = ([6, 3, 2], [4, 2, 1], [5, 5, 5], [1, 1, 6], [6, 5, 4], [3, 2, 2], [2, 2, 1], [6, 6, 2])
PLACES = ["421 P2", "AA6 P4", "555 P3", "654 P5", "662 P8", "632 P1", "322 P6", "221 P7"]


def test_the_table_lists_every_throw_of_the_turn_best_first_and_every_token():
    rig = new_game(8)
    for dice in EIGHT[:7]:
        rig.play("ro", dice)
    rig.play("O")  # long OK: the table, while P8 is still to throw
    panel = glass(rig)
    assert panel.read(1) == "CHARGE POT 21"
    done = [p for p in PLACES if p != "662 P8"]
    assert row_cells(panel, 10, 4) == [(p + " 0", False) for p in done] + [("P8 0", True)]
    assert panel.hints() == "ROLL:BACK OK:TALLY"
    rig.play("r")  # back to P8's turn: a throw under way is listed where it ranks
    rig.play("r", [6, 4, 3])
    rig.play("O")
    # 643 is an ordinary throw, below 654 (a suite) and 662, above 632.
    want = done[:4] + ["643 P8"] + done[4:]
    assert row_cells(panel := glass(rig), 10, 4) == [(p + " 0", p == "643 P8") for p in want]


def test_a_table_of_four_is_one_list_best_first():
    rig = new_game(4)
    for dice in ([6, 3, 2], [4, 2, 1], [5, 5, 5]):
        rig.play("ro", dice)
    rig.play("O")  # P4 still to throw: 421, 555, 632, then P4 (lit)
    panel = glass(rig)
    assert row_cells(panel, 10, 4, cols=1) == [("421 P2 0", False), ("555 P3 0", False),
                                              ("632 P1 0", False), ("P4 0", True)]


def test_the_result_shows_every_throw_best_first_every_token_and_the_pot():
    rig = new_game(8)
    for dice in EIGHT:
        rig.play("ro", dice)
    panel = glass(rig)
    # The nenette loses; in classic it takes 2 tokens from the pot whatever the best throw was.
    assert panel.read(1) == "P7 LOSES: TAKES 2"
    tokens = {"P7": 2}
    want = [(p + " " + str(tokens.get(p[-2:], 0)), p[-2:] == "P7") for p in PLACES]
    assert row_cells(panel, 10, 5) == want + [("POT 19", False), ("", False)]


# ---- roll-offs and play-offs: each throw as it happens, and who won before moving on --------


def test_the_roll_off_for_who_starts_shows_each_throw_then_who_starts():
    rig = Rig([])  # classic, 4 players: everybody throws, the best throw starts
    rig.play("o")
    panel = glass(rig)
    assert panel.read(1, x0=25) == "WHO STARTS?" and panel.read(0, scale=2) == "P1"
    assert row_cells(panel, 18, 2) == [("P1", True), ("P2", False), ("P3", False),
                                       ("P4", False)]
    rig.play("r", [6, 5, 3])
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P2"  # P1's throw stays in view while P2 throws
    assert row_cells(panel, 18, 2) == [("P1 653", False), ("P2", True), ("P3", False),
                                       ("P4", False)]
    rig.play("rrr", [6, 3, 1], [3, 3, 3], [2, 6, 6])
    # A brelan is a figure and beats every ordinary throw: P3 starts. P4's 2-6-6 reads 662; P2's
    # 6-3-1, the ace high, reads A63.
    assert rig.app.screen == "outcome"
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P3 STARTS"
    assert row_cells(panel, 18, 2) == [("P1 653", False), ("P2 A63", False),
                                       ("P3 333", True), ("P4 662", False)]
    assert panel.hints() == "OK:NEXT  ROLL:THROW"  # P3, a human, starts: ROLL is its throw
    rig.play("o")  # the charge begins: P3's turn says so, and shows the pot
    panel = glass(rig)
    assert rig.app.screen == "play" and panel.read(0, scale=2) == "P3"
    assert panel.read(9, x0=24).startswith("CHARGE") and panel.read(0).endswith("POT 21")


def test_eight_players_roll_off_shows_all_eight_throws_highest_die_first():
    rig = Rig([])
    rig.app.units[SETUP].settings["players"] = 8
    rig.play("o")
    throws = ([2, 5, 3], [6, 1, 4], [3, 3, 1], [5, 6, 2], [4, 4, 6], [2, 2, 3], [6, 5, 5],
              [1, 6, 1])
    rig.play("r" * 8, *throws)
    panel = glass(rig)
    # Two aces and a six is a figure, the best here: P8 starts. An ace ranks above the six in
    # the ordinary throws: 6-1-4 reads A64, 3-3-1 A33.
    assert panel.read(0, scale=2) == "P8 STARTS"
    want = ["P1 532", "P2 A64", "P3 A33", "P4 652", "P5 644", "P6 322", "P7 655", "P8 AA6"]
    assert row_cells(panel, 18, 4) == [(t, t[:2] == "P8") for t in want]


def test_a_roll_off_for_the_lowest_shows_who_loses_then_the_result():
    rig = new_game(3)
    rig.play("ro", [6, 3, 2])
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [6, 3, 2])  # P1 and P3 tie for the lowest: one die each, the lower loses
    panel = glass(rig)
    assert panel.read(1, x0=25) == "TIE: LOW LOSES"
    assert row_cells(panel, 18, 1) == [("P1", True), ("P3", False)]
    rig.play("r", [4])
    rig.play("r", [4])  # a tie again: both roll again
    panel = glass(rig)
    assert panel.read(0, scale=2) == "TIED"
    assert row_cells(panel, 18, 1) == [("P1 4", True), ("P3 4", True)]
    rig.play("o")
    assert rig.app.screen == "play" and "TRY 2" in glass(rig).read(9)
    rig.play("rr", [5], [2])
    panel = glass(rig)
    assert panel.read(0, scale=2) == "P3 LOSES"
    assert row_cells(panel, 18, 1) == [("P1 5", False), ("P3 2", True)]
    rig.play("o")
    assert glass(rig).read(1) == "P3 LOSES: TAKES 10"  # 421 is worth 10


# ---- a 128x32 panel: two lines of text above the hint bar ----------------------------------


def glass32(rig):
    rows = [bytes(row) for row in rig.i2c.panel.pixels()]
    return Panel(rows + [bytes(128)] * 32)


def test_a_128x32_table_shows_all_eight_players_tokens_and_a_result_its_best_and_lowest():
    rig = new_game(8, height=32)
    for dice in EIGHT[:3]:
        rig.play("ro", dice)
    rig.play("O")
    panel = glass32(rig)
    # No room for a head line: tokens only, two rows of four read across in seat order (no
    # throws shown: no ranking to read), P4, whose turn it is, lit. One digit leaves a space's
    # room; two digits would join count and name: P2:10.
    got = [cell(panel, y, c, cols=4) for y in (1, 10) for c in range(4)]
    assert got == [("P1 0", False), ("P2 0", False), ("P3 0", False), ("P4 0", True),
                   ("P5 0", False), ("P6 0", False), ("P7 0", False), ("P8 0", False)]
    assert panel.read(24, ink=0) == "ROLL:BACK OK:TALLY"
    rig.play("r")  # ROLL: back to the game (OK would open the tally)
    for dice in EIGHT[3:]:
        rig.play("ro", dice)
    panel = glass32(rig)
    assert panel.read(1) == "P7 LOSES: TAKES 2"
    assert [cell(panel, 10, c) for c in range(2)] == [("421 P2 0", False), ("221 P7 2", True)]


def test_a_result_drawn_from_a_save_shows_the_two_throws_it_keeps_and_every_token():
    rig = new_game(3)
    for dice in ([6, 3, 2], [4, 2, 1], [5, 3, 2]):
        rig.play("ro", dice)
    # 421 beats 632, which beats 532: P3 loses and takes 421's 10 tokens from the pot.
    game = load(json.loads(json.dumps(rig.game.to_dict())), ScriptedDice(()))
    assert game.ended is None  # the save keeps the winner's and the loser's throws only
    display = Display(FakeI2C(), ticks_diff=ticks_diff)
    ui.result(display.fb, 128, 64, game)
    panel = Panel.from_framebuffer(display.buffer)
    assert panel.read(1) == "P3 LOSES: TAKES 10"
    # One list, best first: the winner, the loser, the one whose throw the save lost, the pot.
    assert row_cells(panel, 10, 4, cols=1) == [("421 P2 0", False), ("532 P3 10", True),
                                              ("P1 0", False), ("POT 11", False)]
