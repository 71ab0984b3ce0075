"""What an action changed, saved once the panel shows it: the settings, the game, the tally.

App.unsaved holds the flags below; App.step saves them after the panel is sent (save(app)).
A failing flash never stops the tray: the standings say the game is not saved.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


GAME_DUE = const(1)
SETTINGS_DUE = const(2)
CLEAR_DUE = const(4)
TALLY_DUE = const(8)


def save(app, unsaved):
    """Save what unsaved says, in this order: the settings of a new game, the game, the tally,
    then clear the saved game. Any power cut leaves the last whole save."""
    app.unsaved = 0
    if unsaved & SETTINGS_DUE:
        try:
            app.store.save_settings(app.settings)
        except OSError:
            app.save_failed = True
    if unsaved & GAME_DUE and app.game is not None:
        try:
            app.store.save_game(app.game.to_dict())  # a finished one too, then cleared
            app.save_failed = False
        except OSError:
            app.save_failed = True  # the game goes on; the standings say it is not saved
    if unsaved & TALLY_DUE:  # after the finished game: a cut between them counts it at boot
        try:
            app.tally.save()
        except OSError:
            app.save_failed = True
    if unsaved & CLEAR_DUE:
        try:
            app.store.clear_game()
        except OSError:
            pass  # a failing flash must not stop the tray; a finished save is skipped at boot
