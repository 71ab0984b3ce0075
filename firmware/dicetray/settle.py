"""The start of a game and the end of each player's throws and of each turn: the ranking, ties,
roll-offs and play-offs, until a turn's winner and loser are known (what it moves: payout).

Functions of a Game (dicetray.game), which calls them from its actions; they change its state
and tell its events through its sink, Game.emit. Decisions the rule texts leave open are
numbered in docs/rules.md.
"""

from dicetray import payout
from dicetray.rules import (
    FROM_PREVIOUS,
    K_NENETTE,
    START_DIE,
    START_LOW,
    START_SEAT1,
    TIE_LATER,
    TIE_PLAYOFF,
    combo,
    rank,
    worth,
)
from dicetray.state import (
    BOTH,
    CHARGE,
    DECHARGE,
    DIE,
    FOR_WHAT_COMES,
    HIGH,
    LOW,
    NOBODY,
    THROW,
    TIE,
    WHO_STARTS,
    Contest,
)

# ---- a game, a turn -------------------------------------------------------------------------


def start(g):
    """Who starts a new game g, by its rules: seat 1 (the charge begins), or a roll-off for
    everybody (one die or a throw each; the highest or the lowest starts)."""
    how = g.opts.start
    if how == START_SEAT1:
        payout.begin_play(g, 0)
    else:
        kind = DIE if how == START_DIE else THROW
        want = LOW if how == START_LOW else HIGH
        open_contest(g, list(range(g.n)), want, kind, WHO_STARTS)


def finish_player(g):
    t = g.turn
    g.emit("stop", g.current, t.count, combo(t.dice, g.opts).name)
    t.finals.append(t.dice)
    t.counts.append(t.count)
    if t.pos == 0 or g.opts.limit_from == FROM_PREVIOUS:
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
    t = t or g.turn
    return key_of(g, t.finals[i], t.counts[i], i)


def key_of(g, dice, count, i):
    """key() of a throw of dice in count throws by the i-th player of the turn: the table
    places a throw still under way among those done with it."""
    o = g.opts
    kind, strength = rank(dice, o)
    later = o.tie == TIE_LATER or (o.nenette_later_wins and kind == K_NENETTE)
    return (strength, -count if o.fewer_throws_win else 0, i if later else 0)


def _resolve_turn(g):
    t = g.turn
    keys = g.sort_keys()
    top = max(keys)
    bottom = min(keys)
    # How many share the best and the worst key, and the one who holds each alone, counted
    # by the list's own methods: the players of a tie are listed only where there is one.
    tops = keys.count(top)
    lows = keys.count(bottom)
    t.winner = t.order[keys.index(top)] if tops == 1 else NOBODY
    t.loser = t.order[keys.index(bottom)] if lows == 1 else NOBODY
    t.amount = NOBODY
    if top == bottom:
        if g.opts.two_player_pass and len(t.order) == 2:
            payout.pass_hand(g)
            return
        # In the charge the pot pays whoever did best: only the loser is settled (docs/rules.md,
        # decision 14).
        t.queue = [[t.order[:], BOTH if g.phase == DECHARGE else LOW]]
    else:
        t.queue = []
        if lows > 1:
            t.queue.append([_holding(t, keys, bottom), LOW])
        # Who wins a tie for best only matters when the winner pays.
        if tops > 1 and g.phase == DECHARGE:
            t.queue.append([_holding(t, keys, top), HIGH])
    _next_contest(g)


def _holding(t, keys, k):
    # The players of turn t whose sort key (keys: turn order's) is k, in turn order.
    return [t.order[i] for i, x in enumerate(keys) if x == k]


def _next_contest(g):
    if g.turn.queue:
        players, want = g.turn.queue.pop(0)
        kind = THROW if g.opts.tie == TIE_PLAYOFF else DIE
        open_contest(g, players, want, kind, TIE)
    else:
        t = g.turn
        # Charge with a tie for best: any of them did the best throw; the pot pays.
        payout.pay(g, t.winner if t.winner >= 0 else _best_of_turn(g, t.loser))


# ---- roll-offs and play-offs ----------------------------------------------------------------


def open_contest(g, players, want, kind, why, rnd=1):
    if why == TIE:
        # Seat order of the turn; a play-off ("qui barre demarre") runs from the last back.
        players = [p for p in g.turn.order if p in players]
        if kind == THROW:
            players.reverse()
    g.contest = Contest(players, want, kind, why, rnd)
    g.emit("contest", tuple(players), why, kind, rnd)


def contest_roll(g, dice):
    c = g.contest
    g.emit("contest_roll", g.current, tuple(dice))
    c.results.append(dice)
    keys = _roll_keys(g)  # each roll valued as it comes: the last one's press values one
    if len(keys) == len(c.players):
        _close_contest(g, keys)


def ranking(g, turn):
    # Game.ranked's and Game.sort_keys's: g's [finals, keys, places], brought up to date
    # with turn's finals (None: g's turn), kept on the game (g._keys). A throw is placed by
    # walking the places from the best: on MicroPython a sort by a key function calls it
    # for every throw, and cost some five times as much at eight players.
    t = turn or g.turn
    got = g._keys
    if got is None or got[0] is not t.finals:
        got = g._keys = [t.finals, [], []]
    keys = got[1]
    places = got[2]
    while len(keys) < len(t.finals):
        k = key(g, len(keys), t)
        j = 0  # after every throw as good: a tie keeps the turn's order
        for i in places:
            if keys[i] < k:
                break
            j += 1
        places.insert(j, len(keys))
        keys.append(k)
    return got


def _roll_keys(g):
    # What each roll made in the contest under way is worth, to order them (a die its pips, a
    # throw its strength), in rolling order. Each roll is valued once, as it comes: the roll
    # that closes a roll-off of eight does not value the seven before it again. Kept on the
    # game for that contest's list of results (g._rolls), as Game.sort_keys keeps a turn's.
    c = g.contest
    got = g._rolls
    if got is None or got[0] is not c.results:
        got = g._rolls = [c.results, []]
    keys = got[1]
    done = c.results
    while len(keys) < len(done):
        d = done[len(keys)]
        keys.append(d[0] if c.kind == DIE else rank(d, g.opts)[1])
    return keys


def _close_contest(g, keys):
    # Every roll made (keys: what each is worth, _roll_keys): who won, lost, or ties again.
    c = g.contest
    g.contest = None
    t = g.turn
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
        t.amount = max(worth(d, g.opts)[1] for d in c.results)
    if g.phase == CHARGE and want == BOTH:
        want = LOW  # a save from before rules.md's decision 14: the pot pays, the best is moot
    again = []
    if top == bottom:
        again.append([players, want])
    else:
        # The loser's tie first, then the winner's (decision 14), as _resolve_turn queues them.
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
        payout.begin_play(g, pick[0])

def _best_of_turn(g, loser):
    # The first best throw of the turn that is not the loser's (all may have tied).
    order = g.turn.order
    keys = g.sort_keys()
    top = max(keys)
    for i, k in enumerate(keys):
        if k == top and order[i] != loser:
            return order[i]
    return order[keys.index(top)]
