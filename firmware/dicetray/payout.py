"""What a settled turn moves and what follows: payouts, the next turn, the phases, the end.

Functions of a Game (dicetray.game), called by dicetray.settle once a turn's winner and loser
are known or its hand passes (ties, roll-offs and play-offs are settle's); they change the
game's state, tell its events through its sink, Game.emit, and use nothing of settle.
Decisions the rule texts leave open are numbered in docs/rules.md.
"""

from dicetray.rules import DECHARGE_FEWEST, K_NENETTE, worth
from dicetray.state import (
    CHARGE,
    DECHARGE,
    ESPAGNOLE,
    FIRST_OUT,
    LAST_HOLDER,
    NOBODY,
    OVER,
    GameResult,
    Turn,
    TurnResult,
)

# ---- a turn begins ----------------------------------------------------------------------------


def begin_play(g, starter):
    g.phase = CHARGE
    g.emit("phase", CHARGE)
    _new_turn(g, starter)


def _new_turn(g, starter):
    act = g.active()
    i = act.index(starter)
    dry = g.phase == CHARGE and g.opts.dry_charge
    g.turn = Turn(g.turn.number + 1, act[i:] + act[:i], 1 if dry else 0)
    g.emit("starter", starter)


# ---- payouts, phases, end -------------------------------------------------------------------


def _amount(g, winner, loser):
    o = g.opts
    if g.turn.amount >= 0:
        return g.turn.amount
    won = worth(_final_of(g, winner), o)[1]
    kind, lost = worth(_final_of(g, loser), o)
    if o.nenette_fixed and kind == K_NENETTE:
        return o.nenette_fixed
    if o.deduct and kind < K_NENETTE:  # a figure (rules.is_figure)
        return max(1, won - lost)
    return won


def _final_of(g, p):
    return g.turn.finals[g.turn.order.index(p)]


def pay(g, winner):
    """The turn is settled: winner (the turn's, or in the charge the best of a tie for best)
    pays its loser, or the pot does; then the next turn, the décharge or the end."""
    t = g.turn
    loser = t.loser
    amount = _amount(g, winner, loser)
    if g.phase == CHARGE:
        moved = min(amount, g.pot)  # never more than the pot holds
        giver = NOBODY
        g.pot -= moved
    else:
        moved = min(amount, g.tokens[winner])  # never more than the winner holds
        giver = winner
        g.tokens[winner] -= moved
    g.tokens[loser] += moved
    g.last = _summary(g, winner, loser, moved, False)
    g.emit("turn", winner, loser, moved)
    g.emit("pay", giver, loser, moved, g.phase)
    if g.phase == CHARGE:
        if g.pot == 0:
            _end_charge(g, loser)
        else:
            _new_turn(g, loser)
    else:
        _after_decharge_turn(g, winner, loser)


def pass_hand(g):
    """The turn's two players tied and the rules let the hand pass: nothing is paid, the second
    of them starts the next turn."""
    order = g.turn.order
    g.emit("tie_pass", tuple(order))
    g.last = _summary(g, order[0], order[1], 0, True)
    _new_turn(g, order[1])


def _summary(g, winner, loser, moved, passed):
    """How the turn ended (a TurnResult; the turn itself stays for the screens: g.ended)."""
    g.ended = g.turn  # for the screens: every throw of the turn that ended
    return TurnResult(g.turn.number, g.phase, winner, loser, moved,
                      list(_final_of(g, winner)), list(_final_of(g, loser)), passed)


def _end_charge(g, loser):
    holders = [p for p in range(g.n) if g.tokens[p] > 0]
    empty = [p for p in range(g.n) if g.tokens[p] == 0]
    if g.opts.end == FIRST_OUT:
        if empty:
            _finish(g, _most_tokens(g), empty, FIRST_OUT)
            return
    else:
        for p in empty:
            _leave(g, p)
        if len(holders) == 1:
            _finish(g, holders, g.out[:], ESPAGNOLE)
            return
    g.phase = DECHARGE
    g.emit("phase", DECHARGE)
    if g.opts.decharge_start == DECHARGE_FEWEST:
        loser = fewest_from(g, loser)
    _new_turn(g, loser)


def _after_decharge_turn(g, winner, loser):
    if g.tokens[winner] == 0:
        if g.opts.end == FIRST_OUT:
            _finish(g, _most_tokens(g), [winner], FIRST_OUT)
            return
        _leave(g, winner)
        left = g.active()
        if len(left) == 1:
            _finish(g, left, g.out[:], LAST_HOLDER)
            return
    _new_turn(g, loser)


def _leave(g, p):
    g.out.append(p)
    g.emit("out", p)


def _most_tokens(g):
    top = max(g.tokens)
    return [p for p in range(g.n) if g.tokens[p] == top]


def fewest_from(g, first):
    """The holder of the fewest tokens; a tie goes to the first of them clockwise from first."""
    act = g.active()
    low = min(g.tokens[p] for p in act)
    i = act.index(first)
    for p in act[i:] + act[:i]:
        if g.tokens[p] == low:
            return p
    return first


def _finish(g, losers, winners, reason):
    g.phase = OVER
    g.contest = None
    g.turn.queue = []
    g.result = GameResult(list(losers), list(winners), reason)
    g.emit("over", tuple(losers), tuple(winners), reason)
