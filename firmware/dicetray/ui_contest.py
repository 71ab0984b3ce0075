"""Draws the roll-off and play-off screens: who rolls now, for what, and every roll so far.

Pure, as dicetray.ui, which draws every other screen and hands these on (ui.contest,
ui.outcome): the screens and their callers draw through ui alone.
"""

from dicetray import font, words
from dicetray.draw import GAP, TEXT_X, big_name, cell, dice_str, pname
from dicetray.draw import cells as _cells
from dicetray.draw import hints as _hints
from dicetray.state import DIE, HIGH, LOW, WHO_STARTS


def contest(fb, w, h, game, keys=None):
    """A roll-off or play-off: who rolls now (big, and lit below), for what, and every roll so
    far (128x32: the latest that fit). keys: the key bar, if not the contest's own."""
    font.clear(fb)
    c = game.contest
    t = words.T
    if c.why == WHO_STARTS:
        title = t.WHO_STARTS
    elif c.want == LOW:
        title = t.TIE_LOW_LOSES
    elif c.want == HIGH:
        title = t.TIE_HIGH_WINS
    else:
        title = t.TIE_PLAY_OFF
    line = t.ROUND_N % c.round
    if game.can_announce():
        keys = keys or t.KEYS_STAKE
        line = t.PLAY_FOR_WHAT
    else:
        keys = keys or (t.KEYS_ONE_DIE if c.kind == DIE else t.KEYS_THREE_DICE)
    tray = game.current in game.computers
    _hints(fb, w, h, t.TRAY_PLAYS if tray else keys, not tray)
    if h < 64:
        _rolls32(fb, w, c, pname(game.current) + " " + title, (game.current,))
        return
    big_name(fb, game.current, 0, 0, game.computers)
    # A row above the title for an accent (ÉGAL); the line's foot level with the big name's.
    font.text(fb, title, TEXT_X, 1)
    font.text(fb, line, TEXT_X, 9)
    _roll_cells(fb, w, 18, c, (game.current,), game.computers)


def outcome(fb, w, h, game, keys=None, left=-1):
    """A roll-off or play-off decided: who starts, wins or loses, or who rolls again after a
    tie (lit below), and every roll. Drawn over the contest's last picture in place. keys: what
    the buttons do there, if not only OK; left: as ui.result's."""
    font.clear(fb)
    c, high, low = game.decided
    t = words.T
    if c.why == WHO_STARTS:
        pick, verb = (high if c.want == HIGH else low), t.STARTS
    elif c.want == HIGH:
        pick, verb = high, t.WINS
    else:
        pick, verb = low, t.LOSES
    title = t.TIE_AGAIN if len(pick) > 1 else verb % pname(pick[0], game.computers)
    _hints(fb, w, h, keys or t.KEYS_NEXT, True, left)
    if h < 64:
        _rolls32(fb, w, c, title, pick)
        return
    font.centered(fb, title, 0, 2, 1, w)
    _roll_cells(fb, w, 18, c, pick, game.computers)


def _roll_cells(fb, w, y, c, lit, seats):
    # 128x64: the contest's players in rolling order, each with its roll once made (highest
    # die first), in two columns from y; lit: the players named above; seats: those the tray
    # plays.
    done = c.results
    items = [(pname(p, seats), dice_str(done[i]) if i < len(done) else "", p in lit)
             for i, p in enumerate(c.players)]
    _cells(fb, w, y, (len(items) + 1) // 2, items)


def _rolls32(fb, w, c, title, lit):
    # 128x32: two lines above the key bar, each with a row for its accents: the title, then
    # the rolls in cells read across (four a line for one die, three for three dice), the
    # first on the title's line where the title leaves room. Where not all fit with it: the
    # rolls alone on both lines, lit: who rolls now, or who the outcome names (the next screen
    # says what for); the rolls made kept first where not all fit. No seat marked (the key
    # bar says when the tray plays).
    done = c.results
    per = 4 if c.kind == DIE else 3
    colw = w // per
    items = [(pname(p), dice_str(done[i]) if i < len(done) else "", p in lit)
             for i, p in enumerate(c.players)]
    # The cells the title takes: a cell's label starts a column in, GAP past the title.
    span = (font.width(title) + GAP + colw - 2) // colw
    if len(items) <= per:
        span = per
    if span + len(items) <= 2 * per:
        font.text(fb, title, 0, 1)
        items = [(a, b, False) for a, b, _ in items]
    else:
        span = 0
        while len(items) > 2 * per:  # the last still to roll, else the oldest but the first
            items.pop(len(items) - 1 if len(items) > len(done) else 1)
    for k in range(len(items)):
        left, right, on = items[k]
        slot = span + k
        cell(fb, (slot % per) * colw, 1 + (slot // per) * 9, colw, left, right, on)
