"""Holds a loaded game to the invariants the engine keeps: its fields must agree (load only).

Each rule below is one the engine never breaks; a save that breaks one could crash the tray or
play forever (a one-player roll-off, a loser who is not in the turn), so it is refused.
"""

from dicetray.game import MAX_THROWS
from dicetray.payout import fewest_from
from dicetray.rules import (
    DECHARGE_FEWEST,
    FIRST_OUT,
    FROM_PREVIOUS,
    LAST_HOLDER,
    LIMIT_AT_MOST,
    START_DIE,
    START_LOW,
    START_SEAT1,
    TIE_PLAYOFF,
)
from dicetray.settle import key
from dicetray.state import (
    BOTH,
    CHARGE,
    DECHARGE,
    DIE,
    HIGH,
    LOW,
    NOBODY,
    OVER,
    START,
    THROW,
    TIE,
    WHO_STARTS,
    SaveError,
)


def _need(ok, msg):
    if not ok:
        raise SaveError("bad save: " + msg)


def check_agree(game):
    """Raise SaveError unless the fields of a loaded game agree as the engine keeps them."""
    o = game.opts
    phase = game.phase
    _need(len(game.computers) < game.n, "the tray plays every seat")
    for p in game.out:
        _need(not game.tokens[p], "a player who left holds tokens")
    # Dice are kept between two throws of a player's own, of the dice he threw.
    _need(not game.turn.kept or game.can_keep(), "dice kept with no throw to come")
    _need(not game.out or (o.end == LAST_HOLDER and phase in (DECHARGE, OVER)),
          "players left the game before the decharge")
    if phase == START:
        _check_start(game)
    elif phase == OVER:
        _check_over(game)
    else:
        _check_turn(game)
        _check_last_turn(game)
        if game.contest is not None:
            _check_settling(game)


def _check_start(game):
    o = game.opts
    c = game.contest
    t = game.turn
    _need(o.start != START_SEAT1, "a start roll-off when seat 1 starts")
    _need(game.pot == o.tokens and t.number == 0 and t.limit == 0 and t.count == 0
          and t.pos == 0 and not t.order and not t.finals and not t.queue
          and game.last is None and game.result is None, "the start phase holds a turn")
    _need(c is not None and c.why == WHO_STARTS, "the start phase is a roll-off for who starts")
    _need(c.want == (LOW if o.start == START_LOW else HIGH)
          and c.kind == (DIE if o.start == START_DIE else THROW) and c.stake is None,
          "the start roll-off does not follow the options")
    if c.round == 1:
        _need(c.players == list(range(game.n)), "the first start roll-off is everyone's")
    else:
        _need(c.players == sorted(c.players), "the start roll-off goes round the table")
    _check_rolls(c)


def _check_rolls(c):
    _need(len(c.results) < len(c.players), "a finished contest is still open")
    size = 1 if c.kind == DIE else 3
    _need(not [d for d in c.results if len(d) != size], "the contest's rolls are not its kind")


def _check_over(game):
    o = game.opts
    r = game.result
    _need(r is not None and game.contest is None and not game.turn.queue and game.pot == 0,
          "a finished game must have a result and nothing open")
    losers, winners = r.losers, r.winners
    _need(losers and not [p for p in losers if p in winners], "the result's losers and winners")
    _need(game.last is not None and game.last.number == game.turn.number,
          "a game ends after a turn")
    if o.end == FIRST_OUT:
        _need(r.reason == FIRST_OUT, "the result's reason does not follow the options")
        top = max(game.tokens)
        _need(losers == [p for p in range(game.n) if game.tokens[p] == top],
              "the players holding the most tokens pay")
        _need(not [p for p in winners if game.tokens[p]], "a winner still holds tokens")
    else:
        _need(r.reason != FIRST_OUT, "the result's reason does not follow the options")
        _need(winners == game.out and losers == game.active()
              and game.tokens[losers[0]] == o.tokens, "the last holder holds every token")


def _check_turn(game):
    o = game.opts
    t = game.turn
    order = t.order
    act = game.active()
    charge = game.phase == CHARGE
    if charge:
        _need(game.pot > 0, "the charge goes on while the pot holds tokens")
    else:
        _need(game.pot == 0, "the decharge starts once the pot is empty")
        _need(not [p for p in act if not game.tokens[p]], "a player in the decharge has no token")
    _need(t.number >= 1 and game.result is None, "a turn under way")
    _need(len(act) >= 2 and len(order) == len(act) and order[0] in act,
          "the turn order must hold every player still in")
    i = act.index(order[0])
    _need(order == act[i:] + act[:i], "the turn goes round the table")
    done = len(t.finals)
    _need(done <= len(order) and t.pos < len(order) and len(t.counts) == done,
          "more players done than in the turn")
    first_cap = 1 if charge and o.dry_charge else MAX_THROWS
    for j in range(done):
        allowed = first_cap if j == 0 else t.counts[j - 1 if o.limit_from == FROM_PREVIOUS else 0]
        n = t.counts[j]
        _need(n <= allowed, "a player threw past the limit")
        _need(j == 0 or n == allowed or o.limit == LIMIT_AT_MOST or o.le_bon,
              "a follower stopped before the limit")
    if done:
        expect = t.counts[done - 1 if o.limit_from == FROM_PREVIOUS else 0]
    else:
        expect = 1 if charge and o.dry_charge else 0
    _need(t.limit == expect, "the limit does not follow the throws made")
    if done == len(order):
        _need(t.pos == done - 1 and t.count == 0 and not t.dice and game.contest is not None,
              "a finished turn is settled by a roll-off")
    else:
        _need(t.pos == done and game.contest is None and not t.queue
              and t.winner == t.loser == t.amount == NOBODY,
              "the player throwing follows the players done")
        _need(t.count <= game.max_throws() and (t.count == 0) == (not t.dice),
              "a player threw past the limit")


def _check_last_turn(game):
    o = game.opts
    last = game.last
    t = game.turn
    if t.number == 1:
        _need(last is None and game.phase == CHARGE and game.pot == o.tokens,
              "the first turn follows no turn")
        _need(o.start != START_SEAT1 or t.order[0] == 0, "seat 1 starts the game")
        return
    _need(last is not None and last.number == t.number - 1, "the last turn is missing")
    w, lo = last.winner, last.loser
    _need(w != lo and lo in t.order, "the last turn's winner and loser")
    _need(last.phase == game.phase or last.phase == CHARGE,
          "the last turn's phase is later than the game's")
    if last.passed:
        _need(last.amount == 0 and o.two_player_pass and len(t.order) == 2,
              "a passed hand pays nothing, between two players")
    else:
        _need(1 <= last.amount <= game.tokens[lo], "the last turn's payment")
    starter = lo
    if game.phase == DECHARGE and last.phase == CHARGE and o.decharge_start == DECHARGE_FEWEST:
        starter = fewest_from(game, lo)
    _need(t.order[0] == starter, "the last turn's loser starts the next one")


def _check_settling(game):
    # A tie contest after every player is done: who is in it must be tied, as the engine ties.
    o = game.opts
    t = game.turn
    order = t.order
    c = game.contest
    keys = [key(game, i) for i in range(len(order))]
    top, bottom = max(keys), min(keys)
    best = [order[i] for i, k in enumerate(keys) if k == top]
    worst = [order[i] for i, k in enumerate(keys) if k == bottom]
    _need(top != bottom or not (o.two_player_pass and len(order) == 2),
          "two tied players pass the hand")
    groups = {HIGH: best, LOW: worst, BOTH: order if top == bottom else []}
    _need(c.why == TIE and c.kind == (THROW if o.tie == TIE_PLAYOFF else DIE),
          "a turn's tie is settled as the tie option says")
    _need(c.stake is None or (c.kind == THROW and c.round > 1),
          "a stake is announced only for a repeated play-off")
    _check_rolls(c)
    group = groups[c.want]
    _need(not [p for p in c.players if p not in group], "the contest's players are not tied")
    _need(c.round > 1 or len(c.players) == len(group), "a first contest is every tied player's")
    seats = [p for p in order if p in c.players]
    if c.kind == THROW:
        seats.reverse()
    _need(c.players == seats, "the contest does not go round the table")
    _check_queue(game, groups)
    _check_settled(game, best, worst)


def _check_queue(game, groups):
    # At most the winner's tie waits for the loser's (or, in a save from before rules.md's
    # decision 14, the other way round): never two of a kind, never a "both".
    t = game.turn
    c = game.contest
    _need(len(t.queue) <= 1, "more contests queued than a turn can need")
    wants = [c.want]
    for ps, want in t.queue:
        _need(len(ps) >= 2 and not [p for p in ps if p not in groups[want]],
              "a queued contest's players are not tied")
        _need(not [p for p in ps if p in c.players], "a player both wins and loses the turn")
        _need(want != HIGH or game.phase == DECHARGE, "the charge settles no winner's tie")
        wants.append(want)
    _need(len(wants) == 1 or sorted(wants) == [HIGH, LOW], "a queued contest is not needed")


def _check_settled(game, best, worst):
    t = game.turn
    c = game.contest
    wants = [c.want] + [want for _, want in t.queue]
    low_open = LOW in wants or BOTH in wants
    high_open = HIGH in wants or BOTH in wants
    w, lo = t.winner, t.loser
    _need((lo == NOBODY) == low_open, "the loser is settled and contested at once")
    _need(lo == NOBODY or lo in worst, "the loser did not do the worst throw")
    _need(len(worst) > 1 or lo == worst[0], "the loser did not do the worst throw")
    _need(w == NOBODY or w in best, "the winner did not do the best throw")
    _need(len(best) > 1 or w == best[0], "the winner did not do the best throw")
    _need(not high_open or w == NOBODY, "the winner is settled and contested at once")
    if game.phase == DECHARGE:
        _need(w != NOBODY or high_open, "the decharge needs its winner settled")
    _need(w == NOBODY or w != lo, "one player wins and loses the turn")
    for ps, want in [[c.players, c.want]] + t.queue:
        _need(want == HIGH or w not in ps, "the winner still plays for the loser's place")
        _need(want == LOW or lo not in ps, "the loser still plays for the winner's place")
    _need(t.amount == NOBODY or t.amount >= 1, "the turn's amount")
