"""Computer seats against weaker players: how often each pays the round.

    python tools/bench/arena.py [--games N] [--presets classic,lebon] [--seed S] [--jobs J]

For every preset, 4-player games of one exact seat (dicetray.strategy, as the tray's computer
seat plays) against three seats of another kind: "random" (the test bot, trayhost.autoplay's
bot_action: random keeps, stops on a throw worth 4 or more, or one time in six) and "greedy"
(stops on any figure when allowed, else keeps the dice showing the highest face, at most two).
N games against each kind (the exact seat takes each place in turn). A round is a game: its
losers pay it. Printed: the share of games the exact seat pays, and the share one seat of the
other kind pays, each with a 95% interval (Wilson); the exact strategy must pay significantly
fewer. figures() gives the pooled shares to the bench (seats.py).
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
from trayhost.autoplay import SeededDice, apply, bot_action  # noqa: E402

PLAYERS = 4
KINDS = ("random", "greedy")
GAMES = 20000  # per preset and kind: 40,000 games a preset, 20,000 against each kind


def signature(g):
    """What the exact seat's tables depend on at this moment (strategy.objective's inputs)."""
    t = g.turn
    head = (g.phase, t.pos, len(t.order), t.count, g.max_throws(), g.may_stop_early())
    if t.pos == 0:
        return head
    done = tuple((tuple(t.finals[i]), t.counts[i]) for i in range(t.pos))
    if g.phase == "decharge":
        return head + done + tuple(g.tokens[p] for p in t.order[:t.pos + 1])
    return head + done


def exact_action(g, cache):
    if g.can_announce():
        return ("announce", strategy.stake(g))
    t = g.turn
    if g.contest is not None or not t.count:
        return ("throw", ())
    if not g.can_throw():
        return ("stop",)
    sig = signature(g)
    hit = cache.get(sig)
    if hit is None:
        if len(cache) > 200000:
            cache.clear()
        hit = cache[sig] = odds.tables(t.count, strategy.objective(g)[0], g.max_throws(),
                                       g.may_stop_early())
    mask, _ = odds.pick(t.dice, *hit)
    if mask is None:
        return ("stop",)
    return ("throw", tuple(i for i in range(3) if mask & (1 << i)))


def greedy_action(g, rng):
    if g.can_announce():
        return ("announce", "is")
    t = g.turn
    if g.contest is not None or not t.count:
        return ("throw", ())
    if not g.can_throw():
        return ("stop",)
    if g.can_stop() and is_figure(evaluate(t.dice, g.opts)):
        return ("stop",)
    top = max(t.dice)
    keep = tuple(i for i in range(3) if t.dice[i] == top)[:2]
    return ("throw", keep)


def one_game(preset, kind, seed):
    """(exact seat's place, losers) of one game."""
    dice = SeededDice(seed)
    rng = SeededDice(seed + 7919)
    g = Game(PLAYERS, preset, dice)
    g.take_events()
    me = seed % PLAYERS
    cache = _CACHES.setdefault(preset, {})
    while not g.over:
        if g.current == me:
            action = exact_action(g, cache)
        elif kind == "random":
            action = bot_action(g, rng)
        else:
            action = greedy_action(g, rng)
        apply(g, action)
    return me, g.result.losers


_CACHES = {}


def _batch(job):
    preset, kind, first, count = job
    exact = other = 0
    for seed in range(first, first + count):
        me, losers = one_game(preset, kind, seed)
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


def run(games, presets=PRESET_NAMES, seed=1, jobs=None, out=print):
    """Play games against each kind for each preset; print per preset; return the tallies:
    {(preset, kind): (games, exact seat's losses, other seats' losses)}."""
    chunk = max(1, min(500, games // 8 or 1))
    work = []
    for i, preset in enumerate(presets):
        for j, kind in enumerate(KINDS):
            base = seed * 10_000_019 + (i * 2 + j) * 1_000_003
            for first in range(0, games, chunk):
                work.append((preset, kind, base + first, min(chunk, games - first)))
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
        for kind in KINDS:
            n, exact, other = tallies[(preset, kind)]
            out("%-9s exact vs 3 %-6s  %s" % (preset, kind, _shares(n, exact, other)))
    return tallies


def _shares(n, exact, other):
    lo, hi = wilson(exact, n)
    olo, ohi = wilson(other, n * (PLAYERS - 1))
    return "exact pays %.3f [%.3f, %.3f] of %d games; each other seat %.3f [%.3f, %.3f]" % (
        exact / n, lo, hi, n, other / (n * (PLAYERS - 1)), olo, ohi)


def figures(games, presets=PRESET_NAMES, seed=1, jobs=None, out=print):
    """The bench's keys: the pooled shares of games paid (every preset, 4 players)."""
    tallies = run(games, presets, seed, jobs, out)
    res = {}
    for kind in KINDS:
        n = sum(tallies[(p, kind)][0] for p in presets)
        other = sum(tallies[(p, kind)][2] for p in presets)
        res["seats_loss_share_" + kind] = round(other / (n * (PLAYERS - 1)), 4)
    n = sum(t[0] for t in tallies.values())
    exact = sum(t[1] for t in tallies.values())
    res["seats_loss_share_exact"] = round(exact / n, 4)
    lo, hi = wilson(exact, n)
    out("pooled: exact seat pays %.4f [%.4f, %.4f] of %d games; a random seat %.4f, a greedy "
        "seat %.4f" % (exact / n, lo, hi, n, res["seats_loss_share_random"],
                       res["seats_loss_share_greedy"]))
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES, help="games per preset and kind")
    ap.add_argument("--presets", default=",".join(PRESET_NAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    a = ap.parse_args(argv)
    figures(a.games, tuple(a.presets.split(",")), a.seed, a.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
