"""The end of each player's throws and of each turn: ties, roll-offs, payouts, phases, the end.

Functions of a Game (dicetray.game), which calls them from its actions; they change its state
and emit its events. Decisions the rule texts leave open are numbered in docs/rules.md.
"""

from dicetray.rules import K_NENETTE, evaluate, is_figure, rank
from dicetray.state import (
    BOTH,
    CHARGE,
    DECHARGE,
    DIE,
    ESPAGNOLE,
    FIRST_OUT,
    FOR_WHAT_COMES,
    HIGH,
    LAST_HOLDER,
    LOW,
    NOBODY,
    OVER,
    THROW,
    TIE,
    WHO_STARTS,
    Contest,
    GameResult,
    Turn,
    TurnResult,
)

# ---- a turn ---------------------------------------------------------------------------------


def begin_play(g, starter):
    g.phase = CHARGE
    g._emit("phase", CHARGE)
    new_turn(g, starter)


def new_turn(g, starter):
    act = g.active()
    i = act.index(starter)
    dry = g.phase == CHARGE and g.opts.dry_charge
    g.turn = Turn(g.turn.number + 1, act[i:] + act[:i], 1 if dry else 0)
    g._emit("starter", starter)


def finish_player(g):
    t = g.turn
    g._emit("stop", g.current, t.count, evaluate(t.dice, g.opts).name)
    t.finals.append(t.dice)
    t.counts.append(t.count)
    if t.pos == 0 or g.opts.limit_from == "previous":
        t.limit = t.count
    t.pos += 1
    t.count = 0
    t.dice = []
    t.kept = 0
    if t.pos == len(t.order):
        t.pos -= 1  # stays on the last player until the next turn starts
        _resolve_turn(g)


def key(g, i, t=None):
    """Sort key of the i-th player of turn t (this one): strength, then tie rules without dice."""
    o = g.opts
    t = t or g.turn
    kind, strength = rank(t.finals[i], o)
    later = o.tie == "later" or (o.nenette_later_wins and kind == K_NENETTE)
    return (strength, -t.counts[i] if o.fewer_throws_win else 0, i if later else 0)


def _resolve_turn(g):
    t = g.turn
    keys = [key(g, i) for i in range(len(t.order))]
    top = max(keys)
    bottom = min(keys)
    best = [t.order[i] for i, k in enumerate(keys) if k == top]
    worst = [t.order[i] for i, k in enumerate(keys) if k == bottom]
    t.winner = best[0] if len(best) == 1 else NOBODY
    t.loser = worst[0] if len(worst) == 1 else NOBODY
    t.amount = NOBODY
    if top == bottom:
        if g.opts.two_player_pass and len(t.order) == 2:
            g._emit("tie_pass", tuple(t.order))
            g.last = _summary(g, t.order[0], t.order[1], 0, True)
            new_turn(g, t.order[1])
            return
        # In the charge the pot pays whoever did best: only the loser is settled (#14).
        t.queue = [[best, BOTH if g.phase == DECHARGE else LOW]]
    else:
        t.queue = []
        if len(worst) > 1:
            t.queue.append([worst, LOW])
        # Who wins a tie for best only matters when the winner pays.
        if len(best) > 1 and g.phase == DECHARGE:
            t.queue.append([best, HIGH])
    _next_contest(g)


def _next_contest(g):
    if g.turn.queue:
        players, want = g.turn.queue.pop(0)
        kind = THROW if g.opts.tie == "playoff" else DIE
        open_contest(g, players, want, kind, TIE)
    else:
        _pay(g)


# ---- roll-offs and play-offs ----------------------------------------------------------------


def open_contest(g, players, want, kind, why, rnd=1):
    if why == TIE:
        # Seat order of the turn; a play-off ("qui barre demarre") runs from the last back.
        players = [p for p in g.turn.order if p in players]
        if kind == THROW:
            players.reverse()
    g.contest = Contest(players, want, kind, why, rnd)
    g._emit("contest", tuple(players), why, kind, rnd)


def contest_roll(g, dice):
    c = g.contest
    g._emit("contest_roll", g.current, tuple(dice))
    c.results.append(dice)
    if len(c.results) == len(c.players):
        _close_contest(g)


def _contest_key(g, dice):
    if len(dice) == 1:
        return dice[0]
    return rank(dice, g.opts)[1]


def _close_contest(g):
    c = g.contest
    g.contest = None
    t = g.turn
    keys = [_contest_key(g, d) for d in c.results]
    players = c.players
    top, bottom = max(keys), min(keys)
    high = [p for p, k in zip(players, keys) if k == top]
    low = [p for p, k in zip(players, keys) if k == bottom]
    want = c.want
    g.decided = (c, high, low)  # for the screens: the rolls, and the best and worst of them
    if c.why == WHO_STARTS:
        _who_starts(g, c, high if want == HIGH else low)
        return
    if c.stake == FOR_WHAT_COMES:
        t.amount = max(evaluate(d, g.opts).tokens for d in c.results)
    if g.phase == CHARGE and want == BOTH:
        want = LOW  # a save from before #14 was honoured: the pot pays, the best is moot
    again = []
    if top == bottom:
        again.append([players, want])
    else:
        # The loser's tie first, then the winner's (#14), as _resolve_turn queues them.
        if want != HIGH:
            if len(low) == 1:
                t.loser = low[0]
            else:
                again.append([low, LOW])
        if want != LOW:
            if len(high) == 1:
                t.winner = high[0]
            else:
                again.append([high, HIGH])
    if again:
        # A new tie inside the contest: the same kind of contest again, next round.
        players, want = again.pop(0)
        t.queue = again + t.queue
        open_contest(g, players, want, c.kind, TIE, c.round + 1)
    else:
        _next_contest(g)


def _who_starts(g, c, pick):
    if len(pick) > 1:
        open_contest(g, pick, c.want, c.kind, WHO_STARTS, c.round + 1)
    else:
        begin_play(g, pick[0])


# ---- payouts, phases, end -------------------------------------------------------------------


def _amount(g, winner, loser):
    o = g.opts
    if g.turn.amount >= 0:
        return g.turn.amount
    wc = evaluate(_final_of(g, winner), o)
    lc = evaluate(_final_of(g, loser), o)
    if o.nenette_fixed and lc.kind == K_NENETTE:
        return o.nenette_fixed
    if o.deduct and is_figure(lc):
        return max(1, wc.tokens - lc.tokens)
    return wc.tokens


def _final_of(g, p):
    return g.turn.finals[g.turn.order.index(p)]


def _pay(g):
    t = g.turn
    loser = t.loser
    winner = t.winner
    if winner < 0:
        # Charge with a tie for best: any of them did the best throw; the pot pays.
        winner = _best_of_turn(g, loser)
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
    g._emit("turn", winner, loser, moved)
    g._emit("pay", giver, loser, moved, g.phase)
    if g.phase == CHARGE:
        if g.pot == 0:
            _end_charge(g, loser)
        else:
            new_turn(g, loser)
    else:
        _after_decharge_turn(g, winner, loser)


def _best_of_turn(g, loser):
    # The first best throw of the turn that is not the loser's (all may have tied).
    order = g.turn.order
    keys = [key(g, i) for i in range(len(order))]
    top = max(keys)
    for i, k in enumerate(keys):
        if k == top and order[i] != loser:
            return order[i]
    return order[keys.index(top)]


def _summary(g, winner, loser, moved, passed):
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
    g._emit("phase", DECHARGE)
    if g.opts.decharge_start == "fewest":
        loser = fewest_from(g, loser)
    new_turn(g, loser)


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
    new_turn(g, loser)


def _leave(g, p):
    g.out.append(p)
    g._emit("out", p)


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
    g._emit("over", tuple(losers), tuple(winners), reason)
