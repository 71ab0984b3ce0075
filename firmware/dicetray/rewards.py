"""What a final throw is worth to the player throwing (pure): the reward of stopping on each
of the 56 throws after a throw count, by the phase's objective: the chance not to lose the turn
(the charge), or the tokens it expects to shed (the décharge), from the turn's odds
(dicetray.turn_odds) and what the winner's throw is worth in tokens.

docs/strategy.md states the objective. In integers: a chance is in 1/Q, tokens in 1/Q of a
token.
"""

from dicetray.odds import combos, ix
from dicetray.rules import K_NENETTE, evaluate, is_figure
from dicetray.state import DECHARGE
from dicetray.turn_odds import (
    _HALF,
    STEP,
    Q,
    _by_k,
    _game,
    _kept,
    _make,
    _now,
    _odds,
    _tails,
    moment,
    odds,
)


def _worth(g):
    # What is paid, the same for every throw k (reward()'s): (loser, cap, best, over, more):
    # the loser's combination (None for the first player: the others are yet to throw; an
    # ordinary throw) and the most the winner may give: the pot (the charge), the best throw's
    # holder's tokens, or for the first player the others' mean holding. What the winner's
    # throw is worth were I to lose, each of the r players after ending above my throw x (the
    # model's player stops as soon as it is above: a throw of three dice above x), at most
    # cap, in 1/Q of a token: the first player's, best[x] (_best_of); a follower's, best, the
    # throw done above all, or with the chance one of theirs gets above that one (over of the
    # 216 throws are), more on average.
    first, keys, r = moment(g)[:3]
    t = g.turn
    if g.phase != DECHARGE:
        cap = g.pot
    elif first:
        cap = 0
        for p in t.order[1:]:
            cap += g.tokens[p]
        cap //= r
    else:
        cap = g.tokens[t.order[keys[5]]]
    if first:
        return None, cap, _best_of(g, r, cap), 0, 0
    s, v, _ = combos(g.opts)
    many = _game[3]
    top = ix(*t.finals[keys[5]])
    over = _game[2][top]
    best = min(v[top], cap) * Q
    more = 0
    if r and over:
        for y in range(56):
            if s[y] > s[top]:
                more += many[y] * min(v[y], cap)
        more = more * Q // over - best
    return evaluate(t.finals[keys[4]], g.opts), cap, best, over, more


def _best_of(g, r, cap):
    # The first player's: for each throw x, what the best of the r others is worth when each
    # ends above x, at most cap, in 1/Q: from _tails's sums, kept for the game.
    values = _game[5]
    kept = _kept(r + 1)
    if "tails" not in kept:
        _make(kept, "tails", _tails, g, kept, None, False)
    sums = kept["tails"]
    n = len(values)
    j = 0  # the first value above cap: what it adds is worth cap - the value below it
    while j < n and values[j] <= cap:
        j += 1
    below = values[j - 1] if j else 0
    out = [0] * 56
    for x in range(56):
        at = x * n + j
        worth = sums[at - 1] if j else 0
        if j < n:
            worth += (sums[at] - worth) * (cap - below) // (values[j] - below)
        out[x] = worth << 6
    return out


def reward(g, k, tokens):
    """The 56 rewards of stopping after throw k: the chance not to lose the turn (in 1/Q), or
    tokens: the tokens expected to shed (in 1/Q of a token; the charge's are all taken)."""
    now = moment(g)
    memo = ("reward", k if _by_k(g, now) else 0, tokens)
    done = _now[2]
    if memo not in done:
        _make(done, memo, _reward, g, k, tokens, False)
    return done[memo]


def _reward(g, k, tokens):
    # reward()'s, at the moment made last (moment()), a generator (_make's): its odds a few
    # throws at a time, then the rewards.
    now = _now[3]
    done = _now[2]
    by_k = k if _by_k(g, now) else 0
    shed = tokens and g.phase == DECHARGE
    memo = ("odds", by_k, shed)
    if not now[0] and memo not in done:  # made here a few throws at a time (the first
        yield from _odds(g, k, shed, now, done, memo)  # player's are warm's), read by odds()
    lose, win = odds(g, k, shed)
    if not tokens:
        out = [Q - p for p in lose]
    else:
        yield
        o = g.opts
        _, v, kinds = combos(o)
        if "worth" not in done:
            done["worth"] = _worth(g)
            yield
        loser, cap, best, over, more = done["worth"]
        r = now[2]
        one = _game[2]
        mine = g.tokens[g.current]
        fixed = o.nenette_fixed
        out = [0] * 56
        spent = 0
        for x in range(56):
            if spent >= STEP:
                yield
                spent = 0
            spent += 1
            p = 0
            if lose[x]:
                spent += r
                if loser is None:
                    take = best[x]
                else:
                    take = best
                    above = one[x]
                    if more and above > over:  # a throw above x is not above the best done
                        q = f = (above - over) * Q // above
                        for _ in range(r - 1):
                            q = (q * f + _HALF) >> 14
                        take += (Q - q) * (more >> 6) >> 8
                if fixed and kinds[x] == K_NENETTE:
                    take = min(fixed, cap) * Q
                elif o.deduct and kinds[x] < K_NENETTE:
                    take = max(min(Q, cap * Q), take - v[x] * Q)
                p = -((lose[x] * (take >> 6) + 128) >> 8)  # in 1/256 of a token: no long int
            if shed and win[x]:
                give = v[x]
                if loser is not None and fixed and loser.kind == K_NENETTE:
                    give = fixed
                elif loser is not None and o.deduct and is_figure(loser):
                    give = max(1, give - loser.tokens)
                p += win[x] * min(give, mine)
            out[x] = p
    done[("reward", by_k, tokens)] = out
