"""The dice tray's own 5x7 font: text drawn the same, pixel for pixel, on CPython and MicroPython.

The glyph data below is generated from the ASCII art in tools/fontsrc.txt: change the art there and
run `python tools/make/font.py`, which rewrites only the block between the "font data" markers.

A character cell is 6x8 pixels at scale 1: a 5x7 glyph, then one blank column on the right and
one blank row below. Lowercase is drawn as uppercase (é as É); a character the font lacks is
drawn as a hollow box. An accented capital is its plain capital, full height, with its accent
in the row above the cell (one row per scale: the gap between lines) and Ç's cedilla in the
cell's blank bottom row; an accent above the panel's top is clipped, as any ink off it. The
font covers ASCII and the Latin-1 letters and signs French needs (« », accented capitals).
Three code points are UI symbols: ^ is an up arrow, ~ a down arrow, | a bullet.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(x):
        return x


# ---- font data: written by tools/make/font.py from fontsrc.txt, do not edit ----
# The characters the font draws, in glyph order (lowercase a-z, é... map to A-Z, É...).
CHARS = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!\"'()*+,-./:;<=>?%#_[]&@^~|Ç«»ÉÈÊËÀÂÎÏÔÙÛÜ"

_FIRST = const(32)
_LAST = const(255)
_BOX = const(79)  # glyph number of the unknown-character box
# Glyphs _RAISED.._BOX - 1 are drawn from the row above their cell: an accented capital is the
# plain capital, full height, with its accent in the gap above. Their bit 0 is the accent row.
_RAISED = const(67)

# Glyph number for each character code _FIRST.._LAST; a-z, é... share A-Z's, É...'s glyphs.
_INDEX = (
    b"\x00\x25\x26\x37\x4f\x36\x3b\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f\x01\x02\x03\x04"
    b"\x05\x06\x07\x08\x09\x0a\x30\x31\x32\x33\x34\x35\x3c\x0b\x0c\x0d\x0e\x0f\x10\x11"
    b"\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24\x39"
    b"\x4f\x3a\x3d\x38\x4f\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19"
    b"\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24\x4f\x3f\x4f\x3e\x4f\x4f\x4f\x4f\x4f"
    b"\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f"
    b"\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x41"
    b"\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x4f\x42\x4f\x4f\x4f\x4f"
    b"\x47\x4f\x48\x4f\x4f\x4f\x4f\x40\x44\x43\x45\x46\x4f\x4f\x49\x4a\x4f\x4f\x4f\x4f"
    b"\x4b\x4f\x4f\x4f\x4f\x4c\x4f\x4d\x4e\x4f\x4f\x4f\x47\x4f\x48\x4f\x4f\x4f\x4f\x40"
    b"\x44\x43\x45\x46\x4f\x4f\x49\x4a\x4f\x4f\x4f\x4f\x4b\x4f\x4f\x4f\x4f\x4c\x4f\x4d"
    b"\x4e\x4f\x4f\x4f"
)

# 5 column bytes per glyph, bit 0 = top row, as in a MONO_VLSB frame buffer; bit 7 is the cell's
# blank bottom row (a cedilla's).
_GLYPHS = (
    b"\x00\x00\x00\x00\x00\x3e\x7f\x41\x7f\x3e\x04\x06\x7f\x7f\x00"  # space 0 1
    b"\x62\x73\x59\x4f\x46\x22\x63\x49\x7f\x36\x18\x1c\x16\x7f\x7f"  # 2 3 4
    b"\x27\x67\x45\x7d\x39\x3e\x7f\x49\x79\x30\x01\x71\x7d\x0f\x03"  # 5 6 7
    b"\x36\x7f\x49\x7f\x36\x06\x4f\x49\x7f\x3e\x7e\x7f\x09\x7f\x7e"  # 8 9 A
    b"\x7f\x7f\x45\x7f\x3a\x3e\x7f\x41\x41\x41\x7f\x7f\x41\x63\x3e"  # B C D
    b"\x7f\x7f\x49\x49\x41\x7f\x7f\x09\x09\x01\x3e\x7f\x41\x79\x79"  # E F G
    b"\x7f\x7f\x08\x7f\x7f\x00\x41\x7f\x7f\x41\x20\x60\x40\x7f\x3f"  # H I J
    b"\x7f\x7f\x1c\x77\x63\x7f\x7f\x40\x40\x40\x7f\x07\x1e\x07\x7f"  # K L M
    b"\x7f\x0f\x1c\x78\x7f\x3e\x63\x41\x63\x3e\x7f\x7f\x09\x0f\x06"  # N O P
    b"\x3e\x63\x51\x23\x5e\x7f\x7f\x09\x7f\x66\x46\x4f\x49\x79\x31"  # Q R S
    b"\x01\x01\x7f\x7f\x01\x3f\x7f\x40\x7f\x3f\x1f\x3f\x60\x3f\x1f"  # T U V
    b"\x7f\x70\x3c\x70\x7f\x63\x77\x1c\x77\x63\x03\x07\x7c\x7f\x03"  # W X Y
    b"\x61\x71\x59\x4f\x43\x00\x00\x5f\x5f\x00\x03\x03\x00\x03\x03"  # Z ! "
    b"\x00\x00\x03\x03\x00\x00\x1c\x3e\x63\x41\x41\x63\x3e\x1c\x00"  # ' ( )
    b"\x2a\x1c\x3e\x1c\x2a\x08\x08\x3e\x08\x08\x00\x40\x70\x30\x00"  # * + ,
    b"\x08\x08\x08\x08\x08\x00\x00\x60\x60\x00\x40\x70\x1c\x07\x01"  # - . /
    b"\x00\x00\x36\x36\x00\x00\x40\x76\x36\x00\x08\x1c\x36\x63\x41"  # : ; <
    b"\x14\x14\x14\x14\x14\x41\x63\x36\x1c\x08\x02\x03\x59\x5f\x06"  # = > ?
    b"\x73\x3b\x0c\x66\x63\x14\x7f\x14\x7f\x14\x40\x40\x40\x40\x40"  # % # _
    b"\x00\x7f\x7f\x41\x41\x41\x41\x7f\x7f\x00\x36\x7f\x49\x36\x50"  # [ ] &
    b"\x3e\x41\x5d\x55\x5e\x04\x7e\x7f\x7e\x04\x10\x3f\x7f\x3f\x10"  # @ ^ ~
    b"\x00\x1c\x1c\x1c\x00\x3e\x7f\xc1\xc1\x41\x08\x14\x2a\x14\x22"  # | Ç «
    b"\x22\x14\x2a\x14\x08\xfe\xfe\x92\x93\x83\xff\xff\x92\x92\x82"  # » É È
    b"\xfe\xff\x93\x93\x82\xff\xfe\x92\x92\x83\xfd\xff\x12\xfe\xfc"  # Ê Ë À
    b"\xfc\xff\x13\xff\xfc\x00\x83\xff\xff\x82\x01\x82\xfe\xfe\x83"  # Â Î Ï
    b"\x7c\xc7\x83\xc7\x7c\x7f\xff\x80\xfe\x7e\x7e\xff\x81\xff\x7e"  # Ô Ù Û
    b"\x7f\xfe\x80\xfe\x7f\x7f\x41\x41\x41\x7f"  # Ü unknown
)
# ---- end of font data ----


# Text is drawn a string at a time: its glyph columns go into a strip the height of a line,
# and the strip is blitted with background pixels left out. Dark text goes through a palette
# that swaps the colours, and then the key (framebuf compares it after the palette) is 1. On a
# Pico, text on a Frame (the display's own frame, with its bytes) is written straight into
# those bytes by machine code (dicetray.fast): the same pixels, much faster than framebuf's
# blit.
try:
    from dicetray.fast import draw_text, zero
except (ImportError, SyntaxError, ValueError, AttributeError):  # no emitter: CPython, wasm
    draw_text = zero = None
_PAL = None  # the palette for dark text: 0 drawn as 1 (left out by the key), 1 as 0
# A nibble with each bit doubled: the rows of scale-2 text, 4 glyph rows in a strip's byte.
_DOUBLE = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"


class Frame:
    """A MONO_VLSB frame buffer fb over buf, width x height (height a multiple of 8), drawn on
    as fb is; text() and clear() write into buf by machine code. The app draws on one."""

    def __init__(self, fb, buf, width, height):
        self.buf = buf
        self.width = width
        self.height = height
        # fb's own drawing, bound once: a drawing call costs what it costs on fb.
        self.fill = fb.fill
        self.fill_rect = fb.fill_rect
        self.blit = fb.blit


def frame(display):
    """What to draw on display with: a Frame over its bytes (display.buffer) where machine code
    can write text into them, else its fb."""
    buf = getattr(display, "buffer", None)
    if buf is None:
        return display.fb
    return frame_of(display.fb, buf, display.width, display.height)


def frame_of(fb, buf, width, height):
    """What to draw on fb, a MONO_VLSB framebuf over buf, width x height, with: a Frame where
    machine code can write text into buf, else fb (an image drawn once and copied, too)."""
    if draw_text is None or height % 8:
        return fb
    return Frame(fb, buf, width, height)


def clear(fb):
    """All of fb dark, as fb.fill(0). A Frame is cleared by machine code: framebuf fills a
    MONO_VLSB frame a pixel at a time, a large part of every screen's time on the Pico."""
    if type(fb) is Frame and not len(fb.buf) & 3:
        zero(fb.buf, len(fb.buf))  # pyright: ignore[reportOptionalCall]
    else:
        fb.fill(0)


def _palette():
    global _PAL
    if _PAL is None:
        import framebuf

        _PAL = framebuf.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, framebuf.MONO_VLSB)
    return _PAL


def text(fb, s, x, y, scale=1, c=1):
    """Draw s with its top-left corner at x, y on fb; return the x where the next text goes.

    fb is a framebuf.FrameBuffer (or anything with its fill_rect and blit, clipping alike).
    Each glyph pixel becomes a scale x scale block (scale 1 or 2); c=0 draws dark text on a lit
    background.
    """
    if type(fb) is Frame and s:  # made only where draw_text exists (frame())
        return draw_text(fb.buf, fb.width, fb.height, s, x, y,  # pyright: ignore[reportOptionalCall]
                         scale, 0 if c else 1, _GLYPHS, _INDEX, _DOUBLE, _RAISED)
    n = len(s)
    if not n:
        return x
    import framebuf

    w = 6 * scale * n
    strip = bytearray(w * scale)  # scale 2: two pages of 8 rows
    if scale == 1:
        raised = _columns(s, strip)
    else:
        raised = _columns2(s, strip, w)
    src = framebuf.FrameBuffer(strip, w, 8 * scale, framebuf.MONO_VLSB)
    if c:
        fb.blit(src, x, y, 0)
    else:
        fb.blit(src, x, y, 1, _palette())
    if raised:
        _accents(fb, s, x, y, scale, c)
    return x + w


def _accents(fb, s, x, y, scale, c):
    # The accents of s's raised glyphs, in the row above the line (the strip holds their cells).
    glyphs = _GLYPHS
    for ch in s:
        g = _glyph(ch)
        if _RAISED * 5 <= g < _BOX * 5:
            for i in range(5):
                if glyphs[g + i] & 1:
                    fb.fill_rect(x + i * scale, y - scale, scale, scale, c)
        x += 6 * scale


def raised(s):
    """Whether s has a glyph drawn from the row above its cell (an accented capital): its
    line needs that row free, and a blank row above it."""
    for ch in s:
        g = _glyph(ch)
        if _RAISED * 5 <= g < _BOX * 5:
            return True
    return False


def _glyph(ch):
    code = ord(ch)
    return (_INDEX[code - _FIRST] if _FIRST <= code <= _LAST else _BOX) * 5


def _columns(s, strip):
    # s's glyph columns into strip, a raised glyph's cell rows only; whether s has one.
    glyphs = _GLYPHS
    raised = False
    j = 0
    for ch in s:
        g = _glyph(ch)
        if _RAISED * 5 <= g < _BOX * 5:
            raised = True
            for i in range(5):
                strip[j + i] = glyphs[g + i] >> 1
        else:
            strip[j] = glyphs[g]
            strip[j + 1] = glyphs[g + 1]
            strip[j + 2] = glyphs[g + 2]
            strip[j + 3] = glyphs[g + 3]
            strip[j + 4] = glyphs[g + 4]
        j += 6
    return raised


def _columns2(s, strip, lower):
    glyphs = _GLYPHS
    double = _DOUBLE
    raised = False
    j = 0
    for ch in s:
        g = _glyph(ch)
        up = _RAISED * 5 <= g < _BOX * 5
        raised = raised or up
        for i in range(g, g + 5):
            b = glyphs[i] >> 1 if up else glyphs[i]
            strip[j] = strip[j + 1] = double[b & 15]
            strip[lower + j] = strip[lower + j + 1] = double[b >> 4]
            j += 2
        j += 2
    return raised


def width(s, scale=1):
    """Pixels from the left of s's first cell to the right of its last glyph.

    That is 6 * scale per character minus the last cell's blank column: the ink box a centred
    or right-aligned string needs. text() returns x + width(s, scale) + scale for non-empty s.
    """
    n = len(s)
    return (6 * n - 1) * scale if n else 0


_width = width  # centered()'s argument is called width, like framebuf's


def centered(fb, s, y, scale=1, c=1, width=128):
    """Draw s centred across a width-pixel-wide area starting at x = 0; return its left x."""
    x = (width - _width(s, scale)) // 2
    text(fb, s, x, y, scale, c)
    return x
