"""The state of a game as small classes with named fields; the save format is derived from them.

Each class lists its fields once, in FIELDS: (name, kind) pairs. dump() turns an object into
the plain dict a save holds; save_check reads the same FIELDS to check a saved dict and build
the object back. The kinds: a tuple lists the allowed values; a string names a check in
save_check.KINDS, or a nested object ("turn", "contest", "last", "result"; "?" allows None).
"""

from dicetray.rules import FIRST_OUT, LAST_HOLDER

SAVE_FORMAT = "dicetray-game"
SAVE_VERSION = 5  # 1: the first release (flat fields), 2: no kept dice, 3: no computer seats,
# 4: the whole game in one JSON file; loading migrates them (save_migrate). 5: the same fields,
# kept in two files (save_record)

# Phases of a game
START = "start"  # who starts the first turn (a roll-off)
CHARGE = "charge"
DECHARGE = "decharge"
OVER = "over"
PHASES = (START, CHARGE, DECHARGE, OVER)

# What a contest settles: the best of the tied, the worst, or both (everyone tied)
HIGH = "high"
LOW = "low"
BOTH = "both"
WANTS = (HIGH, LOW, BOTH)
# How it is played: one die each (a roll-off) or three (a play-off)
DIE = "die"
THROW = "throw"
KINDS = (DIE, THROW)
# Why: who starts the game, or a tie at the end of a turn
WHO_STARTS = "start"
TIE = "tie"
WHYS = (WHO_STARTS, TIE)
# What a repeated play-off is played for: the turn's best throw, or the play-off's
FOR_WHAT_IS = "is"
FOR_WHAT_COMES = "comes"
STAKES = (FOR_WHAT_IS, FOR_WHAT_COMES)
# How a game ended: by the rule its end option names (FIRST_OUT or LAST_HOLDER, the option's
# values: rules.py), or in the espagnole, one player having taken the whole pot in the charge
ESPAGNOLE = "espagnole"
REASONS = (FIRST_OUT, ESPAGNOLE, LAST_HOLDER)

NOBODY = -1  # a winner or loser not settled yet; the pot as a giver


class GameError(ValueError):
    """An illegal action or a bad saved state; the game is left unchanged."""


class SaveError(GameError):
    """A saved game this tray cannot resume; the message says why. Only the checker raises it."""


class Record:
    """Equal when every field is: what a save keeps is what makes two states the same."""

    __slots__ = ()
    FIELDS = ()

    def __eq__(self, other):
        return type(other) is type(self) and dump(self, self.FIELDS) == dump(other, self.FIELDS)


class Turn(Record):
    """The turn under way: its players in order, the throws made, and its settling."""

    __slots__ = ("number", "order", "pos", "limit", "count", "dice", "kept", "finals", "counts",
                 "winner", "loser", "amount", "queue")
    FIELDS = (
        ("number", "turns"),  # turns played so far, this one included (0 before the first)
        ("order", "players"),  # this turn's players, the starter first
        ("pos", "seat"),  # index in order of the player throwing
        ("limit", "throws"),  # throws allowed to followers; 0 until the first player stops
        ("count", "throws"),  # throws made by the current player
        ("dice", "hand"),  # the current player's dice ([] before the first throw)
        ("kept", "kept"),  # bit i: die i is kept for the next throw (two at most; 0 if none left)
        ("finals", "finals"),  # dice of the players done this turn, in order
        ("counts", "counts"),  # their numbers of throws
        ("winner", "player?"),  # once everyone is done: settled winner, or NOBODY
        ("loser", "player?"),
        ("amount", "amount"),  # tokens a "for what comes" play-off fixed, or NOBODY
        ("queue", "queue"),  # further contests this turn needs: [players, want]
    )

    def __init__(self, number=0, order=None, limit=0):
        self.number = number
        self.order = order or []
        self.pos = 0
        self.limit = limit
        self.count = 0
        self.dice = []
        self.kept = 0
        self.finals = []
        self.counts = []
        self.winner = NOBODY
        self.loser = NOBODY
        self.amount = NOBODY
        self.queue = []

    def settling(self):
        """Whether every player is done and the turn's winner and loser are being settled."""
        return len(self.finals) == len(self.order) > 0


class Contest(Record):
    """A roll-off (one die each) or play-off (three dice) among tied players."""

    __slots__ = ("players", "want", "kind", "why", "round", "results", "stake")
    FIELDS = (
        ("players", "contestants"),  # in the order they roll
        ("want", WANTS),
        ("kind", KINDS),
        ("why", WHYS),
        ("round", "rounds"),  # 2 and more: played again after a tie
        ("results", "rolls"),  # the rolls so far, in order
        ("stake", (None,) + STAKES),  # announced before a repeated play-off; None plays "is"
    )

    def __init__(self, players=None, want=HIGH, kind=DIE, why=TIE, rnd=1):
        self.players = players or []
        self.want = want
        self.kind = kind
        self.why = why
        self.round = rnd
        self.results = []
        self.stake = None


class TurnResult(Record):
    """How the last finished turn ended, for the screens."""

    __slots__ = ("number", "phase", "winner", "loser", "amount", "wdice", "ldice", "passed")
    FIELDS = (
        ("number", "turns"),
        ("phase", (CHARGE, DECHARGE)),
        ("winner", "player"),
        ("loser", "player"),
        ("amount", "tokens"),  # tokens that moved
        ("wdice", "dice"),
        ("ldice", "dice"),
        ("passed", (False, True)),  # a two-player tie: nothing paid, the hand passed
    )

    def __init__(self, number=0, phase=CHARGE, winner=0, loser=0, amount=0, wdice=None,
                 ldice=None, passed=False):
        self.number = number
        self.phase = phase
        self.winner = winner
        self.loser = loser
        self.amount = amount
        self.wdice = wdice or []
        self.ldice = ldice or []
        self.passed = passed


class GameResult(Record):
    """How the game ended: who pays the round, who won, and why."""

    __slots__ = ("losers", "winners", "reason")
    FIELDS = (("losers", "players"), ("winners", "players"), ("reason", REASONS))

    def __init__(self, losers=None, winners=None, reason=FIRST_OUT):
        self.losers = losers or []
        self.winners = winners or []
        self.reason = reason


# The game's own fields, after "format", "version", "players" and "options".
GAME_FIELDS = (
    ("tokens", "holdings"),
    ("pot", "tokens"),
    ("out", "players"),  # players who left as winners, in order
    ("phase", PHASES),
    ("turn", "turn"),  # a Turn
    ("contest", "contest?"),  # a Contest, None when no contest is open
    ("last", "last?"),  # a TurnResult, None before the first turn ends
    ("result", "result?"),  # a GameResult, None until the game is over
    ("computers", "players"),  # the seats the tray plays (dicetray.seat); one stays human
    ("hints", (False, True)),  # a human's turn shows the strategy's keeps and chance
)


def dump(obj, fields):
    """The fields of obj as a plain JSON-compatible dict (nested objects too, tuples as lists)."""
    out = {}
    for name, _ in fields:
        value = getattr(obj, name)
        nested = getattr(value, "FIELDS", None)
        out[name] = plain(value) if nested is None else dump(value, nested)
    return out


def plain(v):
    """A deep copy of plain data with tuples turned into lists (what JSON gives back)."""
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v
