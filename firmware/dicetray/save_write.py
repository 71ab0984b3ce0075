"""What an action changed, saved once the panel shows it: the settings, the game, the tally.

App.unsaved holds the flags below (App.needs_save); App.step saves them after the panel is sent
(App.save hands save() what it writes). A failing flash never stops the tray: the standings say
the game is not saved. App's methods that note and make its saves are Saves's, here.
"""

# A part of App: the fields it reads and changes are App.__init__'s, which pyright cannot see.
# pyright: reportAttributeAccessIssue=false

from dicetray.screens_between import SETUP

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


class Saves:
    """What the app's actions changed, noted as it changes (needs_save, count_round,
    reset_tally, clear) and saved once the panel shows it (save); App's, with the app's fields
    (unsaved, save_failed, store, tally, game, kept), declared in App.__init__."""

    def needs_save(self, what):
        """Save what (dicetray.save_write's GAME_DUE, SETTINGS_DUE...) once the panel shows what
        this step drew (App.save)."""
        self.unsaved |= what

    def count_round(self):
        """The game is over: count the round its losers pay, saved with the game (App.save)."""
        if self.tally.count(self.game):
            self.unsaved |= TALLY_DUE

    def reset_tally(self):
        """Every seat back to 0 rounds paid, saved once the panel shows what follows (App.save)."""
        self.tally.reset()
        self.unsaved |= TALLY_DUE

    def save(self):
        """Save what an action changed: the settings of a new game, the game, the tally. Any
        power cut leaves the last whole save, which the panel showed a moment ago at most."""
        unsaved = self.unsaved
        self.unsaved = 0
        failed = save(self.store, unsaved, self.units[SETUP].settings, self.game, self.tally)
        if failed is not None:
            self.save_failed = failed
        if failed is False:
            self.kept = None  # the game saved replaced the one left (App.leave)

    def clear(self):
        """Forget the saved game (it is over, or quit), once the panel shows what follows."""
        self.unsaved |= CLEAR_DUE
