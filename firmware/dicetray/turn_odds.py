"""The turn's odds (pure): for each final throw of the player throwing, the chance to lose the
turn and to win it, every player of the turn counted: those done, and those still to throw,
each of whom, the model says, plays best to end above it with the throws the rules leave it
(firsttable, built on the host by tools/make/dicetables.py: their chances against each throw).

docs/strategy.md states the model. warm makes what a game's rules give once, as a game starts
and as its décharge begins: odds' index tables, each throw's strength among the 56 and its
count of the 216 ordered throws, the first player's odds and what the best of the others is
worth to it (_tails). moment() works out once for the player's throws what they depend on.
Each long loop is a generator that pauses every STEP turns of its work, and _make runs the
next piece of the one under way (docs/strategy.md, "Made in pieces"). In integers (on the Pico
a float is a heap object): a chance is in 1/Q, tokens in 1/Q of a token.
"""

from dicetray.odds import combos, indexes, zeros
from dicetray.rules import (
    FROM_PREVIOUS,
    K_NENETTE,
    LIMIT_AT_MOST,
    RANKING_BAR41,
    TIE_LATER,
    all_throws,
)
from dicetray.state import DECHARGE

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


Q = 16384  # 1 in a chance's unit: a product of two chances stays a small integer
_HALF = Q // 2
# The game's (warm): [options, its part of firsttable.DATA, for each throw how many of the 216
# ordered throws end above it then level with it, how many orders it has, what is kept for
# the first player while the game has as many players (_kept), the values a throw may be
# worth, the throws strongest first].
_game = [None, 0, None, None, None, (), b""]  # type: list
# The work made a piece at a time (_make): [where its result goes, its key, the generator].
_job = [None, None, None]  # type: list
# What a piece does at most, in turns of _ties's and _chain's loops (one of a throw's: its
# players after, and one more): what keeps a piece short on the Pico.
STEP = const(24)


def _make(where, key, steps, a, b, c, piece):
    # Make where's result named key with the generator steps(a, b, c), which stores it as it
    # ends: its next piece only (piece), else all of it that is left. The one under way goes
    # on where it stopped when it is the same (where, key); another takes its place.
    job = _job
    gen = job[2]
    if gen is None or job[0] is not where or job[1] != key:
        gen = steps(a, b, c)
    job[0] = job[2] = None  # off while it runs: an error in it (out of heap) leaves no job
    for _ in gen:
        if piece:  # paused: its next piece at the next call
            job[0] = where
            job[1] = key
            job[2] = gen
            return


def _tables(o, g, k):
    # warm()'s first part, for options o, a generator (_make's; g and k unused): odds' index
    # tables (once), the throws' combinations, then the strategy's own, in pieces.
    indexes()
    yield
    s, v, _ = combos(o)
    yield
    many = bytearray(56)  # how many of the 216 ordered throws each throw is
    n = 0
    for a, b, c in all_throws():
        many[n] = 1 if a == c else 3 if a == b or b == c else 6
        n += 1
    yield
    order = bytes(sorted(range(56), key=lambda x: -s[x]))  # strongest first
    yield
    one = bytearray(112)  # one throw's: how many end above each throw, then level with it
    above = i = 0
    while i < 56:  # a run of equal strengths at a time
        j = i
        same = 0
        while j < 56 and s[order[j]] == s[order[i]]:
            same += many[order[j]]
            j += 1
        for x in order[i:j]:
            one[x] = above
            one[56 + x] = same
        above += same
        i = j
    _game[0] = o
    _game[1] = ((1 if o.ranking == RANKING_BAR41 else 0) * 2 + (1 if o.ace_high else 0)) \
        * 896 + (336 if _free(o) else 0)
    _game[2] = one
    _game[3] = many
    _game[4] = {}
    _game[5] = tuple(sorted(set(v)))  # the values a throw may be worth, lowest first
    _game[6] = order


def _free(o):
    return o.limit == LIMIT_AT_MOST or o.le_bon


def _kept(players):
    # What is kept for the game's first player: while the game has as many players.
    kept = _game[4]
    if kept.get(0) != players:  # a new one: a piece under way for the old is let go
        if _job[0] is kept:
            _job[0] = _job[2] = None
        kept = {}  # type: dict
        kept[0] = players
        _game[4] = kept
    return kept


def _tails(g, kept, k):
    # For each throw x and each value v a throw may be worth (_game[5]), what the best of the
    # r others' throws of three dice above x is worth counted up to v, in 1/256 of a token (so
    # that a cap between two values is a share of the step): 56 x values 16-bit numbers, kept
    # ["tails"] while the game has as many players (kept[0]). A generator (_make's; k unused).
    r = kept[0] - 1
    v = combos(g.opts)[1]
    many = _game[3]
    values = _game[5]
    n = len(values)
    count = [0] * n  # the throws above x by value
    out = zeros("H", 56 * n)
    yield
    total = spent = 0
    for x in _game[6]:  # strongest first: count holds the throws above x
        if spent >= STEP:
            yield
            spent = 0
        spent += n * (r + 1)
        below = worth = last = 0
        for i in range(n):
            # P(the best >= values[i]) = 1 - P(all r below it)
            f = p = below * Q // total if total else Q
            for _ in range(r - 1):
                p = (p * f + _HALF) >> 14
            worth += (values[i] - last) * (Q - p)
            last = values[i]
            out[x * n + i] = (worth + 32) >> 6
            below += count[i]
        count[values.index(v[x])] += many[x]
        total += many[x]
    kept["tails"] = out


# The moment's (moment()): [the game, when, what was worked out for it, moment()'s tuple].
_now = [None, None, None, None]  # type: list
_dist = [0] * 9  # _ties: the powers of a chance (no list made for them)


def warm(g, piece=False):
    """Make what every decision of game g reads, once a game and once its décharge is on:
    odds' index tables, the throws' table of its rules, one throw's chances against each
    throw, the first player's chances and, in the décharge, what the others' best is worth to
    it. piece: make a piece of it only (_make's: a part, or a few throws of one), and say
    whether one was made (the seat makes them one at a time, where no press waits on them); a
    decision makes what is missing itself."""
    o = g.opts
    if _game[0] is not o:
        _make(_game, o, _tables, o, None, None, piece)
        if piece:
            return True
    players = len(g.active())
    both = g.phase == DECHARGE
    kept = _kept(players)
    for k in range(1, 4):  # the first player's chances, with as many players as the game's
        if not _made(kept, k, both):
            _make(kept, k * 2 + both, _first_odds, g, kept, k, piece)
            if piece:
                return True
    if both and "tails" not in kept:  # what it takes, were it to lose: tokens count then
        _make(kept, "tails", _tails, g, kept, None, piece)
        return piece
    return False


def source(g, k, limit):
    """Where a player still to throw, with limit throws, is read against each throw x made
    in k throws: (data, at, level, div, merge): its chance to end above x is data[at + x] / div
    (one throw: the tray's count in 216ths; more: firsttable's, in 255ths), to end level with
    it data[level + x] / div (level < 0: none), and merge, whether a level is above (the later
    wins; a nenette, with "the second nenette wins", is above whatever merge says)."""
    o = g.opts
    fewer = o.fewer_throws_win and _free(o)
    later = o.tie == TIE_LATER
    if limit == 1:
        return _game[2], 0, 56, 216, later or (fewer and k > 1)
    from dicetray.firsttable import DATA

    at = _game[1]
    if fewer and k >= limit:  # the same throw in fewer throws than mine wins
        at += 336 + (limit - 2) * 112
        return DATA, at, at + 56, 255, later or k > limit
    if later:
        return DATA, at + 224 + (limit - 2) * 56, -1, 255, True
    at += (limit - 2) * 112
    return DATA, at, at + 56, 255, False


def _ties(a, e, r, m, passes):
    # The chance that none of r players ends below (a: above, e: level, each) and that the
    # tie then drawn among the m + 1 + levels goes against me; passes: a tie of the two
    # players of a turn passes the hand. The sum over the levels l of
    # C(r, l) a^(r-l) e^l / (m + 1 + l), a's powers in _dist (no heap).
    if not e:
        p = Q
        for _ in range(r):
            p = (p * a + _HALF) >> 14
        return 0 if passes and m else p // (m + 1)
    if r == 1:  # the common cases, in line
        return (0 if passes and m else a // (m + 1)) + (0 if passes else e // (m + 2))
    if r == 2:
        return ((a * a + _HALF) >> 14) // (m + 1) + ((a * e + _HALF) >> 13) // (m + 2) \
            + ((e * e + _HALF) >> 14) // (m + 3)
    if r == 3:
        aa = (a * a + _HALF) >> 14
        ee = (e * e + _HALF) >> 14
        return ((aa * a + _HALF) >> 14) // (m + 1) + 3 * ((aa * e + _HALF) >> 14) // (m + 2) \
            + 3 * ((a * ee + _HALF) >> 14) // (m + 3) + ((ee * e + _HALF) >> 14) // (m + 4)
    d = _dist
    d[0] = Q
    for j in range(r):
        d[j + 1] = (d[j] * a + _HALF) >> 14
    p = 0
    ways = 1  # C(r, l)
    el = Q  # e^l
    for i in range(r + 1):
        p += ways * ((d[r - i] * el + _HALF) >> 14) // (m + 1 + i)
        ways = ways * (r - i) // (i + 1)
        el = (el * e + _HALF) >> 14
    return p


def _chain(s1, s2, s3, k, r):
    # The chance that all r players after reach above or level with a throw made in k throws,
    # each with the throws the one before used, the first with k: s1, s2, s3, one player's
    # chance to reach it with 1, 2, 3 throws (the model's player stops as soon as it is above,
    # so it first gets there at throw c with the chance s_c - s_c-1).
    d2 = s2 - s1
    d3 = s3 - s2
    f1 = f2 = f3 = Q
    for _ in range(r):  # each from the ones before it were updated (no tuple: no heap)
        f3 = (s1 * f1 + d2 * f2 + d3 * f3 + _HALF) >> 14
        f2 = (s1 * f1 + d2 * f2 + _HALF) >> 14
        f1 = (s1 * f1 + _HALF) >> 14
    return f1 if k == 1 else f2 if k == 2 else f3


def moment(g):
    """What the rewards of the player throwing depend on, worked out once for its throws:
    (first, keys, r, limit, passes, mine) with keys None for the first player, else the
    lowest key done, how many share it, the highest, how many share it, and whose each is; r
    players still to throw, their limit (0: each the throws the previous used), passes: a tie
    of two passes the hand, mine: my key ending on each throw, but for the throws it took."""
    t = g.turn
    at = _at(g)
    if _now[0] is not g or _now[1] != at:
        from dicetray.settle import key

        warm(g)
        o = g.opts
        keys = None
        if t.pos:
            done = []
            for i in range(t.pos):
                s, fewer, later = key(g, i)
                done.append(s * 32 + (3 + fewer) * 8 + later)
            low, high = min(done), max(done)
            keys = (low, done.count(low), high, done.count(high), done.index(low),
                    done.index(high))
        r = len(t.order) - t.pos - 1
        limit = 0 if o.limit_from == FROM_PREVIOUS and _free(o) else t.limit
        s, _, kinds = combos(o)
        later = t.pos if o.tie == TIE_LATER else 0
        nen = t.pos if o.nenette_later_wins else later
        mine = [0] * 56
        for x in range(56):
            mine[x] = s[x] * 32 + (nen if kinds[x] == K_NENETTE else later)
        _now[0] = g
        _now[1] = at
        if _job[0] is _now[2]:  # a piece under way for the moment gone is let go
            _job[0] = _job[2] = None
        _now[2] = {}
        _now[3] = (t.pos == 0, keys, r, limit, o.two_player_pass and len(t.order) == 2, mine)
    return _now[3]


def _at(g):
    # What moment()'s work depends on: the turn, the player's place in it, the phase.
    t = g.turn
    return (t.number, t.pos, g.phase, len(t.order), t.limit)


def odds(g, k, both):
    """(lose, win): for each throw, the chance (in 1/Q) that the player throwing loses the
    turn, and wins it (None unless both; the first player's always), ending on it after
    throw k."""
    now = moment(g)
    if now[0]:
        return _first(g, len(g.turn.order), k)
    memo = ("odds", k if _by_k(g, now) else 0, both)
    done = _now[2]
    if memo not in done:
        for _ in _odds(g, k, both, now, done, memo):
            pass
    return done[memo]


def _by_k(g, now):
    # Whether the rewards depend on the throws taken (the players after get as many, or
    # fewer throws win); if not, they are the same after any throw.
    return now[0] or not now[3] or g.opts.fewer_throws_win


def _odds(g, k, both, now, where, key):
    # odds() at the moment now (moment()'s tuple), a generator: a pause each STEP of work
    # (_make), where[key] made as it ends. The sources are read in line: on the Pico a call
    # costs more than the sums.
    first, keys, r, limit, passes, mine = now
    o = g.opts
    lose = [0] * 56
    win = [0] * 56 if both else None
    chain = r and not limit  # each the throws the previous player used: the first, my k
    data, at, lv, div, merge = source(g, k, limit or k) if r else (b"", 0, -1, 1, True)
    one = _game[2]
    if chain and k > 2:
        d2, a2, l2, v2, _ = source(g, k, 2)
    kinds = combos(o)[2]
    nen = o.nenette_later_wins
    off = ((3 - k) if o.fewer_throws_win else 3) * 8
    low = high = 0
    m0 = mh0 = 0
    if not first:
        low, m0, high, mh0 = keys[0], keys[1], keys[2], keys[3]
    spent = 0
    for x in range(56):
        if spent >= STEP:
            yield
            spent = 0
        spent += 1
        me = mine[x] + off
        m = mh = -1
        if first or me < low:
            m = 0
        elif me == low:
            m = m0
        if both and (first or me > high):
            mh = 0
        elif both and me == high:
            mh = mh0
        if m < 0 and mh < 0:
            continue
        spent += r + 1 if mh < 0 or m < 0 else 2 * r + 2
        a = e = 0
        if r:
            a = (data[at + x] * Q + div // 2) // div
            if lv >= 0:
                e = (data[lv + x] * Q + div // 2) // div
            if merge or (nen and kinds[x] == K_NENETTE):
                a += e
                e = 0
        if m >= 0:
            if not chain:
                lose[x] = _ties(a, e, r, m, passes)
            else:
                # Each the throws the previous used (a player that fails uses them all): the
                # chance all reach me, times my share of the ties as if every limit were mine;
                # one throw's and two's chances to reach me first (a level counts as reached).
                s1 = ((one[x] + one[56 + x]) * Q + 108) // 216
                s2 = s1
                if k > 2:
                    s2 = (d2[a2 + x] * Q + v2 // 2) // v2
                    if l2 >= 0:
                        s2 += (d2[l2 + x] * Q + v2 // 2) // v2
                p = _chain(s1, s2 if k > 2 else a + e, a + e, k, r)
                if not e:
                    lose[x] = 0 if passes and m else p // (m + 1)
                else:
                    every = _ties(a + e, 0, r, 0, False)
                    lose[x] = p * _ties(a, e, r, m, passes) // every if every else 0
        if mh >= 0:
            win[x] = _ties(Q - a - e, e, r, mh, passes)
    where[key] = (lose, win)


def _first(g, players, k):
    # odds() of the first player with players in the turn, stopping after throw k (56 16-bit
    # numbers each; the chance to win only once the décharge is on): kept for the game (for
    # its number of players), as warm() makes them.
    kept = _kept(players)
    both = g.phase == DECHARGE
    if not _made(kept, k, both):
        _make(kept, k * 2 + both, _first_odds, g, kept, k, False)
    return kept[k]


def _first_odds(g, kept, k):
    # _first's odds for throw k, kept[k], with kept[0] players: a generator (_make's).
    players = kept[0]
    both = g.phase == DECHARGE
    o = g.opts
    s = combos(o)[0]
    mine = [0] * 56
    for x in range(56):
        mine[x] = s[x] * 32
    limit = 0 if o.limit_from == FROM_PREVIOUS and _free(o) else k
    now = (True, None, players - 1, limit, o.two_player_pass and players == 2, mine)
    out = [None]  # type: list
    yield from _odds(g, k, both, now, out, 0)
    lose, win = out[0]
    yield
    kept[k] = (_compact(lose), _compact(win) if both else None)


def _made(kept, k, both):
    # Whether _first's odds for throw k are kept (both: the chance to win too).
    return k in kept and not (both and kept[k][1] is None)


def _compact(values):
    out = zeros("H")
    for x in range(56):
        out[x] = values[x]
    return out
