"""When something goes wrong: the error screen, its code, the log, the crash-loop reset; and
the safe mode's screen. Loaded only then."""

from dicetray import ui, words

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


ERROR_SHOW_MS = const(4000)  # the error screen stays this long before the restart
MAX_CRASHES = const(3)  # this many crashes within CRASH_WINDOW_MS: reset the whole board
CRASH_WINDOW_MS = const(60000)


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


def safe_mode(display, store=None):
    """OK held at power-up: no game, no watchdog, the REPL stays free for mpremote. Said in the
    language of the settings on store (the flash's by default)."""
    try:
        if store is None:
            from dicetray.store import Store

            store = Store()
        words.use(store.load_settings({"lang": words.DEFAULT})["lang"])
    except Exception:  # whatever the flash holds, safe mode shows: in the default, then
        pass
    t = words.T
    show_message(display, t.SAFE_MODE, t.SAFE_LINES, t.KEYS_SAFE)


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
    t = words.T
    show_message(display, t.ERROR % code, t.ERROR_LINES, t.KEYS_ERROR, now)
    waited = 0
    while waited < ERROR_SHOW_MS:
        board.feed()
        board.sleep_ms(100)
        waited += 100
    if len(crashes) >= MAX_CRASHES:
        board.reset()  # a crash loop: start the whole board afresh
    return crashes
