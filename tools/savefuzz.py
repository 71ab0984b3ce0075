"""Saves damaged on purpose, field by field, and the check that every accepted one plays on.

Real saves come from random games; a mutation changes what a save means (players, phases,
roll-offs, results, stakes, tokens, limits), not its bytes. play_on() loads a save the way the
tray does and, when the checker accepts it, plays it to its end with random legal actions,
checking every state on the way. The same code runs on CPython (the tests, tools/soak.py) and
on MicroPython (the MicroPython tier).
"""

from autoplay import SeededDice, apply
from dicetray.app import App
from dicetray.game import Game, SaveError
from dicetray.rules import OPTION_NAMES, PRESET_NAMES, PRESETS, option
from dicetray.screens import OVER, PHASE, PLAY, RESULT, RESUME, STANDINGS

ACTION_CAP = 20000  # a game from any accepted save ends long before this many actions


def pick(rng, seq):
    return seq[(rng() - 1 + 6 * (rng() - 1)) % len(seq)]


def chance(rng, n6):
    """True with probability n6/6."""
    return rng() <= n6


def random_action(game, rng):
    """Any legal action, drawn at random: keeps, stops, "le bon" and stakes included."""
    if game.can_announce() and chance(rng, 3):
        return ("announce", pick(rng, ("is", "comes")))
    if game.contest is not None:
        return ("throw", ())
    if game.can_stop() and (not game.can_throw() or chance(rng, 2)):
        return ("stop",)
    keep = ()
    if game.can_keep():
        keep = tuple(i for i in range(3) if chance(rng, 2))[:2]
    return ("throw", keep)


class TieProneDice:
    """Dice that often repeat one throw, so that games are full of ties and play-offs."""

    def __init__(self, seed):
        self.rng = SeededDice(seed)
        self.pattern = [self.rng() for _ in range(3)]
        self.i = 0

    def __call__(self):
        self.i += 1
        if chance(self.rng, 4):
            return self.pattern[self.i % 3]
        return self.rng()


def real_saves(seed, count):
    """Up to count saves taken along one random game (preset, players and options drawn)."""
    rng = SeededDice(seed)
    opts = PRESETS[pick(rng, PRESET_NAMES)]
    if chance(rng, 2):
        name = pick(rng, OPTION_NAMES)
        allowed = option(name)[2]  # a range: few tokens, so games stay short
        value = allowed[0] + rng() if type(allowed) is range else pick(rng, allowed)
        opts = opts.replace(**{name: value})
    dice = SeededDice(seed + 1) if chance(rng, 2) else TieProneDice(seed + 1)
    game = Game(2 + rng() % 7 if chance(rng, 3) else 2 + rng() % 3, opts, dice)
    out = [game.to_dict()]
    while not game.over and len(out) < count * 40:
        apply(game, random_action(game, rng))
        out.append(game.to_dict())
    # Half of them while a tie is played off: the states with the most fields to agree.
    open_ = [d for d in out if d["contest"] is not None and d["contest"]["why"] == "tie"]
    rest = [d for d in out if d not in open_]
    half = min(len(open_), count // 2)
    return _spread(open_, half) + _spread(rest, count - half)


def _spread(saves, k):
    if k <= 0 or not saves:
        return []
    step = max(1, len(saves) // k)
    return saves[::step][:k]


def _players(rng, n):
    return [p for p in range(n) if chance(rng, 3)] or [rng() % n]


def _dice(rng, k=3):
    return [rng() for _ in range(k)]


def _contest(rng, n):
    kind = pick(rng, ("die", "throw"))
    players = _players(rng, n)
    return {"players": players, "want": pick(rng, ("high", "low", "both")), "kind": kind,
            "why": pick(rng, ("start", "tie")), "round": rng() % 3 + 1,
            "results": [_dice(rng, 1 if kind == "die" else 3)
                        for _ in range(rng() % max(1, len(players)))],
            "stake": pick(rng, (None, None, "is", "comes"))}


def _mutate_contest(rng, c, n):
    if c is None or chance(rng, 1):
        return _contest(rng, n)
    c = dict(c)
    field = pick(rng, ("players", "want", "kind", "why", "round", "results", "stake"))
    if field == "players":
        ps = list(c["players"])
        if chance(rng, 3):
            ps.append(rng() % n)
        elif len(ps) > 1:
            ps.pop(rng() % len(ps))
        c["players"] = ps if chance(rng, 4) else ps[::-1]
    elif field == "results":
        size = 1 if c["kind"] == "die" else 3
        c["results"] = c["results"][:-1] if c["results"] and chance(rng, 3) else \
            c["results"] + [_dice(rng, size)]
    else:
        c[field] = _contest(rng, n)[field]
    return c


def mutate(data, rng):
    """A copy of a saved dict with one field changed in meaning."""
    d = _copy(data)
    n = d["players"]
    field = pick(rng, ("tokens", "out", "phase", "turn", "order", "pos", "limit", "count",
                       "finals", "contest", "contest", "contest", "queue", "res", "res",
                       "last", "result", "options", "players"))
    if field == "tokens":
        a, b = rng() % len(d["tokens"]), rng() % len(d["tokens"])
        if d["tokens"][a]:
            d["tokens"][a] -= 1
            if chance(rng, 3):
                d["tokens"][b] += 1
            else:
                d["pot"] += 1
        elif d["pot"]:
            d["pot"] -= 1
            d["tokens"][b] += 1
    elif field == "out":
        p = rng() % n
        d["out"] = [q for q in d["out"] if q != p] if p in d["out"] else d["out"] + [p]
    elif field == "phase":
        d["phase"] = pick(rng, ("start", "charge", "decharge", "over"))
    elif field == "turn":
        d["turn"] = max(0, d["turn"] + pick(rng, (-1, 1, -d["turn"], 1 - d["turn"])))
    elif field == "order":
        o = d["order"]
        how = rng()
        if how == 1 and o:
            d["order"] = o[1:] + o[:1]
        elif how == 2:
            d["order"] = o[::-1]
        elif how == 3 and o:
            d["order"] = o[:-1]
        elif how == 4:
            d["order"] = o + [p for p in range(n) if p not in o][:1]
        elif len(o) > 1:
            d["order"] = [o[1], o[0]] + o[2:]
    elif field == "pos":
        d["pos"] = rng() % 4
    elif field == "limit":
        d["limit"] = rng() % 4
    elif field == "count":
        d["count"] = rng() % 4
        d["dice"] = _dice(rng) if d["count"] else []
    elif field == "finals":
        if d["finals"] and chance(rng, 3):
            d["finals"].pop()
            d["counts"].pop()
        elif chance(rng, 3):
            d["finals"].append(_dice(rng))
            d["counts"].append(rng() % 3 + 1)
        elif d["counts"]:
            d["counts"][rng() % len(d["counts"])] = rng() % 3 + 1
    elif field == "contest":
        d["contest"] = None if chance(rng, 1) else _mutate_contest(rng, d["contest"], n)
    elif field == "queue":
        d["queue"] = [] if d["queue"] else [[_players(rng, n), pick(rng, ("high", "low"))]]
    elif field == "res":
        res = d["res"] or {"winner": -1, "loser": -1, "amount": -1}
        key = pick(rng, ("winner", "loser", "amount"))
        res[key] = rng() % (n + 1) - 1 if key != "amount" else pick(rng, (-1, 1, 2, 10))
        d["res"] = None if chance(rng, 1) else res
    elif field == "last":
        last = d["last"] or {"turn": max(1, d["turn"] - 1), "phase": "charge", "winner": 0,
                             "loser": 1, "amount": 1, "wdice": _dice(rng),
                             "ldice": _dice(rng), "passed": False}
        key = pick(rng, ("winner", "loser", "amount", "passed", "phase", "turn"))
        last[key] = {"winner": rng() % n, "loser": rng() % n, "amount": rng() % 4,
                     "passed": not last["passed"], "phase": pick(rng, ("charge", "decharge")),
                     "turn": max(1, last["turn"] + pick(rng, (-1, 1)))}[key]
        d["last"] = None if chance(rng, 1) else last
    elif field == "result":
        d["result"] = None if d["result"] and chance(rng, 2) else {
            "losers": _players(rng, n), "winners": _players(rng, n),
            "reason": pick(rng, ("first_out", "espagnole", "last_holder"))}
    elif field == "options":
        name = pick(rng, OPTION_NAMES)
        allowed = option(name)[2]
        if type(allowed) is not range:
            d["options"][name] = pick(rng, allowed)
        elif name != "tokens":
            d["options"][name] = allowed[0] + rng() % 6
    else:
        d["players"] = 2 + rng() % 7
    return d


def play_on(data, seed, every=7):
    """("refused", reason) or ("played", actions): an accepted save is played to its end.

    Anything else that goes wrong raises: a crash, a game that does not end, or a state on
    the way that the checker would refuse (every `every` actions and at the end).
    """
    try:
        game = Game.from_dict(data, SeededDice(seed))
    except SaveError as e:
        return "refused", str(e)
    draw_every_screen(game)
    rng = SeededDice(seed + 7)
    actions = 0
    while not game.over:
        apply(game, random_action(game, rng))
        actions += 1
        if actions % every == 0:
            Game.from_dict(game.to_dict(), rng)
        if actions > ACTION_CAP:
            raise RuntimeError("an accepted save did not end in %d actions" % ACTION_CAP)
    Game.from_dict(game.to_dict(), rng)
    return "played", actions


class _Canvas:
    """Takes any drawing call and draws nothing: the screens' logic runs, not the pixels."""

    def __getattr__(self, name):
        return _nothing


def _nothing(*args):
    pass


class _Display:
    fb = _Canvas()
    width = 128
    height = 64


def draw_every_screen(game):
    """Draw each screen a resumed game can show, as the tray's app does."""
    app = App(_Display(), None, None, game.roll, None, None)
    app.game = game
    if game.over:  # the tray clears a finished save at boot; these close a game
        screens = [RESULT, OVER]
    else:
        screens = [RESUME, PLAY, STANDINGS, PHASE]
        if game.last is not None:
            screens.append(RESULT)
    for screen in screens:
        app.screen = screen
        app.render()


def cases(seed, count, per_game=12):
    """count (save, mutated save) pairs: 1 to 3 mutations each, from several games."""
    rng = SeededDice(seed)
    out = []
    game_seed = seed * 1000
    while len(out) < count:
        game_seed += 1
        for save in real_saves(game_seed, per_game):
            bad = save
            for _ in range(1 + rng() % 3):
                bad = mutate(bad, rng)
            out.append(bad)
            if len(out) == count:
                break
    return out


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v
