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

# Every option once, in the setup menu's order (a tuple: MicroPython dicts keep no order). A row:
#   name, setup label (fits a menu row), allowed, shown, default (the classic text's), help.
# allowed is exactly the values allowed: a tuple of choices or a range of integers. The setup
# menu steps through them in that order and shows shown[i] for allowed[i] (a number when shown
# has no name for it). help is one line of at most 42 characters: two rows of the panel.
_BOOL = (False, True)
_OFF_ON = ("OFF", "ON")
OPTIONS = (
    ("tokens", "TOKENS", range(5, 100), None, 21, "tokens in the pot at the start"),
    ("ranking", "TABLE", ("classic", "bar41"), ("CLASSIC", "BAR41"), "classic",
     "which table ranks figures and nenette"),
    ("ace_high", "ACE HIGH", _BOOL, _OFF_ON, True, "an ace beats a six in ordinary throws"),
    ("nenette_value", "NENETTE WORTH", range(1, 11), None, 2,
     "a nenette's worth as the best throw"),
    ("nenette_fixed", "NENETTE GETS", range(0, 11), ("OFF",), 2,
     "a loser's nenette gets this many (0: off)"),
    ("jackpot_421", "421 TAKES ALL", _BOOL, _OFF_ON, False,
     "421 is worth every token of the game"),
    ("start", "FIRST", ("throw_high", "throw_low", "die", "seat1"),
     ("BEST", "WORST", "ONE DIE", "P1"), "throw_high", "who starts: best/worst throw, die, P1"),
    ("dry_charge", "DRY CHARGE", _BOOL, _OFF_ON, False, "one throw each during the charge"),
    ("limit", "FOLLOWERS", ("exact", "at_most"), ("EXACT", "AT MOST"), "exact",
     "followers: exactly or at most the limit"),
    ("limit_from", "LIMIT BY", ("first", "previous"), ("FIRST", "PREVIOUS"), "first",
     "limit set by the first or previous player"),
    ("le_bon", "LE BON", _BOOL, _OFF_ON, False, "with EXACT a follower may stop early"),
    ("tie", "TIES", ("later", "rolloff", "playoff"), ("LATER", "ROLL-OFF", "PLAY-OFF"), "rolloff",
     "ties: later wins, 1 die or 3 dice each"),
    ("two_player_pass", "2P TIE PASSES", _BOOL, _OFF_ON, False,
     "2 tied players: nothing paid, hand passes"),
    ("fewer_throws_win", "FEWER WIN", _BOOL, _OFF_ON, False,
     "equal throws: the one in fewer throws wins"),
    ("nenette_later_wins", "NENETTE LATER", _BOOL, _OFF_ON, False,
     "of two nenettes the later always wins"),
    ("deduct", "DEDUCT", _BOOL, _OFF_ON, False, "loser's figure is taken off the winner's"),
    ("end", "END", ("last_holder", "first_out"), ("LAST HOLDS", "FIRST OUT"), "first_out",
     "first out wins, or the last holder loses"),
    ("decharge_start", "DECH. START", ("loser", "fewest"), ("LOSER", "FEWEST"), "loser",
     "decharge starts with last loser or fewest"),
)
OPTION_NAMES = tuple(row[0] for row in OPTIONS)


class RulesError(ValueError):
    """Bad dice or bad options: the message says which."""


def option(name) -> tuple:  # a plain tuple to type checkers: the rows differ in their types
    """The row of OPTIONS for option name: (name, label, allowed, shown, default, help)."""
    for row in OPTIONS:
        if row[0] == name:
            return row
    raise RulesError("unknown option: %r" % (name,))


def check_option(name, value):
    """Raise RulesError unless value is allowed for option name."""
    allowed = option(name)[2]
    if type(value) is not type(allowed[0]) or value not in allowed:  # a bool is no number
        if type(allowed) is range:
            raise RulesError("option %s must be an integer %d..%d" % (name, allowed[0],
                                                                      allowed[-1]))
        raise RulesError("option %s must be one of %r" % (name, allowed))


class Options:
    """One complete set of variant rules: an attribute per option. Immutable by convention.

    The class has the table's defaults as attributes and an instance only the options that
    differ from them, so the presets and a game share one copy of the defaults (RAM).
    """

    def __init__(self, **values):
        for name in OPTION_NAMES:
            if name not in values:
                raise RulesError("option missing: " + name)
        for name, value in values.items():
            check_option(name, value)
            if value != getattr(Options, name):
                setattr(self, name, value)

    def __getattr__(self, name):
        # Every option is found on the instance or the class, so Python looks here only for a
        # name that is no option. It also tells type checkers that options are attributes.
        return getattr(Options, name)

    def replace(self, **changes):
        values = self.to_dict()
        values.update(changes)
        return Options(**values)

    def to_dict(self):
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def __eq__(self, other):
        return isinstance(other, Options) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return "Options(**%r)" % (self.to_dict(),)


for _row in OPTIONS:
    setattr(Options, _row[0], _row[4])
del _row


def _preset(**changes):
    values = {row[0]: row[4] for row in OPTIONS}  # the classic text's: the table's defaults
    values.update(changes)
    return Options(**values)


PRESETS = {
    # 000: full ranking table, exact number of throws, nenette receives 2: the defaults.
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
del _preset  # only needed to build PRESETS: its code need not stay in RAM


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
