"""421 combinations, their ranking and token values; a set of options (their table: options.py)."""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


from dicetray import words  # noqa: E402  (a combination's name is in the language spoken)

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

# The values of the options that take a word, each named once, by its option and its meaning
# (the table of options, with their order and defaults: options.py). Saves and settings files
# hold these strings: a release must read the ones every release before it wrote.
RANKING_CLASSIC = "classic"  # ranking: the classic text's table
RANKING_BAR41 = "bar41"  # ranking: bar 41's, brelans above fiches and nenette above the rest
START_HIGH = "throw_high"  # start: a throw each, the best starts
START_LOW = "throw_low"  # start: a throw each, the worst starts
START_DIE = "die"  # start: one die each, the highest starts
START_SEAT1 = "seat1"  # start: seat 1, no roll-off
LIMIT_EXACT = "exact"  # limit: followers make exactly the limit's throws
LIMIT_AT_MOST = "at_most"  # limit: followers make at most the limit's throws
FROM_FIRST = "first"  # limit_from: the first player's throws set the limit
FROM_PREVIOUS = "previous"  # limit_from: the previous player's throws set it
TIE_LATER = "later"  # tie: of equal throws the later wins
TIE_ROLLOFF = "rolloff"  # tie: a roll-off, one die each
TIE_PLAYOFF = "playoff"  # tie: a play-off, three dice each
FIRST_OUT = "first_out"  # end: the first out of tokens wins, the most tokens pay
LAST_HOLDER = "last_holder"  # end: players leave as they run out, the last one pays
DECHARGE_LOSER = "loser"  # decharge_start: the charge's last loser starts the decharge
DECHARGE_FEWEST = "fewest"  # decharge_start: the holder of the fewest tokens starts it


class RulesError(ValueError):
    """Bad dice or bad options: the message says which."""


class Options:
    """One complete set of variant rules: an attribute per option. Immutable by convention.

    Build one with options.make() or options.changed(), which check every value against the
    table, or take a preset (options.PRESETS). This class knows no option: the table and the
    presets live in dicetray.options, loaded only while a setup or a save needs them (RAM).
    """

    def __init__(self, values):
        self._values = values  # every option, checked: the save writes this dict
        for name in values:
            setattr(self, name, values[name])

    def __getattr__(self, name):
        # Every option is set on the instance, so Python looks here only for a name that is no
        # option. It also tells type checkers that options are attributes.
        raise AttributeError(name)

    def to_dict(self):
        return dict(self._values)

    def __eq__(self, other):
        return isinstance(other, Options) and self._values == other._values

    def __repr__(self):
        return "Options(%r)" % (self._values,)


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
    return combo(dice, options)


def written(dice, options):
    """Three dice as the screens write a throw, in the order they rank: of two ordinary throws,
    the one that reads higher ranks higher. An ace that ranks above the six is written A, first
    ("A63" with ACE HIGH; "AA6" two aces and a six, "AAA" three aces, in every ranking); the
    sequences keep their digits ("421", "221", "321"); anything else its pips, highest first.
    One die (a roll-off's): its pips."""
    if len(dice) != 3:
        return "%d" % dice[0]
    a, b, c = key = tuple(sorted(dice, reverse=True))
    if c == 1 and (b == 1 or (options.ace_high and not (b == 2 and a < 5))):
        return "AAA" if a == 1 else ("AA%d" % a if b == 1 else "A%d%d" % (a, b))
    return "%d%d%d" % key


def combo(dice, options):
    """evaluate() of three dice the game has checked already (a throw it took, a save it
    accepted), without the check: the engine and the screens of a press, on the Pico."""
    a, b, c = key = tuple(sorted(dice, reverse=True))
    kind, strength = _rank(a, b, c, options)
    name = words.T.COMBOS[kind]
    if kind == K_OTHER:
        name = name % written(key, options)
    elif kind == K_SUITE:
        name = name % key
    elif kind == K_FICHE or kind == K_BRELAN:
        name = name % a
    return Combo(key, kind, strength, _tokens(kind, a, options), name)


def worth(dice, options):
    """(kind, tokens) of three dice the game has checked already, as combo() finds them: what
    a turn's end pays, without a Combo or its name."""
    a, b, c = sorted(dice, reverse=True)
    kind = _rank(a, b, c, options)[0]
    return kind, _tokens(kind, a, options)


def _tokens(kind, a, options):
    # What a throw of kind, a its highest die, is worth: the commonest kinds first.
    if kind == K_OTHER:
        return 1
    if kind == K_FICHE or kind == K_BRELAN:
        return a
    if kind == K_SUITE:
        return 2
    if kind == K_421:
        return options.tokens if options.jackpot_421 else 10
    return 7 if kind == K_ACES else options.nenette_value


def rank(dice, options):
    """(kind, strength) of three dice the game has checked already (a throw it took, a save it
    accepted): what orders throws, without evaluate()'s check, Combo and name, which cost five
    times as much on the Pico (its turn's end ranks every player's throw, each screen too)."""
    a, b, c = sorted(dice, reverse=True)
    return _rank(a, b, c, options)


def _rank(a, b, c, options):
    # a >= b >= c. The most frequent throws, the ordinary ones, are found with the fewest tests.
    if c == 1:
        if b == 1:
            if a == 1:
                return K_ACES, _S_ACES
            if options.ranking == RANKING_BAR41:
                return K_FICHE, _S_FIGURE + _face(a)
            return K_FICHE, _S_FIGURE + 2 * _face(a) + 1
        if b == 2:
            if a == 4:
                return K_421, _S_421
            if a == 2:
                return K_NENETTE, (_S_NENETTE_HIGH if options.ranking == RANKING_BAR41
                                   else _S_NENETTE_LOW)
            if a == 3:
                return K_SUITE, _S_SUITE + a
        if options.ace_high:
            # The ace counts above the six: 6-5-1 orders as (ace, 6, 5).
            return K_OTHER, _S_OTHER + 7 * 64 + a * 8 + b
    elif a == b == c:
        if options.ranking == RANKING_BAR41:
            return K_BRELAN, _S_FIGURE + 10 + _face(a)
        return K_BRELAN, _S_FIGURE + 2 * _face(a)
    elif a == b + 1 == c + 2:
        return K_SUITE, _S_SUITE + a
    return K_OTHER, _S_OTHER + a * 64 + b * 8 + c


def all_throws():
    """The 56 distinct throws, each as a descending tuple (a generator: nothing kept in RAM)."""
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            for c in range(b, 0, -1):
                yield (a, b, c)


def is_figure(combo):
    """Figures are every kind worth something of its own; ordinary throws and nenette are not."""
    return combo.kind < K_NENETTE
