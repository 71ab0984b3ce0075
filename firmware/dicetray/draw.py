"""What the tray's screens are drawn with: dice, the hint bar, player names, centred lines.

Pure, like dicetray.ui which draws each screen with these. Text uses dicetray.font so the pixels
are the same on CPython and on the Pico.
"""

from dicetray import font
from dicetray.clock import WAIT_STEPS

GAP = 3  # the blank columns that part two words (a letter's gap is 1)
TEXT_X = 25  # 128x64: where the text beside a big name starts (the line by a seat's mark: SEAT_X)
SEAT_X = 33  # the lines beside a seat's big name: after its mark, GAP and more
TEXT_X32 = 50  # 128x32: where the text beside a turn's dice (and a hint's brackets) starts

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


def pname(p, seats=()):
    """A player's name, "P3"; a seat the tray plays (in seats: the game's computers) is marked
    "P3*" (seats left out: unmarked, where the line has no room and the player is marked
    elsewhere on the screen)."""
    return ("P%d*" if p in seats else "P%d") % (p + 1)


def big_name(fb, p, x, y, seats=()):
    """A player's name at twice the size; a seat the tray plays (in seats) is marked as
    everywhere, "P3*": its * at the text's size, halfway down the name and a letter's gap (two
    columns at twice the size) after it, where it belongs to neither line of text beside the
    name; those lines start at SEAT_X (text_x)."""
    font.text(fb, pname(p), x, y, 2)
    if p in seats:
        font.text(fb, "*", x + 24, y + 3)


def text_x(p, seats=()):
    """Where the lines beside player p's big name start: TEXT_X, SEAT_X after a seat's
    mark."""
    return SEAT_X if p in seats else TEXT_X


# The dice drawn so far at one size: [that size, {look: image}], a look being value * 4 + 2 if
# kept, + 1 if hinted and not kept. A die sets every pixel of its image whatever lies under it,
# so its image is copied there by framebuf's machine code (blit) instead of being drawn again in
# Python, which cost some 25 statements a die (at some 30 us each on the Pico) on every screen
# showing it. At most the 19 looks of one size (LOOKS): a new size starts afresh.
_DICE = [0, None]
LOOKS = 19  # the blank die, and each face plain, kept or hinted
MARGIN = 2  # the columns a die's image takes on each side of its square: a hint's brackets


def die(fb, x, y, s, value, kept=False, hint=False):
    """A die of s x s pixels at (x, y); kept dice are drawn solid with dark pips; 0 is blank.
    hint (a die the strategy would keep, not kept yet): a bracket on each side, [ and ], a
    blank column from the die but for their ends, so that it shows plainly, which die it
    marks too beside another's, differs from a kept die and hides no pip. Every
    pixel of the square and of MARGIN columns on each side is set (drawn once per look, then
    copied: _DICE)."""
    fb.blit(_image(s, value, kept, hint), x - MARGIN, y)


def ready_dice(s):
    """Draw every look of a die of s pixels ready for die() (a quiet moment's work, App.quiet),
    letting another size's go."""
    if _DICE[0] != s or len(_DICE[1]) < LOOKS:
        for value in range(7):
            _image(s, value, False, False)
            if value:
                _image(s, value, True, False)
                _image(s, value, False, True)


def _image(s, value, kept, hint):
    # die()'s look of a die of s pixels, drawn the first time it is asked for.
    if _DICE[0] != s:
        _DICE[0] = s
        _DICE[1] = {}
    look = value * 4 + (2 if kept else 1 if hint else 0)
    image = _DICE[1].get(look)
    if image is None:
        import framebuf

        wide = s + 2 * MARGIN
        image = framebuf.FrameBuffer(bytearray(wide * ((s + 7) >> 3)), wide, s,
                                     framebuf.MONO_VLSB)
        _draw_die(image, MARGIN, 0, s, value, kept, hint)
        _DICE[1][look] = image
    return image


def _draw_die(fb, x, y, s, value, kept, hint):
    # A die (die()'s) drawn with the MARGIN columns on each side: lit, its inside cleared
    # within its border unless kept, its corners rounded, its pips; a hint's brackets. A pip
    # keeps a clear pixel from the border and from the next pip at every size, so that a
    # glance counts them: a small die has a 1-pixel border and 2-pixel pips three apart. A
    # hint's brackets stand outside the die, where they cannot touch a pip.
    fb.fill_rect(x - MARGIN, y, MARGIN, s, 0)
    fb.fill_rect(x + s, y, MARGIN, s, 0)
    fb.fill_rect(x, y, s, s, 1)
    e = s - 1
    if hint and not kept:  # brackets, [ and ]: each opens towards its own die
        fb.fill_rect(x - MARGIN, y, 1, s, 1)
        fb.fill_rect(x + e + MARGIN, y, 1, s, 1)
        for bx in (x - MARGIN + 1, x + e + MARGIN - 1):
            fb.pixel(bx, y, 1)
            fb.pixel(bx, y + e, 1)
    big = s >= 16
    border = 2 if big else 1
    if not kept:
        fb.fill_rect(x + border, y + border, s - 2 * border, s - 2 * border, 0)
    fb.pixel(x, y, 0)  # rounded corners
    fb.pixel(x + e, y, 0)
    fb.pixel(x, y + e, 0)
    fb.pixel(x + e, y + e, 0)
    ink = 0 if kept else 1
    if value == 0:
        font.text(fb, "?", x + (s - 5) // 2, y + (s - 7) // 2, 1, ink)
        return
    if big:
        p = max(3, s // 6)  # a pip's side
        step = s // 2 - s // 4  # from one pip's centre to the next
        first = s // 4 - p // 2
    else:
        p = 2
        step = 3
        first = (s - 8) // 2  # three pips and the clear pixels round them centred
    for code in _PIPS[value]:
        fb.fill_rect(x + first + (code >> 4) * step, y + first + (code & 15) * step, p, p, ink)


def packed_x(x, s, i, apart):
    """The left x of die i of three of s pixels packed from x (dice_row's places): each die and
    its brackets' room side by side, apart blank columns between."""
    return x + MARGIN + i * (s + 2 * MARGIN + apart)


def dice_row(fb, x, y, s, values, kept, only=None, hint=0, apart=1):
    """Three dice of s pixels packed from x at y (packed_x); only: just that one (its place
    kept); hint: the mask of the dice the strategy would keep (die's hint)."""
    for i in range(3):
        if only is None or i == only:
            bit = 1 << i
            die(fb, packed_x(x, s, i, apart), y, s, values[i] if values else 0,
                bool(kept & bit), bool(hint & bit))


def hints(fb, w, h, text, lit=True, left=-1):
    # The last text row: what the buttons do now, inverted so it reads as a bar, with a lit row
    # above and below the letters so that no stroke merges into the dark around the bar. What
    # is drawn above it ends by row h - 11, a dark row between. Not lit: a frame round lit
    # text, for a moment that asks nothing of the players (the tray plays a seat).
    # left: the screen moves on by itself; the bar is lit for that many letter cells, on the
    # text's grid from the left edge, and dark past them (no frame either), each letter in
    # the ink of its part (no letter straddles the edge, so each step changes one cell); the
    # drained letters sit a column to the right, so that a blank column parts each part's
    # letters from the other part.
    fb.fill_rect(0, h - 9, w, 9, 1)
    if not lit:
        fb.fill_rect(1, h - 8, w - 2, 7, 0)
    x = (w - font.width(text)) // 2
    if left < 0 or left >= WAIT_STEPS:
        font.text(fb, text, x, h - 8, 1, 0 if lit else 1)
        return
    edge = min(w, x % 6 + 6 * left)
    k = min(len(text), max(0, (edge - x) // 6))
    fb.fill_rect(edge, h - 9, w - edge, 9, 0)
    font.text(fb, text[:k], x, h - 8, 1, 0)
    font.text(fb, text[k:], x + 6 * k + 1, h - 8, 1, 1)


def fits(left, right, room):
    """Whether left and right, in one line of room pixels, keep GAP blank columns apart."""
    return font.width(left) + GAP + font.width(right) <= room


def cells(fb, w, y, rows, items, pitch=9, x=0, join=None):
    """A list's cells: items (left text, count, lit) read across, row by row, rows high from y
    at pitch (9: room for a lit cell's margin), as many columns as they need across w pixels
    from x; a lit cell is inverted, with a pixel of lit margin round its text. Each count sits
    right after its own left text: a space after it where the cells leave a wider gap before
    the next cell's text, else joined to it by a colon ("P1:10"), so that it always reads as
    its own name's (join: the caller knows which). Two columns read as one list across (no
    line parts them)."""
    cols = (len(items) + rows - 1) // rows
    colw = w // cols
    text = font.text
    if join is None:
        wide = 0  # the widest cell with a space before its count
        for left, right, _ in items:
            wide = max(wide, font.width(left) + (font.width(right) + 7 if right else 0))
        join = " " if colw - wide > 8 else ":"
    fill = colw - 1
    k = 0
    # One loop, no call per cell but the text's: a result's or the table's nine cells are
    # drawn by every press that shows them.
    for left, right, lit in items:
        cx = x + (k % cols) * colw
        cy = y + (k // cols) * pitch
        ink = 1
        if lit:
            fb.fill_rect(cx, cy - 1, fill, 9, 1)
            ink = 0
        text(fb, left + join + right if right else left, cx + 1, cy, 1, ink)
        k += 1


def title_and_lines(fb, w, h, title, lines, keys, left=-1):
    scale = 2 if font.width(title, 2) <= w and h >= 64 else 1
    # A big title two rows down: room for an accent above it (DÉCHARGE); a small one a row
    # down where it has an accent, and on 128x32, where its line is one of two of a kind.
    font.centered(fb, title, 2 if scale == 2 else int(h < 64 or font.raised(title)), scale,
                  1, w)
    # Each line with a row for its accents above it and a blank row above that: 128x32 has
    # room for the title and one line above the hints.
    pitch = 9
    y = 8 * scale + 3 if h >= 64 else 10
    for line in lines:
        for text in wrap(line, w):
            if y + 6 > h - 11:  # the hint bar's dark row
                break
            if text:
                font.centered(fb, text, y, 1, 1, w)
            y += pitch
    hints(fb, w, h, keys, True, left)


def wrap(text, w):
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
