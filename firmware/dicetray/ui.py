"""Draws every screen of the tray on a framebuf-like canvas (dice pips, tokens, menus, hints).

Pure: each function paints a whole screen from the data it is given. Text uses dicetray.font so
the pixels are the same on CPython and on the Pico. 128x64 is the main layout; 128x32 panels
get a compact one. The bottom line of every screen says what the buttons do now.
"""

from dicetray import font
from dicetray.rules import evaluate
from dicetray.state import CHARGE, DIE, ESPAGNOLE, HIGH, LOW, WHO_STARTS

# Pip positions per face on a 3x3 grid (column, row), columns/rows 0..2.
_PIPS = (
    b"",
    b"\x11",
    b"\x00\x22",
    b"\x00\x11\x22",
    b"\x00\x20\x02\x22",
    b"\x00\x20\x11\x02\x22",
    b"\x00\x10\x20\x02\x12\x22",
)
PHASE_NAMES = {"start": "START", "charge": "CHARGE", "decharge": "DECHARGE", "over": "OVER"}


def pname(p):
    return "P%d" % (p + 1)


def die(fb, x, y, s, value, kept=False):
    """A die of s x s pixels at (x, y); kept dice are drawn solid with dark pips; 0 is blank."""
    fb.fill_rect(x, y, s, s, 1 if kept else 0)
    fb.rect(x, y, s, s, 1)
    if not kept:
        fb.rect(x + 1, y + 1, s - 2, s - 2, 1)
    for cx, cy in ((x, y), (x + s - 1, y), (x, y + s - 1), (x + s - 1, y + s - 1)):
        fb.pixel(cx, cy, 0)  # rounded corners
    if value == 0:
        font.text(fb, "?", x + (s - 5) // 2, y + (s - 7) // 2, 1, 0 if kept else 1)
        return
    p = max(3, s // 6)
    q = s // 4
    for code in _PIPS[value]:
        px = x + q + (code >> 4) * (s // 2 - q) - p // 2
        py = y + q + (code & 15) * (s // 2 - q) - p // 2
        fb.fill_rect(px, py, p, p, 0 if kept else 1)


def _hints(fb, w, h, text):
    # The last text row: what the buttons do now, inverted so it reads as a bar.
    fb.fill_rect(0, h - 8, w, 8, 1)
    font.centered(fb, text, h - 8, 1, 0, w)


def _dice_row(fb, w, y, s, values, kept):
    gap = (w - 3 * s) // 4
    for i in range(3):
        die(fb, gap + i * (s + gap), y, s, values[i] if values else 0, bool(kept & (1 << i)))


def turn(fb, w, h, game, kept, faces=None):
    """The current player's turn: dice (faces: animation faces), kept marks, throw n of limit."""
    fb.fill(0)
    p = game.current
    t = game.turn
    values = faces or t.dice
    count = t.count
    limit = game.max_throws()
    o = game.opts
    if game.phase == CHARGE:
        money = "POT %d" % game.pot
    else:
        money = "HAS %d" % game.tokens[p]
    # Fields keep their places from one throw to the next, so a throw redraws only what changed
    # (the display driver sends only changed columns).
    throws = "THROW %s/%d" % (count or "-", limit)
    if count:
        line2 = evaluate(t.dice, o).name
    elif t.limit == 0 or (game.may_stop_early() and limit > 1):
        line2 = "UP TO %d" % limit
    else:
        line2 = "%d THROW%s" % (limit, "S" if limit > 1 else "")
    keys = _turn_keys(game)
    if h < 64:
        _dice_row(fb, 78, 0, 23, values, kept)  # a dark row between dice and hints
        font.text(fb, pname(p), 80, 0, 2)
        font.text(fb, "%d/%d" % (count, limit), 106, 4)
        font.text(fb, money, 80, 16)
        _hints(fb, w, h, keys)
        return
    font.text(fb, pname(p), 0, 0, 2)
    font.text(fb, throws, 28, 0)
    font.text(fb, money, w - font.width(money), 0)
    phase = PHASE_NAMES[game.phase]
    right = w - font.width(line2)
    if 28 + font.width(phase) + 6 > right:
        phase = "CHG" if game.phase == CHARGE else "DCH"
    font.text(fb, phase, 28, 8)
    font.text(fb, line2, right, 8)
    _dice_row(fb, w, 18, 30, values, kept)
    _hints(fb, w, h, keys)


def _turn_keys(game):
    # What the buttons do in a turn, for the hint bar.
    o = game.opts
    count = game.turn.count
    if game.can_throw() and count:
        keys = "123:KEEP ROLL"
    elif count:
        keys = "ROLL/OK:DONE"
    else:
        keys = "ROLL:THROW"
    if game.can_stop() and game.can_throw():
        bon = game.turn.pos and (o.le_bon or o.limit == "at_most")
        keys += " OK:" + ("BON" if bon else "STOP")
    return keys


def contest(fb, w, h, game):
    """A roll-off or play-off: who rolls now, for what, and the rolls so far."""
    fb.fill(0)
    c = game.contest
    p = game.current
    if c.why == WHO_STARTS:
        title = "WHO STARTS?"
    elif c.want == LOW:
        title = "TIE: LOW LOSES"
    elif c.want == HIGH:
        title = "TIE: HIGH WINS"
    else:
        title = "TIE: PLAY OFF"
    if game.can_announce():
        keys = "1:FOR WHAT IS 3:COMES"
    else:
        keys = "ROLL:" + ("ONE DIE" if c.kind == DIE else "THROW")
    if h < 64:
        font.text(fb, pname(p), 0, 0, 2)
        font.text(fb, title, 28, 0)
        font.text(fb, _rolls(c, 16), 28, 8)
        _hints(fb, w, h, keys)
        return
    font.text(fb, pname(p), 0, 0, 2)
    font.text(fb, title, 28, 0)
    font.text(fb, "ROUND %d" % c.round, 28, 8)
    if c.kind == DIE:
        die(fb, (w - 28) // 2, 18, 28, 0)  # the roller's die, still to throw (the rolls below)
    else:
        _dice_row(fb, w, 18, 26, None, 0)
    font.text(fb, _rolls(c, 21), 0, 47)
    _hints(fb, w, h, keys)


def _rolls(c, room):
    # "P1:653 P2:- ..." in whole entries that fit in room characters: the players still to
    # roll are left out first, then the oldest rolls (the die row shows the latest one).
    done = c.results
    parts = [
        "%s:%s" % (pname(q), _roll_str(done[i]) if i < len(done) else "-")
        for i, q in enumerate(c.players)
    ]
    first, last = 0, len(parts)
    while len(" ".join(parts[first:last])) > room:
        if last > len(done):
            last -= 1
        else:
            first += 1
    return " ".join(parts[first:last])


def _roll_str(dice):
    return "".join(str(d) for d in dice)


def result(fb, w, h, game):
    """The end of a turn: who lost, who won, how many tokens moved, and the two throws."""
    fb.fill(0)
    last = game.last
    o = game.opts
    if last.passed:
        lines = ("TIE", "NOTHING PAID", "HAND PASSES", "")
    else:
        lo, wi, n = last.loser, last.winner, last.amount
        if last.phase == CHARGE:
            how = "TAKES %d FROM POT" % n
        else:
            how = "GETS %d FROM %s" % (n, pname(wi))
        lines = (
            pname(lo) + " LOSES",
            how,
            "%s %s" % (pname(wi), evaluate(last.wdice, o).name),
            "%s %s" % (pname(lo), evaluate(last.ldice, o).name),
        )
    _title_and_lines(fb, w, h, lines[0], lines[1:], "OK:NEXT")


def phase(fb, w, h, game):
    """A phase begins: the charge (after the roll-off for who starts) or the décharge."""
    fb.fill(0)
    lines = ["POT %d TOKENS" % game.pot if game.phase == CHARGE else "POT IS EMPTY"]
    if game.out:
        lines.append("OUT: " + " ".join(pname(p) for p in game.out))
    if not game.over:
        lines.append(pname(game.current) + " STARTS")
    _title_and_lines(fb, w, h, PHASE_NAMES[game.phase], lines, "OK:GO ON")


def standings(fb, w, h, game, unsaved=False):
    """Every player's tokens, the pot and the phase (and a warning if saving fails)."""
    fb.fill(0)
    head = PHASE_NAMES[game.phase]
    if game.pot:
        head += " POT %d" % game.pot
    if unsaved:
        head = "NOT SAVED! " + head
    font.text(fb, head, 0, 0)
    big = game.n <= 6 and h >= 64
    scale = 2 if big else 1
    row_h = 16 if big else 8
    fit = (h - 17 - 7 * scale) // row_h + 1  # rows between the head line and the hints
    cols = 2 if (game.n + 1) // 2 <= fit else 4  # 4: a 128x32 panel with 5+ players
    rows = (game.n + cols - 1) // cols
    colw = w // cols
    margin = 6 if cols == 2 else 1  # tokens clear of the next column's bullet / of the name
    for p in range(game.n):
        x = (p // rows) * colw
        y = 9 + (p % rows) * row_h
        t = "--" if p in game.out else str(game.tokens[p])
        if p == game.current:
            font.text(fb, "|", x, y + (row_h - 8) // 2)  # whose turn it is
        font.text(fb, pname(p), x + 6, y, scale)
        font.text(fb, t, x + colw - margin - font.width(t, scale), y, scale)
    _hints(fb, w, h, "OK:BACK HOLD OK:QUIT")


def over(fb, w, h, game):
    """Game over: who pays the round, who won."""
    fb.fill(0)
    r = game.result
    losers = r.losers
    title = (pname(losers[0]) + " PAYS") if len(losers) == 1 else "TIE: PAY"
    lines = ["THE ROUND!"]
    if len(losers) > 1:
        lines = [" ".join(pname(p) for p in losers) + " PAY"]
    if r.reason == ESPAGNOLE:
        lines.append("L'ESPAGNOLE")
    won = " ".join(pname(p) for p in r.winners)
    lines.append("WON: " + won)
    _title_and_lines(fb, w, h, title, lines, "OK:NEW GAME")


def menu(fb, w, h, title, rows, cursor, keys):
    """A list of (label, value) rows with a cursor; scrolls to keep the cursor in view."""
    fb.fill(0)
    font.text(fb, title, 0, 0)
    visible = (h - 18) // 9
    top = min(max(0, cursor - visible // 2), max(0, len(rows) - visible))
    for i in range(top, min(len(rows), top + visible)):
        y = 10 + (i - top) * 9
        label, value = rows[i]
        if i == cursor:
            fb.fill_rect(0, y - 1, w, 9, 1)
        c = 0 if i == cursor else 1
        font.text(fb, label, 1, y, 1, c)
        font.text(fb, value, w - font.width(value) - 1, y, 1, c)
    _hints(fb, w, h, keys)


def message(fb, w, h, title, lines, keys):
    """A title, a few lines, and the buttons: resume prompt, notices, safe mode, errors."""
    fb.fill(0)
    _title_and_lines(fb, w, h, title, lines, keys)


def _title_and_lines(fb, w, h, title, lines, keys):
    scale = 2 if font.width(title, 2) <= w and h >= 64 else 1
    font.centered(fb, title, 0, scale, 1, w)
    # 128x32: lines packed at 8 px, so two fit between the title and the hints, not one.
    pitch = 9 if h >= 64 else 8
    y = 8 * scale + 3 if h >= 64 else 8
    for line in lines:
        for text in _wrap(line, w):
            if y + 7 > h - 8:
                break
            if text:
                font.centered(fb, text, y, 1, 1, w)
            y += pitch
    _hints(fb, w, h, keys)


def _wrap(text, w):
    # A line too wide for the panel becomes two, split at the space that balances them best
    # ("Save damaged:" / "kept as game.bad").
    if font.width(text) <= w:
        return (text,)
    best = None
    i = text.find(" ")
    while i >= 0:
        longest = max(i, len(text) - i - 1)
        if best is None or longest < best[0]:
            best = (longest, text[:i], text[i + 1 :])
        i = text.find(" ", i + 1)
    return (text,) if best is None else best[1:]


def bar(fb, w, h, keys):
    """The bottom line again, saying keys: what the buttons do on a screen drawn above."""
    _hints(fb, w, h, keys)


def refusal(fb, w, h, why):
    """Over the screen drawn: why the last press was refused, inverted in a box across the
    middle (a dark frame keeps it apart from the dice and text around it)."""
    y = (h - 8) // 2 - 6
    fb.fill_rect(0, y, w, 13, 0)
    fb.fill_rect(1, y + 1, w - 2, 11, 1)
    font.centered(fb, why, y + 3, 1, 0, w)
