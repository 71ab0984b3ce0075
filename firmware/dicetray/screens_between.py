"""The names of the tray's screens, the units of those between turns and around a game, and
Unit, what a unit with state of its own is.

A unit is unit(app, key, long, now), as in dicetray.screens (which makes each App's set).
"""

from dicetray import font, ui, words

SETUP = "setup"
PLAY = "play"  # a turn, a roll-off or a play-off
RESULT = "result"
PHASE = "phase"
STANDINGS = "standings"
TALLY = "tally"  # the rounds each seat paid: after the standings, and at the end of a game
QUIT = "quit"  # quit the game under way? asked from the standings
OVER = "over"
RESUME = "resume"
NOTICE = "notice"
OUTCOME = "outcome"  # a roll-off or play-off decided
UNDO = "undo"  # take back the last stop or stake? asked after it, until a die is thrown


class Unit:
    """A unit with state of its own: fn(unit, app, key, long, now) is called as a unit function
    is, and keeps on unit what it needs from one call to the next. told: what it shows, as the
    app hands it (App.tell), or as it works it out; fields: its other fields, which it alone
    sets, and their first values. One class serves every such unit: a class each would cost
    RAM on MicroPython."""

    def __init__(self, fn, told=None, **fields):
        self.fn = fn
        self.told = told
        for name in fields:
            setattr(self, name, fields[name])

    def __call__(self, app, key, long, now):
        self.fn(self, app, key, long, now)

    def tell(self, what):
        self.told = what


# ---- between turns: the result, a phase change, the standings, quitting, the end ---------------


def between(unit, app, key, long, now):
    """A turn's result (RESULT: who lost to whom, the tokens moved, every throw), a roll-off or
    play-off decided (OUTCOME: every roll, who it picked), a phase begun (PHASE: the pot, who
    starts). OK/ROLL (any key when the tray plays next): the next of the screens told
    (unit.told, a list: the play unit's), else the play; there, when a human throws next, ROLL
    is that throw too (the turn's first, or a roll-off's roll): reading the screen is no
    decision of its own. While the stop or stake that led here may be taken back (App.undo),
    the key bar offers it and KEEP1 takes it back."""
    g = app.game
    then = unit.told
    if key is None:
        screen = app.screen
        draw = ui.phase if screen == PHASE else ui.outcome if screen == OUTCOME else ui.result
        t = words.T
        keys = t.KEYS_NEXT_THROW if _human_throws(g, then) else t.KEYS_NEXT
        # When the tray moves on by itself the key bar drains till then.
        draw(app.fb, app.w, app.h, g, keys if app.undo is None else undo_text(app, t.KEYS_UNDO),
             app.clock.wait_left if app.clock.wait_ms else -1)
    elif key == "KEEP1" and app.undo is not None:
        app.take_back()
    elif key == "OK" and long and app.undo is not None:
        ask_undo(app)
    elif key == "OK" or key == "ROLL" or g.current in g.computers:
        # any key goes on when the tray plays next: it would by itself
        throws = key == "ROLL" and _human_throws(g, then)
        app.show(then.pop(0) if then else PLAY)
        if throws:
            app.units[PLAY](app, key, long, now)


def _human_throws(g, then):
    # Whether the play follows (then: the screens still to show) and ROLL there throws for a
    # human: not the tray's seat, and no stake to announce first.
    return (not then or then[0] == PLAY) and g.current not in g.computers \
        and (g.contest is None or not g.can_announce())


def standings(app, key, long, now):
    """Everybody's tokens. OK: the tally; ROLL: back to the game; OK held: quit the game?
    While a stop or a stake may be taken back (App.undo), its key bar says so, and KEEP1 takes
    it back."""
    if key is None:
        t = words.T
        keys = t.KEYS_STANDINGS if app.undo is None else undo_text(app, t.KEYS_UNDO)
        ui.standings(app.fb, app.w, app.h, app.game, app.save_failed, keys)
    elif key == "KEEP1" and app.undo is not None:
        app.take_back()
    elif key == "OK" and long:
        app.show(QUIT)
    elif key == "OK":
        app.show(TALLY)
    elif key == "ROLL":
        app.show(PLAY)


def tally(app, key, long, now):
    """The rounds each seat paid since the tally was reset (128x32, more than four seats: every
    seat on its two lines, the screen named by the key that led there). OK: on (back to the
    game, or a new one once it is over); ROLL: back (to the game, or to its end once it is
    over); OK held, in a game: quit it?"""
    g = app.game
    if key is None:
        paid = app.tally.paid
        seats = g.n
        for p in range(seats, len(paid)):
            if paid[p]:
                seats = p + 1  # a seat of an earlier, larger table still shows
        lines = []
        for first in range(0, seats, 4):
            lines.append(" ".join("P%d:%d" % (p + 1, paid[p])
                                  for p in range(first, min(seats, first + 4))))
        keys = words.T.KEYS_TALLY_OVER if g.over else words.T.KEYS_TALLY
        title = words.T.TALLY
        if app.h < 64 and len(lines) == 2 and font.width(lines[0]) <= app.w \
                and font.width(lines[1]) <= app.w:
            title = lines.pop(0)  # 128x32 has two lines: every seat, no title
        ui.message(app.fb, app.w, app.h, title, lines, keys)
    elif g.over:
        if key == "OK":
            app.quit()
        elif key == "ROLL":
            app.show(OVER)
    elif key == "OK" and long:
        app.show(QUIT)
    elif key == "OK" or key == "ROLL":
        app.show(PLAY)


def quit_game(app, key, long, now):
    """Quit the game under way? KEEP1: yes, to the setup, the game kept (App.leave): the yes
    is on no key the screens before (the table, the tally) use for back; any other button:
    no, back to the game."""
    if key is None:
        ui.message(app.fb, app.w, app.h, words.T.QUIT_TITLE, words.T.QUIT_LINES,
                   words.T.KEYS_QUIT)
    elif key == "KEEP1":
        app.leave()
    else:
        app.show(PLAY)


def over(app, key, long, now):
    """Game over: who pays the round and why. OK or ROLL: the tally (its OK: a new game); when
    the stop that ended it may be taken back (App.undo), the key bar offers it: KEEP1 takes it
    back, OK held asks first."""
    if key is None:
        keys = None if app.undo is None else undo_text(app, words.T.KEYS_UNDO)
        ui.over(app.fb, app.w, app.h, app.game, keys)
    elif key == "KEEP1" and app.undo is not None:
        app.take_back()
    elif key == "OK" and long and app.undo is not None:
        ask_undo(app)
    elif key == "OK" or key == "ROLL":
        app.show(TALLY)


# ---- taking back a stop or a stake, until the next die is thrown ---------------------------


def ask_undo(app):
    """Ask whether to take back the stop or stake offered (App.undo), from the screen shown:
    the answer no comes back to it (the question: dicetray.takeback)."""
    app.tell(UNDO, app.screen)
    app.show(UNDO)


def undo_text(app, texts):
    """What the undo offered (App.undo) takes back, in texts, as the player said it: a stop, a
    stake or le bon (words' KEYS_UNDO, the key bars that offer it, or UNDO_ASK, the question's
    title, which names the player: dicetray.takeback): "UNDO P2'S STOP?"."""
    _, verb, player = app.undo
    text = texts[1 if verb == "announce" else 2 if verb == "lebon" else 0]
    return text % ui.pname(player) if texts is words.T.UNDO_ASK else text


# ---- at power-up: resume the saved game?, a lost save ------------------------------------------


def resume(unit, app, key, long, now):
    """A saved game was found (unit.told: its preset's name, "custom" for none, the boot's). OK:
    resume it; ROLL: no, to the setup, which offers it still (App.leave)."""
    g = app.game
    if key is None:
        t = words.T
        ui.message(app.fb, app.w, app.h, t.RESUME_TITLE, (
            t.RESUME_PLAYERS % (t.PRESETS[unit.told], g.n),
            t.RESUME_TURN % (g.turn.number, t.PHASES[g.phase]),
            t.TO_PLAY % ui.pname(g.current, g.computers),
        ), t.KEYS_RESUME)
    elif key == "OK":
        app.show(PLAY)
    elif key == "ROLL":
        app.leave()  # to the setup, which offers it still


def notice(unit, app, key, long, now):
    """A message at power-up (a save or the tally was lost; unit.told: (title, lines), the
    boot's). OK: on (the saved game, or a new game)."""
    if key is None:
        title, lines = unit.told
        ui.message(app.fb, app.w, app.h, title, lines,
                   words.T.KEYS_NEW_GAME if app.game is None else words.T.KEYS_NEXT)
    elif key == "OK":
        app.show(SETUP if app.game is None else RESUME)
