"""What the table sees in a turn and between turns, read back off the panel's glass: no throw
named or counted while its dice are in the air, the tray's own turns told in words with no key
to press, everybody's tokens and the phase on the turn, the hint as plain as a kept die, no
press that decides nothing, and how long a result stays.

Games are played through the buttons with scripted dice (tools/screens/rig.py's Rig); the text
is read with the tray's font (tools/emupico/panel.py). Expected values are worked out by hand
in the comments.
"""

import pytest
from dicetray import ui
from dicetray.screens import OUTCOME, OVER, PHASE, PLAY, RESULT, SETUP, TALLY
from dicetray.seat import SHOW_MS
from emupico.panel import Panel
from screens.rig import Rig
from trayhost.trayrun import KEYS, POLL_MS, PRESS_MS


def words(panel, y, **kw):
    return " ".join(panel.read(y, **kw).split())


def new_game(players, height=64, computers=0, hints=False, **options):
    """A tray at the first turn (P1 starts, no roll-off) of a classic game."""
    rig = Rig([], height=height)
    s = rig.app.units[SETUP].settings
    s["players"] = players
    s["computers"] = computers
    s["hints"] = hints
    s["options"]["start"] = "seat1"
    s["options"].update(options)
    rig.play("o")
    return rig


# ---- no spoiler: the roll animation, frame by frame --------------------------------------------

# (the dice, what the panel says while they tumble, what it says once they land): the header
# right of the big name (128x64: "THROW n/3", the pot; row 9: the phase, then beside the dice
# the throw's name or the throws due), or 128x32's first two lines, and the key bar. P1
# starts: no limit set yet, so "UP TO 3"; P1 may stop after any throw. While the dice tumble
# the panel is as it was before the press, but for the last throw's name: its dice are in the
# air again.
START = ("THROW 0/3 POT 21", "CHARGE UP TO 3", "ROLL OR HOLD OK:TABLE")
THROWS = (
    ([6, 5, 4], START, ("THROW 1/3 POT 21", "CHARGE RUN 654", "KEEP, ROLL OR OK:STOP")),
    ([2, 2, 1], ("THROW 1/3 POT 21", "CHARGE", "KEEP, ROLL OR OK:STOP"),
     ("THROW 2/3 POT 21", "CHARGE NENETTE", "KEEP, ROLL OR OK:STOP")),
    ([4, 2, 1], ("THROW 2/3 POT 21", "CHARGE", "KEEP, ROLL OR OK:STOP"),
     ("THROW 3/3 POT 21", "CHARGE 421", "LAST THROW. OK:DONE")),
)
# 128x32: the player's name and the count; after them on the line, the phase before the first
# throw, then the throw's name (none while the dice tumble). The pot: on the table's screen.
THROWS_32 = (
    ("P1 THROW 0/3", "CHARGE", "ROLL OR HOLD OK:TABLE"),
    ("P1 THROW 1/3", "RUN 654", "KEEP, ROLL OR OK:STOP"),
    ("P1 THROW 2/3", "NENETTE", "KEEP, ROLL OR OK:STOP"),
    ("P1 THROW 3/3", "421", "LAST THROW. OK:DONE"),
)


def glass(rig):
    """What the panel shows (a 128x32 panel's rows above 32 blank rows)."""
    rows = [bytes(row) for row in rig.i2c.panel.pixels()]
    return Panel(rows + [bytes(128)] * (64 - len(rows)))


def keys(panel, height):
    """The key bar's words (dark on the lit bar)."""
    return words(panel, height - 8, ink=0)


def header(rig, height):
    panel = glass(rig)
    if height == 64:  # the phase, and what is beside the dice (three players: 19 pixels)
        phase = " ".join(w for w in (words(panel, 9, x0=24), words(panel, 33, x0=64)) if w)
        return words(panel, 0, x0=24), phase, keys(panel, height)
    # 128x32: one line, the count from the left, the name ending at the right.
    return words(panel, 1, x1=72), words(panel, 1, x0=72), keys(panel, height)


@pytest.mark.parametrize("height", (64, 32))
def test_nothing_names_or_counts_a_throw_before_its_dice_land(height):
    rig = new_game(3, height)
    tray = rig.tray
    pin = tray.pins[KEYS["r"]]
    for k, (dice, during, after) in enumerate(THROWS):
        if height == 32:  # tumbling: the count as before, no throw's name yet
            during, after = THROWS_32[k], THROWS_32[k + 1]
            if k:
                during = (during[0], "", during[2])
        rig.dice.values.extend(dice)
        pin.press()
        frames = 0
        for _ in range(PRESS_MS // POLL_MS):
            tray.run(POLL_MS)
            frames += tray.app.clock.rolling != 0
            if tray.app.clock.rolling:
                assert header(rig, height) == during, (k, frames)
        pin.release()
        while tray.app.clock.rolling:
            tray.run(POLL_MS)
            frames += 1
            if tray.app.clock.rolling:
                assert header(rig, height) == during, (k, frames)
        assert frames > 40  # the animation was watched frame by frame, some 360 ms
        assert rig.game.turn.count == k + 1
        assert header(rig, height) == after


# ---- the tray's own turns --------------------------------------------------------------------


@pytest.mark.parametrize("height", (64, 32))
def test_a_seat_the_tray_plays_says_so_and_shows_no_key_to_press(height):
    rig = new_game(2, height, computers=1)
    panel = glass(rig)
    assert panel.pixel(126, height - 5) == 1  # P1's turn: a lit bar with keys to press
    assert keys(panel, height) == "ROLL OR HOLD OK:TABLE"
    rig.play("ro", [6, 3, 2])  # P1 stops after one throw: P2, the tray's, has one throw
    assert rig.game.current == 1 and rig.app.screen == PLAY
    panel = glass(rig)
    # A frame, dark inside, round lit words: nothing reads as a key, nothing to press.
    assert panel.pixel(126, height - 5) == 0 and panel.pixel(127, height - 5) == 1
    assert words(panel, height - 8) == "TRAY PLAYS"
    assert keys(panel, height) == ""
    if height == 32:  # the seat's name marked as on every screen
        assert words(panel, 1, x1=80) == "P2* THROW 0/1"
    rig.dice.values.extend([5, 4, 1])
    rig.play("r")  # a human's press still hurries the tray: it throws at once
    assert rig.game.turn.count == 1


def test_a_roll_off_the_tray_throws_in_says_so_too():
    rig = Rig([])
    s = rig.app.units[SETUP].settings
    s["players"] = 2
    s["computers"] = 1
    rig.play("o")  # classic: both throw three dice for who starts, P1 first
    assert glass(rig).hints() == "ROLL: THROW 3 DICE"
    rig.play("r", [6, 5, 3])
    assert rig.game.current == 1 and rig.game.contest is not None
    assert words(glass(rig), 56) == "TRAY PLAYS"


# ---- everybody's tokens, the phase, the hint --------------------------------------------------


def test_the_turn_shows_everybodys_tokens_and_the_phase_without_a_press():
    rig = new_game(4)
    # In seat order, each count in a quarter of the line by its owner's name.
    assert words(glass(rig), 47) == "P1 0 P2 0 P3 0 P4 0"
    rig.play("ro", [6, 3, 2])  # P1 stops after one throw
    rig.game.tokens[:] = [3, 12, 0, 7]
    rig.redraw()
    panel = glass(rig)
    # A two-digit count leaves no room for a space before the next cell: a colon joins each
    # count to its name.
    assert [words(panel, 47, x0=32 * p, x1=32 * p + 31) for p in range(4)] == [
        "P1:3", "P2:12", "P3:0", "P4:7"]
    assert words(panel, 9, x0=24) == "CHARGE"
    assert words(panel, 33, x0=64) == "1 THROW"  # beside the dice: exactly P1's one throw
    # Eight players: a player out reads "--".
    rig = new_game(8)
    g = rig.game
    g.phase = "decharge"
    g.pot = 0
    g.tokens[:] = [3, 0, 17, 2, 0, 5, 4, 9]
    g.out[:] = [1, 4]
    rig.redraw()
    panel = glass(rig)
    # Two rows of four, read across as the table sits.
    assert words(panel, 39) == "P1:3 P2:-- P3:17 P4:2"
    assert words(panel, 47) == "P5:-- P6:5 P7:4 P8:9"
    assert words(panel, 0, x0=24) == "THROW 0/3"  # no pot in the décharge
    assert words(panel, 9, x0=24) == "DECHARGE"
    assert words(panel, 28, x0=48) == "UP TO 3"  # beside the dice


def test_a_128x32_turn_shows_the_throw_to_beat_and_the_throws_name():
    rig = new_game(8, 32)
    panel = glass(rig)
    assert words(panel, 1) == "P1 THROW 0/3 CHARGE"  # before the first throw: the phase
    assert words(panel, 12, x0=46) == "NONE TO BEAT"  # beside the dice
    rig.play("ro", [6, 5, 4])  # P1 stops on a suite: P2, a follower, has one throw to beat it
    panel = glass(rig)
    assert words(panel, 1, x1=72) == "P2 THROW 0/1"
    assert words(panel, 12, x0=46) == "LOW P1 654"  # the lowest so far: the throw to beat
    rig.play("r", [6, 3, 2])
    panel = glass(rig)
    assert words(panel, 1) == "P2 THROW 1/1 632"
    assert words(panel, 12, x0=46) == "LOW P1 654"  # P2's throw counts once it stops


def barred(panel, i, n=3):
    """Whether die i of the 128x64 turn stands in a hint's brackets: a lit column the die high
    two columns from each side of it, a blank one between but for the brackets' ends."""
    x, y, size = ui.die_at(64, n, i)
    return all(panel.pixel(c, r) for c in (x - 2, x + size + 1) for r in range(y, y + size)) \
        and not any(panel.pixel(c, r) for c in (x - 1, x + size) for r in range(y + 1,
                                                                                  y + size - 1))


def kept(panel, i, n=3):
    """Whether die i of the 128x64 turn is drawn solid: lit just inside its border."""
    x, y, size = ui.die_at(64, n, i)
    return bool(panel.pixel(x + 2, y + 2))


def test_the_hint_is_as_plain_as_a_kept_die_and_the_phase_stays():
    rig = new_game(3, hints=True)
    rig.play("r", [4, 4, 1])
    from dicetray.strategy import hint

    mask, text = hint(rig.game)
    panel = glass(rig)
    assert mask == 4  # with 4, 4 and 1 the strategy keeps the ace, the third die
    for i in range(3):
        assert barred(panel, i) == bool(mask & (1 << i)), i
        assert not kept(panel, i)
    assert words(panel, 0, x0=24) == "THROW 1/3 POT 21"
    assert words(panel, 9, x0=24) == "CHARGE %s" % text  # the worth a word's gap after the phase
    assert words(panel, 33, x0=64) == "A44"  # the throw's name beside the dice: the ace high
    keep = [i for i in range(3) if mask & (1 << i)][0]
    rig.play("123"[keep])  # kept: the die is solid, no bars
    assert kept(glass(rig), keep) and not barred(glass(rig), keep)
    rig.play("123"[keep])  # released: the hint's bars again, drawn with the die alone
    assert barred(glass(rig), keep) and not kept(glass(rig), keep)


# ---- presses that decide nothing ----------------------------------------------------------------


def test_three_players_reach_their_first_throw_in_four_presses():
    rig = Rig([])
    rig.app.units[SETUP].settings["players"] = 3
    # OK starts; each player throws for who starts (classic: the best throw starts): P3's
    # 333. ROLL on who starts is P3's first throw: 4 presses before it, not 5 (o r r r o).
    rig.play("o")
    rig.play("rrr", [6, 5, 3], [6, 3, 1], [3, 3, 3])
    assert rig.app.screen == OUTCOME
    assert glass(rig).hints() == "OK:NEXT  ROLL:THROW"
    rig.dice.values.extend([4, 5, 2])
    rig.tray.key("r")
    assert rig.app.screen == PLAY and rig.game.contest is None
    assert rig.game.current == 2 and rig.game.turn.count == 1
    assert rig.game.turn.dice == [4, 5, 2]


def test_ok_on_who_starts_only_goes_on():
    rig = Rig([])
    rig.app.units[SETUP].settings["players"] = 3
    rig.play("orrr", [6, 5, 3], [6, 3, 1], [3, 3, 3])
    rig.play("o")
    assert rig.app.screen == PLAY and rig.game.current == 2 and rig.game.turn.count == 0


# A round of a 3-player classic game (P1 starts): P1 stops after one throw, so each throws
# once, then the result. The loser starts the next round.
ROUNDS = (
    ([6, 5, 4], [3, 2, 2], [6, 3, 2]),  # P2's 322 loses to a suite, takes 2: P2 starts
    ([5, 5, 2], [6, 6, 4], [4, 4, 2]),  # from P2: P1's 442 loses to 664, takes 1: P1 starts
    ([2, 2, 1], [6, 5, 3], [5, 3, 2]),  # from P1: P1's nenette takes 2 (classic)
)


def play_rounds(next_throw):
    """Three rounds of 3 humans; next_throw: the keys from a result to the next player's
    first throw. The presses counted, and the game."""
    rig = new_game(3)
    presses = 0
    for k, round_ in enumerate(ROUNDS):
        throws = [list(d) for d in round_]
        if k:
            assert rig.app.screen == RESULT
            assert glass(rig).hints() == "OK:NEXT  ROLL:THROW"  # a human starts: ROLL throws
            rig.play(next_throw, throws.pop(0))
            presses += len(next_throw)
            assert rig.app.screen == PLAY and rig.game.turn.count == 1
            rig.play("o")
            presses += 1
        for dice in throws:
            rig.play("ro", dice)
            presses += 2
    assert rig.app.screen == RESULT
    return presses, rig.game


def test_a_3_human_round_needs_one_press_fewer_roll_on_its_result_throwing():
    before, old = play_rounds("or")  # OK reads the result, ROLL throws
    after, new = play_rounds("r")  # ROLL reads it and throws
    assert before == 6 + 7 + 7  # the first round starts at a throw; then 7 presses a round
    assert after == 6 + 6 + 6
    assert (new.tokens, new.pot, new.turn.number, new.current) == (
        old.tokens, old.pot, old.turn.number, old.current)
    assert new.tokens == [3, 2, 0] and new.pot == 16


def test_roll_on_a_result_throws_with_the_dice_rolling_and_ok_does_not_throw():
    rig = new_game(3)
    rig.play("ro" * 3, *ROUNDS[0])
    assert rig.app.screen == RESULT and rig.game.current == 1
    rig.play("o")  # OK only goes on: P2's turn, no throw yet
    assert rig.app.screen == PLAY and rig.game.current == 1 and rig.game.turn.count == 0
    rig = new_game(3)
    rig.play("ro" * 3, *ROUNDS[0])
    rig.dice.values.extend([6, 6, 6])
    tray = rig.tray
    pin = tray.pins[KEYS["r"]]
    pin.press()
    frames = 0
    for _ in range(PRESS_MS // POLL_MS):
        tray.run(POLL_MS)
        if rig.app.screen != RESULT:
            frames += 1
            # P2's turn from the press's first frame, its dice in the air: nothing names or
            # counts the throw yet (P2 starts a round: up to 3 throws; the pot gave P2 2).
            assert rig.app.screen == PLAY and tray.app.clock.rolling
            assert header(rig, 64) == ("THROW 0/3 POT 19", "CHARGE UP TO 3",
                                       "ROLL OR HOLD OK:TABLE"), frames
    pin.release()
    while tray.app.clock.rolling:
        tray.run(POLL_MS)
        frames += 1
    assert frames > 40  # the animation, some 360 ms
    assert rig.game.current == 1 and rig.game.turn.count == 1
    assert rig.game.turn.dice == [6, 6, 6]
    assert header(rig, 64)[0] == "THROW 1/3 POT 19"


def test_roll_on_a_result_does_not_throw_for_the_tray():
    rig = new_game(2, computers=1)
    rig.play("ro", [6, 5, 4])  # P1: a suite
    rig.dice.values.extend([3, 2, 2])  # P2, the tray's, loses with 322: it starts next
    for _ in range(100):
        rig.tray.run(100)
        if rig.app.screen == RESULT:
            break
    assert rig.app.screen == RESULT and rig.game.current == 1
    assert glass(rig).hints() == "OK:NEXT"  # the tray throws: ROLL has nothing to throw
    rig.tray.key("r")
    assert rig.app.screen == PLAY and rig.game.turn.count == 0  # the tray throws in its time


def test_a_result_then_a_phase_goes_to_the_phase_first():
    rig = new_game(3)
    g = rig.game
    g.tokens[:] = [4, 10, 6]
    g.pot = 1
    rig.redraw()
    rig.play("ro" * 3, [6, 5, 1], [4, 2, 1], [3, 2, 2])  # P3 loses, takes the last token
    assert rig.app.screen == RESULT
    assert glass(rig).hints() == "OK:NEXT"  # the décharge's screen comes next: no throw
    rig.play("r")
    assert rig.app.screen == PHASE and g.turn.count == 0
    assert glass(rig).hints() == "OK:NEXT  ROLL:THROW"  # P3 starts the décharge
    rig.play("r", [5, 5, 5])
    assert rig.app.screen == PLAY and g.phase == "decharge"
    assert g.current == 2 and g.turn.count == 1 and g.turn.dice == [5, 5, 5]


def first_out_in_the_charge(players=2):
    """A classic game a throw from its end: one token in the pot, P1 holds none."""
    rig = new_game(players)
    rig.game.tokens[:] = [0] + [20] * (players - 1)
    rig.game.pot = 1
    rig.redraw()
    return rig


def test_the_end_says_why_and_the_tally_then_a_new_game():
    rig = first_out_in_the_charge()
    rig.play("ro", [4, 2, 1])  # P1: 421
    rig.play("ro", [6, 3, 2])  # P2 loses, takes the last token: the charge is over, and P1,
    assert rig.app.screen == RESULT  # with none, is the first out: first out wins (classic)
    rig.play("o")
    assert rig.app.screen == OVER
    panel = glass(rig)
    assert panel.read(2, scale=2) == "P2 PAYS"
    assert [words(panel, y) for y in (19, 28, 37, 46)] == [
        "THE ROUND!", "FIRST OUT IN CHARGE", "MOST TOKENS: 21", "WON: P1"]
    assert panel.hints() == "OK:TALLY"
    rig.play("r")  # the rounds paid (OK goes there too)
    assert glass(rig).read(2, scale=2) == "TALLY"
    rig.play("o")
    assert rig.app.screen == SETUP
    rig = first_out_in_the_charge()
    rig.play("roroo", [4, 2, 1], [6, 3, 2])
    assert rig.app.screen == OVER  # the result, OK: the end
    rig.play("o")
    assert rig.app.screen == TALLY  # OK: the tally, whose OK starts a new game
    rig.play("o")
    assert rig.app.screen == SETUP


def test_a_128x32_end_names_who_pays_and_why():
    # Two lines above the key bar: who pays, then why (the most tokens; who won: on 128x64).
    rig = new_game(2, 32)
    rig.game.tokens[:] = [0, 20]
    rig.game.pot = 1
    rig.play("roro", [4, 2, 1], [6, 3, 2])
    rig.play("o")
    panel = glass(rig)
    assert words(panel, 1) == "P2 PAYS" and words(panel, 10) == "MOST TOKENS: 21"


# ---- how long a result stays ----------------------------------------------------------------


def test_a_result_waits_for_ok_when_a_human_starts_next():
    rig = new_game(2, computers=1)
    rig.play("ro", [3, 2, 2])  # P1: 322, an ordinary throw
    rig.dice.values.extend([6, 5, 4])  # P2, the tray's: a suite beats it; P1 loses, starts
    for _ in range(100):
        rig.tray.run(100)
        if rig.app.screen == RESULT:
            break
    assert rig.app.screen == RESULT and rig.game.current == 0
    rig.tray.run(60000)
    assert rig.app.screen == RESULT
    rig.play("1")  # a KEEP reads nothing: the result stays for OK
    assert rig.app.screen == RESULT
    rig.play("o")
    assert rig.app.screen == PLAY


def test_a_result_stays_six_seconds_when_the_tray_starts_next_and_any_key_goes_on():
    for key in ("", "2"):
        rig = new_game(2, computers=1)
        rig.play("ro", [6, 5, 4])  # P1: a suite
        rig.dice.values.extend([3, 2, 2])  # P2 loses with 322: the tray starts the next turn
        for _ in range(100):
            rig.tray.run(100)
            if rig.app.screen == RESULT:
                break
        assert rig.app.screen == RESULT and rig.game.current == 1
        assert SHOW_MS >= 6000
        if key:
            rig.play(key)
            assert rig.app.screen == PLAY
            continue
        rig.tray.run(SHOW_MS - 100)
        assert rig.app.screen == RESULT
        rig.tray.run(200)
        assert rig.app.screen == PLAY


# ---- labels -------------------------------------------------------------------------------------


def test_a_decharge_result_keeps_the_trays_marks():
    rig = new_game(2, computers=1)
    g = rig.game
    g.phase = "decharge"
    g.pot = 0
    g.tokens[:] = [5, 12]
    rig.redraw()
    rig.play("ro", [3, 2, 2])  # P1: 322
    rig.dice.values.extend([4, 2, 1])  # P2*: 421, worth 10 in classic: P2* gives P1 10
    for _ in range(100):
        rig.tray.run(100)
        if rig.app.screen == RESULT:
            break
    assert words(glass(rig), 1) == "P2* GIVES 10 TO P1"


def test_the_who_starts_list_on_128x32_names_what_for_and_the_latest_rolls():
    rig = Rig([], height=32)
    rig.play("o")  # classic, 4 players
    rig.play("rrr", [6, 5, 3], [6, 3, 1], [3, 3, 3])
    # The title on its line: who rolls, for what; under it three cells read across in rolling
    # order: P4, still to throw, lit, and the rolls made last (P2's 6-3-1: the ace high, A63).
    panel = glass(rig)
    assert words(panel, 1) == "P4 WHO STARTS?"
    # Narrow cells join each roll to its thrower's name.
    assert words(panel, 10) == "P2:A63 P3:333" and words(panel, 10, ink=0, x0=84) == "P4"
    rig.play("r", [6, 6, 2])
    panel = glass(rig)
    # Decided: who starts, on its line; under it P3 (lit) among the rolls made last.
    assert words(panel, 1) == "P3 STARTS"
    assert words(panel, 10, x1=41) == "P2:A63" and words(panel, 10, x0=84) == "P4:662"
    assert words(panel, 10, ink=0, x0=43, x1=84) == "P3:333"


def test_roll_on_a_play_off_tied_again_goes_on_to_the_stake_without_throwing():
    rig = Rig([])
    rig.play("32rrrro")  # 3 players, the lebon preset: a tie for the worst is played off
    rig.play("rrro", [5], [2], [3])  # one die each: P1 starts
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [6, 5, 3])
    rig.play("ro", [6, 5, 3])  # P2 and P3 tie for the worst: a play-off, from the last
    rig.play("rr", [6, 4, 2], [6, 4, 2])  # tied again
    assert rig.app.screen == OUTCOME
    assert glass(rig).hints() == "OK:NEXT"  # the next round's stake is to be chosen first
    rig.play("r")
    g = rig.game
    assert rig.app.screen == PLAY and g.contest is not None and g.can_announce()
    assert g.contest.results == []  # no roll made: a KEEP chooses the stake first


# ---- a screen that moves on by itself says so -------------------------------------------------


@pytest.mark.parametrize("height", (64, 32))
def test_a_result_before_the_trays_turn_drains_its_key_bar_and_any_key_moves_on(height):
    rig = new_game(3, height, computers=2)
    rig.dice.values.extend([6, 3, 2] + [5, 4, 1, 2, 2, 3] * 10)
    rig.play("ro")  # P1 stops; P2 and P3, the tray's, throw; P2 or P3 starts the next turn
    app, tray = rig.app, rig.tray
    for _ in range(200):
        if app.screen == RESULT:
            break
        tray.run(100)
    assert app.screen == RESULT and rig.game.current in rig.game.computers

    def lit():  # how far the key bar's bottom row is lit
        row = bytes(glass(rig).rows[height - 1])
        return len(row) if 0 not in row else row.index(0)

    tray.run(100)
    assert lit() == 128  # full at first
    tray.run(1000)
    half = lit()
    assert 80 < half < 110  # a sixth of its time gone: some of the bar gone, a cell a step
    # Each step changes one letter's cell of the bar (and the column after it), nothing else:
    # the display sends those columns of the bar's rows only.
    before = glass(rig)
    for _ in range(60):
        tray.run(10)
        if lit() != half:
            break
    after = glass(rig)
    changed = {(x, y) for y in range(height) for x in range(128)
               if before.pixel(x, y) != after.pixel(x, y)}
    assert changed and all(y >= height - 9 for _, y in changed)
    assert len({x for x, _ in changed}) <= 7
    tray.run(3000)
    assert lit() < half and app.screen == RESULT
    rig.play("1")  # any key moves on at once, a KEEP too
    assert app.screen != RESULT
