"""Computer seats against other players: how often each pays the round.

    python tools/bench/arena.py [--games N] [--presets classic,lebon] [--kinds random,baseline]
                                [--seed S] [--jobs J] [--seat baseline]

For every preset, 4-player games of one tray seat (dicetray.strategy, as the tray's computer
seat plays) against three seats of another kind: "random" (the test bot, trayhost.autoplay's
bot_action: random keeps, stops on a throw worth 4 or more, or one time in six), "greedy"
(stops on any figure when allowed, else keeps the dice showing the highest face, at most two)
and "baseline" (the seat as first released: bench.baseline). N games against each kind (the
tray seat takes each place in turn). A round is a game: its losers pay it. Printed: the share
of games the tray seat pays, and the share one seat of the other kind pays, each with a 95%
interval (Wilson), and a fair share (fair()); the tray seat must pay significantly less.
--seat baseline plays the released seat in the tray seat's place (its figures, to compare).
figures() gives the pooled shares against random and greedy seats to the bench (seats.py).
"""

import argparse
import math
import os
import sys
from multiprocessing import Pool

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import trayhost  # noqa: E402,F401  (the firmware importable)
from dicetray import odds, strategy  # noqa: E402
from dicetray.game import Game  # noqa: E402
from dicetray.options import PRESET_NAMES  # noqa: E402
from dicetray.rules import evaluate, is_figure  # noqa: E402
from dicetray.state import DECHARGE  # noqa: E402
from trayhost.autoplay import SeededDice, apply, bot_action  # noqa: E402

from bench.baseline import odds as baseline_odds  # noqa: E402
from bench.baseline import strategy as baseline  # noqa: E402

PLAYERS = 4
KINDS = ("random", "greedy", "baseline")
GAMES = 20000  # per preset and kind: 60,000 games a preset, 20,000 against each kind


def signature(g):
    """What a seat's tables depend on at this moment: the turn so far, the limits, and in the
    décharge everybody's tokens (the seat's objective's inputs, the released seat's too)."""
    t = g.turn
    head = (g.phase, t.pos, len(t.order), t.count, g.max_throws(), g.may_stop_early(), t.limit)
    done = tuple((tuple(t.finals[i]), t.counts[i]) for i in range(t.pos))
    if g.phase == DECHARGE:
        return head + done + tuple(g.tokens[p] for p in t.order)
    return head + done


def _turn_action(g):
    # What every seat does alike: the stake, a roll-off's throw, the first throw, a last stop.
    if g.can_announce():
        return ("announce", strategy.stake(g))
    t = g.turn
    if g.contest is not None or not t.count:
        return ("throw", ())
    if not g.can_throw():
        return ("stop",)
    return None


def _as_action(mask):
    if mask is None:
        return ("stop",)
    return ("throw", tuple(i for i in range(3) if mask & (1 << i)))


def _cached(cache, g, make):
    # make()'s tables for this moment, kept by signature (a bounded cache).
    sig = signature(g)
    hit = cache.get(sig)
    if hit is None:
        if len(cache) > 200000:
            cache.clear()
        hit = cache[sig] = make()
    return hit


def exact_action(g, cache):
    """The tray seat's action: strategy.decide's, its tables kept by signature."""
    action = _turn_action(g)
    if action is not None:
        return action
    t = g.turn
    s, _ = strategy.choose(g, *_cached(cache, g, lambda: strategy.plan(g)))
    return _as_action(odds.mask_of(t.dice, s, t.kept))


def baseline_action(g, cache):
    """The released seat's action (bench.baseline), its tables kept by signature."""
    action = _turn_action(g)
    if action is not None:
        return action
    t = g.turn
    hit = _cached(cache, g, lambda: baseline_odds.tables(
        t.count, baseline.objective(g)[0], g.max_throws(), g.may_stop_early()))
    mask, _ = baseline_odds.pick(t.dice, *hit)
    return _as_action(mask)


def greedy_action(g, rng):
    if g.can_announce():
        return ("announce", "is")  # the greedy seat always plays for what is
    action = _turn_action(g)
    if action is not None:
        return action
    t = g.turn
    if g.can_stop() and is_figure(evaluate(t.dice, g.opts)):
        return ("stop",)
    top = max(t.dice)
    keep = tuple(i for i in range(3) if t.dice[i] == top)[:2]
    return ("throw", keep)


def one_game(preset, kind, seed, seat="tray"):
    """(the tray seat's place, losers) of one game; seat "baseline": the released seat in
    its place."""
    dice = SeededDice(seed)
    rng = SeededDice(seed + 7919)
    g = Game(PLAYERS, preset, dice)
    g.take_events()
    me = seed % PLAYERS
    mine = _CACHES.setdefault((seat, preset), {})
    theirs = _CACHES.setdefault(("baseline", preset), {})
    while not g.over:
        if g.current == me:
            if seat == "baseline":
                action = baseline_action(g, mine)
            else:
                action = exact_action(g, mine)
        elif kind == "random":
            action = bot_action(g, rng)
        elif kind == "greedy":
            action = greedy_action(g, rng)
        else:
            action = baseline_action(g, theirs)
        apply(g, action)
    return me, g.result.losers


_CACHES = {}


def _batch(job):
    preset, kind, first, count, seat = job
    exact = other = 0
    for seed in range(first, first + count):
        me, losers = one_game(preset, kind, seed, seat)
        exact += me in losers
        other += sum(1 for p in losers if p != me)
    return preset, kind, count, exact, other


def wilson(k, n, z=1.96):
    """The 95% interval of a share k/n (Wilson score)."""
    if not n:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def run(games, presets=PRESET_NAMES, seed=1, jobs=None, out=print, kinds=KINDS, seat="tray"):
    """Play games against each kind for each preset; print per preset; return the tallies:
    {(preset, kind): (games, the tray seat's losses, other seats' losses)}."""
    chunk = max(1, min(500, games // 8 or 1))
    work = []
    for i, preset in enumerate(presets):
        for kind in kinds:
            j = KINDS.index(kind)  # the same games against a kind, whichever kinds are played
            base = seed * 10_000_019 + (i * 2 + j if j < 2 else 100 + i) * 1_000_003
            for first in range(0, games, chunk):
                work.append((preset, kind, base + first, min(chunk, games - first), seat))
    tallies = {}
    jobs = jobs or os.cpu_count() or 1
    if jobs > 1 and len(work) > 1:
        with Pool(jobs) as pool:
            results = pool.map(_batch, work)
    else:
        results = [_batch(w) for w in work]
    for preset, kind, n, exact, other in results:
        t = tallies.get((preset, kind), (0, 0, 0))
        tallies[(preset, kind)] = (t[0] + n, t[1] + exact, t[2] + other)
    for preset in presets:
        for kind in kinds:
            n, exact, other = tallies[(preset, kind)]
            out("%-9s %s vs 3 %-8s  %s" % (preset, seat, kind, _shares(n, exact, other)))
    return tallies


def fair(n, exact, other):
    """A fair share: what each seat would pay were they all alike, the games' losers shared
    (a game may have more than one: the most tokens, tied, with end first_out)."""
    return (exact + other) / (n * PLAYERS)


def _shares(n, exact, other):
    lo, hi = wilson(exact, n)
    olo, ohi = wilson(other, n * (PLAYERS - 1))
    share = fair(n, exact, other)
    below = ", significantly less" if hi < share else ""
    return "pays %.3f [%.3f, %.3f] of %d games (a fair share: %.3f%s); each other seat %.3f " \
        "[%.3f, %.3f]" % (exact / n, lo, hi, n, share, below, other / (n * (PLAYERS - 1)), olo,
                          ohi)


def figures(games, presets=PRESET_NAMES, seed=1, jobs=None, out=print, kinds=KINDS,
            seat="tray"):
    """The bench's keys: the pooled shares of games paid (every preset, 4 players) against each
    kind, and the tray seat's own against random and greedy seats together."""
    tallies = run(games, presets, seed, jobs, out, kinds, seat)
    res = {}
    for kind in kinds:
        n = sum(tallies[(p, kind)][0] for p in presets)
        exact = sum(tallies[(p, kind)][1] for p in presets)
        other = sum(tallies[(p, kind)][2] for p in presets)
        res["seats_loss_share_" + kind] = round(other / (n * (PLAYERS - 1)), 4)
        res["seats_loss_share_vs_" + kind] = round(exact / n, 4)
        lo, hi = wilson(exact, n)
        out("pooled: the %s seat pays %.4f [%.4f, %.4f] of %d games against 3 %s seats, each "
            "of them %.4f" % (seat, exact / n, lo, hi, n, kind, other / (n * (PLAYERS - 1))))
    weak = [k for k in kinds if k != "baseline"]
    if weak:
        n = sum(tallies[(p, k)][0] for p in presets for k in weak)
        exact = sum(tallies[(p, k)][1] for p in presets for k in weak)
        res["seats_loss_share_exact"] = round(exact / n, 4)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES, help="games per preset and kind")
    ap.add_argument("--presets", default=",".join(PRESET_NAMES))
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--seat", default="tray", choices=("tray", "baseline"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    a = ap.parse_args(argv)
    figures(a.games, tuple(a.presets.split(",")), a.seed, a.jobs, kinds=tuple(a.kinds.split(",")),
            seat=a.seat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
