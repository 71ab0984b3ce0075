"""Code that comes and goes: the modules each phase of the tray loads, and letting them go.

On MicroPython a module's code is heap, so a module a moment does not need is not loaded, and
the app lets a phase's modules go when the phase ends (App.forget). A phase not named here is
a KeyError; host_tests/test_lazy.py checks that each module named is one of the firmware's
and that it is gone after its phase. A quiet moment readies the code the next press needs
(Ready.quiet, App's).
"""

# A part of App: the fields it reads and changes are App.__init__'s, which pyright cannot see.
# pyright: reportAttributeAccessIssue=false

import sys

BOOT = "boot"  # the boot and the check of a save: once, at power-up
LOADER = "loader"  # reading the files back: at boot, and the settings when the setup first shows
SETUP = "setup"  # the setup menu and the options table: while it shows (readied: App.quiet)
GAME = "game"  # the engine: kept once loaded (App.quiet), unless the boot plays no game on
SEATS = "seats"  # the computer seats and the hints: in a game that needs them
SAVE = "save"  # the game's record: from a game's first save to the setup
UNDO = "undo"  # taking back a stop or a stake: while it is offered and shown, or made

PHASES = {
    BOOT: ("boot", "save_check", "save_invariants", "save_migrate", "options", "save_record"),
    LOADER: ("store_read", "postmortem"),
    SETUP: ("screens_setup", "options"),
    GAME: ("game", "settle", "payout"),
    SEATS: ("seat", "strategy", "rewards", "turn_odds", "odds", "firsttable"),
    SAVE: ("save_record",),
    UNDO: ("takeback",),
}


def let_go(phase, keep):
    """Let go of phase's modules that are loaded, but those in keep: their code leaves the
    heap; an import loads one again."""
    for name in PHASES[phase]:  # one test for each not loaded: a phase's forget is a press's
        full = "dicetray." + name
        if full in sys.modules and full not in keep:
            _unload(full, name)


def drop(name):
    """Let go of the module dicetray.name if it is loaded (its code leaves the heap; an import
    loads it again)."""
    full = "dicetray." + name
    if full in sys.modules:
        _unload(full, name)


def _unload(full, name):
    # The module full (dicetray.name), loaded: out of sys.modules and of the package.
    del sys.modules[full]
    try:
        delattr(sys.modules["dicetray"], name)
    except (AttributeError, KeyError):  # KeyError: MicroPython's, for a module
        pass


class Ready:
    """What a quiet moment readies (quiet): App's, with the app's fields (screen, game, seat,
    units), declared in App.__init__."""

    def quiet(self):
        """A quiet moment (the main loop's first idle poll after work): ready what the next
        press needs. On the setup that is the engine's code and the game the settings shown
        start (screens_setup.quiet), so that OK starts it at once; the menu's code goes as the game
        starts. On a screen a press leaves for the setup (the resume prompt, quitting, a game
        over and its tally, a notice before a new game) that is the menu's code, and at
        power-up the settings, so that the press draws the setup at once; the code goes if
        another screen follows (show). Quitting a game the seats play in leaves it to the
        setup (their code and the menu's are not held at once). A game over lets the seats'
        code and the record's (save_record) go. What the turn screens of the game on, or of the
        one the setup would start, copy is drawn ready (ui.ready_turn): no press draws it."""
        from dicetray import ui  # here: lazy is loaded by words, which ui imports
        from dicetray.screens_between import NOTICE, OVER, QUIT, RESUME, TALLY
        from dicetray.screens_between import SETUP as SETUP_SCREEN  # SETUP here: its phase

        screen = self.screen
        g = self.game
        if g is not None and g.over:  # what played and saved it goes before the setup's comes
            if self.seat is not None:
                self.seat = None
                self.forget(SEATS)
            self.forget(SAVE)
        ready = g if g is not None and not g.over else None  # the game whose turns to ready
        if screen == SETUP_SCREEN:
            from dicetray.screens_setup import quiet

            menu = self.units[SETUP_SCREEN]
            quiet(menu, self)
            ready = menu.ready[1] if menu.ready is not None else None
        elif screen == RESUME or screen == NOTICE and g is None:
            from dicetray.screens_setup import read_settings

            read_settings(self.units[SETUP_SCREEN], self)
        elif screen == QUIT and self.seat is None or g is not None and g.over and (
                screen == TALLY or screen == OVER):
            import dicetray.screens_setup  # noqa: F401  (its settings: read before this game)
        if ready is not None:
            ui.ready_turn(self.w, self.h, ready)
