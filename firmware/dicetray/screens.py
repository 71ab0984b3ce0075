"""The tray's screens, one small unit each: what it draws (through ui), what each button does.

A unit is called unit(app, key, long, now): key None draws the screen, else it answers that
button ("KEEP1".."OK"; long: OK held). A unit acts on the app through its methods (show, tell,
refuse, redraw, needs_save, play...) and writes none of its fields. A unit with state of its own
(the setup's settings and cursor, the play's hint, the screens to show after a result, a
notice's words) is a screens_between.Unit that keeps it; the others are functions. units()
makes one set for each App, so that no state outlives its tray.
Here: the setup and play units; those between turns and around a game are in
dicetray.screens_between.
"""

from dicetray import ui, words
from dicetray.rules import K_421, rank
from dicetray.save_write import GAME_DUE
from dicetray.screens_between import (
    NOTICE,
    OUTCOME,
    OVER,
    PHASE,
    PLAY,
    QUIT,
    RESULT,
    RESUME,
    SETUP,
    STANDINGS,
    TALLY,
    UNDO,
    Unit,
    between,
    notice,
    over,
    quit_game,
    resume,
    standings,
    tally,
    undo_text,
)
from dicetray.state import CHARGE, GameError

# Tunes: frequency (Hz), milliseconds, frequency, milliseconds...; 0 Hz is a rest. Flat: one
# tuple a tune, not one a note (RAM).
SND_CLICK = (2000, 8)
SND_ROLL = (700, 20, 0, 30, 900, 20, 0, 30, 1100, 20)
SND_NO = (220, 90)
SND_LOSE = (660, 90, 440, 150)
SND_421 = (880, 80, 1175, 80, 1568, 160)
SND_OVER = (523, 120, 392, 120, 330, 120, 262, 300)

KEEPS = ("KEEP1", "KEEP2", "KEEP3")

# ---- setup: its code is in screens_setup.py, loaded while the setup shows --------------------


def setup(unit, app, key, long, now):
    """The setup menu: players, rules, options; OK starts a game. Its code, fields included, is
    dicetray.screens_setup's (unit), loaded with the options table only while the setup shows
    (dicetray.lazy)."""
    from dicetray.screens_setup import unit as menu

    menu(unit, app, key, long, now)


def undo(unit, app, key, long, now):
    """Take back the last stop or stake? Its code is dicetray.takeback's, loaded only while an
    undo is offered and shown (dicetray.lazy)."""
    from dicetray.takeback import unit as ask

    ask(unit, app, key, long, now)


# ---- play: a turn, a roll-off, a play-off -----------------------------------------------------


def play(unit, app, key, long, now):
    """A turn (KEEPs keep, ROLL throws, OK stops) or a contest (ROLL; KEEP1/3: the stake).
    unit.told: the hint it showed last, (game, moment, (mask, text)), or None (the app tells
    it None as the game ends)."""
    g = app.game
    if key is None:
        # Until a die is thrown the key bar offers the undo of the last stop or stake.
        keys = undo_text(app, words.T.KEYS_UNDO) if _undo_here(app, g) else None
        if g.contest is not None:
            ui.contest(app.fb, app.w, app.h, g, keys)
        else:
            faces = app.clock.shown_dice(g.turn.dice)
            hint = _hint(unit, g) if g.hints and faces is None else None
            ui.turn(app.fb, app.w, app.h, g, g.turn.kept, faces, hint, keys)
    elif key == "OK" and long:
        app.show(STANDINGS)
    elif key == "KEEP1" and _undo_here(app, g):
        app.take_back()
    elif g.contest is not None:
        if g.can_announce() and (key == "KEEP1" or key == "KEEP3"):
            act(app, now, "announce", "is" if key == "KEEP1" else "comes")
        elif key == "ROLL":
            act(app, now, "throw", ())
        else:
            app.refuse(words.T.KEEP1_OR_KEEP3 if g.can_announce() else words.T.ROLL_TO_PLAY)
    elif key in KEEPS:
        _keep(app, KEEPS.index(key))
    elif key == "ROLL" and g.can_throw():
        k = g.turn.kept
        act(app, now, "throw", tuple(i for i in range(3) if k & (1 << i)))
    elif g.can_stop():  # OK, or ROLL with no throw left: done
        act(app, now, "stop", None)
    else:
        app.refuse(words.T.THROWS_DUE % g.max_throws() if g.turn.count else words.T.THROW_FIRST)


def _undo_here(app, g):
    # Whether the turn or contest shown offers the undo of the last stop or stake (App.undo):
    # a human's, before its first throw, where KEEP1 means nothing else (no stake to choose).
    return app.undo is not None and g.current not in g.computers and (
        g.turn.count == 0 if g.contest is None else not g.can_announce())


def _hint(unit, g):
    # A human's turn between two throws (or before the stop): what the strategy would do,
    # worked out once a throw (a keep changes nothing of it, so a KEEP redraws only its die)
    # by the seats at an idle poll (dicetray.seat), which tell it: shown once it is made.
    h = unit.told
    return h[2] if h is not None and hint_wanted(g) and hint_is_of(h, g) else None


def hint_wanted(g):
    """Whether g's turn shows a hint (hints on): a human's, between two throws."""
    t = g.turn
    return g.contest is None and g.current not in g.computers and t.count and not g.must_stop()


def hint_of(g, hint):
    """What the play unit is told of hint (strategy.hint's), the hint of g's throw: (game,
    (turn, position, throws, dice), hint), which hint_is_of reads."""
    t = g.turn
    return (g, (t.number, t.pos, t.count, list(t.dice)), hint)


def hint_is_of(h, g):
    """Whether h, what the play unit was told, (game, (turn, position, throws, dice), hint),
    is the hint of g's throw: compared in place (no allocation: idle polls)."""
    t = g.turn
    at = h[1]
    return h[0] is g and at[0] == t.number and at[1] == t.pos and at[2] == t.count \
        and at[3] == t.dice


def _keep(app, die):
    g = app.game
    try:
        g.keep(die)
    except GameError:  # not now, or a third die: a throw must throw at least one
        why = words.T.TWO_DICE_AT_MOST if g.can_keep() else words.T.NO_THROW_LEFT
        return app.refuse(why if g.turn.count else words.T.THROW_FIRST)
    app.clock.beep(SND_CLICK)
    app.needs_save(GAME_DUE)  # kept dice are saved: a power cut keeps them
    if not app.dirty:  # only that die changes look: drawn alone, it shows at once
        hint = _hint(app.units[PLAY], g) if g.hints else None  # the throw's, worked out
        ui.turn_die(app.fb, app.w, app.h, g.turn.dice, g.turn.kept, die, hint and hint[0] or 0,
                    g.n)


def act(app, now, verb, arg):
    """Play verb ("throw", "stop", "announce") with arg, show what follows; the game is saved
    once the panel shows it (App.step). A throw that uses the last one lets the turn end by
    itself once its dice were on the panel long enough to read (the Clock's end_turn)."""
    g = app.game
    contest = g.contest
    rolling = 7 & ~g.turn.kept if g.turn.count else 7  # the dice that fly
    player = g.current
    forced = verb == "stop" and g.must_stop()  # no choice made: the throws were used up
    t = g.turn
    said = "lebon" if verb == "stop" and t.pos and t.count < g.max_throws() else verb
    try:
        if verb == "throw":
            events = g.throw(arg)
        elif verb == "stop":
            events = g.stop()
        else:
            events = g.announce(arg)
    except GameError:
        app.refuse(words.T.NOT_NOW)  # the engine refused: nothing changed
        return
    # A human's own stop or stake may be taken back until a die is thrown (App.offer).
    app.offer(None if verb == "throw" or forced or player in g.computers else said, player)
    app.needs_save(GAME_DUE)  # saved once the panel shows what follows (App.step)
    app.clock.clear()  # a refusal is about what was shown before, and so is a turn's end due
    screen, then = _after_events(app, events)
    if contest is not None and g.contest is not contest:  # decided: show how, then go on
        then.insert(0, screen)
        screen = OUTCOME
    if screen != PLAY:
        app.tell(screen, then)  # the screens to show after it, one by one (between)
        app.show(screen)
    if verb == "throw":
        app.clock.beep(SND_ROLL)
        if screen == PLAY and g.contest is None and g.turn.count:
            app.clock.roll(now, rolling)
            if g.must_stop():
                app.clock.end_turn(now)
    app.redraw()


def _after_events(app, events):
    # The screen a turn's events lead to (PLAY: none) and the screens after it: its result,
    # then a phase change or the game's end.
    then = []
    ended = False
    for ev in events:
        kind = ev[0]
        if kind == "turn" or kind == "tie_pass":
            ended = True
        elif kind == "phase":
            if ev[1] == CHARGE:
                return PLAY, then  # the roll-off's outcome said who starts; the turn, the rest
            then.append(PHASE)
        elif kind == "over":  # always after the last turn's result
            then.append(OVER)
            app.clock.beep(SND_OVER)
            app.count_round()
            app.clear()
            return RESULT, then
    if ended:
        won = rank(app.game.last.wdice, app.game.opts)[0] == K_421
        app.clock.beep(SND_421 if won else SND_LOSE)
        return RESULT, then
    return PLAY, then


def units():
    """Each screen's unit for one App: the units with state are its own."""
    turns = Unit(between, ())  # the screens after a result, the same buttons
    return {
        SETUP: Unit(setup, None, settings=None, cursor=0, clear_tally=False, ready=None),
        PLAY: Unit(play),
        RESULT: turns,
        PHASE: turns,
        OUTCOME: turns,
        STANDINGS: standings,
        TALLY: tally,
        QUIT: quit_game,
        OVER: over,
        RESUME: Unit(resume, "custom"),
        NOTICE: Unit(notice, ("", ())),
        UNDO: Unit(undo, PLAY),
    }
