"""The computer seat's strategy (dicetray.strategy) against an enumerator written apart from it;
its odds (odds.py) and the first player's table (firsttable.py) with it.

The enumerator below shares no code with strategy.py: it throws every ordered face of the dice
rerolled (6**k outcomes), plays on by trying every legal keep at every throw, and scores a
final throw through the game's own code (settle.key for the order, payout._amount for what is
paid) as docs/strategy.md words the objective. For every throw, kept set and throws left of
a set of turns (charge and décharge, followers and the first player, the tie and count rules of
each preset), the two agree to 1e-9.
"""

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from dicetray import firsttable, odds, payout, settle, strategy
from dicetray.game import Game
from dicetray.rules import LIMIT_AT_MOST, RANKING_BAR41, TIE_LATER, evaluate
from dicetray.state import CHARGE, DECHARGE, Contest, Turn

ROOT = Path(__file__).resolve().parent.parent
MASKS = [m for m in range(7)]  # bit i: die i kept; all three (7) is no throw


def actions(dice, count, reward, most, early):
    """[(mask, value)]: every choice open after throw count with its expected reward, as the
    strategy weighs them (odds.listed over odds.tables)."""
    return odds.listed(dice, *odds.tables(count, reward, most, early))


def situation(preset, phase, finals, counts, players=4, tokens=None, limit=3):
    """A game whose turn has finals made by the first players and the next one to throw."""
    g = Game(players, preset, lambda: 1)
    g.phase = phase
    if tokens is not None:
        g.tokens = list(tokens)
        g.pot = g.opts.tokens - sum(tokens)
    t = Turn(1, list(range(players)), limit if finals else 0)
    t.finals = [list(f) for f in finals]
    t.counts = list(counts)
    t.pos = len(finals)
    g.turn = t
    g.contest = None
    return g


# ---- the objective, scored by the game's code ------------------------------------------------


def score(g, dice, count, shed):
    """What ending on dice after count throws is worth to the player at g.turn.pos."""
    t = g.turn
    pos = t.pos
    if pos == 0:
        return first_score(g, dice, count)
    done = Turn(t.number, t.order, t.limit)
    done.finals = t.finals[:pos] + [list(dice)]
    done.counts = t.counts[:pos] + [count]
    keys = [settle.key(g, i, done) for i in range(pos + 1)]
    me = keys[pos]
    before = keys[:pos]
    lowest, highest = min(before), max(before)
    tied_low = before.count(lowest)
    tied_high = before.count(highest)
    passes = g.opts.two_player_pass and len(t.order) == 2
    if me < lowest:
        lose = 1.0
    elif me == lowest:
        lose = 0.0 if passes else 1 / (tied_low + 1)
    else:
        lose = 0.0
    if not shed:
        return 1.0 - lose
    if me > highest:
        win = 1.0
    elif me == highest:
        win = 0.0 if passes else 1 / (tied_high + 1)
    else:
        win = 0.0
    # What is paid: the game's own rule, on a turn where everybody so far has played.
    saved = g.turn
    g.turn = done
    best_p = t.order[before.index(highest)]
    worst_p = t.order[before.index(lowest)]
    mine = t.order[pos]
    given = payout._amount(g, mine, worst_p)
    taken = payout._amount(g, best_p, mine)
    g.turn = saved
    return win * min(given, g.tokens[mine]) - lose * min(taken, g.tokens[best_p])


def table_block(opts, free, limit):
    # The first player's table, read from its bytes here, not through firsttable.chances.
    variant = (1 if opts.ranking == RANKING_BAR41 else 0) * 2 + (1 if opts.ace_high else 0)
    at = ((variant * 2 + (1 if free else 0)) * 3 + limit - 1) * 112
    raw = firsttable.DATA[at:at + 112]
    return [x / 255 for x in raw[:56]], [x / 255 for x in raw[56:]]


ALL = sorted({tuple(sorted(d, reverse=True)) for d in itertools.product(range(1, 7), repeat=3)},
             reverse=True)


def first_score(g, dice, count):
    o = g.opts
    above, level = table_block(o, o.limit == LIMIT_AT_MOST or o.le_bon, count)
    n = ALL.index(tuple(sorted(dice, reverse=True)))
    q = level[n] if o.tie == TIE_LATER else (above[n] + level[n]) / 2
    # The strategy's unit for it: 4096ths, rounded (docs/strategy.md).
    return int((1.0 - q ** (len(g.turn.order) - 1)) * 4096 + 0.5) / 4096


# ---- the enumerator ---------------------------------------------------------------------------


class Enumerator:
    def __init__(self, g, most, early, shed):
        self.g, self.most, self.early, self.shed = g, most, early, shed
        self.memo = {}

    def play_on(self, dice, count):
        """The best expected score from dice after count throws."""
        k = (tuple(sorted(dice)), count)
        if k not in self.memo:
            best = None
            if count >= self.most or self.early:
                best = score(self.g, dice, count, self.shed)
            if count < self.most:
                for mask in MASKS:
                    v = self.keep(dice, count, mask)
                    best = v if best is None or v > best else best
            self.memo[k] = best
        return self.memo[k]

    def keep(self, dice, count, mask):
        """Keep the dice of mask, throw the others: every ordered outcome, equally likely."""
        free = [i for i in range(3) if not mask & (1 << i)]
        total = 0.0
        outcomes = list(itertools.product(range(1, 7), repeat=len(free)))
        for faces in outcomes:
            new = list(dice)
            for i, f in zip(free, faces):
                new[i] = f
            total += self.play_on(new, count + 1)
        return total / len(outcomes)


CASES = [
    # preset, phase, finals so far, their counts, players, tokens, limit, shed
    ("classic", CHARGE, [(6, 5, 3)], [3], 4, None, 3, False),
    ("classic", CHARGE, [(4, 2, 1), (2, 2, 1), (2, 2, 1)], [1, 3, 3], 4, None, 3, False),
    ("jackpot", CHARGE, [(6, 6, 2), (5, 3, 1)], [2, 2], 3, None, 2, False),
    ("lebon", CHARGE, [(5, 5, 5), (6, 4, 3)], [2, 3], 4, None, 3, False),
    ("lebon", CHARGE, [(2, 2, 1), (6, 4, 3)], [1, 1], 3, None, 2, False),
    ("bar41", CHARGE, [(3, 2, 2)], [2], 2, None, 2, False),
    ("zanzibar", CHARGE, [(6, 6, 6)], [1], 3, None, 1, False),
    ("classic", DECHARGE, [(6, 5, 4), (3, 3, 2)], [3, 3], 3, [5, 7, 9], 3, True),
    ("lebon", DECHARGE, [(1, 1, 4), (6, 5, 2)], [2, 2], 4, [1, 6, 8, 6], 3, True),
    ("jackpot", DECHARGE, [(5, 4, 3)], [2], 3, [4, 10, 7], 2, True),
    ("bar41", DECHARGE, [(2, 2, 1), (6, 3, 2)], [1, 2], 3, [20, 11, 10], 2, True),
    ("classic", CHARGE, [], [], 4, None, 3, False),
    ("lebon", DECHARGE, [], [], 3, [2, 9, 10], 3, False),
    ("jackpot", CHARGE, [], [], 5, None, 3, False),
    ("bar41", CHARGE, [], [], 2, None, 3, False),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%s-%d" % (c[0], c[1], len(c[2])))
def test_every_choice_agrees_with_the_enumerator(case):
    preset, phase, finals, counts, players, tokens, limit, shed = case
    g = situation(preset, phase, finals, counts, players, tokens, limit)
    reward, r = strategy.objective(g, shed)
    most = g.max_throws()
    early = g.may_stop_early()
    brute = Enumerator(g, most, early, shed)
    checked = 0
    for dice in itertools.product(range(1, 7), repeat=3):
        for count in range(1, most + 1):
            unit = odds.unit(r, count, most)
            got = {mask: value / unit
                   for mask, value in actions(list(dice), count, reward, most, early)}
            want = {}
            if count >= most or early:
                want[None] = score(g, dice, count, shed)
            if count < most:
                for mask in MASKS:
                    want[mask] = brute.keep(dice, count, mask)
            assert got.keys() == want.keys()
            for mask in want:
                assert abs(got[mask] - want[mask]) < 1e-9, (dice, count, mask)
                checked += 1
    assert checked >= 216 * (1 + 7 * (most - 1))


def test_the_choice_is_the_best_action_and_a_stop_wins_a_tie():
    g = situation("classic", CHARGE, [(6, 5, 3)], [3])
    reward, _ = strategy.objective(g)
    for dice in ALL:
        acts = actions(list(dice), 1, reward, 3, False)
        mask, value = odds.choose(list(dice), 1, reward, 3, False)
        assert value == max(v for _, v in acts)
    # Already above the throw to beat with two dice kept safe: 4-2-1 has nothing to gain.
    g = situation("jackpot", CHARGE, [(6, 5, 3)], [3])
    reward, r = strategy.objective(g)
    mask, value = odds.choose([4, 2, 1], 1, reward, 3, True)
    assert mask is None and value == odds.unit(r, 1, 3)  # sure: 1


def test_a_follower_must_use_its_throws_where_the_rules_say_exactly():
    g = situation("classic", CHARGE, [(2, 2, 1)], [3], limit=3)  # nénette: anything beats it
    reward, r = strategy.objective(g)
    acts = dict(actions([6, 5, 3], 1, reward, 3, g.may_stop_early()))
    u = odds.unit(r, 1, 3)
    assert None not in acts and 0.99 < acts[0] / u < 1.0  # only a nénette ties it


def test_the_first_players_table_is_what_the_build_makes():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "make" / "dicetables.py"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_table_agrees_with_a_follower_counted_by_hand():
    # One throw, at most one: the chance three dice end above a nénette (classic: lowest) is
    # every throw but the nénette's 3 orders of 216; above or level: all of them.
    above, level = strategy.chances(False, True, False, 1)
    n = ALL.index((2, 2, 1))
    assert above[n] == round(213 / 216 * 255) / 255 and level[n] == 1.0
    # 4-2-1 is beaten by nothing, and matched by its 6 orders.
    n = ALL.index((4, 2, 1))
    assert above[n] == 0.0 and level[n] == round(6 / 216 * 255) / 255
    # More throws never make a follower weaker.
    for bar41 in (False, True):
        for free in (False, True):
            one = strategy.chances(bar41, True, free, 1)[0]
            three = strategy.chances(bar41, True, free, 3)[0]
            assert all(b >= a for a, b in zip(one, three))


def test_the_stake_of_a_repeated_playoff_costs_the_loser_less():
    g = situation("lebon", CHARGE, [(4, 2, 1), (6, 5, 3), (6, 5, 3)], [1, 3, 3], players=3)
    g.turn.pos = 2
    g.contest = Contest([2, 1], "low", "throw", "tie", 2)
    # "For what is" pays 421's 10 tokens; a play-off of two throws is worth far less on average.
    assert strategy.stake(g) == "comes"
    g.turn.finals[0] = [6, 5, 2]
    assert strategy.stake(g) == "is"  # 1 token now: "what comes" can only cost as much or more
    assert evaluate((6, 5, 2), g.opts).tokens == 1
