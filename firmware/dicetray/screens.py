"""The tray's screens, one small unit each: what it draws (through ui), what each button does.

A unit is one function unit(app, key, long, now): key None draws the screen, else it answers
that button ("KEEP1".."OK"; long: OK held). UNITS maps each screen's name to its unit: one
function a screen costs less RAM on MicroPython than a class or a module a screen (measured).
Here: the setup and play units; those between turns and around a game are in dicetray.between.
"""

from dicetray import ui
from dicetray.between import (
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
    notice,
    over,
    phase,
    quit_game,
    result,
    resume,
    standings,
    tally,
)
from dicetray.rules import K_421, evaluate
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

# ---- setup: its unit is in setupmenu.py, loaded while the setup shows ------------------------


def setup(app, key, long, now):
    """The setup menu (dicetray.setupmenu): its code and the options table are loaded only
    while it shows, and let go when a game starts (App.show): on MicroPython code is heap."""
    from dicetray.setupmenu import unit

    if unit(app, key, long, now):
        app.show(PLAY)  # a game has started


# ---- play: a turn, a roll-off, a play-off -----------------------------------------------------


def play(app, key, long, now):
    """A turn (KEEPs keep, ROLL throws, OK stops) or a contest (ROLL; KEEP1/3: the stake)."""
    g = app.game
    if key is None:
        if g.contest is not None:
            ui.contest(app.fb, app.w, app.h, g)
        else:
            faces = app.clock.shown_dice(g.turn.dice)
            hint = _hint(app, g) if g.hints and faces is None else None
            ui.turn(app.fb, app.w, app.h, g, g.turn.kept, faces, hint)
    elif key == "OK" and long:
        app.show(STANDINGS)
    elif g.contest is not None:
        if g.can_announce() and (key == "KEEP1" or key == "KEEP3"):
            act(app, now, "announce", "is" if key == "KEEP1" else "comes")
        elif key == "ROLL":
            act(app, now, "throw", ())
        else:
            app.refuse("KEEP1 OR KEEP3" if g.can_announce() else "ROLL TO PLAY")
    elif key in KEEPS:
        _keep(app, KEEPS.index(key))
    elif key == "ROLL" and g.can_throw():
        k = g.turn.kept
        act(app, now, "throw", tuple(i for i in range(3) if k & (1 << i)))
    elif g.can_stop():  # OK, or ROLL with no throw left: done
        act(app, now, "stop", None)
    else:
        app.refuse("%d THROWS DUE" % g.max_throws() if g.turn.count else "THROW FIRST")


def _hint(app, g):
    # A human's turn between two throws (or before the stop): what the strategy would do,
    # worked out once a throw (a keep changes nothing of it, so a KEEP redraws only its die).
    t = g.turn
    if g.current in g.computers or not t.count or g.must_stop():
        return None
    moment = (t.number, t.pos, t.count, tuple(t.dice))
    h = app.hint
    if h is None or h[0] is not g or h[1] != moment:
        from dicetray.strategy import hint

        h = app.hint = (g, moment, hint(g))
    return h[2]


def _keep(app, die):
    g = app.game
    try:
        g.keep(die)
    except GameError:  # not now, or a third die: a throw must throw at least one
        why = "2 DICE AT MOST" if g.can_keep() else "NO THROW LEFT"
        return app.refuse(why if g.turn.count else "THROW FIRST")
    app.clock.beep(SND_CLICK)
    app.unsaved |= 1  # kept dice are saved: a power cut keeps them
    if not app.dirty:  # only that die changes look: drawn alone, it shows at once
        ui.turn_die(app.fb, app.w, app.h, g.turn.dice, g.turn.kept, die)


def act(app, now, verb, arg):
    """Play verb ("throw", "stop", "announce") with arg, show what follows; the game is saved
    once the panel shows it (App.step). A throw that uses the last one lets the turn end by
    itself once its dice were on the panel long enough to read (the Clock's end_turn)."""
    g = app.game
    contest = g.contest
    rolling = 7 & ~g.turn.kept if g.turn.count else 7  # the dice that fly
    try:
        if verb == "throw":
            events = g.throw(arg)
        elif verb == "stop":
            events = g.stop()
        else:
            events = g.announce(arg)
    except GameError:
        app.refuse("NO")  # the engine refused: nothing changed
        return
    app.unsaved |= 1  # saved once the panel shows what follows (App.step)
    app.clock.clear()  # a refusal is about what was shown before, and so is a turn's end due
    _after_events(app, events)
    if contest is not None and g.contest is not contest:  # decided: show how, then go on
        app.after.insert(0, app.screen)
        app.show(OUTCOME)
    if verb == "throw":
        app.clock.beep(SND_ROLL)
        if app.screen == PLAY and g.contest is None and g.turn.count:
            app.clock.roll(now, rolling)
            if g.must_stop():
                app.clock.end_turn(now)
    app.dirty = True


def _after_events(app, events):
    # The screens a turn's events lead to: its result, then a phase change or the game's end.
    ended = False
    for ev in events:
        kind = ev[0]
        if kind == "turn" or kind == "tie_pass":
            ended = True
        elif kind == "phase":
            if ev[1] == CHARGE:
                return app.show(PHASE)  # the opening roll-off is over: who starts
            app.after.append(PHASE)
        elif kind == "over":  # always after the last turn's result
            app.after.append(OVER)
            app.clock.beep(SND_OVER)
            app.count_round()
            app.clear()
            return app.show(RESULT)
    if ended:
        won = evaluate(app.game.last.wdice, app.game.opts).kind == K_421
        app.clock.beep(SND_421 if won else SND_LOSE)
        app.show(RESULT)


UNITS = {
    SETUP: setup,
    PLAY: play,
    RESULT: result,
    PHASE: phase,
    STANDINGS: standings,
    TALLY: tally,
    QUIT: quit_game,
    OVER: over,
    RESUME: resume,
    NOTICE: notice,
    OUTCOME: result,  # the same buttons
}
