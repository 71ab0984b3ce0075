"""What an action changed, saved once the panel shows it: the settings, the game, the tally.

App.unsaved holds the flags below (App.needs_save); App.step saves them after the panel is sent
(App.save hands save() what it writes). A failing flash never stops the tray: the standings say
the game is not saved.
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


def save(store, unsaved, settings, game, tally):
    """Save what unsaved says to store, in this order: the settings of a new game, the game,
    the tally, then clear the saved game. Any power cut leaves the last whole save.

    Returns whether saving fails now: True when a write failed, False when the game was
    saved and nothing after it failed, None when there is nothing new to say."""
    failed = None
    if unsaved & SETTINGS_DUE:
        try:
            store.save_settings(settings)
        except OSError:
            failed = True
    if unsaved & GAME_DUE and game is not None:
        try:
            store.save_game(game.to_dict())  # a finished one too, then cleared
            failed = False
        except OSError:
            failed = True  # the game goes on; the standings say it is not saved
    if unsaved & TALLY_DUE:  # after the finished game: a cut between them counts it at boot
        try:
            tally.save()
        except OSError:
            failed = True
    if unsaved & CLEAR_DUE:
        try:
            store.clear_game()
        except OSError:
            pass  # a failing flash must not stop the tray; a finished save is skipped at boot
    return failed
