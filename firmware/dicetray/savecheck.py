"""Checks a saved game dict field by field before it becomes a Game (imported only to load)."""

from dicetray import game as g
from dicetray.rules import Options, RulesError

_WANTS = ("high", "low", "both")


def _fail(msg):
    raise g.GameError("bad save: " + msg)


def _int(v, name, lo, hi):
    if type(v) is not int or not lo <= v <= hi:
        _fail("%s must be an integer %d..%d, got %r" % (name, lo, hi, v))
    return v


def _list(v, name, max_len=64):
    if type(v) is not list or len(v) > max_len:
        _fail("%s must be a list" % name)
    return v


def _dict(v, name, keys):
    if type(v) is not dict or sorted(v) != sorted(keys):
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
    if v not in allowed or type(v) is not str:
        _fail("%s must be one of %s" % (name, ", ".join(allowed)))
    return v


def check_state(data):
    """Return (state, options, players) from a saved dict, or raise GameError saying why."""
    if type(data) is not dict:
        _fail("not a dict")
    if data.get("format") != g.SAVE_FORMAT:
        _fail("not a dice tray game (format %r)" % (data.get("format"),))
    version = data.get("version")
    if version != g.SAVE_VERSION:
        _fail("format version %r, this tray reads version %d" % (version, g.SAVE_VERSION))
    expected = ("format", "version", "players", "options") + g.Game._FIELDS
    _dict(data, "the save", expected)
    n = _int(data["players"], "players", g.MIN_PLAYERS, g.MAX_PLAYERS)
    if type(data["options"]) is not dict:
        _fail("options must be a dict")
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
    phase = _choice(s["phase"], "phase", g.PHASES)
    _int(s["turn"], "turn", 0, 1 << 30)
    order = _players(s["order"], "order", n)
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
        _int(res["amount"], "res amount", -1, options.tokens)
    if s["last"] is not None:
        _check_last(s["last"], n, options)
    _check_phase(s, phase, n, order, finals)
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


def _check_phase(s, phase, n, order, finals):
    contest = s["contest"]
    if phase == g.OVER:
        result = _dict(s["result"], "result", ("losers", "winners", "reason"))
        _players(result["losers"], "result losers", n)
        _players(result["winners"], "result winners", n)
        _choice(result["reason"], "result reason", ("first_out", "espagnole", "last_holder"))
        if contest is not None:
            _fail("a finished game has an open contest")
        return
    if s["result"] is not None:
        _fail("a game under way has a result")
    if phase == g.START:
        if contest is None or contest["why"] != "start" or order:
            _fail("the start phase is a roll-off for who starts")
        return
    if len(order) < 2 or sorted(order + s["out"]) != list(range(n)):
        _fail("the turn order must hold every player still in")
    pos = _int(s["pos"], "pos", 0, len(order) - 1)
    resolving = len(finals) == len(order)
    if contest is not None:
        if contest["why"] != "tie" or not resolving or s["res"] is None:
            _fail("a tie contest opens only when every player is done")
    elif resolving or len(finals) != pos:
        _fail("finals must hold the players before the one throwing")
