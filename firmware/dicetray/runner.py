"""The main loop: polls and draws, feeds the watchdog, turns a crash into a logged restart
(crash.py)."""

from dicetray.app import LONG_BUTTONS, App
from dicetray.buttons import Buttons
from dicetray.store import Store

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


POLL_MS = const(5)


def die_from_bits(bits):
    """A die from a random-bits source: 3 bits, 6 and 7 thrown away, so no face is favoured."""

    def roll():
        while True:
            v = bits(3)
            if v < 6:
                return v + 1

    return roll


def make_app(board, display, store, buttons=None):
    if buttons is None:
        buttons = Buttons(board.pins, board.ticks_diff, long_press=LONG_BUTTONS, edges=board.edges)
    roll = die_from_bits(board.random_bits)
    return App(display, buttons, store, roll, board.ticks_diff, board.ticks_add, board.buzzer,
               board.random_bits(30))


def run(board, display, store=None, loops=None):
    """Run the tray until power-off (loops None), or for `loops` polls (tests).

    Running for good counts nothing: a counter would leave MicroPython's small ints after
    2**30 polls (62 days) and then allocate on every poll.
    """
    store = store if store is not None else Store()
    forever = loops is None
    left = 0 if loops is None else loops  # polls still to run, when not forever
    crashes = []
    resume = False
    board.start_watchdog()
    while forever or left > 0:
        app = make_app(board, display, store)
        try:
            app.boot(board.ticks_ms(), resume)
            tidy = True  # the heap's garbage is collected at the first quiet poll after work
            while forever or left > 0:
                if app.step(board.ticks_ms()):
                    tidy = True
                elif tidy:  # the press is on the panel and saved: ready the next one
                    tidy = False
                    app.quiet()
                    board.collect()  # so no collection falls inside it
                board.feed()
                # Cut short when a button changes: it answers at once. None while the seats'
                # work goes on: its pieces follow one another, a poll of the buttons between.
                board.pause(0 if app.working else POLL_MS)
                if not forever:
                    left -= 1
        except Exception as exc:  # anything unexpected: log it, say so, restart the game
            from dicetray.crash import crashed  # loaded only when it happens

            crashes = crashed(board, display, store, exc, crashes)
            resume = True
            if not forever:
                left -= 1
