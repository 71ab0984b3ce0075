"""A turn as the seat's model plays it, worked out by brute force apart from dicetray.strategy.

docs/strategy.md's model: every player still to throw plays best to end above the final throw of
the player throwing now ("me"), with the throws the rules leave it (the first player's count, or
the previous player's with limit_from previous), a level that a contest settles counting half
to it. Here each of them is played out exactly against each of my finals, over every face of
the dice, and a final of mine is scored through the game's own code: settle.key orders the
throws (every tie rule), the ties are fair contests among the tied, payout._amount says what is
paid. Nothing of dicetray.strategy, odds or firsttable is used.

Model(g) for a game at a player's throw: lose(x, k) and win(x, k), the chances that I end the
turn its loser and its winner ending on throw x (sorted dice) after k throws; shed(x, k), the
tokens I expect to shed (the décharge; every later throw enumerated: for 3 players at most);
choices(dice, count), what each choice after throw count is worth, playing on best.
"""

from collections import Counter
from functools import cache
from itertools import combinations, product

from dicetray import payout, settle
from dicetray.rules import FROM_PREVIOUS, LIMIT_AT_MOST
from dicetray.state import DECHARGE, Turn

THROWS = sorted({tuple(sorted(d, reverse=True)) for d in product(range(1, 7), repeat=3)})


@cache
def rolls(kept):
    """[(throw, chance)]: the throw after keeping the dice kept (a tuple) and throwing the rest."""
    free = 3 - len(kept)
    seen = Counter(tuple(sorted(kept + faces, reverse=True))
                   for faces in product(range(1, 7), repeat=free))
    return sorted((throw, n / 6 ** free) for throw, n in seen.items())


@cache
def keeps(throw):
    """The distinct dice one may keep from throw before throwing again: none, one, two."""
    out = []
    for size in range(3):
        for idx in combinations(range(3), size):
            kept = tuple(throw[i] for i in idx)
            if kept not in out:
                out.append(kept)
    return out


def best_play(score, limit, free):
    """{(throw, count): chance}: where a player ends who, after each throw, stops (on the last
    throw, or any if free) or keeps what makes score's expectation the largest (a stop first
    among equals, then the fewest dice kept)."""
    choice = {}
    after = {}
    for count in range(limit, 0, -1):
        sums = {}
        if count < limit:
            for kept in {k for throw in THROWS for k in keeps(throw)}:
                sums[kept] = sum(p * after[y] for y, p in rolls(kept))
        now = {}
        for throw in THROWS:
            options = []
            if count == limit or free:
                options.append((score(throw, count), None))
            if count < limit:
                options.extend((sums[k], k) for k in keeps(throw))
            top = max(value for value, _ in options)  # sums of floats: equal within 1e-12
            now[throw], choice[(throw, count)] = next(o for o in options if o[0] > top - 1e-12)
        after = now
    ends = Counter()
    frontier = Counter({(y, 1): p for y, p in rolls(())})
    while frontier:
        nxt = Counter()
        for (throw, count), p in frontier.items():
            kept = choice[(throw, count)]
            if kept is None:
                ends[(throw, count)] += p
            else:
                for y, q in rolls(kept):
                    nxt[(y, count + 1)] += p * q
        frontier = nxt
    return ends


@cache
def _played(scores, limit, free):
    # best_play of a score given as a table (by count, then THROWS): the same play for every
    # player and position that compares alike.
    return best_play(lambda y, c: scores[(c - 1) * 56 + THROWS.index(y)], limit, free)


class Model:
    def __init__(self, g):
        self.g = g
        t = g.turn
        self.t = t
        self.pos = t.pos
        self.n = len(t.order)
        o = g.opts
        self.free = o.limit == LIMIT_AT_MOST or o.le_bon
        self.chain = o.limit_from == FROM_PREVIOUS
        self.memo = {}

    # ---- keys -----------------------------------------------------------------------------------

    def keys(self, finals, counts):
        """settle.key of each player of this turn with these finals (None: not thrown)."""
        t = Turn(self.t.number, self.t.order, self.t.limit)
        t.finals = [list(f) if f else [2, 2, 1] for f in finals]
        t.counts = [c or 1 for c in counts]
        return [settle.key(self.g, i, t) if finals[i] else None for i in range(len(finals))]

    def versus(self, x, k, at, y, c):
        """+1, 0 or -1: the player at index at, ending on y after c throws, against my x in k."""
        finals = [None] * self.n
        counts = [0] * self.n
        finals[self.pos], counts[self.pos] = x, k
        finals[at], counts[at] = y, c
        keys = self.keys(finals, counts)
        return (keys[at] > keys[self.pos]) - (keys[at] < keys[self.pos])

    # ---- the players still to throw -------------------------------------------------------------

    def later(self, x, k, at, limit):
        """{(throw, count): chance}: the final of the player at index at, with limit throws,
        playing best against my x in k."""
        memo_key = ("later", x, k, at, limit)
        if memo_key not in self.memo:
            scores = tuple((self.versus(x, k, at, y, c) + 1) / 2 for c in range(1, limit + 1)
                           for y in THROWS)
            self.memo[memo_key] = _played(scores, limit, self.free)
        return self.memo[memo_key]

    def limit_after(self, k, previous):
        """The limit of a player still to throw: the first player's count, or the previous's."""
        if self.chain:
            return previous
        return self.t.limit if self.pos else k

    def outcomes(self, x, k):
        """[(chance, [(y, c) of each later player in order])]: every way the turn ends, as far as
        the sides of me each later player ends on (y None: it is below, above or level as c is
        -1, 1 or 0) and the count it used."""
        memo_key = ("out", x, k)
        if memo_key in self.memo:
            return self.memo[memo_key]
        ways = [(1.0, [], k)]
        for at in range(self.pos + 1, self.n):
            grown = []
            for p, path, previous in ways:
                limit = self.limit_after(k, previous)
                sides = Counter()
                for (y, c), q in self.later(x, k, at, limit).items():
                    sides[(self.versus(x, k, at, y, c), c)] += q
                for (side, c), q in sides.items():
                    grown.append((p * q, path + [side], c))
            ways = grown
        out = [(p, path) for p, path, _ in ways]
        self.memo[memo_key] = out
        return out

    def _done_sides(self, x, k):
        finals = self.t.finals[:self.pos] + [x] + [None] * (self.n - self.pos - 1)
        counts = self.t.counts[:self.pos] + [k] + [0] * (self.n - self.pos - 1)
        keys = self.keys(finals, counts)
        me = keys[self.pos]
        return [(keys[i] > me) - (keys[i] < me) for i in range(self.pos)]

    def _ends(self, x, k, side):
        # The chance that no one ends on the side of me (-1: below, +1: above), times my share
        # of the contest among those level with me.
        done = self._done_sides(x, k)
        if side in done:
            return 0.0
        total = 0.0
        for p, path in self.outcomes(x, k):
            if side in path:
                continue
            tied = done.count(0) + path.count(0)
            if tied and self.n == 2 and self.g.opts.two_player_pass:
                continue
            total += p / (1 + tied)
        return total

    def lose(self, x, k):
        return self._ends(x, k, -1)

    def win(self, x, k):
        return self._ends(x, k, 1)

    # ---- tokens ---------------------------------------------------------------------------------

    def shed(self, x, k):
        """The tokens I expect to shed ending on x in k, every later throw enumerated (negative:
        taken; in the charge from the pot)."""
        later = list(range(self.pos + 1, self.n))
        assert len(later) <= 2, "enumerated for 3 players at most"
        done = self.t.finals[:self.pos]
        keys = self.keys(done + [x] + [None] * len(later), self.t.counts[:self.pos] + [k]
                         + [0] * len(later))[:self.pos + 1]
        ways = [(1.0, [], keys, k)]
        for at in later:
            grown = []
            for p, ys, ks, previous in ways:
                ends = Counter()  # the count matters only as the next one's limit
                for (y, c), q in self.later(x, k, at, self.limit_after(k, previous)).items():
                    after = c if self.chain and at < self.n - 1 else 0
                    ends[(y, self.key_of(at, y, c), after)] += q
                for (y, key, c), q in ends.items():
                    grown.append((p * q, ys + [y], ks + [key], c))
            ways = grown
        finals = [tuple(f) for f in done] + [tuple(x)]
        return sum(p * self._paid(finals + ys, ks) for p, ys, ks, _ in ways)

    def key_of(self, at, y, c):
        """settle.key of the player at index at ending on y after c throws."""
        memo_key = ("key", at, y, c)
        if memo_key not in self.memo:
            finals = [None] * self.n
            counts = [0] * self.n
            finals[at], counts[at] = y, c
            self.memo[memo_key] = self.keys(finals, counts)[at]
        return self.memo[memo_key]

    def amount(self, winner, loser):
        """payout._amount of a winner's throw over a loser's (the game's own rule)."""
        memo_key = ("paid", winner, loser)
        if memo_key not in self.memo:
            g = self.g
            saved = g.turn
            t = Turn(self.t.number, [0, 1], 1)
            t.finals = [list(winner), list(loser)]
            t.counts = [1, 1]
            g.turn = t
            try:
                self.memo[memo_key] = payout._amount(g, 0, 1)
            finally:
                g.turn = saved
        return self.memo[memo_key]

    def _paid(self, finals, keys):
        # What I shed (negative: take) in a turn ending with these finals: its contests fair.
        g = self.g
        order = self.t.order
        me = self.pos
        low = [i for i in range(self.n) if keys[i] == min(keys)]
        high = [i for i in range(self.n) if keys[i] == max(keys)]
        if self.n == 2 and len(low) == 2 and g.opts.two_player_pass:
            return 0.0
        charge = g.phase != DECHARGE
        out = 0.0
        if me in low:
            winners = [i for i in high if i != me] or [i for i in range(self.n) if i != me]
            if charge:  # the pot pays: the first best that is not me (settle's rule)
                winners = winners[:1]
            for w in winners:
                cap = g.pot if charge else g.tokens[order[w]]
                out -= min(self.amount(finals[w], finals[me]), cap) / len(low) / len(winners)
        if me in high and not charge:
            losers = [i for i in low if i != me] or [i for i in range(self.n) if i != me]
            for lo in losers:
                paid = min(self.amount(finals[me], finals[lo]), g.tokens[order[me]])
                out += paid / len(high) / len(losers)
        return out

    # ---- my own throws --------------------------------------------------------------------------

    def final_score(self, x, k, tokens):
        """What ending on x after k is worth: the chance not to lose, or the tokens shed."""
        memo_key = ("score", x, k, tokens)
        if memo_key not in self.memo:
            self.memo[memo_key] = self.shed(x, k) if tokens else 1.0 - self.lose(x, k)
        return self.memo[memo_key]

    def choices(self, dice, count, tokens=False):
        """{kept (sorted tuple) or None (stop): value}: each choice after throw count with these
        dice, playing on best for the same score (the chance not to lose, or the tokens)."""
        g = self.g
        most = g.max_throws()
        early = g.may_stop_early()
        throw = tuple(sorted(dice, reverse=True))

        @cache
        def value(y, c):
            options = []
            if c == most or early:
                options.append(self.final_score(y, c, tokens))
            if c < most:
                options.extend(keep_value(kept, c) for kept in keeps(y))
            return max(options)

        @cache
        def keep_value(kept, c):
            return sum(p * value(y, c + 1) for y, p in rolls(kept))

        out = {}
        if count == most or early:
            out[None] = self.final_score(throw, count, tokens)
        if count < most:
            for kept in keeps(throw):
                out[tuple(sorted(kept, reverse=True))] = keep_value(kept, count)
        return out
