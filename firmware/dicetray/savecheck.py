"""Checks a saved game before it becomes a Game: each field, then that they agree (load only).

check_state() types every field of the dict; check_agree() then holds the built Game to the
invariants the engine keeps, so that every save accepted is a state the engine can reach and
plays on to an end. Every refusal is a SaveError whose message says why; anything else raised
here is a bug. Messages never repr() the save's values: a hostile file may nest lists hundreds
deep, and that exhausts MicroPython's small C stack.
"""

from dicetray import game as g
from dicetray.rules import Options, RulesError

_WANTS = ("high", "low", "both")


def _fail(msg):
    raise g.SaveError("bad save: " + msg)


def _show(v):
    # A value for a message, never long and never deep.
    if v is None or type(v) is bool:
        return str(v)
    if type(v) is int:
        text = str(v)
        return text if len(text) <= 12 else text[:12] + "..."
    if type(v) is str:
        return repr(v[:16]) + ("..." if len(v) > 16 else "")
    return "a " + type(v).__name__


def _int(v, name, lo, hi):
    if type(v) is not int or not lo <= v <= hi:
        _fail("%s must be an integer %d..%d, got %s" % (name, lo, hi, _show(v)))
    return v


def _list(v, name, max_len=64):
    if type(v) is not list or len(v) > max_len:
        _fail("%s must be a list" % name)
    return v


def _dict(v, name, keys):
    if type(v) is not dict or len(v) != len(keys):
        _fail("%s must be a dict with keys %s" % (name, ", ".join(keys)))
    for k in keys:
        if k not in v:
            _fail("%s must be a dict with keys %s" % (name, ", ".join(keys)))
    return v


def _players(v, name, n, distinct=True):
    _list(v, name)
    for p in v:
        _int(p, name + " item", 0, n - 1)
    if distinct and len(set(v)) != len(v):
        _fail(name + " lists a player twice")
    return v


def _dice(v, name, sizes=(3,)):
    _list(v, name)
    if len(v) not in sizes:
        _fail("%s must hold %s dice" % (name, " or ".join(str(s) for s in sizes)))
    for d in v:
        _int(d, name + " die", 1, 6)
    return v


def _choice(v, name, allowed):
    if type(v) is not str or v not in allowed:
        _fail("%s must be one of %s" % (name, ", ".join(allowed)))
    return v


def _need(ok, msg):
    if not ok:
        _fail(msg)


# ---- each field on its own ------------------------------------------------------------------


def check_state(data):
    """Return (state, options, players) from a saved dict, or raise SaveError saying why."""
    if type(data) is not dict:
        _fail("not a dict")
    if data.get("format") != g.SAVE_FORMAT:
        _fail("not a dice tray game (format %s)" % _show(data.get("format")))
    version = data.get("version")
    if version != g.SAVE_VERSION:
        _fail("format version %s, this tray reads version %d" % (_show(version), g.SAVE_VERSION))
    expected = ("format", "version", "players", "options") + g.Game._FIELDS
    _dict(data, "the save", expected)
    n = _int(data["players"], "players", g.MIN_PLAYERS, g.MAX_PLAYERS)
    if type(data["options"]) is not dict:
        _fail("options must be a dict")
    for name in data["options"]:
        if type(name) is not str or len(name) > 32:
            _fail("options: unknown option")
    try:
        options = Options(**data["options"])
    except (RulesError, TypeError) as e:
        _fail("options: %s" % e)
    s = {}
    for name in g.Game._FIELDS:
        s[name] = data[name]

    tokens = _list(s["tokens"], "tokens")
    if len(tokens) != n:
        _fail("tokens must have one entry per player")
    for t in tokens:
        _int(t, "tokens", 0, options.tokens)
    _int(s["pot"], "pot", 0, options.tokens)
    if sum(tokens) + s["pot"] != options.tokens:
        _fail("tokens and pot add up to %d, not %d" % (sum(tokens) + s["pot"], options.tokens))
    _players(s["out"], "out", n)
    _choice(s["phase"], "phase", g.PHASES)
    _int(s["turn"], "turn", 0, 1 << 30)
    _players(s["order"], "order", n)
    _int(s["pos"], "pos", 0, g.MAX_PLAYERS - 1)
    _int(s["limit"], "limit", 0, g.MAX_THROWS)
    count = _int(s["count"], "count", 0, g.MAX_THROWS)
    _dice(s["dice"], "dice", (3,) if count else (0,))
    finals = _list(s["finals"], "finals", 8)
    counts = _list(s["counts"], "counts", 8)
    if len(finals) != len(counts):
        _fail("finals and counts differ in length")
    for d in finals:
        _dice(d, "finals")
    for c in counts:
        _int(c, "counts", 1, g.MAX_THROWS)
    if s["contest"] is not None:
        _check_contest(s["contest"], n)
    for item in _list(s["queue"], "queue", 8):
        if type(item) is not list or len(item) != 2:
            _fail("queue items are [players, want]")
        _players(item[0], "queue players", n)
        _choice(item[1], "queue want", _WANTS)
    if s["res"] is not None:
        res = _dict(s["res"], "res", ("winner", "loser", "amount"))
        _int(res["winner"], "res winner", -1, n - 1)
        _int(res["loser"], "res loser", -1, n - 1)
        # "For what comes" pays a play-off throw's value: up to 10 whatever the tokens.
        _int(res["amount"], "res amount", -1, max(10, options.tokens))
    if s["last"] is not None:
        _check_last(s["last"], n, options)
    if s["result"] is not None:
        result = _dict(s["result"], "result", ("losers", "winners", "reason"))
        _players(result["losers"], "result losers", n)
        _players(result["winners"], "result winners", n)
        _choice(result["reason"], "result reason", ("first_out", "espagnole", "last_holder"))
    return s, options, n


def _check_contest(c, n):
    keys = ("players", "want", "kind", "why", "round", "results", "stake")
    _dict(c, "contest", keys)
    players = _players(c["players"], "contest players", n)
    if len(players) < 2:
        _fail("a contest needs two players or more")
    _choice(c["want"], "contest want", _WANTS)
    kind = _choice(c["kind"], "contest kind", ("die", "throw"))
    _choice(c["why"], "contest why", ("start", "tie"))
    _int(c["round"], "contest round", 1, 1 << 30)
    if c["stake"] is not None:
        _choice(c["stake"], "contest stake", ("is", "comes"))
    results = _list(c["results"], "contest results", 8)
    if len(results) >= len(players):
        _fail("a finished contest is still open")
    for d in results:
        _dice(d, "contest results", (1,) if kind == "die" else (3,))


def _check_last(last, n, options):
    keys = ("turn", "phase", "winner", "loser", "amount", "wdice", "ldice", "passed")
    _dict(last, "last", keys)
    _int(last["turn"], "last turn", 1, 1 << 30)
    _choice(last["phase"], "last phase", (g.CHARGE, g.DECHARGE))
    _int(last["winner"], "last winner", 0, n - 1)
    _int(last["loser"], "last loser", 0, n - 1)
    _int(last["amount"], "last amount", 0, options.tokens)
    _dice(last["wdice"], "last wdice")
    _dice(last["ldice"], "last ldice")
    if type(last["passed"]) is not bool:
        _fail("last passed must be true or false")


# ---- the fields together --------------------------------------------------------------------


def check_agree(game):
    """Raise SaveError unless the fields of a loaded game agree as the engine keeps them."""
    o = game.opts
    phase = game.phase
    for p in game.out:
        _need(not game.tokens[p], "a player who left holds tokens")
    _need(not game.out or (o.end == "last_holder" and phase in (g.DECHARGE, g.OVER)),
          "players left the game before the decharge")
    if phase == g.START:
        _check_start(game)
    elif phase == g.OVER:
        _check_over(game)
    else:
        _check_turn(game)
        _check_last_turn(game)
        if game.contest is not None:
            _check_resolution(game)


def _check_start(game):
    o = game.opts
    c = game.contest
    _need(o.start != "seat1", "a start roll-off when seat 1 starts")
    _need(game.pot == o.tokens and game.turn == 0 and game.limit == 0 and game.count == 0
          and game.pos == 0 and not game.order and not game.finals and not game.queue
          and game.res is None and game.last is None and game.result is None,
          "the start phase holds a turn")
    _need(c is not None and c["why"] == "start", "the start phase is a roll-off for who starts")
    _need(c["want"] == ("low" if o.start == "throw_low" else "high")
          and c["kind"] == ("die" if o.start == "die" else "throw") and c["stake"] is None,
          "the start roll-off does not follow the options")
    players = c["players"]
    if c["round"] == 1:
        _need(players == list(range(game.n)), "the first start roll-off is everyone's")
    else:
        _need(players == sorted(players), "the start roll-off goes round the table")


def _check_over(game):
    o = game.opts
    r = game.result
    _need(r is not None and game.contest is None and not game.queue and game.pot == 0,
          "a finished game must have a result and nothing open")
    losers, winners = r["losers"], r["winners"]
    _need(losers and not [p for p in losers if p in winners], "the result's losers and winners")
    _need(game.last is not None and game.last["turn"] == game.turn, "a game ends after a turn")
    if o.end == "first_out":
        _need(r["reason"] == "first_out", "the result's reason does not follow the options")
        top = max(game.tokens)
        _need(losers == [p for p in range(game.n) if game.tokens[p] == top],
              "the players holding the most tokens pay")
        _need(not [p for p in winners if game.tokens[p]], "a winner still holds tokens")
    else:
        _need(r["reason"] != "first_out", "the result's reason does not follow the options")
        _need(winners == game.out and losers == game.active()
              and game.tokens[losers[0]] == o.tokens, "the last holder holds every token")


def _check_turn(game):
    o = game.opts
    order = game.order
    act = game.active()
    charge = game.phase == g.CHARGE
    if charge:
        _need(game.pot > 0, "the charge goes on while the pot holds tokens")
    else:
        _need(game.pot == 0, "the decharge starts once the pot is empty")
        _need(not [p for p in act if not game.tokens[p]], "a player in the decharge has no token")
    _need(game.turn >= 1 and game.result is None, "a turn under way")
    _need(len(act) >= 2 and len(order) == len(act) and order[0] in act,
          "the turn order must hold every player still in")
    i = act.index(order[0])
    _need(order == act[i:] + act[:i], "the turn goes round the table")
    done = len(game.finals)
    _need(done <= len(order) and game.pos < len(order), "more players done than in the turn")
    first_cap = 1 if charge and o.dry_charge else g.MAX_THROWS
    for j in range(done):
        allowed = first_cap if j == 0 else game.counts[j - 1 if o.limit_from == "previous" else 0]
        n = game.counts[j]
        _need(n <= allowed, "a player threw past the limit")
        _need(j == 0 or n == allowed or o.limit == "at_most" or o.le_bon,
              "a follower stopped before the limit")
    if done:
        expect = game.counts[done - 1 if o.limit_from == "previous" else 0]
    else:
        expect = 1 if charge and o.dry_charge else 0
    _need(game.limit == expect, "the limit does not follow the throws made")
    if done == len(order):
        _need(game.pos == done - 1 and game.count == 0 and game.contest is not None
              and game.res is not None, "a finished turn is settled by a roll-off")
    else:
        _need(game.pos == done and game.contest is None and not game.queue
              and game.res is None, "the player throwing follows the players done")
        _need(game.count <= game.max_throws(), "a player threw past the limit")


def _check_last_turn(game):
    o = game.opts
    last = game.last
    if game.turn == 1:
        _need(last is None and game.phase == g.CHARGE and game.pot == o.tokens,
              "the first turn follows no turn")
        _need(o.start != "seat1" or game.order[0] == 0, "seat 1 starts the game")
        return
    _need(last is not None and last["turn"] == game.turn - 1, "the last turn is missing")
    w, lo = last["winner"], last["loser"]
    _need(w != lo and lo in game.order, "the last turn's winner and loser")
    _need(last["phase"] == game.phase or last["phase"] == g.CHARGE,
          "the last turn's phase is later than the game's")
    if last["passed"]:
        _need(last["amount"] == 0 and o.two_player_pass and len(game.order) == 2,
              "a passed hand pays nothing, between two players")
    else:
        _need(1 <= last["amount"] <= game.tokens[lo], "the last turn's payment")
    starter = lo
    if game.phase == g.DECHARGE and last["phase"] == g.CHARGE and o.decharge_start == "fewest":
        starter = game._fewest_from(lo)
    _need(game.order[0] == starter, "the last turn's loser starts the next one")


def _check_resolution(game):
    # A tie contest after every player is done: who is in it must be tied, as the engine ties.
    o = game.opts
    order = game.order
    c = game.contest
    res = game.res
    keys = [game._key(i) for i in range(len(order))]
    top, bottom = max(keys), min(keys)
    best = [order[i] for i, k in enumerate(keys) if k == top]
    worst = [order[i] for i, k in enumerate(keys) if k == bottom]
    _need(top != bottom or not (o.two_player_pass and len(order) == 2),
          "two tied players pass the hand")
    groups = {"high": best, "low": worst, "both": order if top == bottom else []}
    _need(c["why"] == "tie" and c["kind"] == ("throw" if o.tie == "playoff" else "die"),
          "a turn's tie is settled as the tie option says")
    _need(c["stake"] is None or (c["kind"] == "throw" and c["round"] > 1),
          "a stake is announced only for a repeated play-off")
    players = c["players"]
    group = groups[c["want"]]
    _need(not [p for p in players if p not in group], "the contest's players are not tied")
    _need(c["round"] > 1 or len(players) == len(group), "a first contest is every tied player's")
    seats = [p for p in order if p in players]
    if c["kind"] == "throw":
        seats.reverse()
    _need(players == seats, "the contest does not go round the table")
    # At most the winner's tie waits for the loser's (or, in a save from before #14, the other
    # way round): never two of a kind, never a "both".
    _need(len(game.queue) <= 1, "more contests queued than a turn can need")
    wants = [c["want"]]
    for item in game.queue:
        ps, want = item
        _need(len(ps) >= 2 and not [p for p in ps if p not in groups[want]],
              "a queued contest's players are not tied")
        _need(not [p for p in ps if p in players], "a player both wins and loses the turn")
        _need(want != "high" or game.phase == g.DECHARGE, "the charge settles no winner's tie")
        wants.append(want)
    _need(len(wants) == 1 or sorted(wants) == ["high", "low"], "a queued contest is not needed")
    low_open = "low" in wants or "both" in wants
    high_open = "high" in wants or "both" in wants
    w, lo = res["winner"], res["loser"]
    _need((lo == -1) == low_open, "the loser is settled and contested at once")
    _need(lo == -1 or lo in worst, "the loser did not do the worst throw")
    _need(len(worst) > 1 or lo == worst[0], "the loser did not do the worst throw")
    _need(w == -1 or w in best, "the winner did not do the best throw")
    _need(len(best) > 1 or w == best[0], "the winner did not do the best throw")
    _need(not high_open or w == -1, "the winner is settled and contested at once")
    if game.phase == g.DECHARGE:
        _need(w != -1 or high_open, "the decharge needs its winner settled")
    _need(w == -1 or w != lo, "one player wins and loses the turn")
    for item in [[players, c["want"]]] + game.queue:
        ps, want = item
        _need(want == "high" or w not in ps, "the winner still plays for the loser's place")
        _need(want == "low" or lo not in ps, "the loser still plays for the winner's place")
    _need(res["amount"] == -1 or res["amount"] >= 1, "the turn's amount")
