"""What the tray's screens are drawn with: dice, the hint bar, player names, centred lines.

Pure, like dicetray.ui which draws each screen with these. Text uses dicetray.font so the pixels
are the same on CPython and on the Pico.
"""

from dicetray import font
from dicetray.clock import WAIT_STEPS

GAP = 3  # the blank columns that part two words (a letter's gap is 1)
TEXT_X = 28  # 128x64: where the text beside a big name (and its dot) starts
TEXT_X32 = 47  # 128x32: where the text beside a turn's dice starts

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
    """A player's name at twice the size; a seat the tray plays (in seats) gets a dot at its
    foot, a letter's gap after it (the name and its dot end by x + TEXT_X - GAP - 1)."""
    font.text(fb, pname(p), x, y, 2)
    if p in seats:
        fb.fill_rect(x + 23, y + 10, 2, 4, 1)


def dice_str(dice):
    """A throw as its digits, highest first as a combination's name writes them: "421"."""
    return "%d" * len(dice) % tuple(sorted(dice, reverse=True))  # one format: no generator


# The dice drawn so far at one size: [that size, {look: image}], a look being value * 4 + 2 if
# kept, + 1 if hinted and not kept. A die sets every pixel of its square whatever lies under it,
# so its image is copied there by framebuf's machine code (blit) instead of being drawn again in
# Python, which cost some 25 statements a die (at some 30 us each on the Pico) on every screen
# showing it. At most the 19 looks of one size (LOOKS): a new size starts afresh (~2.5 KB at
# 20 pixels).
_DICE = [0, None]
LOOKS = 19  # the blank die, and each face plain, kept or hinted


def die(fb, x, y, s, value, kept=False, hint=False):
    """A die of s x s pixels at (x, y); kept dice are drawn solid with dark pips; 0 is blank.
    hint (a die the strategy would keep, not kept yet): its foot, a third of it, is solid, so
    that it shows as plainly as a kept die and still differs from one. Every pixel of the
    square is set (drawn once per look, then copied: _DICE)."""
    fb.blit(_image(s, value, kept, hint), x, y)


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

        image = framebuf.FrameBuffer(bytearray(s * ((s + 7) >> 3)), s, s, framebuf.MONO_VLSB)
        _draw_die(image, 0, 0, s, value, kept, hint)
        _DICE[1][look] = image
    return image


def _draw_die(fb, x, y, s, value, kept, hint):
    # A die (die()'s) drawn: lit, its inside cleared within a 2-pixel border unless kept, its
    # corners rounded, its pips.
    fb.fill_rect(x, y, s, s, 1)
    foot = y + s  # pips from this row down are dark
    if not kept:
        fb.fill_rect(x + 2, y + 2, s - 4, s - 4, 0)
        if hint:
            foot -= s // 3
            fb.fill_rect(x, foot, s, s // 3, 1)
    else:
        foot = y
    e = s - 1
    fb.pixel(x, y, 0)  # rounded corners
    fb.pixel(x + e, y, 0)
    fb.pixel(x, y + e, 0)
    fb.pixel(x + e, y + e, 0)
    if value == 0:
        font.text(fb, "?", x + (s - 5) // 2, y + (s - 7) // 2, 1, 0 if kept else 1)
        return
    p = max(3, s // 6) if s >= 16 else 2  # a pip's side: a small die's three pips must part
    q = s // 4  # the first pip's centre, from the edge
    step = s // 2 - q  # from one pip's centre to the next
    x += q - p // 2
    y += q - p // 2
    for code in _PIPS[value]:
        py = y + (code & 15) * step
        fb.fill_rect(x + (code >> 4) * step, py, p, p, 0 if py >= foot else 1)


def die_x(w, s, i):
    """The left x of die i of three of s pixels spread across w (dice_row's places)."""
    gap = (w - 3 * s) // 4
    return gap + i * (s + gap)


def dice_row(fb, w, y, s, values, kept, only=None, hint=0):
    """Three dice of s pixels spread across w at y; only: just that one (its place kept);
    hint: the mask of the dice the strategy would keep (die's hint)."""
    for i in range(3):
        if only is None or i == only:
            bit = 1 << i
            die(fb, die_x(w, s, i), y, s, values[i] if values else 0, bool(kept & bit),
                bool(hint & bit))


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


def cells(fb, w, y, rows, items, pitch=9, x=0):
    """The table's cells: items (left text, right text, lit) column by column, rows high from
    y at pitch (9: room for a lit cell's margin), as many columns as they need across w pixels
    from x; a lit cell is inverted, with a pixel of lit margin round its text. The right text
    ends six columns short of the next cell: the gutter between two cells is wider than the
    gap between a label and its count, so that each count reads as its own cell's."""
    colw = w // ((len(items) + rows - 1) // rows)
    top = y
    bottom = y + rows * pitch
    text = font.text
    # One loop, no call per cell but the text's: a result's or the table's nine cells are
    # drawn by every press that shows them.
    for left, right, lit in items:
        ink = 1
        if lit:
            fb.fill_rect(x, y - 1, colw - 1, 9, 1)
            ink = 0
        text(fb, left, x + 1, y, 1, ink)
        if right:  # a cell may hold its left text only: no call for an empty right one
            # Its last glyph's ink ends 6 columns short of the cell's end: font.width(right)
            # is 6 * len(right) - 1, worked out here.
            text(fb, right, x + colw - 5 - 6 * len(right), y, 1, ink)
        y += pitch
        if y == bottom:
            y = top
            x += colw


def cell(fb, x, y, colw, left, right, lit):
    """One of cells(): left and right text in colw pixels from x, inverted when lit."""
    cells(fb, colw, y, 1, ((left, right, lit),), 9, x)


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
