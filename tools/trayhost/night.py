"""A night at the bar on one tray: games back to back through the buttons, the language, the
tray's seats and the hints switched on the setup menu now and then, as a bar switches them.

Runs on CPython and on MicroPython (the bench's soak runs it there, one piece per step, to read
the live heap). The human seat (the first) is the bot at the buttons, a quick player; the tray
plays the others when its seats are on. The settings change by the menu's buttons: the cursor
walked to the row, ROLL to step its value, the cursor walked back.
"""

from dicetray.app import PLAY, SETUP

from trayhost import trayrun
from trayhost.autoplay import SeededDice

PLAYERS = 4
PRESET = "classic"
TOKENS = 11  # a quick game's pot (the preset's is 21): a bar's short game, set once a night
SEATS = 3  # the tray plays the last three seats when its seats are on
LANG_EVERY = 20  # the language changes every this many games...
LANG_FROM = 10  # ...from this game on (so the night's first and last games speak alike)
# ...and before these games too, the night's first minutes: French once and back, so that what
# a first load keeps for good (its interned strings, and the interned-string pool MicroPython
# doubles when it fills) comes before the 10th game, where the drift is read from.
WARM_UP = (4, 7)
SWITCH_EVERY = 50  # seats or hints, on or off, every this many games
# (seats, hints) in each stretch of SWITCH_EVERY games, round and round: the night ends as it
# started, so its first and last games are alike.
STRETCHES = ((SEATS, True), (SEATS, False), (0, True), (SEATS, True))
WAIT_MS = 60  # a seat's turn: the quick player waits this long, then hurries it (ROLL)
REST_MS = 120  # the quick player's rest after a key (trayrun's is a careful player's)
LIMIT = 5000  # keys and waits in a game: no end by then is a bug


def plan(game, lang_every=LANG_EVERY, lang_from=LANG_FROM, switch_every=SWITCH_EVERY):
    """(seats, hints, language switched before it) for the night's game number game (0 first);
    a shorter night passes shorter stretches."""
    seats, hints = STRETCHES[game // switch_every % len(STRETCHES)]
    switch = game in WARM_UP or (game >= lang_from and (game - lang_from) % lang_every == 0)
    return seats, hints, switch


def _row(name):
    # The setup menu's row of setting name: an option's (its row of the table), or one of the
    # rows after them ("computers", "hints", "lang"), in screens_setup's order; and the rows.
    from dicetray.options import OPTION_NAMES

    first = 2 + len(OPTION_NAMES)
    if name in OPTION_NAMES:
        return 2 + OPTION_NAMES.index(name), first + 4
    return first + ("computers", "hints", "tally", "lang").index(name), first + 4


def _walk(tray, target, rows):
    # KEEP1 / KEEP2 from the menu's cursor to row target, the shorter way round.
    cursor = tray.app.units[SETUP].cursor
    down = (target - cursor) % rows
    tray.keys("2" * down if down <= rows - down else "1" * (rows - down))


def _value(settings, name):
    options = settings["options"]
    return options[name] if name in options else settings[name]


def set_row(tray, name, value, key="r"):
    """Press the setup menu's buttons until setting name is value (ROLL steps to the next value,
    KEEP3 to the one before); the cursor goes back where it was. Yields each key pressed. The
    tray shows the setup."""
    menu = tray.app.units[SETUP]
    back = menu.cursor
    row, rows = _row(name)
    pressed = False
    for _ in range(100):
        if _value(menu.settings, name) == value:
            break
        if not pressed:
            _walk(tray, row, rows)
            pressed = True
        tray.key(key)
        yield key
    if _value(menu.settings, name) != value:
        raise RuntimeError("setting %s never became %r" % (name, value))
    if pressed:
        _walk(tray, back, rows)
        yield "*"


def game_keys(tray, seats, hints, bot):
    """One game from the setup back to it: the bot at the buttons for the human seat, the tray
    playing the others (seats of them); in a seat's turn the player waits WAIT_MS, then presses
    ROLL to hurry it, as a quick player does (and OK on a screen between turns). Yields each
    key, "." for a wait."""
    return trayrun.seats_game(tray, PLAYERS, PRESET, bot, seats, hints, WAIT_MS, LIMIT, _hurry)


def _hurry(app):
    # A quick player's press in the tray's moment: OK past a result or a new phase read, on to
    # the seat's turn; ROLL in the seat's turn.
    g = app.game
    if app.screen != PLAY:
        return "o"
    if g is not None and not g.over and g.current in g.computers:
        return "r"
    return None


def night(games, height=64, seed=1):
    """The night: yields ("game", number) as each game starts at the setup (its settings set),
    then "k" after each key pressed or wait; a fresh tray first, yielded as ("tray", tray)."""
    from dicetray import words

    tray = trayrun.Tray(SeededDice(seed), seed=seed, height=height)
    tray.rest_ms = REST_MS
    yield "tray", tray
    bot = SeededDice(seed + 1000)
    for game in range(games):
        seats, hints, switch = plan(game)
        if tray.app.units[SETUP].settings is None:
            tray.key(".")  # the menu reads its settings at a quiet moment
        if game == 0:
            yield from set_row(tray, "tokens", TOKENS, "3")
        yield from set_row(tray, "computers", seats)
        yield from set_row(tray, "hints", hints)
        if switch:
            lang = words.step(tray.app.units[SETUP].settings["lang"], 1)
            yield from set_row(tray, "lang", lang)
        yield "game", game
        yield from game_keys(tray, seats, hints, bot)
        # MicroPython's collector scans a generator's whole value stack, stale slots too: the
        # finished game's generator, left in one, would keep that game alive into the next.
        _overwrite(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def _overwrite(*slots):
    pass
