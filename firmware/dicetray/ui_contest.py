"""Draws the roll-off and play-off screens: who rolls now, for what, and every roll so far.

Pure, as dicetray.ui, which draws every other screen and hands these on (ui.contest,
ui.outcome): the screens and their callers draw through ui alone.
"""

from dicetray import font, words
from dicetray.draw import SEAT_X, TEXT_X, big_name, pname
from dicetray.draw import cells as _cells
from dicetray.draw import hints as _hints
from dicetray.rules import written
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
        _rolls32(fb, w, c, pname(game.current) + " " + title, (game.current,), game.opts)
        return
    big_name(fb, game.current, 0, 0, game.computers)
    # A row above the title for an accent (ÉGAL); the line's foot level with the big name's.
    # Where the tray plays seats, the lines start after a seat's mark for every roller: they
    # stay in place from one roll to the next (a roll redraws only what changed).
    x = SEAT_X if game.computers else TEXT_X
    font.text(fb, title, x, 1)
    font.text(fb, line, x, 9)
    _roll_cells(fb, w, 18, c, (game.current,), game.computers, game.opts)


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
        if len(pick) > 1:  # who rolls again, where the line has room
            named = title + " " + " ".join(pname(p) for p in pick)
            if font.width(named) <= w:
                title = named
        _rolls32(fb, w, c, title, pick, game.opts)
        return
    font.centered(fb, title, 0, 2, 1, w)
    _roll_cells(fb, w, 18, c, pick, game.computers, game.opts)


def _roll_cells(fb, w, y, c, lit, seats, opts):
    # 128x64: the contest's players in rolling order, each with its roll once made (as a
    # throw is written), read row by row in two columns from y; lit: the players named above;
    # seats: those the tray plays; opts: the rules the throws rank by.
    done = _rolled(c, opts)
    items = [(pname(p, seats), done[i] if i < len(done) else "", p in lit)
             for i, p in enumerate(c.players)]
    # A name and a roll, three letters each at most, leave the next cell far off: a space.
    _cells(fb, w, y, (len(items) + 1) // 2, items, 9, 0, " ")


# A contest's rolls as its screens write them: [that contest's results, their texts]. A roll
# is written once, as it comes: each roll's press draws every roll so far.
_ROLLS: list = [None, []]


def _rolled(c, opts):
    # The texts of contest c's rolls (_ROLLS), brought up to date; shared: read them only.
    if _ROLLS[0] is not c.results:
        _ROLLS[0], _ROLLS[1] = c.results, []
    texts = _ROLLS[1]
    while len(texts) < len(c.results):
        texts.append(written(c.results[len(texts)], opts))
    return texts


def _rolls32(fb, w, c, title, lit, opts):
    # 128x32: two lines above the key bar, each with a row for its accents: the title, then
    # the rolls in cells read across in rolling order (four for one die, three for three
    # dice). Where not all fit, the players lit (who rolls now, or who the outcome names) and
    # the rolls made last fill the line, still in rolling order. No seat marked: the key bar
    # says when the tray plays.
    done = c.results
    per = 4 if c.kind == DIE else 3
    font.text(fb, title, 0, 1)
    shown = list(range(len(c.players)))
    if len(shown) > per:
        keep = [i for i in shown if c.players[i] in lit]
        for i in range(len(done) - 1, -1, -1):  # the rolls made, the last first
            if len(keep) < per and i not in keep:
                keep.append(i)
        for i in shown:  # then those still to roll
            if len(keep) < per and i not in keep:
                keep.append(i)
        shown = sorted(keep)
    rolled = _rolled(c, opts)
    items = [(pname(c.players[i]), rolled[i] if i < len(done) else "",
              c.players[i] in lit) for i in shown]
    _cells(fb, w, 10, 1, items + [("", "", False)] * (per - len(items)))
