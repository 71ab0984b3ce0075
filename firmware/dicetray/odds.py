"""The odds of a turn's throws (pure): the 56 throws' tables, the expectation over the dice and
the best of each choice, whatever order the dice lie in.

A throw is one of the 56 multisets of three dice, numbered as rules.all_throws lists them
(ix()); every list of values here is one number per throw. In integers (on the Pico a float is
a heap object): a reward is an integer in units of 1/R (the caller's objective gives R). The
sums of keeping a multiset of dice are one of 43 "slots": pairs (a >= b) at (a-1)*6 + b-1,
single dice at 36 + a-1, nothing kept at 42; each is the sum over one die of the one below it,
scaled to 216 faces, so a whole level costs 168 additions. A level's best values are divided
by 216 again (rounded) before the level above sums them, so that values stay small integers
whatever R is (at most 216 times the largest reward). What each throw is worth is
dicetray.rewards': the turn's objective.
"""

from array import array

from dicetray.rules import all_throws, evaluate

TIE = 216  # values (in 1 / (216 R)) closer than one unit of the reward are equal: rounding
_cache = [None, None, None, None]  # type: list  # options, strengths, tokens, kinds (56 each)
_tables = []  # built once: each throw's 7 keeps' slots, each pair's 6 throws with one more die


def ix(a, b, c):
    """The number of three dice in any order: their place in rules.all_throws (0: 6-6-6)."""
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return 56 - a * (a + 1) * (a + 2) // 6 + (a * (a + 1) - b * (b - 1)) // 2 - c


def indexes():
    # (the 56 throws' 7 keeps' slots among the 43 (56 * 7), each pair's 6 throws with one more
    # die (36 * 6, 21 pairs used)), made at the first decision.
    if not _tables:
        keeps = bytearray(56 * 7)
        n = 0
        for a, b, c in all_throws():
            keeps[n * 7:n * 7 + 7] = bytes((42, 35 + a, 35 + b, 35 + c, (a - 1) * 6 + b - 1,
                                            (a - 1) * 6 + c - 1, (b - 1) * 6 + c - 1))
            n += 1
        pairs = bytearray(36 * 6)
        for a in range(1, 7):
            for b in range(1, a + 1):
                for d in range(6):
                    pairs[((a - 1) * 6 + b - 1) * 6 + d] = ix(a, b, d + 1)
        _tables.extend((keeps, pairs))
    return _tables


def zeros(code, n=56):
    # n zeros, compact: "H" (16 bits) or "B" (a byte each); what a game keeps is small.
    a = array(code, range(n))
    for i in range(n):
        a[i] = 0
    return a


def combos(opts):
    """(strengths, tokens, kinds): each 56 numbers by ix, for opts (the last one is kept)."""
    if _cache[0] is not opts:
        s = zeros("H")
        v = zeros("B")
        k = zeros("B")
        n = 0
        for throw in all_throws():
            combo = evaluate(throw, opts)
            s[n] = combo.strength
            v[n] = combo.tokens
            k[n] = combo.kind
            n += 1
        _cache[0] = opts
        _cache[1] = s
        _cache[2] = v
        _cache[3] = k
    return _cache[1], _cache[2], _cache[3]


def kept_dice(s):
    """The values kept in slot s, highest first."""
    if s == 42:
        return ()
    if s >= 36:
        return (s - 35,)
    return (s // 6 + 1, s % 6 + 1)


def mask_of(dice, s, kept=0):
    """A mask that keeps slot s's values of dice (s None: None, a stop): the dice already kept
    (kept's bits) first, then the leftmost, so a seat presses as little as it can."""
    if s is None:
        return None
    mask = 0
    for value in kept_dice(s):
        best = -1
        for i in range(3):
            if dice[i] == value and not mask & (1 << i):
                if best < 0 or (kept & (1 << i) and not kept & (1 << best)):
                    best = i
        mask |= 1 << best
    return mask


def means(v):
    """The 43 sums of each kept multiset over the faces of the dice thrown, each scaled to 216
    faces (so all 43 compare), from the throws' values v."""
    pairs = indexes()[1]
    w = [0] * 43
    for p in range(36):
        if p % 6 <= p // 6:  # a >= b
            q = p * 6
            w[p] = (v[pairs[q]] + v[pairs[q + 1]] + v[pairs[q + 2]] + v[pairs[q + 3]]
                    + v[pairs[q + 4]] + v[pairs[q + 5]])
    for a in range(6):
        s = 0
        for d in range(6):
            s += w[a * 6 + d] if a >= d else w[d * 6 + a]
        w[36 + a] = s
    w[42] = w[36] + w[37] + w[38] + w[39] + w[40] + w[41]
    for p in range(36):
        w[p] *= 36
    for a in range(36, 42):
        w[a] *= 6
    return w


def best_of(w, r):
    """Each throw's value, back in the rewards' unit (rounded): its best keep by w (the next
    throw's sums), or its reward r to stop (r None: no stop allowed)."""
    keeps = indexes()[0]
    v = [0] * 56
    q = 0
    for n in range(56):
        best = max(w[keeps[q]], w[keeps[q + 1]], w[keeps[q + 2]], w[keeps[q + 3]],
                   w[keeps[q + 4]], w[keeps[q + 5]], w[keeps[q + 6]])
        if r is not None and r[n] * 216 > best:
            best = r[n] * 216
        v[n] = (best + 108) // 216
        q += 7
    return v


def values(dice, stop, w):
    """[(slot, value)]: every choice open with these dice, in units of 1 / (216 R): the stop
    (slot None) first, then each distinct keep (_listed's order)."""
    out = []
    if stop is not None:
        out.append((None, stop[ix(*dice)] * 216))
    if w is not None:
        keeps = indexes()[0]  # made for w (means)
        q = ix(*dice) * 7
        seen = []
        for j in range(q, q + 7):
            s = keeps[j]
            if s not in seen:
                seen.append(s)
        seen.sort(key=_listed)
        for s in seen:
            out.append((s, w[s]))
    return out


def _listed(s):
    # The order keeps are listed in: nothing kept, one die (lowest first), two dice (by slot).
    return 0 if s == 42 else s - 35 if s >= 36 else s + 7


def best(choices):
    """The choices (slot, value) whose value is the best, or within TIE of it."""
    top = choices[0][1]
    for _, value in choices:
        if value > top:
            top = value
    return [c for c in choices if c[1] >= top - TIE]


def ties(dice, stop, w, sure=None):
    """The best choices of values() (within TIE of each other) when a second objective must
    settle them (pick's): more than one, not all worth sure (where the second objective is the
    same for all); else None."""
    tied = best(values(dice, stop, w))
    return tied if _unsettled(tied, sure) else None


def _unsettled(tied, sure):
    return len(tied) > 1 and (sure is None or max(c[1] for c in tied) < sure)


def pick(dice, stop, w, second=None, sure=None):
    """(slot, value): the best choice of values(); equal ones (within TIE) go to the best by a
    second objective's tables (second(): (stop, w) as strategy.plan makes them, made only then,
    as ties() says), then to the first listed. The dice's order on the tray changes nothing:
    every choice is a multiset of values."""
    tied = best(values(dice, stop, w))
    if second is not None and _unsettled(tied, sure):
        stop, w = second()
        again = best([(s, stop[ix(*dice)] * 216 if s is None else w[s]) for s, _ in tied])
        for s, value in tied:
            if s == again[0][0]:
                return s, value
    return tied[0]
