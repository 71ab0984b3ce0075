"""Checks a saved game before it becomes a Game: each field, then that they agree (load only).

load() is the way in. check_state() types every field by the FIELDS tables of dicetray.state
(a save of an older format is migrated first, see save_migrate); save_invariants.check_agree() then
holds the built game to the invariants the engine keeps, so that every save accepted is a
state the engine can reach and plays on to an end.
Every refusal is a SaveError whose message says why; anything else raised here is a bug.
Messages never repr() the save's values: a hostile file may nest lists hundreds deep, and that
exhausts MicroPython's small C stack. Nor do they turn a long integer into text: that takes time
growing with the square of its digits.
"""

from dicetray.game import MAX_PLAYERS, MAX_THROWS, MIN_PLAYERS, Game
from dicetray.options import make
from dicetray.rules import RulesError
from dicetray.save_invariants import check_agree
from dicetray.save_migrate import from_v1, from_v2, from_v3, from_v4
from dicetray.save_record import NESTED, build
from dicetray.state import (
    GAME_FIELDS,
    SAVE_FORMAT,
    SAVE_VERSION,
    WANTS,
    SaveError,
)
from dicetray.words import LANGS

_BIG = 1 << 30
_SHOWN = 10**12  # an integer shown in full has 12 characters at most


def fail(msg):
    raise SaveError("bad save: " + msg)


def _show(v):
    # A value for a message, never long and never deep.
    if v is None or type(v) is bool:
        return str(v)
    if type(v) is int:
        return str(v) if -_SHOWN // 10 < v < _SHOWN else "a long integer"
    if type(v) is str:
        return repr(v[:16]) + ("..." if len(v) > 16 else "")
    return "a " + type(v).__name__


def _int(v, name, lo, hi):
    if type(v) is not int or not lo <= v <= hi:
        fail("%s must be an integer %d..%d, got %s" % (name, lo, hi, _show(v)))
    return v


def _list(v, name, max_len=64):
    if type(v) is not list or len(v) > max_len:
        fail("%s must be a list" % name)
    return v


def _dict(v, name, keys):
    if type(v) is not dict or len(v) != len(keys) or [k for k in keys if k not in v]:
        fail("%s must be a dict with keys %s" % (name, ", ".join(keys)))
    return v


def _players(v, name, n):
    _list(v, name, n)
    for p in v:
        _int(p, name + " item", 0, n - 1)
    if len(set(v)) != len(v):
        fail(name + " lists a player twice")
    return v


def _contestants(v, name, n):
    if len(_players(v, name, n)) < 2:
        fail("a contest needs two players or more")


def _dice(v, name, sizes=(3,)):
    _list(v, name)
    if len(v) not in sizes:
        fail("%s must hold %s dice" % (name, " or ".join(str(s) for s in sizes)))
    for d in v:
        _int(d, name + " die", 1, 6)
    return v


def _queue(v, name, n):
    for item in _list(v, name, 8):
        if type(item) is not list or len(item) != 2:
            fail("queue items are [players, want]")
        _players(item[0], "queue players", n)
        _choice(item[1], "queue want", WANTS)
    return v


def _holdings(v, name, n, o):
    if len(_list(v, name)) != n:
        fail("%s must have one entry per player" % name)
    for t in v:
        _int(t, name, 0, o.tokens)


def _choice(v, name, allowed):
    for a in allowed:
        if type(v) is type(a) and v == a:
            return v
    fail("%s must be one of %s" % (name, ", ".join(str(a) for a in allowed)))


# How each kind of field named in state.FIELDS is checked: (value, name, players, options).
KINDS = {
    "turns": lambda v, name, n, o: _int(v, name, 0, _BIG),
    "rounds": lambda v, name, n, o: _int(v, name, 1, _BIG),
    "seat": lambda v, name, n, o: _int(v, name, 0, MAX_PLAYERS - 1),
    "throws": lambda v, name, n, o: _int(v, name, 0, MAX_THROWS),
    "player": lambda v, name, n, o: _int(v, name, 0, n - 1),
    "player?": lambda v, name, n, o: _int(v, name, -1, n - 1),
    "tokens": lambda v, name, n, o: _int(v, name, 0, o.tokens),
    # "For what comes" pays a play-off throw's value: up to 10 whatever the tokens.
    "amount": lambda v, name, n, o: _int(v, name, -1, max(10, o.tokens)),
    "players": lambda v, name, n, o: _players(v, name, n),
    "contestants": lambda v, name, n, o: _contestants(v, name, n),
    "holdings": lambda v, name, n, o: _holdings(v, name, n, o),
    "dice": lambda v, name, n, o: _dice(v, name),
    "hand": lambda v, name, n, o: _dice(v, name, (0, 3)),
    "kept": lambda v, name, n, o: _int(v, name, 0, 6),  # bit i: die i; all three (7) never
    "finals": lambda v, name, n, o: [_dice(d, name) for d in _list(v, name, n)],
    "counts": lambda v, name, n, o: [_int(c, name, 1, MAX_THROWS) for c in _list(v, name, n)],
    "rolls": lambda v, name, n, o: [_dice(d, name, (1, 3)) for d in _list(v, name, n)],
    "queue": lambda v, name, n, o: _queue(v, name, n),
}


def _fields(d, fields, where, n, o):
    # The fields of one object, checked by kind; nested objects become objects.
    _dict(d, where, [name for name, _ in fields])
    out = {}
    for name, kind in fields:
        v = d[name]
        label = name if where == "the save" else where + " " + name
        if type(kind) is tuple:
            v = _choice(v, label, kind)
        elif kind in NESTED:
            cls, nullable = NESTED[kind]
            if v is not None or not nullable:
                v = build(cls, _fields(v, cls.FIELDS, name, n, o))
        else:
            KINDS[kind](v, label, n, o)
        out[name] = v
    return out


def check_state(data):
    """Return (state, options, players) from a saved dict, or raise SaveError saying why."""
    if type(data) is not dict:
        fail("not a dict")
    if data.get("format") != SAVE_FORMAT:
        fail("not a dice tray game (format %s)" % _show(data.get("format")))
    version = data.get("version")
    if version == 1:
        data = from_v1(data)
        version = 2
    if version == 2:
        data = from_v2(data)
        version = 3
    if version == 3:
        data = from_v3(data)
        version = 4
    if version == 4:
        data = from_v4(data)
    elif version != SAVE_VERSION:
        fail("format version %s, this tray reads version %d" % (_show(version), SAVE_VERSION))
    top = ("format", "version", "players", "options")
    lang = None
    if type(data) is dict and "lang" in data:  # the language it is played in: a save says it
        lang = data["lang"]                    # only when not the default (Game.to_dict)
        if type(lang) is not str or lang not in LANGS:
            fail("lang must be one of %s" % ", ".join(LANGS))
        data = {k: data[k] for k in data if k != "lang"}
    _dict(data, "the save", top + tuple(name for name, _ in GAME_FIELDS))
    n = _int(data["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    options = _options(data["options"])
    body = {}
    for name, _ in GAME_FIELDS:
        body[name] = data[name]
    state = _fields(body, GAME_FIELDS, "the save", n, options)
    if lang is not None:
        state["lang"] = lang
    if sum(state["tokens"]) + state["pot"] != options.tokens:
        fail("tokens and pot add up to %d, not %d"
             % (sum(state["tokens"]) + state["pot"], options.tokens))
    return state, options, n


def _options(raw):
    if type(raw) is not dict:
        fail("options must be a dict")
    for name in raw:
        if type(name) is not str or len(name) > 32:
            fail("options: unknown option")
    try:
        return make(**raw)
    except (RulesError, TypeError) as e:
        fail("options: %s" % e)


def load(data, roll):
    """The Game a saved dict holds (written by Game.to_dict(), or by an older release), with
    roll as its dice; SaveError, saying why, if it is not one the engine can play on."""
    state, options, players = check_state(data)
    game = Game(players, options, roll, _state=state)
    check_agree(game)
    return game
