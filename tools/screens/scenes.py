"""The scripted scenes of pictures.py: each plays a game (or part of one), takes pictures.
Those outside a game's play (a lost save, safe mode, the error screen): troublescenes.py.

A few states that keys reach only after a long game are set up directly on the app's game, then
played on with keys. Everything is scripted, so two runs give the same pictures.
"""

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray.rules import LIMIT_AT_MOST, START_SEAT1
from dicetray.screens import (
    OUTCOME,
    OVER,
    PHASE,
    PLAY,
    QUIT,
    RESULT,
    RESUME,
    SETUP,
    STANDINGS,
    TALLY,
    UNDO,
)

from screens.rig import Rig
from screens.troublescenes import error_screen, safe_mode, save_lost


def setup_menu(shots):
    rig = Rig(shots)
    rig.snap("setup", SETUP, "setup menu (the last setup, classic rules, 4 players)")
    rig.play("22r")  # down to TOKENS, one more
    rig.snap("setup_changed", SETUP, "setup with an option changed from its preset (*)")


def classic_game(shots):
    """Four players, classic rules: the roll-off, a whole charge turn, a décharge, the end."""
    rig = Rig(shots)
    _classic_who_starts(rig)
    _classic_first_turn(rig)
    resumed = Rig(shots, fs=rig.tray.fs)  # the tray switched off and on again
    resumed.snap("resume", RESUME, "a game was saved: resume it or start a new one")
    _classic_end_of_charge(rig)
    _classic_decharge_to_the_end(rig)


def _classic_who_starts(rig):
    rig.play("o")
    rig.play("rr", [6, 5, 3], [6, 3, 1])
    rig.snap("start_rolloff", PLAY, "who starts: everybody throws, the best throw starts")
    rig.play("rr", [3, 3, 3], [6, 6, 2])
    rig.snap("start_decided", OUTCOME, "who starts is decided: every throw, who starts")
    rig.play("o")  # the charge begins: the turn says so


def _classic_first_turn(rig):
    """Each step of P3's throws, the others' whole throws, a roll-off for the worst, standings."""
    rig.snap("turn_ready", PLAY, "a turn before the first throw")
    rig.play("r", [4, 5, 2])
    rig.snap("turn_thrown", PLAY, "a turn after a throw")
    rig.play("13")
    rig.snap("turn_kept", PLAY, "two dice kept (drawn solid)")
    rig.play("2")
    rig.snap("turn_refused", PLAY, "a refused press says why for a second (a third die kept)")
    rig.play("rr", [6], [3])
    rig.snap("turn_last_throw", PLAY, "the last throw is used: ROLL or OK ends the throws")
    rig.play("o")
    rig.play("rrro", [1, 5, 6], [2, 4, 6], [6, 3, 2])  # P4: exactly three throws too
    rig.play("rrro", [2, 3, 6], [1, 1, 5], [4, 2, 1])  # P1: 421
    rig.snap("turn_to_beat", PLAY, "a follower's turn: the best and lowest throws so far")
    rig.play("O")
    rig.snap("standings_4", STANDINGS, "the table (long OK): this turn's throws and the tokens")
    rig.play("O")
    rig.snap("quit", QUIT, "quit the game? (OK held on the table): KEEP1 says yes, and the"
             " game stays saved")
    rig.play("o")  # no: back to the game
    rig.play("rrro", [3, 5, 5], [1, 6, 4], [2, 6, 3])  # P2: 632 like P4: a roll-off for last
    rig.play("r", [5])
    rig.snap("tie_rolloff", PLAY, "a tie for the worst throw: a roll-off with one die")
    rig.play("r", [2])
    rig.snap("tie_decided", OUTCOME, "the roll-off is decided: who loses the tie")
    rig.play("o")
    rig.snap("result", RESULT, "the turn's result: who lost, tokens moved, the two throws")
    rig.play("o")


def _classic_end_of_charge(rig):
    g = rig.game  # skip to the end of the charge: one token left in the pot
    g.tokens[:] = [4, 10, 3, 3]
    g.pot = 1
    rig.redraw()
    rig.play("ro", [6, 5, 1])  # P2 stops after one throw: everybody gets one
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [5, 4, 1])  # P4 loses, takes the last token
    rig.play("ro", [6, 4, 1])
    rig.play("o")
    rig.snap("phase_decharge", PHASE, "the décharge begins: the pot is empty")
    rig.play("o")


def _classic_decharge_to_the_end(rig):
    rig.game.tokens[:] = [5, 1, 11, 4]
    rig.redraw()
    rig.play("ro", [6, 5, 2])
    rig.play("ro", [5, 3, 2])  # P1 loses...
    rig.play("ro", [4, 2, 1])  # ...to P2, whose last token ends the game (first out)
    rig.play("ro", [6, 4, 3])
    rig.snap("result_decharge", RESULT, "a décharge result: the winner gives the loser tokens")
    rig.play("o")
    rig.snap("over", OVER, "game over: who pays the round, why the game ended")
    rig.play("r")
    rig.snap("tally", TALLY, "the rounds each seat paid since the tally was reset (OK or ROLL"
             " on the game over, and OK on the table)")


def _choose(rig, players, presses):
    # From the default setup (4 players, classic): KEEP3 lowers players, ROLL raises them,
    # then ROLL on RULES moves through the presets.
    step = "r" if players > 4 else "3"
    rig.play(step * abs(players - 4) + "2" + "r" * presses + "o")


def espagnole(shots):
    """Jackpot rules: the charge ends with one player holding every token."""
    rig = Rig(shots)
    _choose(rig, 3, 1)
    rig.play("rrro", [3], [6], [2])  # one die each: P2 starts
    g = rig.game
    g.tokens[:] = [0, 20, 0]
    g.pot = 1
    rig.redraw()
    rig.play("ro", [5, 3, 2])  # P2 loses the last token of the pot
    rig.play("ro", [6, 6, 4])
    rig.play("ro", [6, 5, 5])
    rig.play("o")
    rig.snap("over_espagnole", OVER, "game over by l'Espagnole: one player took every token")


def tie_pass(shots):
    """Bar41 rules, two players: a tie passes the hand."""
    rig = Rig(shots)
    _choose(rig, 2, 3)
    rig.play("rro", [4], [2])
    rig.play("ro", [6, 5, 2])
    rig.play("ro", [6, 5, 2])
    rig.snap("result_tie_pass", RESULT, "two players tie: nothing is paid, the hand passes")


def playoff(shots):
    """Le bon rules: a tie for the worst throw is played off with three dice, from the last."""
    rig = Rig(shots)
    _choose(rig, 3, 4)
    rig.play("rrro", [5], [2], [3])
    rig.play("ro", [4, 2, 1])
    rig.play("ro", [6, 5, 3])
    rig.play("ro", [6, 5, 3])
    rig.play("r", [6, 4, 2])
    rig.snap("playoff", PLAY, "a play-off: three dice, from the last of the tied players")
    rig.play("r", [6, 4, 2])
    rig.snap("playoff_again", OUTCOME, "a play-off tied again: the tied players play again")
    rig.play("o")
    rig.snap("playoff_stake", PLAY, "a play-off tied again: play for what is or what comes")


def eight_players(shots):
    rig = Rig(shots)
    _choose(rig, 8, 4)
    rig.play("r" * 8 + "o", [6], [2], [3], [4], [5], [1], [2], [3])
    g = rig.game  # well into the décharge, three players out
    g.phase = "decharge"
    g.pot = 0
    g.tokens[:] = [3, 0, 7, 2, 0, 5, 4, 0]
    g.out[:] = [1, 4, 7]
    rig.play("O")
    rig.snap("standings_8", STANDINGS, "the table, 8 players (--: out, a winner)")


def eight_players_turn(shots):
    """Le bon rules, 8 players, well into the charge: five have thrown (one throw each)."""
    rig = Rig(shots)
    _choose(rig, 8, 4)
    rig.play("r" * 8 + "o", [2], [6], [3], [4], [5], [1], [2], [3])  # P2 starts
    g = rig.game
    g.tokens[:] = [2, 0, 4, 1, 3, 3, 2, 0]
    g.pot = 6
    rig.redraw()
    rig.play("ro" * 5, [6, 4, 1], [3, 3, 3], [2, 2, 1], [5, 4, 3], [6, 6, 2])
    rig.play("O")
    rig.snap("table_8", STANDINGS, "the table, 8 players: five throws so far, best first")


def small_panel(shots):
    rig = Rig(shots, height=32)
    rig.play("o")
    rig.play("rrrr", [6, 5, 3], [6, 3, 1], [3, 3, 3], [6, 6, 2])
    rig.snap("outcome_32", OUTCOME, "who starts, decided, on a 128x32 panel")
    rig.play("o")
    rig.play("r1", [4, 5, 2])
    rig.snap("turn_32", PLAY, "a turn on a 128x32 panel")
    rig.play("O")
    rig.snap("standings_32", STANDINGS, "the table on a 128x32 panel")
    rig.play("ro")  # ROLL: back to the game; P3 stops after one throw
    rig.snap("turn_undo_32", PLAY, "the next turn offers the stop's undo, on a 128x32 panel")
    rig.play("rororo", [6, 3, 2], [4, 2, 1], [5, 3, 2])  # P2's 532 is the lowest
    rig.snap("result_32", RESULT, "a result on a 128x32 panel: the best and the lowest")
    rig.play("o")
    rig.play("OO1")  # the table, quit?, yes: the game kept, offered on the setup
    rig.snap("setup_kept_32", SETUP, "the setup after quitting, on a 128x32 panel: its last"
             " row resumes the game left")


def computer_seats(shots):
    """Three players, the tray plays P2 and P3, hints on: P1's hint, P2's stop announced, P3's
    keeps, the result and the table with the seats marked."""
    from dicetray import strategy
    from dicetray.seat import KEEP_MS, SAY_MS, THINK_MS

    rig = Rig(shots)
    app = rig.app
    _seats_setup_and_hint(rig)
    rig.play("ro", [6, 5, 5])  # P1 stops on 655 after two throws: P2 and P3 get two at most
    rig.play("", [5, 2, 1])  # P2 throws 521 (the ace counts high: it beats 655) and stops
    for _ in range(60):
        rig.tray.run(100)
        if app.clock.mark:
            break
    rig.snap("seat_stop", PLAY, "a computer seat (P2*: its name marked) announces its stop")
    rig.tray.run(SAY_MS)
    rig.play("", [6, 4, 3])  # P3 throws, keeps what the strategy keeps (the 6)
    g = app.game
    rig.tray.run(THINK_MS)
    for _ in range(20):  # it thinks THINK_MS from its turn's first showing
        if g.turn.count:
            break
        rig.tray.run(100)
    mask = strategy.decide(g)[0]
    for _ in range(40):
        rig.tray.run(100)
        if g.turn.kept == mask and not app.dirty and not app.clock.rolling:
            break
    rig.snap("seat_keeps", PLAY, "a computer seat's keeps, drawn one by one")
    rig.play("", [6] * (3 - bin(mask).count("1")))
    rig.tray.run(KEEP_MS + 4000)
    rig.snap("result_seats", RESULT, "the result: the tray's seats marked P2*, P3*")
    rig.play("o")
    rig.play("O")
    rig.snap("standings_seats", STANDINGS, "the table with the tray's seats marked")


def _seats_setup_and_hint(rig):
    # The setup with two seats for the tray and hints on, then P1's first throw and its hint.
    s = rig.app.units[SETUP].settings
    s["players"] = 3
    s["computers"] = 2
    s["hints"] = True
    # P1 starts; followers may stop early
    s["options"].update(start=START_SEAT1, limit=LIMIT_AT_MOST)
    rig.play("1111")  # up to TRAY PLAYS, past LANGUAGE, TALLY and HINTS
    rig.snap("setup_seats", SETUP, "the tray plays the last seats (TRAY PLAYS), hints on")
    rig.play("o")  # the game: P1 plays
    rig.play("r", [4, 2, 5])
    rig.snap("turn_hint", PLAY, "a hint: the dice the tray would keep (bars), the chance not"
             " to lose (here against the followers)")


def crowded_table(shots):
    """The widest fields: eight players, the tray playing seven (P2*..P8*), hints on, every
    player's tokens in two digits, on both panels: a human's turn with its hint, the tray's
    turn, the result, the table, the end of a game in the charge."""
    for height in (64, 32):
        rig = Rig(shots, height=height)
        s = rig.app.units[SETUP].settings
        s.update(players=8, computers=7, hints=True)
        s["options"].update(start=START_SEAT1)
        rig.play("o")
        g = rig.game
        g.tokens[:] = [10, 11, 12, 13, 14, 15, 16, 17]
        g.pot = 19
        rig.redraw()
        tag = "" if height == 64 else "_32"
        rig.play("r", [6, 5, 4])
        rig.snap("crowded_hint" + tag, PLAY, "eight players, two-digit tokens: a human's turn"
                 " with a hint (the dice it keeps stand in brackets)")
        rig.play("o")  # P1 stops on a suite: each seat the tray plays has one throw
        rig.snap("crowded_tray" + tag, PLAY, "the tray plays P2*: it says so, no key to press")
        throws = ([6, 3, 2], [4, 2, 1], [5, 5, 5], [1, 1, 6], [3, 2, 2], [2, 2, 1], [6, 6, 2])
        for dice in throws:
            rig.dice.values.extend(dice)
        for _ in range(400):
            if rig.app.screen == RESULT:
                break
            rig.tray.run(100)
        rig.snap("crowded_result" + tag, RESULT, "a result: marks and two-digit tokens stand"
                 " apart")
        rig.tray.run(2500)  # the tray plays next: the result moves on by itself
        rig.snap("crowded_waiting" + tag, RESULT, "the tray moves on by itself: its key bar"
                 " drains till then (any key moves on at once)")
        rig.play("o")  # P7* (221, the nenette) starts: the tray plays on
        rig.play("O")
        rig.snap("crowded_table" + tag, STANDINGS, "the table of eight, marks, two digits")
    over_in_the_charge(shots)


def over_in_the_charge(shots):
    """Classic, two players: the charge ends with P1 holding no token, the first out."""
    rig = Rig(shots)
    s = rig.app.units[SETUP].settings
    s.update(players=2)
    s["options"].update(start=START_SEAT1)
    rig.play("o")
    rig.game.tokens[:] = [0, 20]
    rig.game.pot = 1
    rig.redraw()
    rig.play("roro", [4, 2, 1], [6, 3, 2])  # P2 loses the last token: P1 is out, and wins
    rig.play("o")
    rig.snap("over_first_out", OVER, "the end in the charge: P1 went out first")


def take_back(shots):
    """Two players, followers at most the limit: a stop taken back, from the table and from a
    turn's result (OK held, then KEEP1)."""
    rig = Rig(shots)
    s = rig.app.units[SETUP].settings
    s.update(players=2)
    s["options"].update(start=START_SEAT1, limit=LIMIT_AT_MOST)
    rig.play("o")
    rig.play("rro", [6, 5, 2], [6, 5, 3])  # P1 stops after two throws: the limit
    rig.snap("turn_undo", PLAY, "the next turn, before its first throw: KEEP1 takes the stop"
             " back")
    rig.play("O")
    rig.snap("standings_undo", STANDINGS, "the table after a stop no die followed: KEEP1"
             " takes it back")
    rig.play("r")  # back to P2's turn
    rig.play("ro", [4, 2, 2])  # P2 stops early (le bon) and loses the turn
    rig.snap("result_undo", RESULT, "the result of a le bon no die followed: KEEP1 takes it"
             " back")
    rig.play("O")
    rig.snap("undo", UNDO, "take the stop back? (OK held on the result): KEEP1 does, the dice"
             " as they were")
    rig.play("o")  # no: back to the result
    rig.play("oOO1")  # on to the next turn; the table, quit?, yes: the game kept
    rig.snap("setup_kept", SETUP, "the setup after quitting: its last row resumes the game left")


SCENES = (setup_menu, classic_game, espagnole, tie_pass, playoff, eight_players,
          eight_players_turn, small_panel, computer_seats, crowded_table, take_back,
          save_lost, safe_mode, error_screen)

