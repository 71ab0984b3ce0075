"""Draws every screen of the tray on a framebuf-like canvas (dice pips, tokens, menus, hints).

Pure: each function paints a whole screen from the data it is given. Text uses dicetray.font so
the pixels are the same on CPython and on the Pico. 128x64 is the main layout; 128x32 panels
get a compact one. The bottom line of every screen says what the buttons do now. The
roll-off and play-off screens are drawn in dicetray.ui_contest (ui.contest, ui.outcome).
"""

from dicetray import font, words
from dicetray.draw import (
    TEXT_X32,
    big_name,
    fits,
    hints,
    packed_x,
    pname,
    ready_dice,
    text_x,
)
from dicetray.draw import cells as _cells
from dicetray.draw import dice_row as _dice_row
from dicetray.draw import title_and_lines as _title_and_lines
from dicetray.rules import LAST_HOLDER, LIMIT_AT_MOST, combo, written
from dicetray.state import CHARGE, ESPAGNOLE
from dicetray.ui_contest import contest, outcome  # noqa: F401  (ui draws every screen)


def turn(fb, w, h, game, kept, faces=None, hint=None, keys=None):
    """The current player's turn: dice (faces: the roll animation's, while its dice are in the
    air: then nothing on the panel names or counts that throw yet), kept marks, throw n of
    limit, the pot in the charge (the phase where there is room), the throw's name and the
    throw to beat: the turn's best and lowest throws so far; on 128x64 everybody's tokens,
    each by its owner's name. hint (mask, text), strategy.hint's: the dice the strategy keeps
    drawn in brackets, and on 128x64 what that choice is worth ("85%", "+0.9T"; "OK"
    before it: the strategy stops) a word's gap after the phase. A seat the tray plays: its
    name marked, no key to press. keys: the key bar, if not the turn's own."""
    font.clear(fb)
    p = game.current
    t = game.turn
    count = t.count - 1 if faces else t.count
    limit = game.max_throws()
    marks = (hint[0] or 0) if hint else 0
    tray = p in game.computers
    tx = words.T
    hints(fb, w, h, tx.TRAY_PLAYS if tray else keys or _turn_keys(game, count), not tray)
    phase = tx.PHASES[game.phase]
    pot = tx.POT_N % game.pot if game.phase == CHARGE else ""
    if count and not faces:
        name = combo(t.dice, game.opts).name
    elif count:
        name = ""  # the last throw's dice are in the air again
    elif h < 64:
        name = phase  # before the first throw: the phase, where the throw's name goes
    elif t.limit == 0 or (game.may_stop_early() and limit > 1):
        name = tx.UP_TO % limit
    else:
        name = (tx.THROWS_N if limit > 1 else tx.THROW_N) % limit
    if h < 64:
        # Two lines of text, each with a row for its accents above it and a blank row below:
        # across the top, who throws, throw n of limit and the throw's name; under it the dice
        # and beside them the throw to beat, the lowest so far (the best: the table's screen).
        # The pot and everybody's tokens: the table's screen and the results. A seat the tray
        # plays is marked (P3*), its count without its word where the throw's name needs it.
        top = pname(p, game.computers) + " " + tx.THROW_OF % (count, limit)
        if tray and not fits(top, name, w):
            top = pname(p, game.computers) + " %s/%d" % (count, limit)
        font.text(fb, top, 0, 1)
        if fits(top, name, w):
            font.text(fb, name, w - font.width(name), 1)
        turn_die(fb, w, h, faces or t.dice, kept, None, marks)
        _to_beat(fb, w, 12, game, TEXT_X32)
        return
    # Fields keep their places from one throw to the next, so a throw redraws only what changed
    # (the display driver sends only changed columns). The top line has no accent (the panel's
    # first row is its own): who throws, throw n of limit and the pot; the line under it has a
    # row for its accents (DÉCHARGE): the phase, and a hint's worth a word's gap after it; the
    # throw to beat one more (RIEN À BATTRE); then the dice, the throw's name beside them.
    big_name(fb, p, 0, 0, game.computers)
    x = text_x(p, game.computers)
    font.text(fb, tx.THROW_OF % (count, limit), x, 0)
    if pot:
        font.text(fb, pot, w - font.width(pot), 0)
    font.text(fb, phase if hint is None else phase + " " + hint[1], x, 9)
    _to_beat(fb, w, 18, game)
    turn_die(fb, w, h, faces or t.dice, kept, None, marks, game.n)
    font.text(fb, name, _NAME_X[game.n > 4], 33 if game.n <= 4 else 28)
    _tokens_row(fb, w, game)


# Where a 128x64 turn's throw name starts, beside its dice packed to the left (turn_die): four
# players or fewer (19-pixel dice), more (12).
_NAME_X = (packed_x(0, 19, 3, 1), packed_x(0, 12, 3, 1))  # where a fourth die would stand


def _tokens_row(fb, w, game):
    # Everybody's tokens under the dice, copied from their image (_holdings).
    fb.blit(_holdings(w, game), 0, _holdings_y(game.n), 0)


def _holdings_y(n):
    # Where the row of tokens starts: two rows under smaller dice from five players on.
    return 39 if n > 4 else 47


# The turn screen's row of tokens drawn last: [what it shows (w, tokens, out), its image]. It
# changes only when a turn ends; every frame of a turn copies it (blit: ink only, the dark left
# out, as the text draws it), and the quiet moment after a turn's end draws the next one ready
# (ready_turn): at eight players it cost some 110 Python lines a frame.
_ROW: list = [None, None]


def _holdings(w, game):
    # Everybody's tokens in seat order, each in a cell by its owner's name, read across as the
    # table sits (P1 at the left; two rows: P1 P2 P3 P4 over P5..P8), as an image (_ROW). The
    # player whose turn it is is named big above; the seats the tray plays, on the table's
    # screen.
    shows = (w, tuple(game.tokens), tuple(game.out))
    if _ROW[0] != shows:
        import framebuf

        n = game.n
        rows = 2 if n > 4 else 1
        items = [(pname(p), _tokens(game, p), False) for p in range(n)]
        buf = bytearray(w * rows)
        image = framebuf.FrameBuffer(buf, w, 8 * rows, framebuf.MONO_VLSB)
        # No cell lit: a blank row apart is enough. Its text by machine code where it can.
        _cells(font.frame_of(image, buf, w, 8 * rows), w, 0, rows, items, 8)
        _ROW[0], _ROW[1] = shows, image
    return _ROW[1]


def turn_die(fb, w, h, values, kept, only=None, hint=0, n=0):
    """The turn's dice where turn() draws them; only: redraw just that die (a keep changes
    nothing else on the turn's screen, so a KEEP draws one die, not the screen); hint: the
    dice the strategy keeps; n: the players (more than four: smaller dice, over two rows of
    tokens)."""
    if h < 64:
        _dice_row(fb, 0, 9, _die_size(h, n), values, kept, only, hint, 0)
    else:
        _dice_row(fb, 0, 26, _die_size(h, n), values, kept, only, hint)


def die_at(h, n, i):
    """(x, y, side) of die i of a turn's three on a panel h high with n players (turn_die's
    places: packed to the left, a hint's brackets beside each; 128x32: the brackets of two
    dice side by side may touch)."""
    s = _die_size(h, n)
    return packed_x(0, s, i, int(h >= 64)), 9 if h < 64 else 26, s


def _die_size(h, n):
    # The side of a turn's dice: 12 on 128x32, beside the text; 19 on 128x64, 12 over the two
    # rows of tokens more than four players take (12: the least whose pips stand apart; 19:
    # odd, so that the middle pip sits in the middle).
    return 12 if h < 64 or n > 4 else 19


def ready_turn(w, h, game):
    """Draw what the turn screens of game copy ready, on a w x h panel, at a quiet moment: each
    look of the dice (draw.ready_dice) and, 128x64, the row of tokens (_holdings); and write
    the throws done so far as the turn's result names them (_thrown)."""
    ready_dice(_die_size(h, game.n))
    if h >= 64:
        _holdings(w, game)
        _thrown(game, game.turn)


def _to_beat(fb, w, y, game, x=-1):
    # Above the dice (128x32: beside them, from x): the turn's best and lowest throws so far
    # and who made them (128x32: the lowest alone, the throw to beat not to lose the turn). On
    # 128x64 the dice keep to three pages of the panel's memory (rows 24..47): a die redrawn
    # resends those pages only (tools/bench.py's bytes per press).
    t = game.turn
    if not t.finals:
        if x < 0:
            font.centered(fb, words.T.NOTHING_TO_BEAT, y, 1, 1, w)
        else:
            font.text(fb, words.T.NOTHING_TO_BEAT, x, y)
        return
    places = game.ranked()
    o = game.opts
    low = words.T.LOW % (pname(t.order[places[-1]]), written(t.finals[places[-1]], o))
    if x >= 0:
        font.text(fb, low, x, y)
        return
    top = words.T.TOP % (pname(t.order[places[0]]), written(t.finals[places[0]], o))
    font.text(fb, top, 0, y)
    font.text(fb, low, w - font.width(low), y)


def _turn_keys(game, count):
    # What the buttons do in a turn after count throws, in words, for the hint bar.
    t = words.T
    if not count:
        return t.KEYS_FIRST
    if count >= game.max_throws():
        return t.KEYS_LAST
    if not game.may_stop_early():
        return t.KEYS_KEEP
    o = game.opts
    if game.turn.pos and (o.le_bon or o.limit == LIMIT_AT_MOST):
        return t.KEYS_LE_BON
    return t.KEYS_STOP


def result(fb, w, h, game, keys=None, left=-1):
    """The end of a turn: who lost and what moved, then each throw, best first, with the tokens
    each player holds now, and the pot (128x32: the best and the lowest throw only). keys: what
    the buttons do there, if not only OK; left: the screen moves on by itself, its key bar
    lit for that many letter cells (draw.hints)."""
    font.clear(fb)
    last = game.last
    t = game.ended
    seats = game.computers
    if last.passed:
        title = words.T.HAND_PASSES
    elif last.phase == CHARGE:
        title = words.T.LOSES_TAKES % (pname(last.loser, seats), last.amount)
    else:
        title = words.T.GIVES % (pname(last.winner, seats), last.amount,
                                 pname(last.loser, seats))
    font.centered(fb, title, 1, 1, 1, w)  # a row above for an accent (À, ÉGAL)
    # The winner first and the loser last, though a roll-off may have settled a tie. A resumed
    # game has no turn that ended: its save keeps the winner's and the loser's throws only.
    win, lose = last.winner, last.loser
    items = [_throw(game, win, last.wdice, seats, False)]
    if h >= 64 and t is not None and len(t.order) > 2:  # some threw but the two named above
        order, thrown = t.order, _thrown(game, t)
        items += [(thrown[i], _tokens(game, order[i]), False) for i in game.ranked(t)
                  if order[i] != win and order[i] != lose]
    items.append(_throw(game, lose, last.ldice, seats, not last.passed))
    if h >= 64:
        if t is None or len(t.order) < game.n:  # some played no throw: they hold tokens too
            items += [(pname(p, seats), _tokens(game, p), False) for p in range(game.n)
                      if p != win and p != lose and (t is None or p not in t.order)]
        if last.phase == CHARGE:
            items.append((words.T.POT, str(game.pot), False))
    _ranked_cells(fb, w, h, 10, items)
    hints(fb, w, h, keys or words.T.KEYS_NEXT, True, left)


# The throws done in a turn as its result names them, "P3* 421", in turn order: [that turn's
# finals, their texts]. Written as each comes, at the quiet moment after it (ready_turn), so the
# stop that ends a turn (at eight players its press's heaviest) writes its own throw's alone.
_THROWN: list = [None, []]


def _thrown(game, t):
    # The texts of turn t's throws done (_THROWN), brought up to date; shared: read them only.
    # Kept for that very list of finals, as game.sort_keys keeps its keys (finals only grow).
    if _THROWN[0] is not t.finals:
        _THROWN[0], _THROWN[1] = t.finals, []
    texts = _THROWN[1]
    seats = game.computers
    while len(texts) < len(t.finals):
        i = len(texts)
        texts.append(_named(t.order[i], t.finals[i], seats, game.opts))
    return texts


def _ranked_cells(fb, w, h, y, items):
    # A ranked list from y: one column where it fits above the key bar, else two, read row by
    # row (the best at the left of the first row).
    rows = (h - 9 - y) // 9
    if len(items) <= rows:
        _cells(fb, w, y, len(items), items)
    else:
        _cells(fb, w, y, (len(items) + 1) // 2, items)


def _tokens(game, p):
    return "--" if p in game.out else str(game.tokens[p])


def _throw(game, p, dice, seats, lit) -> tuple:
    # A result's cell: who threw what, and the tokens they hold now.
    return (_named(p, dice, seats, game.opts), _tokens(game, p), lit)


def _named(p, dice, seats, opts):
    # Who threw what, as a result names it: "421 P3*", the throw first, as the list ranks them,
    # and the name last, its tokens right after it.
    return written(dice, opts) + " " + pname(p, seats)


def phase(fb, w, h, game, keys=None, left=-1):
    """The décharge begins (the charge's first turn says itself that it began): the pot is
    empty, who has left; who starts first (the one line a 128x32 panel has room for). keys:
    what the buttons do there, if not only OK; left: as result's."""
    font.clear(fb)
    lines = [words.T.POT_EMPTY]
    if game.out:
        lines.append(words.T.OUT % " ".join(pname(p, game.computers) for p in game.out))
    if not game.over:
        lines.insert(0, words.T.STARTS % pname(game.current, game.computers))
    _title_and_lines(fb, w, h, words.T.PHASES[game.phase], lines,
                     keys or words.T.KEYS_NEXT, left)


def standings(fb, w, h, game, unsaved, keys):
    """The table: every player's tokens (--: left as a winner), the pot and the phase, and on
    128x64 this turn's throws, best first, the throw under way among them, then who is still
    to throw, read row by row (128x32, no throws: in seat order); whose turn it is is lit. A
    warning if saving fails (unsaved); keys: what the buttons do there."""
    font.clear(fb)
    wide = h >= 64
    seats = game.computers
    p = game.current
    if wide:  # the throws, best first, then who is still to throw
        seen, throws = _ranked_seats(game)
    else:  # no throws to rank by: the players in seat order, as the table sits; four cells a
        # row, three where seats are marked ("P8*"), unless that makes three rows
        seen, throws = list(range(game.n)), ()
        per = 3 if seats else 4
        if game.n > 2 * per:
            seats, per = (), 4
        rows = (game.n + per - 1) // per
    items = []
    for k in range(game.n):
        q = seen[k]
        left = pname(q, seats)
        if k < len(throws):
            left = written(throws[k], game.opts) + " " + left
        items.append((left, _tokens(game, q), q == p))
    if wide or rows == 1:  # 128x32: no head line when the players need two rows
        head = words.T.NOT_SAVED if unsaved else words.T.PHASES[game.phase]
        if game.pot:
            head += " " + words.T.POT_N % game.pot
        font.text(fb, head, 0, 1)  # a row above for an accent (DÉCHARGE)
        if wide:
            _ranked_cells(fb, w, h, 10, items)
        else:
            _cells(fb, w, 10, rows, items)
    else:
        _cells(fb, w, 1, rows, items)
    hints(fb, w, h, keys)


def _ranked_seats(game):
    # The table's players (standings), ranked as its docstring says, and their throws.
    t = game.turn
    places = game.ranked()
    seen = [t.order[i] for i in places]
    throws = [t.finals[i] for i in places]
    p = game.current
    if t.count and game.contest is None and p not in seen:
        from dicetray.settle import key_of

        ranks = game.sort_keys()
        mine = key_of(game, t.dice, t.count, len(t.finals))
        j = 0
        while j < len(places) and not ranks[places[j]] < mine:
            j += 1
        seen.insert(j, p)
        throws.insert(j, t.dice)
    seen += [q for q in t.order if q not in seen]
    seen += [q for q in range(game.n) if q not in seen]
    return seen, throws


def over(fb, w, h, game, keys=None):
    """Game over: who pays the round, why the game ended (the first player out and in which
    phase, l'Espagnole, the last holder), why its payer pays (the most tokens, every token),
    who won; 128x32: who pays (a tie: the players who pay), then why where every other player
    won, else every winner. keys: the key bar, if not the game over's own."""
    font.clear(fb)
    r = game.result
    losers = r.losers
    t = words.T
    seats = game.computers
    title = (t.PAYS % pname(losers[0], seats)) if len(losers) == 1 else t.TIE_PAY
    because = None  # why its payer pays, where the end's reason does not say it
    if r.reason == ESPAGNOLE:
        why = t.ESPAGNOLE
        because = t.ALL_TOKENS
    elif r.reason == LAST_HOLDER:
        why = t.LAST_HOLDS
    else:
        why = t.FIRST_OUT_IN % t.PHASES[game.last.phase]
        because = t.MOST_TOKENS % game.tokens[losers[0]]
    lines = [t.THE_ROUND]
    if len(losers) > 1:
        lines = [t.PAY % " ".join(pname(p, seats) for p in losers)]
    lines.append(why)
    if because is not None:
        lines.append(because)
    won = t.WON[1 if len(r.winners) > 1 else 0] % " ".join(pname(p, seats) for p in r.winners)
    lines.append(won)
    if len(lines) > 3 and font.width(won) > w and len(losers) == 1:
        lines.pop(0)  # the title says who pays; the winners need both lines left
    if h < 64:  # one line under the title: who pays (seats unmarked where that fits)
        if len(losers) > 1:
            title = lines[0]
            if font.width(title) > w:
                title = t.PAY % " ".join(pname(p) for p in losers)
            if font.width(title) > w:
                title = t.TIE_PAY
        won = lines[-1]
        if len(r.winners) + len(losers) == game.n:
            won = because or why  # every other player won: the line says why the payer pays
        elif font.width(won) > w:  # some neither won nor pay: every winner named
            won = t.WON[1] % " ".join(pname(p) for p in r.winners)
        lines = [won]
    _title_and_lines(fb, w, h, title, lines, keys or t.KEYS_OVER)


def menu(fb, w, h, title, rows, cursor, keys):
    """A list of (label, value) rows with a cursor; scrolls to keep the cursor in view."""
    font.clear(fb)
    font.text(fb, title, 0, 0)
    # A row's pitch: the cursor's lit margin, then a blank row and a row for the accents of
    # the row under it (RÈGLES).
    visible = (h - 18) // 10
    top = min(max(0, cursor - visible // 2), max(0, len(rows) - visible))
    for i in range(top, min(len(rows), top + visible)):
        y = 10 + (i - top) * 10
        label, value = rows[i]
        if i == cursor:
            fb.fill_rect(0, y - 1, w, 9, 1)
        c = 0 if i == cursor else 1
        font.text(fb, label, 1, y, 1, c)
        font.text(fb, value, w - font.width(value) - 1, y, 1, c)
    hints(fb, w, h, keys)


def message(fb, w, h, title, lines, keys):
    """A title, a few lines, and the buttons: resume prompt, notices, safe mode, errors."""
    font.clear(fb)
    _title_and_lines(fb, w, h, title, lines, keys)


def refusal(fb, w, h, why, game=None):
    """Over the screen drawn (a turn or a contest of game, where presses are refused and a
    seat says its stop): why the last press was refused, inverted in a box across the panel.
    The box hides whole text rows: on 128x64 the line above the dice and the throw's name
    beside them (a contest: its first two rows of rolls), on 128x32 all below the top line."""
    y, bh = refusal_rows(h, game)
    fb.fill_rect(0, y, w, bh, 0)
    fb.fill_rect(1, y + 1, w - 2, bh - 2, 1)
    font.centered(fb, why, y + (bh - 7) // 2, 1, 0, w)


def refusal_rows(h, game=None):
    """The rows refusal's box takes on a panel h high over game's screen: (top, height); over
    a turn's big dice, deeper, down to the throw's name beside them (turn)."""
    if h < 64:
        return 8, 15  # the blank row under the top line down to the hint bar's dark row
    big = game is not None and game.contest is None and _die_size(h, game.n) > 12
    return 16, 25 if big else 20
