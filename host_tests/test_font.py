"""The 5x7 font: generated from its source, complete, distinct, and drawn where width() says."""

import json
from pathlib import Path

import pytest
from dicetray import font
from make import font as make_font

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
REQUIRED = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!\"'()*+,-./:;<=>?%#_[]&@^~|"
FRENCH = "ÉÈÊËÀÂÎÏÔÙÛÇ«»"  # the accented capitals and the signs French text needs
UNKNOWN = "\x01"  # a control character: never in the font
BOX = {(x, y) for x in range(5) for y in range(7) if x in (0, 4) or y in (0, 6)}


class Canvas:
    """A width x height grid of 0/1 with framebuf's clipping: ink off the canvas is dropped."""

    def __init__(self, width=128, height=64, c=0):
        self.width = width
        self.height = height
        self.rows = [[c] * width for _ in range(height)]

    def pixel(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            self.rows[y][x] = c

    def fill_rect(self, x, y, w, h, c):
        for row in self.rows[max(y, 0) : max(y + h, 0)]:
            for i in range(max(x, 0), min(x + w, self.width)):
                row[i] = c

    def blit(self, src, x, y, key=-1, palette=None):
        # framebuf's blit: src's pixels at (x, y), mapped through the palette, those equal to
        # key left out. src is the host's framebuf stand-in (its size read from it).
        for sy in range(src._height):
            for sx in range(src._width):
                c = src.pixel(sx, sy)
                if palette is not None:
                    c = palette.pixel(c, 0)
                if c != key:
                    self.pixel(x + sx, y + sy, c)

    def lit(self):
        return {(x, y) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c}

    def mono_vlsb(self):
        """The canvas as a MONO_VLSB frame buffer's bytes: one byte per column of 8 rows."""
        out = bytearray(self.width * ((self.height + 7) // 8))
        for x, y in self.lit():
            out[(y // 8) * self.width + x] |= 1 << (y % 8)
        return bytes(out)


def ink(s, scale=1, x=0, y=0):
    """The pixels text() lights on a canvas big enough that nothing is clipped, s drawn at
    x, y: an accent over a capital has y - scale."""
    canvas = Canvas(x + 6 * scale * len(s), y + 9 * scale)
    font.text(canvas, s, x, y + scale, scale)
    return {(px, py - scale) for px, py in canvas.lit()}


def test_font_py_is_generated_from_fontsrc():
    actual = make_font.TARGET.read_text(encoding="utf-8")
    expected = make_font.generate(make_font.SOURCE.read_text(encoding="utf-8"), actual)
    assert actual == expected, "font.py is stale: run python tools/make/font.py"


def test_every_required_glyph_is_in_the_font():
    assert set(REQUIRED) <= set(font.CHARS)
    box = ink(UNKNOWN)
    for ch in REQUIRED.replace(" ", ""):
        assert ink(ch) not in (box, set()), "%r is drawn as a box or not at all" % ch
    assert ink(" ") == set()


def test_no_two_glyphs_are_alike():
    drawn = {}
    for ch in font.CHARS + UNKNOWN:
        key = frozenset(ink(ch))
        assert key not in drawn, "%r and %r are the same glyph" % (drawn.get(key), ch)
        drawn[key] = ch


def test_lookalikes_differ_in_enough_pixels():
    for pair in ("0O", "1I", "5S", "8B", "2Z", "0D", "OQ", "UV", "6G"):
        a, b = (ink(ch) for ch in pair)
        assert len(a ^ b) >= 4, "%s and %s differ in only %d pixels" % (*pair, len(a ^ b))


def test_lowercase_is_drawn_as_uppercase():
    lower = "abcdefghijklmnopqrstuvwxyzéèêëàâîïôùûç"
    assert ink(lower) == ink(lower.upper())


def test_french_letters_are_drawn_and_told_apart():
    assert set(FRENCH) <= set(font.CHARS)
    box = ink(UNKNOWN)
    for ch in FRENCH:
        assert ink(ch) not in (box, set()), "%r is drawn as a box or not at all" % ch
    for pair in ("ÉÈ", "ÉÊ", "ÈÊ", "ÊË", "ÀÂ", "ÎÏ", "ÙÛ"):
        a, b = (ink(ch) for ch in pair)
        assert len(a ^ b) >= 2, "%s and %s differ in only %d pixels" % (*pair, len(a ^ b))


ACCENTED = {"É": "E", "È": "E", "Ê": "E", "Ë": "E", "À": "A", "Â": "A", "Î": "I", "Ï": "I",
            "Ô": "O", "Ù": "U", "Û": "U", "Ü": "U"}


@pytest.mark.parametrize("scale", [1, 2])
def test_an_accented_capital_is_its_full_height_capital_with_the_accent_above(scale):
    # The letter's body is the plain capital, pixel for pixel (full height, not shrunk under
    # its accent); the accent is one glyph row in the gap above the cell, over the letter.
    for accented, plain in ACCENTED.items():
        body = ink(plain, scale)
        drawn = ink(accented, scale)
        assert {p for p in drawn if p[1] >= 0} == body, accented
        accent = {p for p in drawn if p[1] < 0}
        assert accent and {y for _, y in accent} == set(range(-scale, 0)), accented
        assert {x // scale for x, _ in accent} <= set(range(5)), accented
    for ch in "ÉÈÊËÀÂÎÏÔÙÛÜÇ":  # lowercase alike
        assert ink(ch.lower(), scale) == ink(ch, scale)


@pytest.mark.parametrize("scale", [1, 2])
def test_the_cedilla_hangs_below_a_full_height_c(scale):
    body = ink("C", scale)
    drawn = ink("Ç", scale)
    assert {p for p in drawn if p[1] < 7 * scale} == body
    cedilla = drawn - body
    # In the cell's blank bottom row, under the C's bottom stroke: it joins the letter.
    assert cedilla and {y for _, y in cedilla} == set(range(7 * scale, 8 * scale))
    assert {(x, y - scale) for x, y in cedilla} & body


def test_a_line_of_accents_is_the_line_of_capitals_with_its_accents_above():
    # Text mixing plain, accented and cedilla letters: every body at the same height, each
    # accent over its own letter, in both scales.
    for scale in (1, 2):
        line = ink("DÉCHARGE FRANÇAIS RÈGLES", scale, y=3 * scale)
        plain = ink("DECHARGE FRANCAIS REGLES", scale, y=3 * scale)
        rows = range(3 * scale, 10 * scale)
        assert {p for p in line if p[1] in rows} == plain
        assert {y for _, y in line - plain} == set(range(2 * scale, 3 * scale)) | set(
            range(10 * scale, 11 * scale))


def test_unknown_characters_draw_a_hollow_box():
    for ch in ("\x01", "$", "\\", "{", "`", "\x7f", "ß", "€", "Œ", "\xa0"):
        assert ink(ch) == BOX, repr(ch)


@pytest.mark.parametrize("scale", [2])  # the sizes the screens draw: 1 and 2
def test_scaled_glyph_pixels_are_square_blocks(scale):
    s = font.CHARS + UNKNOWN
    small, big = ink(s), ink(s, scale)
    assert len(big) == scale * scale * len(small)
    blocks = {
        (x * scale + i, y * scale + j)
        for x, y in small
        for i in range(scale)
        for j in range(scale)
    }
    assert big == blocks


@pytest.mark.parametrize("scale", [1, 2])
def test_width_is_the_box_text_draws_in(scale):
    for ch in font.CHARS + UNKNOWN:
        # Rows: the cell's 7, and for a French letter its accent above or cedilla below.
        top = 5 - scale if ch in ACCENTED else 5
        bottom = 5 + 8 * scale if ch == "Ç" else 5 + 7 * scale
        for x, y in ink(ch, scale, x=7, y=5):
            assert 7 <= x < 7 + font.width(ch, scale) and top <= y < bottom, repr(ch)
    # The box glyph fills its whole cell but the spacing, so a string ending in it shows the edge.
    s = "W4" + UNKNOWN
    assert max(x for x, _ in ink(s, scale, x=3)) + 1 == 3 + font.width(s, scale)
    assert min(x for x, _ in ink(UNKNOWN + s, scale, x=3)) == 3


def test_text_returns_the_next_cell_and_width_counts_characters():
    canvas = Canvas()
    assert font.text(canvas, "421", 10, 0) == 10 + 18
    assert font.text(canvas, "421", 10, 0, 2) == 10 + 36
    assert font.text(canvas, "", 10, 0) == 10
    assert font.width("") == 0
    assert font.width("421") == 17
    assert font.width("421", 3) == 51
    assert font.width("abc") == font.width("ABC")


def test_centered_draws_in_the_middle():
    canvas = Canvas()
    left = font.centered(canvas, "421", 20, 2)
    assert left == (128 - font.width("421", 2)) // 2
    expected = Canvas()
    font.text(expected, "421", left, 20, 2)
    assert canvas.rows == expected.rows
    assert font.centered(Canvas(), "HH", 0, width=64) == (64 - 11) // 2


def test_colour_zero_clears_ink_on_a_lit_background():
    canvas = Canvas(c=1)
    font.text(canvas, "8", 0, 0, c=0)
    dark = {(x, y) for y, row in enumerate(canvas.rows) for x, c in enumerate(row) if not c}
    assert dark == ink("8")


@pytest.mark.parametrize(
    "x, y, scale", [(125, 0, 1), (125, 60, 1), (-3, -4, 1), (120, 50, 2), (-7, 58, 2), (200, 0, 1)]
)
def test_text_clips_at_the_screen_edges(x, y, scale):
    s = "W8" + UNKNOWN
    screen = Canvas()
    font.text(screen, s, x, y, scale)
    # What shows is exactly the on-screen part of the same text drawn on a larger canvas.
    big = Canvas(128 + 40, 64 + 40)
    font.text(big, s, x + 20, y + 20, scale)
    visible = {(bx - 20, by - 20) for bx, by in big.lit()}
    assert screen.lit() == {(px, py) for px, py in visible if 0 <= px < 128 and 0 <= py < 64}


# Draw on MicroPython's own framebuf and report the bytes and what each call allocated.
MICROPYTHON_SCRIPT = """\
import framebuf, gc, json
from dicetray import font
CASES = %s
out = []
for s, x, y, scale in CASES:
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    font.text(fb, s, x, y, scale)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    font.text(fb, s, x, y, scale)
    allocated = gc.mem_alloc() - before
    gc.enable()
    out.append([buf.hex(), allocated])
print(json.dumps(out))
"""

CASES = [
    [font.CHARS[:21], 0, 0, 1],
    [font.CHARS[21:42], 0, 9, 1],
    [font.CHARS[42:] + UNKNOWN + "é", 0, 18, 1],
    ["abc xyz", 3, 3, 1],
    ["421", 125, 60, 1],
    ["W8" + UNKNOWN, -7, 50, 2],
    ["0O1I5S8B", 0, 20, 2],
    ["X", 0, 0, 2],
    ["DÉCHARGE «ÇA» €ß", 2, 40, 1],
    ["NÉNETTE", -5, 30, 2],
]


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_micropython_draws_the_same_bytes_allocating_nothing_per_character(micropython, mpy):
    script = MICROPYTHON_SCRIPT % json.dumps(CASES)
    results = json.loads(micropython(script, paths=[FIRMWARE], mpy=mpy))
    for (s, x, y, scale), (hexbuf, _) in zip(CASES, results):
        canvas = Canvas()
        font.text(canvas, s, x, y, scale)
        assert bytes.fromhex(hexbuf) == canvas.mono_vlsb(), (s, x, y, scale)
    # A call allocates its line's strip (6 bytes a character at scale 1, 24 at scale 2, in
    # 16-byte blocks) and a few small objects, the same few for 1 character as for 21: nothing
    # per character.
    extra = set()
    for (s, _, _, scale), (_, allocated) in zip(CASES, results, strict=True):
        extra.add(allocated - -(-6 * scale * scale * len(s) // 16) * 16)
    assert len(extra) == 1 and extra.pop() <= 64, extra


GOOD_SOURCE = "; a comment\n'A'\n" + ".###.\n" * 7 + "\nunknown\n" + "#####\n" * 7


def test_make_font_reads_its_format():
    glyphs = make_font.parse(GOOD_SOURCE)
    assert [char for char, _ in glyphs] == ["A", None]
    assert make_font.columns(glyphs[0][1]) == b"\x00\x7f\x7f\x7f\x00"


@pytest.mark.parametrize(
    "source, problem",
    [
        (GOOD_SOURCE.replace(".###.\n", ".##.\n", 1), "line 3"),
        (GOOD_SOURCE.replace(".###.\n", ".#x#.\n", 1), "line 3"),
        (GOOD_SOURCE.replace("'A'", "'a'"), "outside a-z"),
        (GOOD_SOURCE.replace("'A'", "A"), "header"),
        ("'A'\n" + ".###.\n" * 7 + GOOD_SOURCE, "twice"),
        (GOOD_SOURCE.split("\nunknown")[0], "unknown"),
        (GOOD_SOURCE + "'B'\n" + ".....\n" * 6, "rows"),
        (GOOD_SOURCE + "'B'\n" + ".....\n" * 3 + ",,#,,\n" + ".....\n" * 4, "mark row"),
        (GOOD_SOURCE + "'B'\n" + ",,#,,\n" * 2 + ".....\n" * 7, "mark row"),
    ],
)
def test_make_font_rejects_a_malformed_source(source, problem):
    with pytest.raises(make_font.FontError, match=problem):
        make_font.parse(source)


def _fast_as_python():
    # fast.py's viper source run by CPython: ptr8 indexes the object itself (a str as its
    # UTF-8 bytes, with a NUL after them, as MicroPython's str data has), viper a no-op.
    import sys
    import types

    source = (FIRMWARE / "dicetray" / "fast.py").read_text(encoding="utf-8")
    stub = types.ModuleType("micropython")
    stub.viper = lambda f: f  # pyright: ignore[reportAttributeAccessIssue]
    names = {"ptr8": lambda o: o.encode() + b"\0" if isinstance(o, str) else o}
    saved = sys.modules.get("micropython")
    sys.modules["micropython"] = stub
    try:
        exec(compile(source, "fast.py", "exec"), names)
    finally:
        if saved is None:
            del sys.modules["micropython"]
        else:
            sys.modules["micropython"] = saved
    return names["draw_text"]


def test_the_machine_code_s_text_loop_draws_what_font_text_draws():
    # The emulated Pico tier runs fast.draw_text as machine code (NATIVE_CHECK); where it cannot
    # run, its loop run as Python still has to draw what font.text draws: accents above,
    # cedillas below, clipped alike, in both colours and scales.
    import random

    import framebuf

    draw_text = _fast_as_python()
    rnd = random.Random(5)
    chars = font.CHARS + "azéç" + UNKNOWN + "€"
    for case in range(600):
        h = (64, 32)[case % 4 // 2]
        a = bytearray(rnd.getrandbits(8) for _ in range(16 * h)) if case % 2 else bytearray(16 * h)
        b = bytearray(a)
        s = "".join(rnd.choice(chars) for _ in range(1 + rnd.randrange(22)))
        x, y = rnd.randrange(160) - 20, rnd.randrange(h + 20) - 18
        scale, c = 1 + rnd.randrange(2), rnd.randrange(2)
        got = draw_text(a, 128, h, s, x, y, scale, 0 if c else 1, font._GLYPHS, font._INDEX,
                        font._DOUBLE, font._RAISED)
        want = font.text(framebuf.FrameBuffer(b, 128, h, framebuf.MONO_VLSB), s, x, y, scale, c)
        assert (a, got) == (b, want), (s, x, y, scale, c)
