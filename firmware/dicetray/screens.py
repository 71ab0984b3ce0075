"""The tray's screens, one small unit each: what it draws (through ui), what each button does.

A unit is one function unit(app, key, long, now): key None draws the screen, else it answers
that button ("KEEP1".."OK"; long: OK held). UNITS maps each screen's name to its unit: one
function a screen costs less RAM on MicroPython than a class or a module a screen (measured).
"""

from dicetray import ui
from dicetray.rules import K_421, evaluate
from dicetray.state import CHARGE

SETUP = "setup"
PLAY = "play"  # a turn, a roll-off or a play-off
RESULT = "result"
PHASE = "phase"
STANDINGS = "standings"
OVER = "over"
RESUME = "resume"
NOTICE = "notice"
OUTCOME = "outcome"  # a roll-off or play-off decided

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
            kept = app.kept if g.can_throw() else 0  # no throw left: nothing to keep
            ui.turn(app.fb, app.w, app.h, g, kept, app.clock.shown_dice(g.turn.dice))
    elif key == "OK" and long:
        app.show(STANDINGS)
    elif g.contest is not None:
        if g.can_announce() and (key == "KEEP1" or key == "KEEP3"):
            act(app, now, "announce", "is" if key == "KEEP1" else "comes")
        elif key == "ROLL":
            act(app, now, "throw", ())
        else:
            app.clock.beep(SND_NO)
    elif key in KEEPS:
        _keep(app, 1 << KEEPS.index(key))
    elif key == "ROLL":
        if g.can_throw():
            act(app, now, "throw", tuple(i for i in range(3) if app.kept & (1 << i)))
        elif g.can_stop():
            act(app, now, "stop", None)
    elif key == "OK":
        if g.can_stop():
            act(app, now, "stop", None)
        else:
            app.clock.beep(SND_NO)


def _keep(app, bit):
    g = app.game
    k = app.kept
    if g.can_keep() and g.can_throw() and (k & bit or (k & 1) + (k >> 1 & 1) + (k >> 2 & 1) < 2):
        app.kept = k ^ bit
        app.clock.beep(SND_CLICK)
        app.dirty = True
    else:
        app.clock.beep(SND_NO)  # not now, or a third die: a throw must throw at least one


def act(app, now, verb, arg):
    """Play verb ("throw", "stop", "announce") with arg, show what follows; the game is saved
    once the panel shows it (App.step)."""
    from dicetray.game import GameError  # loaded with the game: a look-up

    g = app.game
    before = g.current
    contest = g.contest
    try:
        if verb == "throw":
            events = g.throw(arg)
        elif verb == "stop":
            events = g.stop()
        else:
            events = g.announce(arg)
    except GameError:
        app.clock.beep(SND_NO)  # the engine refused: nothing changed
        return
    app.unsaved |= 1  # saved once the panel shows what follows (App.step)
    rolling = 7 & ~app.kept if g.turn.count > 1 else 7
    if g.current != before or g.turn.count == 0:
        app.kept = 0
    _after_events(app, events)
    if contest is not None and g.contest is not contest:  # decided: show how, then go on
        app.after.insert(0, app.screen)
        app.show(OUTCOME)
    if verb == "throw":
        app.clock.beep(SND_ROLL)
        if app.screen == PLAY and g.contest is None and g.turn.count:
            app.clock.roll(now, rolling)
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
            app.clear()
            return app.show(RESULT)
    if ended:
        won = evaluate(app.game.last.wdice, app.game.opts).kind == K_421
        app.clock.beep(SND_421 if won else SND_LOSE)
        app.show(RESULT)


# ---- between turns: the result, a phase change, the standings, the end -------------------------


def result(app, key, long, now):
    """A turn's result: who lost to whom, the tokens moved, every throw; or (OUTCOME) a roll-off
    or play-off decided: every roll, who it picked. OK/ROLL: what follows."""
    if key is None:
        (ui.outcome if app.screen == OUTCOME else ui.result)(app.fb, app.w, app.h, app.game)
    elif key == "OK" or key == "ROLL":
        app.show(app.after.pop(0) if app.after else PLAY)


def phase(app, key, long, now):
    """The charge or the decharge begins: the pot, who starts. OK/ROLL: next."""
    if key is None:
        ui.phase(app.fb, app.w, app.h, app.game)
    elif key == "OK" or key == "ROLL":
        app.show(app.after.pop(0) if app.after else PLAY)


def standings(app, key, long, now):
    """Everybody's tokens. OK/ROLL: back to the game; OK held: quit the game."""
    if key is None:
        ui.standings(app.fb, app.w, app.h, app.game, app.save_failed)
    elif key == "OK" and long:
        app.quit()
    elif key == "OK" or key == "ROLL":
        app.show(PLAY)


def over(app, key, long, now):
    """Game over: who pays the round. OK: a new game."""
    if key is None:
        ui.over(app.fb, app.w, app.h, app.game)
    elif key == "OK":
        app.quit()


# ---- at power-up: resume the saved game?, a lost save ------------------------------------------


def resume(app, key, long, now):
    """A saved game was found. OK: resume it; ROLL: a new game."""
    g = app.game
    if key is None:
        ui.message(app.fb, app.w, app.h, "RESUME?", (
            "%s %d PLAYERS" % (app.rules_name, g.n),
            "TURN %d %s" % (g.turn.number, ui.PHASE_NAMES[g.phase]),
            ui.pname(g.current) + " TO PLAY",
        ), "OK:YES ROLL:NEW GAME")
    elif key == "OK":
        app.show(PLAY)
    elif key == "ROLL":
        app.game = None
        app.show(SETUP)


def notice(app, key, long, now):
    """A message at power-up (a save that was lost). OK: a new game."""
    if key is None:
        title, lines = app.notice
        ui.message(app.fb, app.w, app.h, title, lines, "OK:NEW GAME")
    elif key == "OK":
        app.show(SETUP)


UNITS = {
    SETUP: setup,
    PLAY: play,
    RESULT: result,
    PHASE: phase,
    STANDINGS: standings,
    OVER: over,
    RESUME: resume,
    NOTICE: notice,
    OUTCOME: result,  # the same buttons
}
