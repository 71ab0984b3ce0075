"""The variant options, each declared once in a table, and the five presets built from it.

The setup menu, the settings and a save's check read this table; a game needs only the
resulting rules.Options. So this module is loaded while a setup or a save needs it and the app
lets it go afterwards, its labels and help texts with it.
"""

# The option values by their names in rules (r.NAME): a name imported here would be one more
# entry in this module's globals, heap on MicroPython, for each of the seventeen.
from dicetray import rules as r
from dicetray.rules import Options, RulesError

# Every option once, in the setup menu's order (a tuple: MicroPython dicts keep no order). A row:
#   name, setup label (fits a menu row), allowed, shown, default (the classic text's), help.
# allowed is exactly the values allowed: a tuple of choices or a range of integers. The setup
# menu steps through them in that order and shows shown[i] for allowed[i] (a number when shown
# has no name for it). help says what the row means, on the setup's bottom line while the
# cursor is on it: at most 21 characters, the panel's width.
_BOOL = (False, True)
_OFF_ON = ("OFF", "ON")
OPTIONS = (
    ("tokens", "TOKENS", range(5, 100), None, 21, "TOKENS IN THE POT"),
    ("ranking", "RANKING", (r.RANKING_CLASSIC, r.RANKING_BAR41), ("CLASSIC", "BAR41"),
     r.RANKING_CLASSIC, "RANKING OF THROWS"),
    ("ace_high", "ACE HIGH", _BOOL, _OFF_ON, True, "AN ACE BEATS A SIX"),
    ("nenette_value", "NENETTE WORTH", range(1, 11), None, 2,
     "221 WINNING IS WORTH"),
    ("nenette_fixed", "NENETTE GETS", range(0, 11), ("OFF",), 2,
     "221 LOSING TAKES"),
    ("jackpot_421", "421 TAKES ALL", _BOOL, _OFF_ON, False,
     "421 TAKES EVERY TOKEN"),
    ("start", "WHO STARTS", (r.START_HIGH, r.START_LOW, r.START_DIE, r.START_SEAT1),
     ("BEST", "WORST", "ONE DIE", "P1"), r.START_HIGH, "WHO STARTS THE GAME"),
    ("dry_charge", "DRY CHARGE", _BOOL, _OFF_ON, False, "ONE THROW IN CHARGE"),
    ("limit", "FOLLOWERS", (r.LIMIT_EXACT, r.LIMIT_AT_MOST), ("EXACT", "AT MOST"), r.LIMIT_EXACT,
     "THROWS FOR THE OTHERS"),
    ("limit_from", "LIMIT FROM", (r.FROM_FIRST, r.FROM_PREVIOUS), ("FIRST", "PREVIOUS"),
     r.FROM_FIRST, "WHO SETS THE LIMIT"),
    ("le_bon", "LE BON", _BOOL, _OFF_ON, False, "STOP BEFORE THE LIMIT"),
    ("tie", "TIES", (r.TIE_LATER, r.TIE_ROLLOFF, r.TIE_PLAYOFF), ("LATER", "ROLL-OFF", "PLAY-OFF"),
     r.TIE_ROLLOFF, "HOW TIES ARE SETTLED"),
    ("two_player_pass", "2P TIE PASSES", _BOOL, _OFF_ON, False,
     "2 TIED: NOTHING PAID"),
    ("fewer_throws_win", "FEWER ROLLS WIN", _BOOL, _OFF_ON, False,
     "FEWER THROWS WIN TIES"),
    ("nenette_later_wins", "LATER NENETTE", _BOOL, _OFF_ON, False,
     "LATER NENETTE WINS"),
    ("deduct", "DEDUCT", _BOOL, _OFF_ON, False, "PAY THE DIFFERENCE"),
    ("end", "END", (r.LAST_HOLDER, r.FIRST_OUT), ("LAST PAYS", "FIRST OUT"), r.FIRST_OUT,
     "HOW THE GAME ENDS"),
    ("decharge_start", "DECHARGE BY", (r.DECHARGE_LOSER, r.DECHARGE_FEWEST), ("LOSER", "FEWEST"),
     r.DECHARGE_LOSER, "WHO STARTS DECHARGE"),
)
OPTION_NAMES = tuple(row[0] for row in OPTIONS)


def option(name) -> tuple:  # a plain tuple to type checkers: the rows differ in their types
    """The row of OPTIONS for option name: (name, label, allowed, shown, default, help)."""
    for row in OPTIONS:
        if row[0] == name:
            return row
    raise RulesError("unknown option: %r" % (name,))


def _check(row, value):
    # Raise RulesError unless value is allowed by row (a row of OPTIONS).
    allowed = row[2]
    if type(value) is not type(allowed[0]) or value not in allowed:  # a bool is no number
        if type(allowed) is range:
            raise RulesError("option %s must be an integer %d..%d" % (row[0], allowed[0],
                                                                      allowed[-1]))
        raise RulesError("option %s must be one of %r" % (row[0], allowed))


def make(**values):
    """The Options for values, every option given and allowed; RulesError says what is not."""
    # One pass over the table, each value against its own row: finding each row by name would
    # walk the table once per option.
    for row in OPTIONS:
        name = row[0]
        if name not in values:
            raise RulesError("option missing: " + name)
        _check(row, values[name])
    if len(values) != len(OPTIONS):
        for name in values:
            option(name)  # raises for the one that is no option
    return Options(values)


def changed(options, **changes):
    """options with changes made, checked like make()."""
    values = options.to_dict()
    values.update(changes)
    return make(**values)


def _preset(**changes):
    values = {row[0]: row[4] for row in OPTIONS}  # the classic text's: the table's defaults
    values.update(changes)
    return make(**values)


PRESETS = {
    # 000: full ranking table, exact number of throws, nenette receives 2: the defaults.
    "classic": _preset(),
    # 001: one die each to start, 421 takes everything, at most the first player's throws.
    "jackpot": _preset(
        nenette_fixed=0,
        jackpot_421=True,
        start=r.START_DIE,
        dry_charge=True,
        limit=r.LIMIT_AT_MOST,
        tie=r.TIE_LATER,
        end=r.LAST_HOLDER,
    ),
    # 002: rerolls in the charge (dry is an option), limit set by the previous player.
    "zanzibar": _preset(
        nenette_fixed=0,
        start=r.START_DIE,
        limit=r.LIMIT_AT_MOST,
        limit_from=r.FROM_PREVIOUS,
        tie=r.TIE_LATER,
        end=r.LAST_HOLDER,
    ),
    # 003: 41 tokens, its own table, aces low in ordinary throws, roll-offs and the 2-player pass.
    "bar41": _preset(
        tokens=41,
        ranking=r.RANKING_BAR41,
        ace_high=False,
        nenette_value=4,
        nenette_fixed=0,
        start=r.START_DIE,
        limit=r.LIMIT_AT_MOST,
        two_player_pass=True,
        end=r.LAST_HOLDER,
        decharge_start=r.DECHARGE_FEWEST,
    ),
    # 004: dry charge, "le bon", "qui barre demarre" play-offs, nenette worth 4 and not deducted.
    "lebon": _preset(
        nenette_value=4,
        nenette_fixed=0,
        start=r.START_DIE,
        dry_charge=True,
        le_bon=True,
        tie=r.TIE_PLAYOFF,
        fewer_throws_win=True,
        nenette_later_wins=True,
        deduct=True,
        end=r.LAST_HOLDER,
    ),
}
PRESET_NAMES = ("classic", "jackpot", "zanzibar", "bar41", "lebon")
del _preset  # only needed to build PRESETS: its code need not stay in RAM


def preset_name(options):
    """The name of the preset options are, or None (a custom set)."""
    for name in PRESET_NAMES:
        if PRESETS[name] == options:
            return name
    return None
