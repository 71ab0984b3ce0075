"""The tray's boot, once: the tally and any saved game loaded, the first screen chosen.

Loaded by App.boot only, with the loader of a save, and let go with it once the save is read
(dicetray.lazy's BOOT and LOADER): none of this runs again until the next boot.
"""

from dicetray import words
from dicetray.lazy import BOOT, LOADER
from dicetray.save_write import CLEAR_DUE, TALLY_DUE
from dicetray.screens import NOTICE, PLAY, RESUME
from dicetray.state import SaveError


def boot(app, now, resume):
    """Load the tally and any saved game into app; show the resume prompt (resume: the game at
    once), a notice or the setup. Returns the game played on (app.game), or None."""
    app.clock.touch(now)
    # The tray speaks its settings' language from power-up: the notices, the resume prompt's
    # frame until the saved game says its own.
    words.use(app.store.load_settings({"lang": words.DEFAULT})["lang"])
    lost = app.tally.load()
    game, problem = app.store.load_game(lambda data: _build(app, data))
    app.forget(BOOT, LOADER)
    if game is not None and not game.over:
        app.play(game, PLAY if resume else RESUME)
    elif game is not None:  # over: its save was cut short of clearing: count it, if not yet
        app.needs_save((TALLY_DUE if app.tally.count(game) else 0) | CLEAR_DUE)
        app.save()  # at once
    t = words.T
    if problem:
        app.tell(NOTICE, (t.SAVE_LOST, (problem, lost or t.NEW_GAME_STARTS)))
    elif lost:
        app.tell(NOTICE, (t.TALLY_LOST, (lost, t.COUNTING_FROM_0)))
    if problem or lost:
        app.show(NOTICE)
    return app.game


def _build(app, data):
    # Only the checker's own refusal means a bad save; anything else is a bug: a crash.
    from dicetray.options import preset_name
    from dicetray.save_check import load

    try:
        game = load(data, app.roll)
    except SaveError as e:
        return None, str(e)
    app.tell(RESUME, preset_name(game.opts) or "custom")
    return game, None
