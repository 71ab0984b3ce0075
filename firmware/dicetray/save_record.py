"""The game's save in two files: the setup once a game, and a short record after each action.

game.json holds what is fixed for the whole game (SETUP_KEYS), as JSON, written when a game
starts (game.tmp renamed over). game.now holds the record: what changes with each action, one
line of ASCII short enough for littlefs to keep inside its folder's metadata, so that rewriting
it in place appends to that log and erases no sector (littlefs commits a file whole, at its
close). The line: the version (one digit), the checksum of the game.json it belongs to, the
fields of state.GAME_FIELDS not in the setup, and the checksum of all before it (each checksum
the crc32's low 30 bits, five characters). The fields are packed as digits of the radix each
can take (a die: 6; a player: the players; a token count: the tokens + 1...), many to a number
below 2**30 written as five characters of base 64 ("0" to "o"). A list starts with its length.

Loaded while a game is saved (dicetray.lazy's SAVE) and to read a save back at boot (BOOT).
"""

import json
from binascii import crc32

from dicetray.state import (
    GAME_FIELDS,
    SAVE_VERSION,
    WANTS,
    Contest,
    GameResult,
    SaveError,
    Turn,
    TurnResult,
)

SETUP_KEYS = ("format", "version", "players", "options", "computers", "hints")
RECORD_FIELDS = tuple(f for f in GAME_FIELDS if f[0] not in SETUP_KEYS)
_NESTED = {"turn": Turn.FIELDS, "contest": Contest.FIELDS, "last": TurnResult.FIELDS,
           "result": GameResult.FIELDS}
_CHUNK = 5  # characters of a packed number
_TOP = (1 << 30) - 1  # a packed number stays below: a small integer on MicroPython too
_MASK = (1 << 30) - 1  # of a checksum
_ZERO = 48  # "0": the digit 0 of base 64
_VERSION = str(SAVE_VERSION).encode()


def save(store, data):
    """Save data (Game.to_dict()) in store's two files: the record in place, and game.json first
    when the setup is not the one on flash. The record is written before the setup, and another
    game's game.json is removed before both: a power cut leaves the last whole save, or no game
    at a game's start, and never a record beside a setup it does not name. An older release's
    save of this game (store.setup_id None: loaded at boot) stays until the new setup replaces
    it, and resumes if the power fails before. OSError as Store.save_game."""
    setup = {}
    for key in SETUP_KEYS:
        setup[key] = data[key]
    if setup == store.setup:
        store.put(store.NOW, record(data, store.setup_id))
        return
    raw = json.dumps(setup).encode()
    setup_id = checksum(raw)
    if store.setup_id is not None:
        store.discard(store.GAME)
    store.setup = None
    store.put(store.NOW, record(data, setup_id))
    store.write(store.TMP, store.GAME, raw)
    store.setup = setup
    store.setup_id = setup_id


def record(data, setup_id):
    """The record of data (Game.to_dict()) for the game.json whose checksum is setup_id."""
    out = _Writer()
    _fields(out, data, RECORD_FIELDS, data["players"], data["options"]["tokens"])
    out.flush()
    line = bytearray(_VERSION)
    _put(line, setup_id)
    line.extend(out.line)
    _put(line, checksum(line))
    return bytes(line)


def checksum(raw):
    """The checksum of the bytes raw that a record holds: the low 30 bits of their crc32."""
    return crc32(raw) & _MASK


def read(setup, raw_setup, raw):
    """The saved dict of a game.json holding setup (its parsed dict; raw_setup: its bytes) and
    the record raw: setup with the record's fields, read by their kinds and not yet checked
    (save_check does). SaveError when the record is torn, of another game or not a record."""
    n = len(raw) - _CHUNK
    if n < 1 + _CHUNK or _get(raw, n) != checksum(raw[:n]):
        _fail("its checksum does not match it")
    if raw[:1] != _VERSION:
        _fail("it is not of version %d" % SAVE_VERSION)
    if _get(raw, 1) != checksum(raw_setup):
        _fail("it is of another game")
    if type(setup) is not dict or len(setup) != len(SETUP_KEYS) \
            or [k for k in SETUP_KEYS if k not in setup]:
        _fail("game.json is not a setup")
    players = setup["players"]
    options = setup["options"]
    tokens = options.get("tokens") if type(options) is dict else None
    if type(players) is not int or not 2 <= players <= 8 or type(tokens) is not int \
            or not 0 < tokens < 1000:
        _fail("the setup's players or tokens are not a game's")  # the radices come from them
    src = _Reader(raw, 1 + _CHUNK, n)
    data = dict(setup)
    _fields(src, data, RECORD_FIELDS, players, tokens)
    if src.pos != n:
        _fail("it is too long")
    return data


def _fail(why):
    raise SaveError("bad save: the record in game.now: " + why)


def _put(line, v):
    for _ in range(_CHUNK):
        line.append(_ZERO + (v & 63))
        v >>= 6


def _get(raw, at):
    v = 0
    for i in range(_CHUNK - 1, -1, -1):
        c = raw[at + i] - _ZERO
        if not 0 <= c < 64:
            _fail("a character is not a digit")
        v = v << 6 | c
    return v


class _Writer:
    """Packs digits (num) into the record's characters."""

    reading = False

    def __init__(self):
        self.line = bytearray()
        self.acc = 0
        self.mult = 1

    def num(self, v, radix):
        if not 0 <= v < radix:  # the engine keeps every value in its kind's range
            raise ValueError("a value out of its record's range")
        if self.mult > _TOP // radix:
            self.flush()
        self.acc += v * self.mult
        self.mult *= radix
        return v

    def flush(self):
        if self.mult > 1:
            _put(self.line, self.acc)
        self.acc = 0
        self.mult = 1


class _Reader:
    """Unpacks the digits a _Writer packed, in the same order (num ignores its first argument).
    """

    reading = True

    def __init__(self, raw, start, end):
        self.raw = raw
        self.pos = start
        self.end = end
        self.acc = 0
        self.mult = _TOP  # the first digit reads a number

    def num(self, _, radix):
        if self.mult > _TOP // radix:
            if self.pos + _CHUNK > self.end:
                _fail("it is too short")
            self.acc = _get(self.raw, self.pos)
            self.pos += _CHUNK
            self.mult = 1
        v = self.acc % radix
        self.acc //= radix
        self.mult *= radix
        return v


# Each function below writes v (io a _Writer) or reads and returns it (io a _Reader: v is
# None, and each digit's value is ignored), as the digits of its kind: n players, t tokens.


def _fields(io, d, fields, n, t):
    for name, kind in fields:
        v = d.get(name)
        if type(kind) is tuple:
            v = kind[io.num(0 if io.reading else kind.index(v), len(kind))]
        elif kind in _NESTED:
            v = _fields(io, {} if io.reading else v, _NESTED[kind], n, t)
        elif kind[-1] == "?" and kind[:-1] in _NESTED:
            if io.num(int(v is not None), 2):
                v = _fields(io, {} if io.reading else v, _NESTED[kind[:-1]], n, t)
        else:
            v = _KINDS[kind](io, v, n, t)
        if io.reading:
            d[name] = v
    return d


def _shift(io, v, radix, by):
    # A number from -by, as a digit of radix.
    return io.num(0 if io.reading else v + by, radix) - by


def _list(io, v, radix, item):
    # Its length, then each item.
    k = io.num(0 if io.reading else len(v), radix)
    if io.reading:
        return [item(io, None) for _ in range(k)]
    for x in v:
        item(io, x)
    return v


def _turns(io, v, n, t):
    # Any size: five bits a digit, the sixth says another follows.
    if io.reading:
        v = 0
        for shift in range(0, 35, 5):
            d = io.num(0, 64)
            v |= (d & 31) << shift
            if d < 32:
                return v
        _fail("a number is too long")
    rest = v
    while True:
        d = rest & 31
        rest >>= 5
        io.num(d | (32 if rest else 0), 64)
        if not rest:
            return v


def _dice(io, v, n=0, t=0):
    if io.reading:
        return [io.num(0, 6) + 1 for _ in range(3)]
    for d in v:
        io.num(d - 1, 6)
    return v


def _players(io, v, n, t):
    return _list(io, v, n + 1, lambda io, p: io.num(p, n))


def _hand(io, v, n, t):
    # No dice, or three.
    return _dice(io, v) if io.num(0 if io.reading else len(v) // 3, 2) else []


def _queued(io, v, n):
    players = _players(io, None if io.reading else v[0], n, 0)
    return [players, WANTS[io.num(0 if io.reading else WANTS.index(v[1]), 3)]]


def _roll(io, v):
    # One die (a roll-off) or three (a play-off).
    if io.num(0 if io.reading else len(v) // 3, 2):
        return _dice(io, v)
    return [_shift(io, None if io.reading else v[0], 6, -1)]


_KINDS = {
    "turns": _turns,
    "rounds": _turns,
    "seat": lambda io, v, n, t: io.num(v, 8),
    "throws": lambda io, v, n, t: io.num(v, 4),
    "player": lambda io, v, n, t: io.num(v, n),
    "player?": lambda io, v, n, t: _shift(io, v, n + 1, 1),
    "tokens": lambda io, v, n, t: io.num(v, t + 1),
    "amount": lambda io, v, n, t: _shift(io, v, max(10, t) + 2, 1),
    "kept": lambda io, v, n, t: io.num(v, 7),
    "players": _players,
    "contestants": _players,
    "holdings": lambda io, v, n, t: [io.num(0 if io.reading else v[i], t + 1)
                                     for i in range(n)],
    "dice": _dice,
    "hand": _hand,
    "finals": lambda io, v, n, t: _list(io, v, n + 1, _dice),
    "counts": lambda io, v, n, t: _list(io, v, n + 1, lambda io, c: _shift(io, c, 3, -1)),
    "rolls": lambda io, v, n, t: _list(io, v, n + 1, _roll),
    "queue": lambda io, v, n, t: _list(io, v, 9, lambda io, q: _queued(io, q, n)),
}
