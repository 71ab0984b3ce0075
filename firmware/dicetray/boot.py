"""The tray's boot, once: the tally and any saved game loaded, the first screen chosen.

Loaded by App.boot only, with the loader of a save (LOADER_CODE), and let go with it once the
save is read: on MicroPython code is heap, and none of this runs again until the next boot.
"""

from dicetray.saving import CLEAR_DUE, TALLY_DUE, save
from dicetray.screens import NOTICE, PLAY, RESUME
from dicetray.state import SaveError

# The loader of a save: this module, the checker and what it reads (the options table).
LOADER_CODE = ("boot", "savecheck", "saveagree", "savemigrate", "options", "storeload",
               "postmortem")


def boot(app, now, resume):
    """Load the tally and any saved game into app; show the resume prompt (resume: the game at
    once), a notice or the setup. Returns the game played on (app.game), or None."""
    app.clock.touch(now)
    lost = app.tally.load()
    game, problem = app.store.load_game(lambda data: _build(app, data))
    app.forget(LOADER_CODE)
    if game is not None and not game.over:
        app.game = game
        app.show(PLAY if resume else RESUME)
    elif game is not None:  # over: its save was cut short of clearing: count it, if not yet
        save(app, (TALLY_DUE if app.tally.count(game) else 0) | CLEAR_DUE)  # at once
    if problem:
        app.notice = ("SAVE LOST", (problem, lost or "A NEW GAME STARTS"))
    elif lost:
        app.notice = ("TALLY LOST", (lost, "COUNTING FROM 0"))
    if problem or lost:
        app.screen = NOTICE
    return app.game


def _build(app, data):
    # Only the checker's own refusal means a bad save; anything else is a bug: a crash.
    from dicetray.options import preset_name
    from dicetray.savecheck import load

    try:
        game = load(data, app.roll)
    except SaveError as e:
        return None, str(e)
    app.rules_name = (preset_name(game.opts) or "custom").upper()
    return game, None
