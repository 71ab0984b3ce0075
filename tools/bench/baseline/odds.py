"""The released seat's odds (kept as they were): the 216 throws' table and the best of each choice.

The expectation over the dice is exact: a throw of k dice is summed over its 6**k faces. In
integers (on the Pico a float is a heap object): a reward is an integer in units of 1/R (the
caller's objective gives R), and a level of throws multiplies the unit by 216, the faces of 3
dice. Three dice sorted highest first, (a, b, c), are index a*36 + b*6 + c - 43 of a 216 list.
The sums of keeping a multiset of dice are one of 43 numbers: pairs (a >= b) at (a-1)*6 + b-1,
single dice at 36 + a-1, nothing kept at 42; each is the sum over one die of the one below it
(then scaled to 216 faces), so a whole level costs 168 additions. What each throw is worth is
dicetray.strategy's: the turn's objective.
"""

from array import array

from dicetray.rules import all_throws, evaluate

_cache = [None, None, None, None]  # type: list  # options, strengths, tokens, kinds (216s)
_tables = []  # built once: the throws' indexes, their keeps, the pairs' faces (bytearrays)


def ix(a, b, c):
    """The index of three dice in any order."""
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return a * 36 + b * 6 + c - 43


def indexes():
    # (the 56 throws' indexes, their 7 keeps' places among the 43 (56 * 7), each pair's 6
    # throws with one more die (36 * 6, 21 pairs used)), made at the first decision.
    if not _tables:
        at = bytearray(56)
        keeps = bytearray(56 * 7)
        n = 0
        for a, b, c in all_throws():
            at[n] = ix(a, b, c)
            keeps[n * 7:n * 7 + 7] = bytes((42, 35 + a, 35 + b, 35 + c, (a - 1) * 6 + b - 1,
                                            (a - 1) * 6 + c - 1, (b - 1) * 6 + c - 1))
            n += 1
        pairs = bytearray(36 * 6)
        for a in range(1, 7):
            for b in range(1, a + 1):
                for d in range(6):
                    pairs[((a - 1) * 6 + b - 1) * 6 + d] = ix(a, b, d + 1)
        _tables.extend((at, keeps, pairs))
    return _tables


def zeros(code):
    # 216 zeros, compact: "H" (16 bits) or "B" (a byte each); what a game keeps is small.
    a = array(code, range(216))
    for i in range(216):
        a[i] = 0
    return a


def combos(opts):
    """(strengths, tokens, kinds): each 216 numbers by ix, for opts (the last one is kept)."""
    if _cache[0] is not opts:
        s = zeros("H")
        v = zeros("B")
        k = zeros("B")
        for a, b, c in all_throws():
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
    """The 43 sums of each kept multiset over the faces of the dice thrown, each scaled to 216
    faces (so all 43 compare), from the throws' values v."""
    pairs = indexes()[2]
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


def best_of(w, r, f):
    """Each throw's value: its best keep by w (the next throw's sums), or r * f to stop (r None:
    no stop allowed)."""
    at, keeps, _ = indexes()
    v = [0] * 216
    q = 0
    for n in range(56):
        i = at[n]
        best = max(w[keeps[q]], w[keeps[q + 1]], w[keeps[q + 2]], w[keeps[q + 3]],
                   w[keeps[q + 4]], w[keeps[q + 5]], w[keeps[q + 6]])
        if r is not None and r[i] * f > best:
            best = r[i] * f
        v[i] = best
        q += 7
    return v


def next_means(reward, count, most, early):
    """The 43 sums of the throw after throw count, playing on best up to throw most (in units
    of 1 / (R * 216 ** (most - count))); early: the player may stop before most. reward(k): the
    216 rewards of stopping after throw k."""
    v = reward(most)
    for k in range(most - 1, count, -1):
        v = best_of(means(v), reward(k) if early else None, 216 ** (most - k))
    return means(v)


def unit(r, count, most):
    """What 1 is in the values of the choices after throw count, rewards in 1/r."""
    return r * 216 ** (most - count)


def tables(count, reward, most, early):
    """(stop, w, f): the 216 rewards of stopping now (None: not allowed), times f, and the 43
    sums of the next throw (None: no throw left), after throw count."""
    stop = reward(count) if count >= most or early else None
    f = 216 ** (most - count)
    return stop, next_means(reward, count, most, early) if count < most else None, f


def listed(dice, stop, w, f):
    out = []
    if stop is not None:
        out.append((None, stop[ix(*dice)] * f))
    if w is not None:
        for mask in (0, 1, 2, 4, 3, 5, 6):
            out.append((mask, w[keep_key(dice, mask)]))
    return out


def pick(dice, stop, w, f):
    """(mask, value): the best of listed(); an equal one after it does not replace it (a stop
    first, then keeping none, one, two dice). Integers: every Python picks the same."""
    choice, best = None, None
    for mask, value in listed(dice, stop, w, f):
        if best is None or value > best:
            choice, best = mask, value
    return choice, best


def choose(dice, count, reward, most, early):
    """(mask, value): the best choice after throw count (pick)."""
    return pick(dice, *tables(count, reward, most, early))
