"""The setup screen's unit: players, rules, options; OK starts a game.

Loaded only while the setup shows (screens.setup hands it its unit), with the options table it
reads; the app lets both go when the game starts (dicetray.lazy). Its
state is kept on its unit (a screens_between.Unit, made with the app), which stays.
"""

from dicetray import ui, words
from dicetray.lazy import LOADER
from dicetray.options import OPTIONS, PRESET_NAMES, PRESETS, make
from dicetray.rules import RulesError
from dicetray.save_write import GAME_DUE, SETTINGS_DUE
from dicetray.screens_between import PLAY

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


# The setup menu's rows: PLAYERS, RULES, then one per option, in the table's order, then
# TRAY PLAYS (how many seats, the last ones, the tray plays), HINTS (a human's turn shows the
# strategy's keeps and chance), ROUNDS PAID (keep the tally, or clear it as the game starts)
# and LANGUAGE (one press up from the first row); while a game left is kept (App.kept), a
# last row resumes it (below LANGUAGE: the rows above keep their places).
_PLAYERS_ROW = const(0)
_RULES_ROW = const(1)
_FIRST_OPTION_ROW = const(2)
# The rows after the options', counted from the first of them (_after).
_SEATS_AFTER = const(0)
_HINTS_AFTER = const(1)
_TALLY_AFTER = const(2)
_LANG_AFTER = const(3)
_ROWS_AFTER = const(4)
_RESUME_AFTER = const(4)  # the row of the game kept, when there is one


def load_settings(store):
    """The last setup from store; a setting missing, of the wrong type or out of range: default."""
    # Every row the setup shows has its default here: a key missing from the defaults is not
    # read back from the file.
    s = store.load_settings({"players": 4, "preset": "classic", "computers": 0, "hints": False,
                             "options": PRESETS["classic"].to_dict(), "lang": words.DEFAULT})
    players = s.get("players")
    if type(players) is not int or not 2 <= players <= 8:
        s["players"] = 4
    if s.get("preset") not in PRESETS:
        s["preset"] = "classic"
    try:
        make(**s["options"])
    except (RulesError, TypeError):
        s["options"] = PRESETS[s["preset"]].to_dict()
    if type(s.get("computers")) is not int or not 0 <= s["computers"] < 8:
        s["computers"] = 0
    if type(s.get("hints")) is not bool:
        s["hints"] = False
    if s.get("lang") not in words.LANGS:
        s["lang"] = words.DEFAULT
    return s


def read_settings(menu, app):
    """The menu's settings: read from the store the first time since power-up (the setup's
    first drawing, or a quiet moment before it: App.quiet), then the code that read them goes."""
    if menu.settings is None:
        menu.settings = load_settings(app.store)
        app.forget(LOADER)


def computers(s):
    """The seats the tray plays for settings s: the last ones, one seat at least human."""
    n = s["players"]
    return list(range(n - min(s.get("computers", 0), n - 1), n))


def _seats_shown(s):
    seats = computers(s)
    if not seats:
        return words.T.NONE
    if len(seats) == 1:
        return "P%d" % (seats[0] + 1)
    return "P%d-P%d" % (seats[0] + 1, seats[-1] + 1)


def setup_rows(s, clear_tally=False, kept=None):
    """The menu's (label, value) rows for settings s, in the language spoken; "*": an option its
    preset differs on. A row says whether the tally is cleared when the game starts
    (clear_tally); the last, while a game left is kept (kept), resumes it.

    An option's value shows as its name in the table (shown[i] for allowed[i]), else a number;
    a catalogue with its own options' words names them in its language.
    """
    t = words.T
    preset = PRESETS[s["preset"]]
    rows = [(t.PLAYERS, str(s["players"])), (t.RULES, t.PRESETS[s["preset"]])]
    for name, label, allowed, shown, _, _ in OPTIONS:
        if t.OPTIONS is not None:
            own = t.OPTIONS[name]  # (label, shown, help)
            label, shown = own[0], own[1]
        value = s["options"][name]
        if value != getattr(preset, name):
            label = "*" + label
        i = _place(allowed, value)
        rows.append((label, shown[i] if shown and i < len(shown) else str(value)))
    rows.append((t.SEATS, _seats_shown(s)))
    rows.append((t.HINTS, t.OFF_ON[1 if s.get("hints") else 0]))
    rows.append((t.TALLY, t.TALLY_SHOWN[1 if clear_tally else 0]))
    rows.append((t.LANGUAGE, t.LANG_NAME))
    if kept is not None:
        rows.append((t.RESUME_ROW, ui.pname(kept.current, kept.computers)))
    return rows


def meaning(row, h, kept=None):
    """What the menu's row means, for its bottom line on a panel h high: an option's help, the
    HINTS row's legend of a hint's figures where a turn shows them (128x64), the kept game's
    turn on its row (kept)."""
    t = words.T
    after = _after(row)
    if after == _RESUME_AFTER and kept is not None:
        return t.RESUME_MEANS % kept.turn.number
    if after == _HINTS_AFTER and h >= 64:
        return t.HINTS_LEGEND
    if row >= _FIRST_OPTION_ROW and after < 0:
        name = OPTIONS[row - _FIRST_OPTION_ROW][0]
        return OPTIONS[row - _FIRST_OPTION_ROW][5] if t.OPTIONS is None else t.OPTIONS[name][2]
    return t.SETUP_MEANS[row if row < _FIRST_OPTION_ROW else after + 2]


def _place(allowed, value):
    # Where value is among the allowed values (a MicroPython range has no index()). Settings
    # are checked as they load, so the error is a bug; its value is message enough.
    for i in range(len(allowed)):
        if allowed[i] == value:
            return i
    raise RulesError(value)


def unit(menu, app, key, long, now):
    """The setup menu, its fields on menu: settings (the last setup, read the first time the
    menu shows), cursor (the menu's row), clear_tally (its last row: clear the tally as the
    game starts), ready (the game the settings start, made when quiet: quiet). KEEP1/KEEP2 move
    up/down, KEEP3/ROLL the previous/next value, OK starts a game; on the row of a game left
    (App.kept) OK resumes it. The top line says the keys, the bottom line what the row under
    the cursor means."""
    read_settings(menu, app)
    kept = app.kept
    rows = _FIRST_OPTION_ROW + len(OPTIONS) + _ROWS_AFTER + (0 if kept is None else 1)
    if menu.told is not None:  # a game just left (App.leave): the cursor on its row
        menu.told = None
        menu.cursor = rows - 1
    elif menu.cursor >= rows:
        menu.cursor = 0  # the row of a game no longer kept
    on_kept = kept is not None and _after(menu.cursor) == _RESUME_AFTER
    if key is None:
        t = words.use(menu.settings["lang"])  # after a game resumed in another: the setup's
        ui.menu(app.fb, app.w, app.h, t.KEYS_RESUME_ROW if on_kept else t.SETUP_TITLE,
                setup_rows(menu.settings, menu.clear_tally, kept), menu.cursor,
                meaning(menu.cursor, app.h, kept))
        return
    if on_kept and key == "OK":
        app.resume_kept()
        return
    if key == "KEEP1":
        menu.cursor = (menu.cursor - 1) % rows
    elif key == "KEEP2":
        menu.cursor = (menu.cursor + 1) % rows
    elif _after(menu.cursor) == _TALLY_AFTER and (key == "KEEP3" or key == "ROLL"):
        menu.clear_tally = not menu.clear_tally  # two values: either way toggles
    elif on_kept:
        return  # no value to change
    elif key == "KEEP3" or key == "ROLL":
        change_setting(menu.settings, menu.cursor, -1 if key == "KEEP3" else 1)
    elif key == "OK":
        start_game(menu, app)
        return
    app.redraw()


def change_setting(s, row, step):
    """Step the value on the menu's row by step (+1 next, -1 previous), wrapping round."""
    if row == _PLAYERS_ROW:
        s["players"] = 2 + (s["players"] - 2 + step) % 7
    elif row == _RULES_ROW:
        i = (PRESET_NAMES.index(s["preset"]) + step) % len(PRESET_NAMES)
        s["preset"] = PRESET_NAMES[i]
        s["options"] = PRESETS[s["preset"]].to_dict()
    elif _after(row) == _SEATS_AFTER:  # TRAY PLAYS: 0 .. players - 1 seats
        s["computers"] = (len(computers(s)) + step) % s["players"]
    elif _after(row) == _HINTS_AFTER:  # off or on
        s["hints"] = not s.get("hints")
    elif _after(row) == _LANG_AFTER:  # spoken at once: the menu is drawn in it next
        s["lang"] = words.step(s.get("lang"), step)
        words.use(s["lang"])
    else:
        name, _, allowed, _, _, _ = OPTIONS[row - _FIRST_OPTION_ROW]
        i = _place(allowed, s["options"][name]) + step
        s["options"][name] = allowed[i % len(allowed)]  # in the table's order


def _after(row):
    # Where row stands among the rows after the options' (negative: a row before them).
    return row - _FIRST_OPTION_ROW - len(OPTIONS)


def quiet(menu, app):
    """A quiet moment on the setup (App.quiet): load the engine and make the game the settings
    shown would start, so that OK starts it at once. A setting changed since, and OK makes the
    game itself (start_game); the next quiet moment makes it again."""
    s = menu.settings
    if s is None or _made_for(menu.ready, s):
        return
    menu.ready = None
    try:
        menu.ready = (dict(s["options"]), _new_game(app, s))  # the options as they were
    except (ValueError, TypeError):  # settings no game takes: OK says so (start_game)
        pass


def _new_game(app, s):
    from dicetray.game import Game  # the engine's code is loaded only for a game

    return Game(s["players"], make(**s["options"]), app.roll, None, computers(s),
                bool(s.get("hints")), s["lang"])


def _made_for(made, s):
    # Whether made (menu.ready: the options it was made with, the game) is the game settings s
    # start, their options compared whole.
    if made is None:
        return False
    g = made[1]
    return (made[0] == s["options"] and g.n == s["players"] and g.computers == computers(s) and
            g.hints == bool(s.get("hints")) and g.lang == s["lang"])


def start_game(menu, app):
    s = menu.settings
    made = menu.ready
    menu.ready = None  # a game is made once: it is played, then gone
    game = made[1] if _made_for(made, s) else _new_game(app, s)
    game.take_events()
    # Saved once the panel shows it; while a game left is kept, from its first throw on: till
    # then the save offers the game left (App.kept).
    app.needs_save(SETTINGS_DUE if app.kept is not None else SETTINGS_DUE | GAME_DUE)
    if menu.clear_tally:  # asked for on the menu: every seat back to 0, saved with the game
        menu.clear_tally = False
        app.reset_tally()
    app.play(game, PLAY)
