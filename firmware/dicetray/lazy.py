"""Code that comes and goes: the modules each phase of the tray loads, and letting them go.

On MicroPython a module's code is heap, so a module a moment does not need is not loaded, and
the app lets a phase's modules go when the phase ends (App.forget). A phase not named here is
a KeyError; host_tests/test_lazy.py checks that each module named is one of the firmware's
and that it is gone after its phase.
"""

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
    SEATS: ("seat", "strategy", "odds", "firsttable"),
    SAVE: ("save_record",),
    UNDO: ("takeback",),
}


def let_go(phase, keep):
    """Let go of phase's modules that are loaded, but those in keep: their code leaves the
    heap; an import loads one again."""
    for name in PHASES[phase]:
        if "dicetray." + name not in keep:
            drop(name)


def drop(name):
    """Let go of the module dicetray.name if it is loaded (its code leaves the heap; an import
    loads it again)."""
    full = "dicetray." + name
    if full in sys.modules:
        del sys.modules[full]
        try:
            delattr(sys.modules["dicetray"], name)
        except (AttributeError, KeyError):  # KeyError: MicroPython's, for a module
            pass
