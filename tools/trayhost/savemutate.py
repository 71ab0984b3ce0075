"""A save changed in meaning, one field at a time: a table of small mutations, one drawn per call.

Each mutation changes a copied save dict in place and draws its random numbers from the die it
is handed, always the same ones in the same order, so a seed gives the same saves every time.
"""

from dicetray.options import OPTION_NAMES, option
from dicetray.state import REASONS

from trayhost.dicechoice import chance, pick


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


# ---- the mutations: one field each ---------------------------------------------------------


def _move_token(d, rng):
    """A token moves between two players, or between a player and the pot."""
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


def _toggle_out(d, rng):
    p = rng() % d["players"]
    d["out"] = [q for q in d["out"] if q != p] if p in d["out"] else d["out"] + [p]


def _other_phase(d, rng):
    d["phase"] = pick(rng, ("start", "charge", "decharge", "over"))


def _other_turn_number(d, rng):
    t = d["turn"]
    t["number"] = max(0, t["number"] + pick(rng, (-1, 1, -t["number"], 1 - t["number"])))


def _reorder(d, rng):
    """The turn order rotated, reversed, cut short, lengthened or two players swapped."""
    t = d["turn"]
    o = t["order"]
    how = rng()
    if how == 1 and o:
        t["order"] = o[1:] + o[:1]
    elif how == 2:
        t["order"] = o[::-1]
    elif how == 3 and o:
        t["order"] = o[:-1]
    elif how == 4:
        t["order"] = o + [p for p in range(d["players"]) if p not in o][:1]
    elif len(o) > 1:
        t["order"] = [o[1], o[0]] + o[2:]


def _other_pos(d, rng):
    d["turn"]["pos"] = rng() % 4


def _other_limit(d, rng):
    d["turn"]["limit"] = rng() % 4


def _other_count(d, rng):
    t = d["turn"]
    t["count"] = rng() % 4
    t["dice"] = _dice(rng) if t["count"] else []


def _other_kept(d, rng):
    """Dice kept: any of the eight masks, three kept included."""
    d["turn"]["kept"] = rng() % 8


def _change_finals(d, rng):
    """A final throw dropped or added, or a throw count changed."""
    t = d["turn"]
    if t["finals"] and chance(rng, 3):
        t["finals"].pop()
        t["counts"].pop()
    elif chance(rng, 3):
        t["finals"].append(_dice(rng))
        t["counts"].append(rng() % 3 + 1)
    elif t["counts"]:
        t["counts"][rng() % len(t["counts"])] = rng() % 3 + 1


def _change_contest(d, rng):
    d["contest"] = None if chance(rng, 1) else _mutate_contest(rng, d["contest"], d["players"])


def _toggle_queue(d, rng):
    t = d["turn"]
    t["queue"] = [] if t["queue"] else [[_players(rng, d["players"]), pick(rng, ("high", "low"))]]


def _change_turn_result(d, rng):
    """The turn's winner, loser or amount."""
    t = d["turn"]
    key = pick(rng, ("winner", "loser", "amount"))
    t[key] = rng() % (d["players"] + 1) - 1 if key != "amount" else pick(rng, (-1, 1, 2, 10))


def _change_last(d, rng):
    """One field of the last turn's result (made up when there is none), or no last turn."""
    n = d["players"]
    last = d["last"] or {"number": max(1, d["turn"]["number"] - 1), "phase": "charge",
                         "winner": 0, "loser": 1, "amount": 1, "wdice": _dice(rng),
                         "ldice": _dice(rng), "passed": False}
    key = pick(rng, ("winner", "loser", "amount", "passed", "phase", "number"))
    # Every choice is drawn, whichever key is changed: the draws do not depend on the key.
    last[key] = {"winner": rng() % n, "loser": rng() % n, "amount": rng() % 4,
                 "passed": not last["passed"], "phase": pick(rng, ("charge", "decharge")),
                 "number": max(1, last["number"] + pick(rng, (-1, 1)))}[key]
    d["last"] = None if chance(rng, 1) else last


def _change_result(d, rng):
    n = d["players"]
    d["result"] = None if d["result"] and chance(rng, 2) else {
        "losers": _players(rng, n), "winners": _players(rng, n),
        "reason": pick(rng, REASONS)}


def _change_option(d, rng):
    name = pick(rng, OPTION_NAMES)
    allowed = option(name)[2]
    if type(allowed) is not range:
        d["options"][name] = pick(rng, allowed)
    elif name != "tokens":
        d["options"][name] = allowed[0] + rng() % 6


def _other_player_count(d, rng):
    d["players"] = 2 + rng() % 7


# One is drawn per mutation; a field listed more than once is drawn more often (the contest and
# the turn's result have the most to agree with). The order is part of what a seed gives.
MUTATIONS = (
    _move_token, _toggle_out, _other_phase, _other_turn_number, _reorder, _other_pos,
    _other_limit, _other_count, _change_finals, _change_contest, _change_contest,
    _change_contest, _toggle_queue, _change_turn_result, _change_turn_result, _change_last,
    _change_result, _change_option, _other_player_count, _other_kept,
)


def mutate(data, rng):
    """A copy of a saved dict with one field changed in meaning."""
    d = _copy(data)
    pick(rng, MUTATIONS)(d, rng)
    return d


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v
