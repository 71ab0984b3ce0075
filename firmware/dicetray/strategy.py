"""The computer seat's choices (pure): which dice to keep, or stop, and the stake of a repeated
play-off; a hint is the same choice with its number.

docs/strategy.md states the objective and the model. Each choice compares the rewards of
stopping (dicetray.rewards: from the turn's odds, dicetray.turn_odds) with the expectation of
throwing on, played best up to the last throw allowed (odds.means, odds.best_of). Equal choices
go to the other of the two objectives (then odds.pick's order), so the dice's order on the
tray never decides. The seat's ways in: warm (a game's tables), prepare (a piece of a
decision), decide, hint, stake.
"""

from dicetray import words
from dicetray.odds import best_of, combos, mask_of, means, pick, ties
from dicetray.rewards import _reward, reward
from dicetray.rules import evaluate
from dicetray.state import DECHARGE
from dicetray.turn_odds import (
    _HALF,
    Q,
    _at,
    _by_k,
    _game,
    _make,
    _now,
    moment,
    warm,  # noqa: F401  (one of the seat's ways in, here)
)

EPS = 1e-6  # stake(): a choice must beat the other by this


def prepare(g):
    """Make one piece of what decide(g) (and hint(g)) reads at the current throw: the
    moment's, then each reward plan(g) compares (_make's pieces: a few throws at a time); True
    when one was made, False once all are (the seat makes them one at an idle poll each;
    decide makes what is missing itself)."""
    if _now[0] is not g or _now[1] != _at(g):
        moment(g)
        return True
    t = g.turn
    tokens = g.phase == DECHARGE
    for objective in (tokens, not tokens):  # the other's only for a tie (odds.pick's)
        if _next(g, objective):
            return True
        if objective == tokens and ties(t.dice, *plan(g, tokens), _sure(tokens)) is None:
            return False
    return False


def _next(g, tokens):
    # prepare()'s: a piece of the first of what plan(g, tokens) reads that is not made yet:
    # its rewards, then its sums, the next throw's first; True when there was one.
    now = _now[3]
    done = _now[2]
    count = g.turn.count
    most = g.max_throws()
    early = g.may_stop_early()
    for k in range(most, count - 1, -1):  # the rewards plan asks for
        memo = ("reward", k if _by_k(g, now) else 0, tokens)
        if (k == most or early) and memo not in done:
            _make(done, memo, _reward, g, k, tokens, True)
            return True
    for k in range(most - 1, count - 1, -1):  # the sums
        if ("sums", tokens, k) not in done:
            _sums(g, tokens, k)
            return True
        if k > count and ("values", tokens, k) not in done:
            _values(g, tokens, k)
            return True
    return False


def plan(g, tokens=None):
    """(stop, w): what the choice after the current throw compares, as odds.pick reads them,
    by the phase's objective (tokens True: the tokens, False: the chance not to lose): the 56
    rewards of stopping now (None: not allowed) and the 43 sums of the next throw (None: no
    throw left), playing on best up to the last throw allowed; both times 216 compare."""
    t = g.turn
    if tokens is None:
        tokens = g.phase == DECHARGE
    count = t.count
    most = g.max_throws()
    stop = reward(g, count, tokens) if count >= most or g.may_stop_early() else None
    return stop, _sums(g, tokens, count) if count < most else None


def _sums(g, tokens, k):
    # The 43 sums (odds.means) of the throw after throw k, playing on best up to the last
    # throw allowed: kept for the moment.
    moment(g)
    memo = ("sums", tokens, k)
    done = _now[2]
    if memo not in done:
        most = g.max_throws()
        done[memo] = means(reward(g, most, tokens) if k + 1 == most else _values(g, tokens, k + 1))
    return done[memo]


def _values(g, tokens, k):
    # What each throw k (below the last allowed) is worth playing on best (odds.best_of): kept
    # for the moment.
    memo = ("values", tokens, k)
    done = _now[2]
    if memo not in done:
        done[memo] = best_of(_sums(g, tokens, k),
                             reward(g, k, tokens) if g.may_stop_early() else None)
    return done[memo]


def choose(g, stop, w):
    """(slot, value): the choice plan(g)'s tables make with the current dice (odds.pick);
    equal ones go to the other objective's best: in the charge, not where the chance is
    whole (no tokens are taken there, whatever the choice)."""
    tokens = g.phase == DECHARGE
    return pick(g.turn.dice, stop, w, lambda: plan(g, not tokens), _sure(tokens))


def _sure(tokens):
    # choose()'s: what the choices are worth when the second objective is the same for all
    # (the charge's whole chance: no tokens are taken there); None: none such.
    return None if tokens else 216 * Q


def decide(g):
    """The current player's choice in a turn: (mask, value, unit): value / unit is the chance
    not to lose the turn (the charge) or the tokens it expects to shed (the décharge); mask
    None: stop. Equal choices go to the other objective's best (then odds.pick's order)."""
    t = g.turn
    s, value = choose(g, *plan(g))
    return mask_of(t.dice, s, t.kept), value, 216 * Q


def hint(g):
    """(mask, text) for a human's turn: the dice to keep (mask None: stop) and what that choice
    is worth as the panel says it: the chance not to lose the turn ("85%"), or in the
    décharge the tokens it expects to shed ("+0.9T", "-12T"); "OK" first when it stops. (The
    words are made here: this module is loaded only with hints or seats, ui always.)"""
    mask, value, unit = decide(g)
    v = (value + 108) // 216
    if g.phase != DECHARGE:
        text = words.T.HINT_CHANCE % ((v * 100 + _HALF) // Q)
    else:
        n = (v * 10 + _HALF) // Q  # tenths of a token
        sign = "-" if n < 0 else "+"
        n = abs(n)
        if n < 100:
            text = words.T.HINT_SHED % (sign, n // 10, n % 10)
        else:
            text = words.T.HINT_SHED_WHOLE % (sign, (n + 5) // 10)
    # The stop's mark a word's gap before the figure: "OK 62%", "OK +0.9T".
    return mask, words.T.HINT_STOP + " " + text if mask is None else text


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
    warm(g)
    many = _game[3]  # each throw's share of the 216
    counts = {}
    for n in range(56):
        x = v[n]
        counts[x] = counts.get(x, 0) + many[n]
    m = len(c.players)
    comes = 0.0
    below = 0
    for x in sorted(counts):
        lower = (below / 216) ** m
        below += counts[x]
        comes += x * ((below / 216) ** m - lower)
    if c.want == "high":
        return "comes" if comes > now + EPS else "is"
    if c.want == "both" and g.phase == DECHARGE:
        return "is"
    return "comes" if comes < now - EPS else "is"
