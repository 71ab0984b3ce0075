"""Rebuild the glyph data in firmware/dicetray/font.py from the ASCII art in tools/fontsrc.txt.

Only the block between font.py's "font data" marker lines is written; the code is font.py's own.

Usage: python tools/make/font.py [--check]
--check writes nothing and exits 1 when font.py is not what fontsrc.txt produces.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tools" / "fontsrc.txt"
TARGET = ROOT / "firmware" / "dicetray" / "font.py"

COLS, ROWS = 5, 7
# A glyph may have one more row, written with ',' for paper: first, it is the mark drawn in the
# row above the cell (an accent over a full-height capital); last, the mark drawn in the cell's
# blank bottom row (a cedilla).
MARK_PAPER = ","
# The codes the index covers: printable ASCII and Latin-1 (French's accented letters and
# guillemets); anything else is "unknown".
FIRST, LAST = 32, 255
UNKNOWN = "unknown"  # the header of the box drawn for characters the font lacks
GLYPHS_PER_LINE = 3  # of the glyph literal, so each line's comment can name its glyphs
_NAMES = {None: UNKNOWN, " ": "space"}


class FontError(ValueError):
    """fontsrc.txt is malformed; the message names the line."""


def parse(text):
    """[(char, rows)] in file order; char is None for the unknown-character box, which is last."""
    glyphs = []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if not line.strip() or line.startswith(";"):
            continue
        char = _header(line, n)
        first = n
        rows = []
        while n < len(lines) and _row(lines[n]):
            rows.append(lines[n])
            n += 1
        marks = [k for k, row in enumerate(rows) if MARK_PAPER in row]
        for offset, row in enumerate(rows):
            paper = MARK_PAPER if offset in marks else "."
            if len(row) != COLS or set(row) - {"#", paper}:
                raise FontError("line %d: want %d of '#' or '%s', got %r"
                                % (first + offset + 1, COLS, paper, row))
        body = len(rows) - len(marks)
        if body != ROWS or len(marks) > 1 or marks not in ([], [0], [len(rows) - 1]):
            raise FontError("line %d: glyph %r has %d rows, want %d and one mark row at most, "
                            "first or last" % (first, char, body, ROWS))
        glyphs.append((char, rows))
    _check(glyphs)
    return glyphs


def _row(line):
    # A glyph's rows run to the next blank line, comment or header.
    return line.strip() and line[0] not in ";'" and line.rstrip() != UNKNOWN


def _header(line, n):
    if line.rstrip() == UNKNOWN:
        return None
    if len(line) < 3 or line[0] != "'" or line[2] != "'" or line[3:4] not in ("", " "):
        raise FontError("line %d: want a header like 'A' or %s, got %r" % (n, UNKNOWN, line))
    char = line[1]
    if not (FIRST <= ord(char) < 127 or 160 < ord(char) <= LAST) or _lower(char):
        raise FontError("line %d: %r is not printable Latin-1 outside a-z, é..." % (n, char))
    return char


def _lower(char):
    # A lowercase letter the font draws as its capital (a-z, é, ç...): it has no glyph of its own.
    upper = char.upper()
    return upper != char and len(upper) == 1 and ord(upper) <= LAST


def _check(glyphs):
    chars = [char for char, _ in glyphs]
    if chars.count(None) != 1 or chars[-1] is not None:
        raise FontError("the %s glyph must appear once, last" % UNKNOWN)
    for char in chars:
        if chars.count(char) > 1:
            raise FontError("glyph %r is defined twice" % char)
    if raised(glyphs[-1][1]):
        raise FontError("the %s glyph has no accent" % UNKNOWN)


def raised(rows):
    """Whether the glyph has a mark above its cell: it is drawn from the row above."""
    return MARK_PAPER in rows[0]


def columns(rows):
    """The 5 column bytes of one glyph, bit 0 = its top row (MONO_VLSB order): a raised glyph's
    top row is its mark, above the cell, and the cell's 7 rows are bits 1-7; a cedilla's row is
    bit 7, the cell's blank bottom row."""
    return bytes(sum(1 << r for r in range(len(rows)) if rows[r][col] == "#")
                 for col in range(COLS))


def order(glyphs):
    """The glyphs as the font stores them: those drawn in their cell first, then the raised
    ones (an accent above), then the unknown box; file order otherwise."""
    return ([g for g in glyphs[:-1] if not raised(g[1])] + [g for g in glyphs[:-1] if raised(g[1])]
            + glyphs[-1:])


def _hex(data):
    return "".join("\\x%02x" % b for b in data)


def generate(text, font_py):
    """font.py's source with its data block made from fontsrc.txt's text."""
    glyphs = order(parse(text))
    chars = "".join(char for char, _ in glyphs[:-1])
    box = len(glyphs) - 1
    first_raised = len([g for g in glyphs[:-1] if not raised(g[1])])
    index = bytes(_glyph_number(chars, code, box) for code in range(FIRST, LAST + 1))
    lines = []
    for start in range(0, len(glyphs), GLYPHS_PER_LINE):
        group = glyphs[start : start + GLYPHS_PER_LINE]
        data = b"".join(columns(rows) for _, rows in group)
        names = " ".join(_NAMES.get(char, char) for char, _ in group)
        lines.append('    b"%s"  # %s' % (_hex(data), names))
    index_lines = ['    b"%s"' % _hex(index[i : i + 20]) for i in range(0, len(index), 20)]
    return splice(font_py, DATA % {
        "chars": _quote(chars),
        "first": FIRST,
        "last": LAST,
        "box": box,
        "raised": first_raised,
        "index": "\n".join(index_lines),
        "glyphs": "\n".join(lines),
    })


def _quote(chars):
    # Double quotes, as ruff format writes them, so the generated file is already formatted.
    return '"%s"' % chars.replace("\\", "\\\\").replace('"', '\\"')


def _glyph_number(chars, code, box):
    char = chr(code)
    if _lower(char):
        char = char.upper()
    found = chars.find(char)
    return box if found < 0 else found


BEGIN = "# ---- font data: written by tools/make/font.py from fontsrc.txt, do not edit ----"
END = "# ---- end of font data ----"

DATA = '''\
# The characters the font draws, in glyph order (lowercase a-z, é... map to A-Z, É...).
CHARS = %(chars)s

_FIRST = const(%(first)d)
_LAST = const(%(last)d)
_BOX = const(%(box)d)  # glyph number of the unknown-character box
# Glyphs _RAISED.._BOX - 1 are drawn from the row above their cell: an accented capital is the
# plain capital, full height, with its accent in the gap above. Their bit 0 is the accent row.
_RAISED = const(%(raised)d)

# Glyph number for each character code _FIRST.._LAST; a-z, é... share A-Z's, É...'s glyphs.
_INDEX = (
%(index)s
)

# 5 column bytes per glyph, bit 0 = top row, as in a MONO_VLSB frame buffer; bit 7 is the cell's
# blank bottom row (a cedilla's).
_GLYPHS = (
%(glyphs)s
)
'''


def splice(font_py, data):
    """font_py with the text between its BEGIN and END marker lines replaced by data."""
    try:
        head, rest = font_py.split(BEGIN + "\n", 1)
        _, tail = rest.split(END + "\n", 1)
    except ValueError:
        raise FontError("font.py lacks its font data markers") from None
    return head + BEGIN + "\n" + data + END + "\n" + tail


def main(argv):
    current = TARGET.read_text(encoding="utf-8")
    expected = generate(SOURCE.read_text(encoding="utf-8"), current)
    if "--check" in argv:
        if current != expected:
            print("%s is stale: run python tools/make/font.py" % TARGET.relative_to(ROOT))
            return 1
        return 0
    if current != expected:
        TARGET.write_text(expected, encoding="utf-8")
        print("wrote %s" % TARGET.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
