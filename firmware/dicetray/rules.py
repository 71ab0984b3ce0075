"""421 combinations, their ranking and token values, the variant options and the five presets."""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


# Kinds of combination, strongest family first (display and tests use them; ranking is below).
K_421 = const(0)
K_ACES = const(1)  # 1-1-1
K_FICHE = const(2)  # 1-1-x, x = 2..6 ("2 as-x")
K_BRELAN = const(3)  # x-x-x, x = 2..6 ("baraque", "zanzi")
K_SUITE = const(4)  # 6-5-4, 5-4-3, 4-3-2, 3-2-1 ("tierce")
K_NENETTE = const(5)  # 2-2-1
K_OTHER = const(6)  # everything else, worth 1

# Strength bands: a higher band always beats a lower one; inside a band the low digits order.
_S_421 = const(10000)
_S_ACES = const(9000)
_S_FIGURE = const(8000)  # fiches and brelans, interleaved or brelans first
_S_SUITE = const(7000)
_S_NENETTE_HIGH = const(6000)  # bar41: nenette above the ordinary throws
_S_OTHER = const(1000)
_S_NENETTE_LOW = const(0)  # every other text: nenette is the lowest throw

# Each option: name -> allowed values (a tuple) or an (min, max) int range given as a list.
OPTION_CHOICES = {
    "tokens": [5, 99],
    "ranking": ("classic", "bar41"),
    "ace_high": (True, False),
    "nenette_value": [1, 10],
    "nenette_fixed": [0, 10],
    "jackpot_421": (False, True),
    "start": ("throw_high", "throw_low", "die", "seat1"),
    "dry_charge": (False, True),
    "limit": ("exact", "at_most"),
    "limit_from": ("first", "previous"),
    "le_bon": (False, True),
    "tie": ("later", "rolloff", "playoff"),
    "two_player_pass": (False, True),
    "fewer_throws_win": (False, True),
    "nenette_later_wins": (False, True),
    "deduct": (False, True),
    "end": ("last_holder", "first_out"),
    "decharge_start": ("loser", "fewest"),
}
# The setup menu's order. Not tuple(OPTION_CHOICES): a MicroPython dict keeps no insertion order.
OPTION_NAMES = (
    "tokens",
    "ranking",
    "ace_high",
    "nenette_value",
    "nenette_fixed",
    "jackpot_421",
    "start",
    "dry_charge",
    "limit",
    "limit_from",
    "le_bon",
    "tie",
    "two_player_pass",
    "fewer_throws_win",
    "nenette_later_wins",
    "deduct",
    "end",
    "decharge_start",
)


class RulesError(ValueError):
    """Bad dice or bad options: the message says which."""


class Options:
    """One complete set of variant rules. Immutable by convention: use replace() to change."""

    # One attribute per option (set from OPTION_CHOICES in __init__); declared for type checkers.
    tokens: int
    ranking: str
    ace_high: bool
    nenette_value: int
    nenette_fixed: int
    jackpot_421: bool
    start: str
    dry_charge: bool
    limit: str
    limit_from: str
    le_bon: bool
    tie: str
    two_player_pass: bool
    fewer_throws_win: bool
    nenette_later_wins: bool
    deduct: bool
    end: str
    decharge_start: str

    def __init__(self, **values):
        for name in OPTION_NAMES:
            if name not in values:
                raise RulesError("option missing: " + name)
        for name, value in values.items():
            check_option(name, value)
            setattr(self, name, value)

    def replace(self, **changes):
        values = self.to_dict()
        values.update(changes)
        return Options(**values)

    def to_dict(self):
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def __eq__(self, other):
        return isinstance(other, Options) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return "Options(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in OPTION_NAMES)


def check_option(name, value):
    """Raise RulesError unless value is allowed for option name."""
    allowed = OPTION_CHOICES.get(name)
    if allowed is None:
        raise RulesError("unknown option: %r" % (name,))
    if isinstance(allowed, list):
        if type(value) is not int or not allowed[0] <= value <= allowed[1]:
            lo, hi = allowed
            raise RulesError("option %s must be an integer %d..%d" % (name, lo, hi))
    elif type(value) is not type(allowed[0]) or value not in allowed:
        raise RulesError("option %s must be one of %r" % (name, allowed))


def _preset(**changes):
    values = dict(_CLASSIC)
    values.update(changes)
    return Options(**values)


# The classic text (000): full ranking table, exact number of throws, nenette receives 2.
_CLASSIC = {
    "tokens": 21,
    "ranking": "classic",
    "ace_high": True,
    "nenette_value": 2,
    "nenette_fixed": 2,
    "jackpot_421": False,
    "start": "throw_high",
    "dry_charge": False,
    "limit": "exact",
    "limit_from": "first",
    "le_bon": False,
    "tie": "rolloff",
    "two_player_pass": False,
    "fewer_throws_win": False,
    "nenette_later_wins": False,
    "deduct": False,
    "end": "first_out",
    "decharge_start": "loser",
}

PRESETS = {
    "classic": _preset(),
    # 001: one die each to start, 421 takes everything, at most the first player's throws.
    "jackpot": _preset(
        nenette_fixed=0,
        jackpot_421=True,
        start="die",
        dry_charge=True,
        limit="at_most",
        tie="later",
        end="last_holder",
    ),
    # 002: rerolls in the charge (dry is an option), limit set by the previous player.
    "zanzibar": _preset(
        nenette_fixed=0,
        start="die",
        limit="at_most",
        limit_from="previous",
        tie="later",
        end="last_holder",
    ),
    # 003: 41 tokens, its own table, aces low in ordinary throws, roll-offs and the 2-player pass.
    "bar41": _preset(
        tokens=41,
        ranking="bar41",
        ace_high=False,
        nenette_value=4,
        nenette_fixed=0,
        start="die",
        limit="at_most",
        two_player_pass=True,
        end="last_holder",
        decharge_start="fewest",
    ),
    # 004: dry charge, "le bon", "qui barre demarre" play-offs, nenette worth 4 and not deducted.
    "lebon": _preset(
        nenette_value=4,
        nenette_fixed=0,
        start="die",
        dry_charge=True,
        le_bon=True,
        tie="playoff",
        fewer_throws_win=True,
        nenette_later_wins=True,
        deduct=True,
        end="last_holder",
    ),
}
PRESET_NAMES = ("classic", "jackpot", "zanzibar", "bar41", "lebon")


class Combo:
    """What three dice make under a set of options."""

    __slots__ = ("dice", "kind", "strength", "tokens", "name")

    def __init__(self, dice, kind, strength, tokens, name):
        self.dice = dice  # sorted, highest pip first
        self.kind = kind
        self.strength = strength
        self.tokens = tokens
        self.name = name

    def __repr__(self):
        return "Combo(%s, strength=%d, tokens=%d)" % (self.name, self.strength, self.tokens)


def check_dice(dice, count=3):
    """Raise RulesError unless dice is `count` integers 1..6."""
    if len(dice) != count:
        raise RulesError("need %d dice, got %d" % (count, len(dice)))
    for d in dice:
        if type(d) is not int or not 1 <= d <= 6:
            raise RulesError("die value outside 1..6: %r" % (d,))


def _face(x):
    # Face order for figures: ace strongest, then 6 down to 2 (6 -> 5 ... 2 -> 1).
    return x - 1


def evaluate(dice, options):
    """The combination three dice make: kind, strength (higher wins), tokens, display name."""
    check_dice(dice)
    a, b, c = sorted(dice, reverse=True)
    key = (a, b, c)
    if key == (4, 2, 1):
        value = options.tokens if options.jackpot_421 else 10
        return Combo(key, K_421, _S_421, value, "421")
    if key == (1, 1, 1):
        return Combo(key, K_ACES, _S_ACES, 7, "3 as")
    if b == 1 and c == 1:
        if options.ranking == "bar41":
            strength = _S_FIGURE + _face(a)
        else:
            strength = _S_FIGURE + 2 * _face(a) + 1
        return Combo(key, K_FICHE, strength, a, "2 as-%d" % a)
    if a == b == c:
        if options.ranking == "bar41":
            strength = _S_FIGURE + 10 + _face(a)
        else:
            strength = _S_FIGURE + 2 * _face(a)
        return Combo(key, K_BRELAN, strength, a, "brelan %d" % a)
    if a == b + 1 == c + 2:
        return Combo(key, K_SUITE, _S_SUITE + a, 2, "suite %d%d%d" % key)
    if key == (2, 2, 1):
        strength = _S_NENETTE_HIGH if options.ranking == "bar41" else _S_NENETTE_LOW
        return Combo(key, K_NENETTE, strength, options.nenette_value, "nenette")
    if options.ace_high and c == 1:
        # The ace counts above the six: 6-5-1 orders as (ace, 6, 5).
        a, b, c = 7, a, b
    strength = _S_OTHER + a * 64 + b * 8 + c
    return Combo(key, K_OTHER, strength, 1, "%d%d%d" % key)


def all_throws():
    """The 56 distinct throws, each as a descending tuple (a generator: nothing kept in RAM)."""
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            for c in range(b, 0, -1):
                yield (a, b, c)


def is_figure(combo):
    """Figures are every kind worth something of its own; ordinary throws and nenette are not."""
    return combo.kind < K_NENETTE
