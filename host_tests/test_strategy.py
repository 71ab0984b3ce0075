"""The computer seat's strategy: its choices (strategy.py), what a final throw is worth
(rewards.py), the turn's odds (turn_odds.py), the odds over the dice (odds.py) and its table of
the players still to throw (firsttable.py), against the turn played out apart from them.

turnmodel.py shares no code with them: it plays every player still to throw exactly against
each final throw of the seat, over every face of the dice, and scores a final through the
game's own settle.key and payout._amount (docs/strategy.md's model). The positions of the issue
that asked for it keep their numbers there; with a set of others (every preset, charge and
décharge, first players, middle and last players, ties, "le bon", fewer throws win, the
two-player pass, the limit from the previous player) the seat must make the choice it finds
best, whatever the order of the dice on the tray.
"""

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from dicetray import firsttable, odds, strategy, turn_odds
from dicetray.game import Game
from dicetray.options import PRESETS, changed
from dicetray.rules import RANKING_BAR41, RANKING_CLASSIC, all_throws, evaluate
from dicetray.state import CHARGE, DECHARGE, Contest, Turn
from turnmodel import THROWS, Model, best_play

ROOT = Path(__file__).resolve().parent.parent


def situation(preset, phase, finals, counts, players, dice, count, limit=0, tokens=None):
    """A game whose first players made finals (in counts throws) and the next one holds dice
    after count throws, with limit throws (0: the first player's, not set yet)."""
    g = Game(players, preset, lambda: 1)
    g.phase = phase
    if tokens is not None:
        g.tokens = list(tokens)
        g.pot = 0
    t = Turn(1, list(range(players)), limit)
    t.finals = [list(f) for f in finals]
    t.counts = list(counts)
    t.pos = len(finals)
    t.dice = list(dice)
    t.count = count
    g.turn = t
    g.contest = None
    return g


def kept(g, mask):
    """The values a mask keeps of the dice, highest first, as turnmodel names a choice."""
    if mask is None:
        return None
    return tuple(sorted((g.turn.dice[i] for i in range(3) if mask & (1 << i)), reverse=True))


def evaluated(g, tokens):
    """turnmodel's value of each choice open now, and the best choice."""
    values = Model(g).choices(g.turn.dice, g.turn.count, tokens)
    return values, max(values, key=values.get)


# ---- the positions of the issue ----------------------------------------------------------------

def test_bar41_a_follower_with_two_to_throw_keeps_the_aces_however_the_dice_lie():
    # P1 made 5-5-5; the seat holds 4-1-1 with a throw left, two players after it.
    for dice in ([4, 1, 1], [1, 1, 4], [1, 4, 1]):
        g = situation("bar41", CHARGE, [(5, 5, 5)], [3], 4, dice, 2, limit=3)
        values, best = evaluated(g, False)
        assert abs(1 - values[(1, 1)] - 0.147) < 0.001  # the numbers
        assert abs(1 - values[None] - 0.177) < 0.001
        assert abs(1 - values[(4, 1)] - 0.667) < 0.001
        mask, value, unit = strategy.decide(g)
        assert kept(g, mask) == best == (1, 1)
        assert abs(value / unit - values[best]) < 0.002


def test_zanzibar_a_follower_stops_on_6_5_4_to_hold_the_next_two_to_one_throw():
    g = situation("zanzibar", CHARGE, [(2, 1, 1)], [2], 4, [6, 5, 4], 1, limit=2)
    values, best = evaluated(g, False)
    assert abs(1 - values[None] - 0.023) < 0.001
    assert abs(1 - values[()] - 0.48) < 0.001
    mask, value, unit = strategy.decide(g)
    assert mask is None and best is None
    assert abs(value / unit - values[None]) < 0.002


def test_bar41_a_middle_player_of_six_stops_on_its_suite():
    g = situation("bar41", CHARGE, [(6, 1, 1), (5, 5, 5)], [2, 2], 6, [2, 3, 4], 1, limit=2)
    values, best = evaluated(g, False)
    assert abs(1 - values[None] - 0.07) < 0.003
    assert abs(1 - values[(4, 2)] - 0.54) < 0.003
    assert strategy.decide(g)[0] is None and best is None


def test_zanzibar_the_first_player_throws_6_4_2_again():
    g = situation("zanzibar", CHARGE, [], [], 4, [4, 2, 6], 1)
    values, best = evaluated(g, False)
    assert abs(1 - values[None] - 0.355) < 0.001
    assert abs(1 - values[()] - 0.212) < 0.001
    mask, value, unit = strategy.decide(g)
    assert kept(g, mask) == best == ()
    assert abs(value / unit - values[()]) < 0.002


def test_jackpot_the_first_player_of_the_decharge_weighs_the_421_that_sheds_every_token():
    # 10 tokens, the others 4 and 7: a 421 sheds them all (worth every token of the game).
    g = situation("jackpot", DECHARGE, [], [], 3, [4, 2, 6], 1, tokens=[10, 4, 7])
    tokens, best = evaluated(g, True)
    chances, safest = evaluated(g, False)
    assert best == (4, 2) and safest != best  # not what the chance alone would play
    assert tokens[best] > max(v for c, v in tokens.items() if c != best) + 0.5
    mask, value, unit = strategy.decide(g)
    assert kept(g, mask) == best
    assert abs(value / unit - tokens[best]) < 0.1


# ---- more positions -----------------------------------------------------------------------------

# preset, phase, finals, counts, players, dice, count, limit, tokens; margin: the least the
# best choice beats the next by, in turnmodel's values (a chance, or tokens in the décharge).
POSITIONS = [
    ("classic", CHARGE, [], [], 4, [6, 6, 3], 1, 0, None),  # first player, exact limits
    ("classic", CHARGE, [(6, 5, 3)], [2], 4, [6, 6, 2], 1, 2, None),
    ("classic", CHARGE, [(6, 6, 6), (6, 5, 4), (5, 4, 3)], [2, 2, 2], 4, [2, 2, 6], 1, 2,
     None),  # the last player: equal chances, the nenette's 2 tokens decide
    ("bar41", CHARGE, [], [], 3, [5, 5, 2], 1, 0, None),
    ("bar41", CHARGE, [(6, 5, 4)], [2], 3, [6, 5, 2], 1, 2, None),  # a roll-off in reach
    ("bar41", CHARGE, [(6, 4, 2)], [2], 2, [6, 4, 1], 1, 2, None),  # two players: it passes
    ("zanzibar", CHARGE, [(6, 6, 3)], [3], 5, [6, 3, 2], 1, 3, None),  # three after it
    ("zanzibar", CHARGE, [], [], 3, [5, 3, 1], 1, 0, None),
    ("jackpot", CHARGE, [], [], 4, [6, 5, 1], 2, 0, None),
    ("lebon", DECHARGE, [(6, 6, 2)], [2], 3, [6, 6, 1], 1, 2, [5, 8, 8]),  # fewer throws win
    ("classic", DECHARGE, [(5, 5, 5)], [3], 3, [1, 1, 3], 2, 3, [7, 7, 7]),
    ("classic", DECHARGE, [], [], 3, [4, 2, 2], 1, 0, [7, 7, 7]),
    ("bar41", DECHARGE, [(3, 3, 3)], [2], 3, [6, 6, 4], 1, 2, [10, 20, 11]),
    ("zanzibar", DECHARGE, [(6, 5, 2)], [2], 3, [6, 6, 5], 1, 2, [5, 9, 7]),
]


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: "%s-%s-%d-of-%d" % (
    p[0], p[1], len(p[2]) + 1, p[4]))
def test_the_seat_plays_each_position_as_the_turn_played_out_says(position):
    preset, phase, finals, counts, players, dice, count, limit, tokens = position
    g = situation(preset, phase, finals, counts, players, dice, count, limit, tokens)
    shed = phase == DECHARGE
    values, best = evaluated(g, shed)
    tied = [c for c, v in values.items() if v > values[best] - 1e-9]
    if len(tied) > 1:  # equal by the objective: the other one decides
        other, _ = evaluated(g, not shed)
        best = max(tied, key=other.get)
        assert other[best] > max(other[c] for c in tied if c != best) + 0.05
    else:
        assert values[best] > max(v for c, v in values.items() if c != best) + 0.01
    mask, value, unit = strategy.decide(g)
    assert kept(g, mask) == best
    assert abs(value / unit - values[best]) < (0.25 if shed else 0.003)


# ---- the chances of the players still to throw ---------------------------------------------

CHANCES = [
    ("classic", CHARGE, [(6, 5, 3)], [3], 4, 3),
    ("classic", CHARGE, [], [], 4, 0),
    ("bar41", CHARGE, [(2, 2, 1), (6, 4, 4)], [2, 2], 5, 2),
    ("zanzibar", CHARGE, [(5, 5, 1)], [3], 4, 3),  # each the throws the previous used
    ("jackpot", DECHARGE, [], [], 4, 0),
    ("lebon", DECHARGE, [], [], 3, 0),  # fewer throws win, the first player's table
]


@pytest.mark.parametrize("case", CHANCES, ids=lambda c: "%s-%s-%d" % (c[0], c[1], len(c[2])))
def test_the_chance_to_lose_or_win_is_the_turn_played_out_s(case):
    preset, phase, finals, counts, players, limit = case
    g = situation(preset, phase, finals, counts, players, [6, 5, 4], 1, limit,
                  [5] * players if phase == DECHARGE else None)
    model = Model(g)
    both = phase == DECHARGE
    for k in range(1, 4):
        lose, win = turn_odds.odds(g, k, both)
        for n, throw in enumerate(all_throws()):
            # The table's chances are in 255ths: three players' product is good to 0.01.
            assert abs(lose[n] / turn_odds.Q - model.lose(throw, k)) < 0.01, (throw, k)
            if both:
                assert abs(win[n] / turn_odds.Q - model.win(throw, k)) < 0.01, (throw, k)


# ---- the order of the dice, ties --------------------------------------------------------------

ORDERS = [
    ("classic", CHARGE, [(6, 5, 3)], [3], 4, 3, None),
    ("bar41", CHARGE, [], [], 4, 0, None),
    ("lebon", DECHARGE, [(6, 4, 1)], [2], 3, 2, [6, 9, 6]),
    ("zanzibar", DECHARGE, [], [], 3, 0, [4, 8, 9]),
]


@pytest.mark.parametrize("case", ORDERS, ids=lambda c: "%s-%s-%d" % (c[0], c[1], len(c[2])))
def test_every_throw_in_every_order_is_the_same_decision(case):
    preset, phase, finals, counts, players, limit, tokens = case
    for throw in THROWS:
        for count in (1, 2):
            seen = set()
            for dice in set(itertools.permutations(throw)):
                g = situation(preset, phase, finals, counts, players, dice, count, limit, tokens)
                mask, value, _ = strategy.decide(g)
                seen.add((kept(g, mask), value, strategy.hint(g)[1:]))
            assert len(seen) == 1, (throw, count, seen)


def test_a_keep_presses_the_dice_already_kept():
    g = situation("bar41", CHARGE, [(5, 5, 5)], [3], 4, [1, 4, 1], 2, limit=3)
    assert strategy.decide(g)[0] == 0b101
    g.turn.kept = 0b100
    assert strategy.decide(g)[0] == 0b101
    g.turn.dice = [1, 1, 1]
    g.turn.kept = 0b110
    assert kept(g, strategy.decide(g)[0]) in (None, (1, 1))
    mask = strategy.decide(g)[0]
    assert mask is None or mask == 0b110


# ---- the hint -----------------------------------------------------------------------------------


def test_the_hint_is_the_choice_with_its_chance_in_the_charge_and_tokens_in_the_decharge():
    g = situation("bar41", CHARGE, [(5, 5, 5)], [3], 4, [4, 1, 1], 2, limit=3)
    values, best = evaluated(g, False)
    assert round(100 * values[best]) == 85  # the chance not to lose the turn
    assert strategy.hint(g) == (strategy.decide(g)[0], "85%")
    g.turn.dice = [1, 1, 1]  # 1-1-1 beats 5-5-5: it stops, surely safe
    assert strategy.hint(g) == (None, "OK 100%")
    g = situation("jackpot", DECHARGE, [], [], 3, [4, 2, 6], 1, tokens=[10, 4, 7])
    values, best = evaluated(g, True)
    mask, text = strategy.hint(g)
    assert kept(g, mask) == best and text.startswith("+") and text.endswith("T")
    assert abs(float(text[:-1]) - values[best]) < 0.15  # the tokens it expects to shed
    g = situation("jackpot", DECHARGE, [(6, 6, 6)], [1], 3, [2, 2, 1], 1, limit=1,
                  tokens=[4, 4, 4])
    mask, text = strategy.hint(g)  # one throw, a nénette under 6-6-6: it can only take
    assert mask is None and text.startswith("OK -") and text.endswith("T")  # a word apart


# ---- the table ---------------------------------------------------------------------------------


def test_the_table_is_what_the_build_makes():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "make" / "dicetables.py"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("bar41", [False, True], ids=["classic", "bar41"])
def test_the_table_is_a_follower_played_out(bar41):
    # The table's bytes against turnmodel's follower: the ace as each preset counts it.
    opts = changed(PRESETS["classic"], ranking=RANKING_BAR41 if bar41 else RANKING_CLASSIC,
                   ace_high=not bar41)
    strength = {t: evaluate(t, opts).strength for t in THROWS}
    order = (1 if bar41 else 0) * 2 + (0 if bar41 else 1)
    for free in (False, True):
        part = order * 896 + (336 if free else 0)
        for limit in (2, 3):
            for n, target in enumerate(all_throws()):
                goal = strength[target]
                fair = best_play(lambda y, c, goal=goal: (strength[y] > goal)
                                 + (strength[y] == goal) / 2, limit, free)
                later = best_play(lambda y, c, goal=goal: float(strength[y] >= goal), limit,
                                  free)
                above = sum(p for (y, _), p in fair.items() if strength[y] > goal)
                level = sum(p for (y, _), p in fair.items() if strength[y] == goal)
                both = sum(p for (y, _), p in later.items() if strength[y] >= goal)
                at = part + (limit - 2) * 112 + n
                assert abs(firsttable.DATA[at] - 255 * above) < 1.1, (target, limit, free)
                assert abs(firsttable.DATA[at + 56] - 255 * level) < 1.1, (target, limit, free)
                assert abs(firsttable.DATA[part + 224 + (limit - 2) * 56 + n] - 255 * both) \
                    < 0.51, (target, limit, free)


def test_one_throw_is_counted_by_the_tray():
    # One throw has nothing to choose: of the 216, above a nenette (classic: the lowest) are all
    # but its 3 orders; 4-2-1 is beaten by none and matched by its 6.
    g = situation("classic", CHARGE, [], [], 4, [6, 5, 4], 1)
    strategy.warm(g)
    data, at, level, div, _ = turn_odds.source(g, 1, 1)
    assert div == 216
    above, level = data[at:at + 56], data[level:level + 56]
    assert (above[odds.ix(2, 2, 1)], level[odds.ix(2, 2, 1)]) == (213, 3)
    assert (above[odds.ix(4, 2, 1)], level[odds.ix(4, 2, 1)]) == (0, 6)


def test_a_throw_s_number_is_its_place_in_the_rules_list():
    for n, throw in enumerate(all_throws()):
        for dice in itertools.permutations(throw):
            assert odds.ix(*dice) == n


# ---- the stake ---------------------------------------------------------------------------------


def test_the_stake_of_a_repeated_playoff_costs_the_loser_less():
    g = situation("lebon", CHARGE, [(4, 2, 1), (6, 5, 3), (6, 5, 3)], [1, 3, 3], 3, [], 0,
                  limit=1)
    g.turn.pos = 2
    g.contest = Contest([2, 1], "low", "throw", "tie", 2)
    # "For what is" pays 421's 10 tokens; a play-off of two throws is worth far less on average.
    assert strategy.stake(g) == "comes"
    g.turn.finals[0] = [6, 5, 2]
    assert strategy.stake(g) == "is"  # 1 token now: "what comes" can only cost as much or more
    assert evaluate((6, 5, 2), g.opts).tokens == 1


# ---- made a piece at a time (the seat's idle polls) ----------------------------------------


def lines(make):
    """(what make() returns, the lines of the firmware's Python it ran): CPython's count of
    the work (a tool's wrapper left on a function by another test does not count)."""
    n = [0]
    firmware = str(ROOT / "firmware")

    def count(frame, event, arg):
        if not frame.f_code.co_filename.startswith(firmware):
            return None
        if event == "line":
            n[0] += 1
        return count

    sys.settrace(count)
    try:
        out = make()
    finally:
        sys.settrace(None)
    return out, n[0]


def in_pieces(piece):
    """The lines of each call of piece() until it says none was left."""
    out = []
    while True:
        more, n = lines(piece)
        if not more:
            return out
        out.append(n)


def ready(*modules):
    # What a first call loads or builds once for good (a module, odds' index tables) is
    # loaded before lines are counted.
    odds.indexes()
    assert firsttable.DATA and modules


@pytest.mark.parametrize("phase", [CHARGE, DECHARGE])
def test_the_warm_up_in_pieces_makes_what_it_makes_whole_in_small_pieces(phase):
    ready(firsttable)
    tokens = [3, 2, 4, 1, 3, 2, 3, 3] if phase == DECHARGE else None
    g = situation("lebon", phase, [], [], 8, [6, 5, 1], 1, tokens=tokens)
    turn_odds._game[0] = None
    _, whole = lines(lambda: strategy.warm(g))
    made = {k: v for k, v in turn_odds._game[4].items()}
    turn_odds._game[0] = None
    pieces = in_pieces(lambda: strategy.warm(g, True))
    assert turn_odds._game[4] == made and not strategy.warm(g, True)
    # A press waits on one piece at most: each is a small part of the whole (8 players: the
    # first player's odds a few throws at a time), and together they make it once.
    assert whole > 10000
    assert max(pieces) < whole / 16
    assert sum(pieces) < whole * 1.2


@pytest.mark.parametrize("preset, phase, finals, counts, dice, count, limit", [
    ("classic", CHARGE, [], [], [6, 5, 1], 1, 0),
    ("lebon", CHARGE, [(4, 2, 1), (6, 6, 2)], [2, 3], [5, 3, 1], 1, 3),
    ("classic", DECHARGE, [(6, 5, 3)], [1], [2, 2, 1], 1, 3),
    ("jackpot", DECHARGE, [], [], [4, 4, 2], 2, 0),
])
def test_a_decision_prepared_in_pieces_is_the_one_made_whole(preset, phase, finals, counts,
                                                              dice, count, limit):
    tokens = [4, 3, 5, 6] if phase == DECHARGE else None
    g = situation(preset, phase, finals, counts, 4, dice, count, limit, tokens=tokens)
    turn_odds._now[0] = None
    whole = strategy.decide(g)
    turn_odds._now[0] = None
    pieces = 0
    while strategy.prepare(g):
        pieces += 1
    assert pieces >= 2  # the moment's, then at least the last throw's rewards
    made = dict(turn_odds._now[2])
    assert strategy.decide(g) == whole
    # All it reads was made in pieces, a tie's other objective included: nothing new.
    assert set(turn_odds._now[2]) == set(made)


@pytest.mark.parametrize("phase", [CHARGE, DECHARGE])
def test_a_decision_at_8_players_is_made_in_small_pieces_that_make_it_once(phase):
    ready(firsttable)
    tokens = [3, 2, 4, 1, 3, 2, 3, 3] if phase == DECHARGE else None
    g = situation("lebon", phase, [(4, 2, 1), (6, 6, 2)], [2, 3], 8, [5, 3, 1], 1, 3,
                  tokens=tokens)
    strategy.warm(g)
    turn_odds._now[0] = None
    whole, n = lines(lambda: strategy.decide(g))
    turn_odds._now[0] = None
    pieces = in_pieces(lambda: strategy.prepare(g))
    chosen, last = lines(lambda: strategy.decide(g))
    assert chosen == whole
    assert n > 6000
    assert max(pieces + [last]) < n / 10
    assert sum(pieces) + last < n * 1.25


def test_a_piece_under_way_for_a_moment_gone_is_let_go():
    # Half a decision is made; the player stops and the next one throws: what is made for
    # the new moment is its own, as whole, and the old moment's half is never finished into
    # it.
    g = situation("zanzibar", DECHARGE, [(6, 6, 3)], [3], 5, [6, 3, 2], 1, 3, [5, 9, 7, 4, 6])
    strategy.warm(g)
    turn_odds._now[0] = None
    for _ in range(6):
        assert strategy.prepare(g)
    assert turn_odds._job[0] is not None  # a reward is under way
    g.turn.finals.append([6, 3, 2])
    g.turn.counts.append(1)
    g.turn.pos += 1
    g.turn.dice = [4, 4, 1]
    while strategy.prepare(g):
        pass
    pieced = strategy.decide(g)
    made = dict(turn_odds._now[2])
    turn_odds._now[0] = None
    assert strategy.decide(g) == pieced
    whole = turn_odds._now[2]
    both = [k for k in whole if k in made and k != "worth"]
    assert len(both) >= 3 and all(whole[k] == made[k] for k in both)


def test_an_error_in_a_piece_leaves_nothing_half_made(monkeypatch):
    # Out of heap in the middle of a piece (the app restarts into the game): what is asked
    # next is made afresh, whole or in pieces, as if the piece had never begun. (A follower
    # of the classic: no early stop, so a decision asks first for the last throw's rewards,
    # those the failed piece was making.)
    g = situation("classic", DECHARGE, [(6, 6, 3)], [3], 5, [6, 3, 2], 1, 3, [5, 9, 7, 4, 6])
    assert not g.may_stop_early()
    strategy.warm(g)
    turn_odds._now[0] = None
    whole = strategy.decide(g)
    calls = [0]
    ties = turn_odds._ties

    def failing(*args):
        calls[0] += 1
        if calls[0] == 12:
            raise MemoryError("memory allocation failed")
        return ties(*args)

    monkeypatch.setattr(turn_odds, "_ties", failing)
    turn_odds._now[0] = None
    with pytest.raises(MemoryError):
        while strategy.prepare(g):
            pass
    monkeypatch.setattr(turn_odds, "_ties", ties)
    assert strategy.decide(g) == whole  # asked whole
    turn_odds._now[0] = None
    with pytest.raises(MemoryError):
        monkeypatch.setattr(turn_odds, "_ties", failing)
        calls[0] = 0
        while strategy.prepare(g):
            pass
    monkeypatch.setattr(turn_odds, "_ties", ties)
    while strategy.prepare(g):  # in pieces
        pass
    assert strategy.decide(g) == whole


def test_the_warm_up_under_way_when_a_player_goes_out_is_made_for_those_left():
    g = situation("classic", DECHARGE, [], [], 6, [6, 5, 1], 1, tokens=[3, 2, 4, 1, 3, 2])
    turn_odds._game[0] = None
    for _ in range(8):
        assert strategy.warm(g, True)
    assert turn_odds._job[0] is not None
    g.tokens[3] = 0  # out of the game: five play on
    g.out.append(3)
    assert len(g.active()) == 5
    while strategy.warm(g, True):
        pass
    pieced = {k: v for k, v in turn_odds._game[4].items()}
    turn_odds._game[0] = None
    strategy.warm(g)
    assert turn_odds._game[4] == pieced and pieced[0] == 5
