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

Loaded while a game is saved (dicetray.lazy's SAVE), and at boot (BOOT) for store_read, which
reads a record back with fields() after checking what heads it: reading is the boot's only.
"""

import json
from binascii import crc32

from dicetray import state  # one name for all it reads there: a module's names are heap

SETUP_KEYS = ("format", "version", "players", "options", "computers", "hints")
SETUP_MAY = ("lang",)  # in game.json only when the game says it (Game.to_dict)
RECORD_FIELDS = tuple(f for f in state.GAME_FIELDS if f[0] not in SETUP_KEYS)
# A nested object's class (state's), and whether it may be None (its kind ends in "?").
NESTED = {"turn": (state.Turn, False), "contest?": (state.Contest, True),
          "last?": (state.TurnResult, True), "result?": (state.GameResult, True)}
# The items of a list kind (holdings: one per player; the others start with their length).
_ITEMS = {"players": "player", "contestants": "player", "holdings": "tokens", "finals": "dice",
          "counts": "count", "rolls": "roll", "queue": "queued"}
CHUNK = 5  # characters of a packed number, and of a checksum
_TOP = (1 << 30) - 1  # a packed number stays below: a small integer on MicroPython too
_ZERO = 48  # "0": the digit 0 of base 64
VERSION = str(state.SAVE_VERSION).encode()  # what a record starts with


def save(store, data):
    """Save data (Game.to_dict()) in store's two files: the record, rewritten in place, and
    game.json too when the setup is not the one on flash. Then another game's game.json goes
    first, and the record is written before the new setup: a power cut leaves the last whole
    save, or no game at a game's start, and never a record beside a setup it does not name.
    An older release's save of this game (store.setup_id None: read at boot) stays until the
    new setup replaces it, and resumes if the power fails before. OSError as Store.save_game."""
    setup = setup_of(data)
    if setup == store.setup:
        _write(store, record(data, store.setup_id))
        return
    raw = json.dumps(setup).encode()
    setup_id = checksum(raw)
    if store.setup_id is not None:
        store.discard(store.GAME)
    store.setup = None
    _write(store, record(data, setup_id))
    store.replace(store.TMP, store.GAME, raw)
    store.setup = setup
    store.setup_id = setup_id


def setup_of(data):
    """What game.json holds of data (Game.to_dict()): SETUP_KEYS, and those of SETUP_MAY it
    has."""
    setup = {}
    for key in SETUP_KEYS:
        setup[key] = data[key]
    for key in SETUP_MAY:
        if key in data:
            setup[key] = data[key]
    return setup


def _write(store, raw):
    # In place: littlefs commits the file at its close, whole or not at all. The store keeps
    # the line, the game's state now: what an undo of the next stop or stake goes back to.
    store.record = raw
    f = store.fs.open(store.path(store.NOW), "wb")
    try:
        if f.write(raw) != len(raw):
            raise OSError(28)  # ENOSPC
    finally:
        f.close()


def record(data, setup_id):
    """The record of data (Game.to_dict()) for the game.json whose checksum is setup_id;
    ValueError for a value outside its field's digits (the engine never saves one)."""
    io = Io(None, 0, 0)
    fields(io, data, RECORD_FIELDS, data["players"], data["options"]["tokens"])
    io.num(0, _TOP)  # the last packed number out
    line = bytearray(VERSION)
    _put(line, setup_id)
    line.extend(io.line)
    _put(line, checksum(line))
    return bytes(line)


def build(cls, values):
    """An object of cls (a state class: NESTED's) with the fields values (a dict) holds."""
    obj = cls()  # MicroPython has no __new__ on classes: every state class takes no argument
    for name in values:
        setattr(obj, name, values[name])
    return obj


def checksum(raw):
    """The checksum of the bytes raw that a record holds: the low 30 bits of their crc32."""
    return crc32(raw) & _TOP


def fail(why):
    """Refuse the record in game.now: a SaveError saying why."""
    raise state.SaveError("bad save: the record in game.now: " + why)


def _put(line, v):
    for _ in range(CHUNK):
        line.append(_ZERO + (v & 63))
        v >>= 6


def get(raw, at):
    """The number written at raw[at:at + CHUNK]; the record refused if it is not one."""
    v = 0
    for i in range(at + CHUNK - 1, at - 1, -1):
        c = raw[i] - _ZERO
        if not 0 <= c < 64:
            fail("a character is not a digit")
        v = v << 6 | c
    return v


class Io:
    """Packs digits (num) into a record's characters, or with raw given unpacks the digits of
    raw[pos:end] in the same order (num then ignores its first argument)."""

    def __init__(self, raw, pos, end):
        self.raw = raw
        self.end = end
        self.line = bytearray()
        self.pos = pos
        self.acc = 0
        self.mult = 1 if raw is None else _TOP  # a reader's first digit reads a number

    def num(self, v, radix):
        if self.mult > _TOP // radix:  # the packed number is full: out, or the next one in
            if self.raw is None:
                _put(self.line, self.acc)
                self.acc = 0
            else:
                if self.pos + CHUNK > self.end:
                    fail("it is too short")
                self.acc = get(self.raw, self.pos)
                self.pos += CHUNK
            self.mult = 1
        if self.raw is None:
            if not 0 <= v < radix:
                raise ValueError("a value outside its record's digits")
            self.acc += v * self.mult
        else:
            v = self.acc % radix
            self.acc //= radix
        self.mult *= radix
        return v


def fields(io, d, names, n, t):
    """Write the fields names (FIELDS pairs) of d, a dict, through io (an Io), or read them into
    d: n players, t tokens in the game. Returns d."""
    for name, kind in names:
        v = _value(io, d.get(name), kind, n, t)
        if io.raw is not None:
            d[name] = v
    return d


def _value(io, v, kind, n, t):
    # Write v (of kind), or read and return it (v None): as the digits of its kind.
    reading = io.raw is not None
    if type(kind) is tuple:
        return kind[io.num(0 if reading else kind.index(v), len(kind))]
    if kind == "face" or kind == "count":  # a die's face 1..6, or throws made 1..3
        return io.num(0 if reading else v - 1, 6 if kind == "face" else 3) + 1
    if kind == "dice":
        return _each(io, v, 3, "face", n, t)
    if kind in _ITEMS:
        if kind == "holdings":
            k = n
        else:
            k = io.num(0 if reading else len(v), 9 if kind == "queue" else n + 1)
        return _each(io, v, k, _ITEMS[kind], n, t)
    if kind in NESTED:
        cls, nullable = NESTED[kind]
        if nullable and not io.num(int(v is not None), 2):
            return None
        return fields(io, {} if reading else v, cls.FIELDS, n, t)
    if kind == "hand" or kind == "roll":  # no dice or three; one die or three
        k = io.num(0 if reading else len(v) // 3, 2)
        return _each(io, v, 3 * k if kind == "hand" else 2 * k + 1, "face", n, t)
    if kind == "queued":  # [players, want]
        players = _value(io, None if reading else v[0], "players", n, t)
        want = _value(io, None if reading else v[1], state.WANTS, n, t)
        return [players, want] if reading else v
    if kind == "turns" or kind == "rounds":
        return _count(io, v)
    shift = 0  # a number from -shift, as a digit of radix
    if kind == "player":
        radix = n
    elif kind == "player?":
        radix, shift = n + 1, 1
    elif kind == "tokens":
        radix = t + 1
    elif kind == "amount":
        radix, shift = max(10, t) + 2, 1
    elif kind == "seat":
        radix = 8
    elif kind == "throws":
        radix = 4
    else:  # kept: bit i for die i, two dice at most
        radix = 7
    return io.num(0 if reading else v + shift, radix) - shift


def _each(io, v, k, item, n, t):
    # The k items of the list v, each of kind item.
    if io.raw is not None:
        return [_value(io, None, item, n, t) for _ in range(k)]
    for x in v:
        _value(io, x, item, n, t)
    return v


def _count(io, v):
    # A number of any size: five bits a digit, the sixth says another follows.
    if io.raw is not None:
        v = 0
        for shift in range(0, 35, 5):
            d = io.num(0, 64)
            v |= (d & 31) << shift
            if d < 32:
                return v
        fail("a number is too long")
    rest = v
    while True:
        d = rest & 31
        rest >>= 5
        io.num(d | (32 if rest else 0), 64)
        if not rest:
            return v
