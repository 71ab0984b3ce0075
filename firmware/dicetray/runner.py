"""The main loop: polls and draws, feeds the watchdog, turns a crash into a logged restart."""

from dicetray import ui
from dicetray.app import LONG_BUTTONS, App
from dicetray.buttons import Buttons
from dicetray.store import Store

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


POLL_MS = const(5)
ERROR_SHOW_MS = const(4000)  # the error screen stays this long before the restart
MAX_CRASHES = const(3)  # this many crashes within CRASH_WINDOW_MS: reset the whole board
CRASH_WINDOW_MS = const(60000)


def die_from_bits(bits):
    """A die from a random-bits source: 3 bits, 6 and 7 thrown away, so no face is favoured."""

    def roll():
        while True:
            v = bits(3)
            if v < 6:
                return v + 1

    return roll


def error_code(text):
    """A short code for an error screen: the same traceback always gives the same code."""
    h = 0
    for ch in text:
        h = (h * 33 + ord(ch)) & 0xFFFF
    return "E%04X" % h


def traceback_text(exc):
    try:
        import sys

        if hasattr(sys, "print_exception"):  # MicroPython
            import io

            buf = io.StringIO()
            sys.print_exception(exc, buf)  # pyright: ignore[reportArgumentType]
            return buf.getvalue()  # pyright: ignore[reportAttributeAccessIssue]
        import traceback

        return "".join(traceback.format_exception(exc))
    except Exception:  # the error handler itself must not fail
        return "%s: %s\n" % (type(exc).__name__, exc)


def show_message(display, title, lines, keys, now=None):
    # A crashed app may have left the panel dim or off: a message is meant to be read.
    display.dim(False)
    ui.message(display.fb, display.width, display.height, title, lines, keys)
    display.show(now)
    display.sleep(False)  # after the frame, so the old picture does not flash up


def safe_mode(display):
    """OK held at power-up: no game, no watchdog, the REPL stays free for mpremote."""
    show_message(display, "SAFE MODE", ("NO GAME RUNNING", "USB REPL IS FREE", "FOR MPREMOTE"),
                 "POWER OFF TO LEAVE")


def make_app(board, display, store, buttons=None):
    if buttons is None:
        buttons = Buttons(board.pins, board.ticks_diff, long_press=LONG_BUTTONS)
    roll = die_from_bits(board.random_bits)
    return App(display, buttons, store, roll, board.ticks_diff, board.ticks_add, board.buzzer,
               board.random_bits(30))


def crashed(board, display, store, exc, crashes):
    """Log a crash with its code, show the error screen, reset the board in a crash loop.

    crashes: ticks of the crashes so far; returns those still within CRASH_WINDOW_MS.
    """
    now = board.ticks_ms()
    text = traceback_text(exc)
    code = error_code(text)
    store.log_error("ERROR %s\n%s" % (code, text))
    store.note_crash()  # twice in a row and the saved game is set aside at boot
    crashes = [t for t in crashes if board.ticks_diff(now, t) < CRASH_WINDOW_MS]
    crashes.append(now)
    show_message(display, "ERROR " + code, ("SORRY! THE GAME", "IS SAVED AND", "RESTARTS"),
                 "SEE ERROR.LOG", now)
    waited = 0
    while waited < ERROR_SHOW_MS:
        board.feed()
        board.sleep_ms(100)
        waited += 100
    if len(crashes) >= MAX_CRASHES:
        board.reset()  # a crash loop: start the whole board afresh
    return crashes


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
            while forever or left > 0:
                app.step(board.ticks_ms())
                board.feed()
                board.sleep_ms(POLL_MS)
                if not forever:
                    left -= 1
        except Exception as exc:  # anything unexpected: log it, say so, restart the game
            crashes = crashed(board, display, store, exc, crashes)
            resume = True
            if not forever:
                left -= 1
