"""The computer seat's exact strategy: which dice to keep, or stop, by exact odds (pure).

A turn's objective is a reward of the final throw and the throws it took (docs/strategy.md):
a follower's chance not to lose against the throws already made (the charge) or the tokens it
expects to shed (the décharge); the first player's chance not to lose against what followers
reach with the limit it sets (firsttable, built on the host by tools/make_dicetables.py).
The expectation over the dice is exact: a throw of k dice is averaged over its 6**k faces.

Three dice sorted highest first, (a, b, c), are index a*36 + b*6 + c - 43 of a 216 list. The
expected value of keeping a multiset of dice is one of 43 numbers: pairs (a >= b) at
(a-1)*6 + b-1, single dice at 36 + a-1, nothing kept at 42; each is the mean over one die
of the one below it, so a whole level costs 168 additions (cheap on the Pico).
"""

from dicetray.rules import K_NENETTE, evaluate, is_figure

EPS = 1e-6  # a choice must beat the one before by this: single-precision floats agree
_NONE = -1e9
_cache = [None, None, None, None]  # options, strengths, tokens, kinds (216 lists)


def ix(a, b, c):
    """The index of three dice in any order."""
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return a * 36 + b * 6 + c - 43


def throws():
    """The 56 throws, highest die first (the order of rules.all_throws)."""
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            for c in range(b, 0, -1):
                yield a, b, c


def combos(opts):
    """(strengths, tokens, kinds): each a 216 list by ix, for opts (the last one is kept)."""
    if _cache[0] is not opts:
        s = [0] * 216
        v = [0] * 216
        k = [0] * 216
        for a, b, c in throws():
            combo = evaluate((a, b, c), opts)
            i = ix(a, b, c)
            s[i] = combo.strength
            v[i] = combo.tokens
            k[i] = combo.kind
        _cache[0] = opts
        _cache[1] = s
        _cache[2] = v
        _cache[3] = k
    return _cache[1], _cache[2], _cache[3]


def keep_key(dice, mask):
    """Where the value of keeping the dice of mask (bit i: dice[i]) is in a level's 43."""
    kept = [dice[i] for i in range(3) if mask & (1 << i)]
    if not kept:
        return 42
    if len(kept) == 1:
        return 35 + kept[0]
    a, b = kept
    if a < b:
        a, b = b, a
    return (a - 1) * 6 + b - 1


def means(v):
    """The 43 expected values of each kept multiset, the others thrown, the throws' values v."""
    w = [0.0] * 43
    for a in range(1, 7):
        for b in range(1, a + 1):
            s = 0.0
            for d in range(1, 7):
                s += v[ix(a, b, d)]
            w[(a - 1) * 6 + b - 1] = s / 6
    for a in range(1, 7):
        s = 0.0
        for d in range(1, 7):
            s += w[(a - 1) * 6 + d - 1] if a >= d else w[(d - 1) * 6 + a - 1]
        w[35 + a] = s / 6
    s = 0.0
    for d in range(1, 7):
        s += w[35 + d]
    w[42] = s / 6
    return w


def best_of(w, r):
    """Each throw's value: its best keep by w (the next throw's means), or r to stop (None:
    no stop allowed)."""
    v = [0.0] * 216
    for a, b, c in throws():
        i = ix(a, b, c)
        best = _NONE if r is None else r[i]
        for k in (42, 35 + a, 35 + b, 35 + c, (a - 1) * 6 + b - 1, (a - 1) * 6 + c - 1,
                  (b - 1) * 6 + c - 1):
            if w[k] > best:
                best = w[k]
        v[i] = best
    return v


def next_means(reward, count, most, early):
    """The 43 means of the throw after throw count, playing on best up to throw most; early:
    the player may stop before most. reward(k): the 216 rewards of stopping after throw k."""
    v = reward(most)
    for k in range(most - 1, count, -1):
        v = best_of(means(v), reward(k) if early else None)
    return means(v)


def tables(count, reward, most, early):
    """(stop, w): the 216 rewards of stopping now (None: not allowed) and the 43 means of the
    next throw (None: no throw left), after throw count."""
    stop = reward(count) if count >= most or early else None
    return stop, next_means(reward, count, most, early) if count < most else None


def actions(dice, count, reward, most, early):
    """[(mask, value)]: each choice open after throw count and its expected reward, playing
    best after it: None to stop (when allowed), else the dice kept (bit i: dice[i])."""
    return listed(dice, *tables(count, reward, most, early))


def listed(dice, stop, w):
    out = []
    if stop is not None:
        out.append((None, stop[ix(*dice)]))
    if w is not None:
        for mask in (0, 1, 2, 4, 3, 5, 6):
            out.append((mask, w[keep_key(dice, mask)]))
    return out


def pick(dice, stop, w):
    """(mask, value): the best of listed(); a choice must beat the one before it by EPS (a stop
    first, then keeping none, one, two dice), so near ties fall the same on every float."""
    choice, best = None, _NONE
    for mask, value in listed(dice, stop, w):
        if value > best + EPS:
            choice, best = mask, value
    return choice, best


def choose(dice, count, reward, most, early):
    """(mask, value): the best choice after throw count (pick)."""
    return pick(dice, *tables(count, reward, most, early))


# ---- the turn's objective ------------------------------------------------------------------


def objective(g, shed=None):
    """reward(k) for the player throwing in game g: stopping after throw k, the 216 rewards.
    shed: True for the tokens shed (the décharge), False for the chance not to lose, None: by
    the phase."""
    t = g.turn
    if shed is None:
        shed = g.phase == "decharge"
    if t.pos == 0:
        return _first(g)
    from dicetray.settle import key

    keys = [key(g, i) for i in range(t.pos)]
    if shed:
        return _shedding(g, keys)
    return _not_losing(g, keys)


def _mine(g, k):
    # A function: my key for throw index i, stopping after throw k (settle.key's fields).
    o = g.opts
    s, _, kinds = combos(o)
    pos = g.turn.pos
    ftw = -k if o.fewer_throws_win else 0
    later = o.tie == "later"
    nen = o.nenette_later_wins

    def mine(i):
        return (s[i], ftw, pos if later or (nen and kinds[i] == K_NENETTE) else 0)

    return mine


def _tie_pass(g):
    return g.opts.two_player_pass and len(g.turn.order) == 2


def _not_losing(g, keys):
    low = min(keys)
    m = keys.count(low)
    tie = 1.0 if _tie_pass(g) else m / (m + 1)

    def reward(k):
        mine = _mine(g, k)
        r = [0.0] * 216
        for a, b, c in throws():
            i = ix(a, b, c)
            key = mine(i)
            r[i] = 1.0 if key > low else tie if key == low else 0.0
        return r

    return reward


def _shedding(g, keys):
    t = g.turn
    o = g.opts
    _, v, kinds = combos(o)
    low, high = min(keys), max(keys)
    ml, mh = keys.count(low), keys.count(high)
    loser = t.finals[keys.index(low)]
    best = t.finals[keys.index(high)]
    mine_tokens = g.tokens[t.order[t.pos]]
    best_tokens = g.tokens[t.order[keys.index(high)]]
    passes = _tie_pass(g)
    lc = evaluate(loser, o)
    bv = evaluate(best, o).tokens

    def reward(k):
        mine = _mine(g, k)
        r = [0.0] * 216
        for a, b, c in throws():
            i = ix(a, b, c)
            key = mine(i)
            win = 1.0 if key > high else 1 / (mh + 1) if key == high else 0.0
            lose = 1.0 if key < low else 1 / (ml + 1) if key == low else 0.0
            if passes and key == low:
                win = lose = 0.0
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
            r[i] = win * min(give, mine_tokens) - lose * min(take, best_tokens)
        return r

    return reward


def _first(g):
    # The first player: not to lose against the others, each reaching by the limit it sets
    # what the table says (a follower's chance to end above or level with each throw).
    from dicetray.firsttable import chances

    o = g.opts
    others = len(g.turn.order) - 1
    free = o.limit == "at_most" or o.le_bon
    later = o.tie == "later"

    def reward(k):
        above, level = chances(o.ranking == "bar41", o.ace_high, free, k)
        r = [0.0] * 216
        n = 0
        for a, b, c in throws():
            q = level[n] if later else (above[n] + level[n]) / 2
            r[ix(a, b, c)] = 1.0 - q ** others
            n += 1
        return r

    return reward


# ---- what a seat does, what a hint shows ------------------------------------------------------


def decide(g):
    """The current player's choice in a turn: (mask, value); mask None: stop."""
    t = g.turn
    return choose(t.dice, t.count, objective(g), g.max_throws(), g.may_stop_early())


def hint(g):
    """(mask, percent) for a human's turn: the dice to keep (mask None: stop) and the chance not
    to lose against the throw to beat (for the first player: against the followers)."""
    t = g.turn
    mask, _ = decide(g)
    reward = objective(g, False)
    most = g.max_throws()
    if mask is None:
        value = reward(t.count)[ix(*t.dice)]
    else:
        value = next_means(reward, t.count, most, g.may_stop_early())[keep_key(t.dice, mask)]
    return mask, int(value * 100 + 0.5)


def stake(g):
    """What the first thrower of a repeated play-off plays for: "is" or "comes", whichever
    the seat expects to cost it less (or, settling who gives in the décharge, to shed more)."""
    c = g.contest
    o = g.opts
    t = g.turn
    _, v, _ = combos(o)
    if t.amount >= 0:
        now = t.amount
    else:
        now = max(evaluate(d, o).tokens for d in t.finals)
    # The expected best value of len(c.players) throws of three dice: P(max <= x) = F(x)**m.
    counts = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for d in range(1, 7):
                x = v[ix(a, b, d)]
                counts[x] = counts.get(x, 0) + 1
    m = len(c.players)
    comes = 0.0
    below = 0
    for x in sorted(counts):
        lower = (below / 216) ** m
        below += counts[x]
        comes += x * ((below / 216) ** m - lower)
    if c.want == "high":
        return "comes" if comes > now + EPS else "is"
    if c.want == "both" and g.phase == "decharge":
        return "is"
    return "comes" if comes < now - EPS else "is"
