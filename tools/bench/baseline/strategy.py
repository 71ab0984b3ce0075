"""The computer seat as first released (its strategy, kept as it was): the arena's opponent.

A turn's objective is a reward of the final throw and the throws it took (docs/strategy.md):
a follower's chance not to lose against the throws already made (the charge) or the tokens it
expects to shed (the décharge); the first player's chance not to lose against what followers
reach with the limit it sets (firsttable, built on the host by tools/make_dicetables.py).
The odds over the dice are its odds.py's (as first released), in integers: a reward is an
integer in units of 1/R (objective() gives R); only the first player's rewards are worked out
in floats from its table, then rounded to 1/4096.
"""

from dicetray.rules import K_NENETTE, LIMIT_AT_MOST, RANKING_BAR41, TIE_LATER, evaluate, is_figure

from .odds import choose, combos, indexes, unit, zeros

FIRST_R = 4096  # the first player's reward: its chance, in 4096ths

# ---- the turn's objective ------------------------------------------------------------------


def objective(g, shed=None):
    """(reward, R) for the player throwing in game g: reward(k), stopping after throw k, the 216
    rewards in 1/R. shed: True for the tokens shed (the décharge), False for the chance not to
    lose, None: by the phase."""
    t = g.turn
    if shed is None:
        shed = g.phase == "decharge"
    moment = (t.number, t.pos, g.phase, shed)
    if _last[0] is not g or _last[1] != moment:  # one player's throws: worked out once
        _last[0] = g
        _last[1] = moment
        _last[2] = _objective(g, shed)
    return _last[2]


_last = [None, None, None]  # type: list  # the game, moment, objective last worked out
_firsts = [None, None]  # type: list  # (options, players), the first player's rewards by k


def _memo(fn, by_k=True, done=None):
    # reward(k), each k worked out once (the lists of 216 are kept while the moment lasts);
    # by_k False: the rewards are the same after any throw (one list).
    if done is None:
        done = {}

    def reward(k):
        if not by_k:
            k = 0
        if k not in done:
            done[k] = fn(k)
        return done[k]

    return reward


def _objective(g, shed):
    t = g.turn
    if t.pos == 0:
        return _firsts_for(g, len(t.order)), FIRST_R
    from dicetray.settle import key

    keys = []
    for i in range(t.pos):
        s, fewer, later = key(g, i)
        keys.append(s * 32 + (3 + fewer) * 8 + later)
    reward, r = _shedding(g, keys) if shed else _not_losing(g, keys)
    return _memo(reward, g.opts.fewer_throws_win), r


def _mine(g, k):
    # My keys (as objective() codes settle.key), stopping after throw k, in a 216 list.
    o = g.opts
    s, _, kinds = combos(o)
    pos = g.turn.pos
    fewer = (3 - k if o.fewer_throws_win else 3) * 8
    later = pos if o.tie == TIE_LATER else 0
    nen = pos if o.nenette_later_wins else later
    at = indexes()[0]
    out = [0] * 216
    for n in range(56):
        i = at[n]
        out[i] = s[i] * 32 + fewer + (nen if kinds[i] == K_NENETTE else later)
    return out


def _tie_pass(g):
    return g.opts.two_player_pass and len(g.turn.order) == 2


def _by_key(g, score):
    # reward(k): score(throw's index, my key with it) for each throw, stopping after throw k.
    at = indexes()[0]

    def reward(k):
        mine = _mine(g, k)
        out = [0] * 216
        for n in range(56):
            i = at[n]
            out[i] = score(i, mine[i])
        return out

    return reward


def _not_losing(g, keys):
    low = min(keys)
    m = keys.count(low)
    r = m + 1
    tie = r if _tie_pass(g) else m

    def score(i, key):
        return r if key > low else tie if key == low else 0

    return _by_key(g, score), r


def _shedding(g, keys):
    t = g.turn
    o = g.opts
    _, v, kinds = combos(o)
    low, high = min(keys), max(keys)
    ml, mh = keys.count(low), keys.count(high)
    r = (ml + 1) * (mh + 1)
    mine_tokens = g.tokens[t.order[t.pos]]
    best_tokens = g.tokens[t.order[keys.index(high)]]
    passes = _tie_pass(g)
    lc = evaluate(t.finals[keys.index(low)], o)
    bv = evaluate(t.finals[keys.index(high)], o).tokens

    def score(i, key):
        win = r if key > high else ml + 1 if key == high else 0
        lose = r if key < low else mh + 1 if key == low else 0
        if passes and key == low:
            win = lose = 0
        give = v[i]
        if o.nenette_fixed and lc.kind == K_NENETTE:
            give = o.nenette_fixed
        elif o.deduct and is_figure(lc):
            give = max(1, give - lc.tokens)
        take = bv
        if o.nenette_fixed and kinds[i] == K_NENETTE:
            take = o.nenette_fixed
        elif o.deduct and kinds[i] < K_NENETTE:
            take = max(1, take - v[i])
        return win * min(give, mine_tokens) - lose * min(take, best_tokens)

    return _by_key(g, score), r


def chances(bar41, ace_high, free, limit):
    """(above, level): a follower's best chances (firsttable.DATA, in 255ths) to end above each
    of the 56 throws, and above or level, with limit (1..3) throws; free: may stop early."""
    from .firsttable import DATA

    at = ((((1 if bar41 else 0) * 2 + (1 if ace_high else 0)) * 2 + (1 if free else 0)) * 3
          + limit - 1) * 112
    return [x / 255 for x in DATA[at:at + 56]], [x / 255 for x in DATA[at + 56:at + 112]]


def _firsts_for(g, players):
    # The same for every first player of a game with as many players: kept across turns.
    guard = (g.opts, players)
    if _firsts[0] != guard:
        _firsts[0] = guard
        _firsts[1] = {}
    return _memo(_first(g, players - 1), True, _firsts[1])


def warm(g):
    """Make what every decision of game g reads, once a game (the seat does it as the game
    starts): the throws' table of its rules, the first player's rewards for its players."""
    combos(g.opts)
    reward = _firsts_for(g, len(g.active()))
    for k in range(1, 4):
        reward(k)


def _first(g, others):
    # The first player: not to lose against the others, each reaching by the limit it sets
    # what the table says (a follower's chance to end above or level with each throw).
    o = g.opts
    free = o.limit == LIMIT_AT_MOST or o.le_bon
    later = o.tie == TIE_LATER

    def reward(k):
        above, level = chances(o.ranking == RANKING_BAR41, o.ace_high, free, k)
        at = indexes()[0]
        out = zeros("H")  # kept for the whole game: compact
        for n in range(56):
            q = level[n] if later else (above[n] + level[n]) / 2
            out[at[n]] = int((1.0 - q ** others) * FIRST_R + 0.5)
        return out

    return reward


# ---- what the seat does -----------------------------------------------------------------------


def decide(g):
    """The current player's choice in a turn: (mask, value in its objective's units, the
    objective's unit: value / unit is a chance or tokens); mask None: stop."""
    t = g.turn
    reward, r = objective(g)
    most = g.max_throws()
    mask, value = choose(t.dice, t.count, reward, most, g.may_stop_early())
    return mask, value, unit(r, t.count, most)
