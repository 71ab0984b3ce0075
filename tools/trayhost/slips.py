"""A game played with slips: before each stop or stake the bot could make, it slips (a stop it
may not mean, the other stake), takes the slip back and presses what it meant (the flash
bench's undo games, the undo's tests). Apart from trayrun so that the trays the heap bench
measures do not carry it."""

from dicetray.app import PLAY

from trayhost.trayrun import bot_keys, game_keys, moments

UNDO_KEYS = "O1"  # OK held (the table, or the question on a result), then KEEP1: taken back


def slip_for(app, keys):
    """The slip a player could make instead of keys (the bot's next press), or None: OK where
    a stop is a choice (the very stop when it is the one meant: taken back and made again),
    the other stake where a stake is announced."""
    g = app.game
    if app.screen != PLAY or g is None or g.over:
        return None
    if g.contest is not None:
        if g.can_announce():
            return "3" if keys == "1" else "1"
        return None
    if g.can_stop() and not g.must_stop():
        return "o"
    return None


def slips_game(tray, players, preset, bot, max_keys=20000):
    """game_keys, but before each stop or stake the bot could make it slips (slip_for), takes
    the slip back (UNDO_KEYS) and presses what it meant. A generator: yields each key."""

    def pressed_for(app, keys):
        slip = slip_for(app, keys)
        return keys if slip is None else slip + UNDO_KEYS + keys

    return game_keys(tray, players, preset, bot, max_keys, pressed_for)


def twin_game(slips, plain, players, preset, bot, max_moments=3000):
    """The bot plays a game of preset on two trays with the same dice, until setup shows again:
    on `slips` it slips before each stop or stake it could make (slip_for), takes the slip back
    (UNDO_KEYS) and presses what it meant; `plain` plays it plainly. A generator, so that the
    caller compares the trays as they go: it yields ("slip", key) once the slip is pressed,
    ("undone", key) once it is taken back, and ("key", key) once a meant key is pressed on
    both."""
    for app in moments(slips, max_moments):
        keys = bot_keys(app, bot, (players, preset))
        slip = slip_for(app, keys)
        if slip is not None:
            slips.key(slip)
            yield "slip", slip
            slips.keys(UNDO_KEYS)
            yield "undone", slip
        for k in keys:
            slips.key(k)
            plain.key(k)
            yield "key", k
