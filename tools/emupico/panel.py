"""Reads the tray's panel back from pixels: the picture, its text, which screen it is.

    from emupico.panel import Panel, screen_of
    panel = Panel.from_text(text)   # the kit's `pico text`, or Panel(rows), from_framebuffer
    panel.read(56, ink=0)           # the bottom line's text, e.g. "PLAYERS AT THE TABLE"
    screen_of(panel)                # "setup", "turn", ... or None

The text is recognised with the tray's own font (dicetray.font), which draws the same pixels
on the board and on the host. emupico/kit.py drives the emulated Pico that shows it.
"""

from __future__ import annotations

from dicetray import font

WIDTH = 128
HEIGHT = 64


class PicoError(Exception):
    """A kit command failed; str() has its output."""


_HALF = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}


def _glyphs():
    # (character, its 5 columns, index of its first inked column), longest ink first and the
    # letters with a mark before their plain letter. A column is 9 bits: the row above the
    # cell (an accent's), the cell's 7 rows, its blank row below (a cedilla's); a plain glyph's
    # columns leave out the rows outside its cell (None: any ink there).
    data = font._GLYPHS
    out = []
    for i, ch in enumerate(font.CHARS):
        raw = data[5 * i : 5 * i + 5]
        if i >= font._RAISED:
            cols = tuple((c >> 1) << 1 | c & 1 for c in raw)
        else:
            cols = tuple(c << 1 for c in raw)
        if any(cols):
            marked = any(c & 0x101 for c in cols)
            lead = next(k for k, c in enumerate(cols) if c & 0xFE)
            out.append((ch, cols if marked else None, tuple(c & 0xFE for c in cols), lead))
    out.sort(key=lambda g: (g[1] is None, -sum(1 for c in g[2] if c)))
    return out


def _glyph_at(col, x, scale):
    """(character, its first column) of the glyph whose first ink is column x and which has
    a blank column after it; None when no glyph fits."""
    if Panel._GLYPHS is None:
        Panel._GLYPHS = _glyphs()
    for ch, marked, cols, lead in Panel._GLYPHS:
        start = x - lead * scale
        if marked is None:
            fits = all(col[start + i * scale + k] & 0xFE == cols[i] for i in range(5)
                       for k in range(scale))
        else:
            # A mark is read as such only clear of what is above it (bit 9: the row over an
            # accent's, where a line drawn just above shows instead).
            fits = all(col[start + i * scale + k] & 0x1FF == marked[i] for i in range(5)
                       for k in range(scale))
            fits = fits and not any(col[start + i * scale + k] & 0x200 for i in range(5)
                                    for k in range(scale) if any(c & 1 for c in marked))
        if fits and not any(col[start + 5 * scale + k] & 0xFE for k in range(scale)):
            return ch, start
    return None


class Panel:
    """A 128x64 one-bit picture: what the OLED shows, or what the host drew for it."""

    _GLYPHS = None

    def __init__(self, rows):
        self.rows = [bytes(r) for r in rows]  # HEIGHT rows of WIDTH bytes, 1 = lit
        if len(self.rows) != HEIGHT or any(len(r) != WIDTH for r in self.rows):
            raise ValueError("a panel is 128x64")

    @classmethod
    def from_text(cls, text):
        """From `pico text`: two pixel rows per character line, in half blocks."""
        lines = [line for line in text.split("\n") if line][: HEIGHT // 2]
        if len(lines) != HEIGHT // 2:
            raise PicoError("the panel text has %d lines, not 32:\n%s" % (len(lines), text))
        rows = []
        for line in lines:
            pairs = [_HALF[ch] for ch in line[:WIDTH].ljust(WIDTH)]
            rows.append(bytes(a for a, _ in pairs))
            rows.append(bytes(b for _, b in pairs))
        return cls(rows)

    @classmethod
    def from_framebuffer(cls, buf, width=WIDTH, height=HEIGHT):
        """From a MONO_VLSB frame buffer (dicetray.display.Display.buffer)."""
        return cls([bytes((buf[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width))
                    for y in range(height)])

    def __eq__(self, other):
        return isinstance(other, Panel) and self.rows == other.rows

    __hash__ = None  # type: ignore[assignment]

    def pixel(self, x, y):
        if 0 <= x < WIDTH and 0 <= y < HEIGHT:
            return self.rows[y][x]
        return 0

    def text(self):
        """Half-block text, as `pico text` prints it."""
        inv = {v: k for k, v in _HALF.items()}
        return "\n".join(
            "".join(inv[(self.rows[y][x], self.rows[y + 1][x])] for x in range(WIDTH))
            for y in range(0, HEIGHT, 2)
        )

    def differences(self, other):
        """How many pixels differ from another panel."""
        return sum(a != b for r, s in zip(self.rows, other.rows) for a, b in zip(r, s))

    def region(self, x, y, w, h):
        """The pixels of a rectangle, row by row (for comparing one part of two screens)."""
        return tuple(self.rows[j][x : x + w] for j in range(y, y + h))

    def read(self, y, scale=1, ink=1, x0=0, x1=WIDTH):
        """The text drawn with dicetray.font at top row y (in ink 1, or 0 on a lit bar).

        Characters are recognised by their five glyph columns and the blank one after them;
        a gap between two characters reads as one space (more for wider gaps). Ink that is no
        character (a die, another size of text) is skipped.
        """
        col = self._columns(y, scale, ink, x0, x1)
        out = []
        end = None
        x = x0
        while x < x1:
            found = _glyph_at(col, x, scale) if col[x] else None
            if found is None:
                x += 1
                continue
            ch, start = found
            if end is not None and start > end:
                out.append(" " * max(1, round((start - end) / (6 * scale))))
            out.append(ch)
            end = start + 6 * scale
            x = end
        return "".join(out)

    def _columns(self, y, scale, ink, x0, x1):
        """{x: the column's 9 glyph rows from the row above top row y as bits, 1 where in
        ink: the row above (an accent's), the cell's 7, the row below (a cedilla's)}; blank
        outside x0..x1, and given a glyph's width past either end."""

        def column(x):
            if not x0 <= x < x1:
                return 0
            bits = 0
            for r in range(9):  # the row above the cell, its 7, the row below
                if self.pixel(x, y + (r - 1) * scale) == ink:
                    bits |= 1 << r
            if ink and self.pixel(x, y - 2 * scale):  # over an accent: lit text above
                bits |= 1 << 9
            return bits

        return {x: column(x) for x in range(x0 - 6 * scale, x1 + 6 * scale)}

    def hints(self):
        """The bottom line: what the buttons do now (dark text on a lit bar; a bar that drains,
        the screen moving on by itself: dark on its lit part, then lit past its edge)."""
        edge = self.rows[HEIGHT - 1].find(0)
        if edge < 0 or self.rows[HEIGHT - 9].find(0) != edge:
            return self.read(HEIGHT - 8, ink=0)
        return self.read(HEIGHT - 8, ink=0, x1=edge) + self.read(HEIGHT - 8, x0=edge)


# ---- which screen the tray shows --------------------------------------------------------------

# The bottom line of a screen says what the buttons do there (dicetray.app and dicetray.ui);
# turns and roll-offs share some, so their top line tells them apart.
SCREENS = {
    "OK:TALLY": "over",
    "OK:NEW GAME ROLL:BACK": "tally",  # the tally after the end
    "OK:BACK HOLD OK:QUIT": "tally",  # the tally, from the table
    "OK:NEW GAME": "notice",  # SAVE LOST, TALLY LOST
    "OK:YES  ROLL:NO": "resume",
    "ROLL:BACK OK:TALLY": "standings",
    "KEEP1:YES  OK:NO": "undo",  # or quit: its title tells (screen_of)
    "POWER OFF TO LEAVE": "safe",
    "SEE ERROR.LOG": "error",
}
# The setup's top line says its keys (its bottom line what the row under the cursor means).
SETUP_TOPS = ("OK:START ROLL:CHANGE", "OK:RESUME THE GAME")
# A result, a phase begun and a contest decided say the same (OK:NEXT, and when ROLL there is
# also a human's throw, NEXT_THROW): their titles tell them apart (a phase's and an outcome's
# are big).
NEXT = "OK:NEXT"
NEXT_THROW = "OK:NEXT  ROLL:THROW"
# The key bar of every screen while a stop or a stake may be taken back (KEEP1 does it): the
# next turn before its first throw, a result, a phase, an outcome, the game over, the table.
UNDO_OFFERED = "KEEP1:UNDO "
PHASE_TITLES = ("CHARGE", "DECHARGE")
OUTCOME_ENDS = (" STARTS", " WINS", " LOSES")
NOTICE_TITLES = ("SAVE LOST", "TALLY LOST")


def screen_of(panel):
    """setup, turn, contest, outcome, result, phase, over, notice, resume, standings, tally,
    quit, undo, safe, error, or None (a blank or unknown picture)."""
    hints = panel.hints()
    top = panel.read(0)
    if top in SETUP_TOPS:
        return "setup"
    if panel.read(0, scale=2) in NOTICE_TITLES:
        return "notice"
    offered = hints.startswith(UNDO_OFFERED)
    if hints == NEXT_THROW or hints == NEXT or offered:
        if offered and ("THROW" in top or "/" in top):
            return "turn"
        if panel.read(2, scale=2) in PHASE_TITLES:  # a big title, a row down for an accent
            return "phase"
        big = panel.read(0, scale=2)
        if big == "TIED" or big.endswith(OUTCOME_ENDS):
            return "outcome"
        if offered and (big.endswith(" PAYS") or big == "TIE: PAY"):
            return "over"
        if offered and panel.read(1).startswith(PHASE_TITLES + ("NOT SAVED",)):
            return "standings"  # its head line a row down, for an accent (DÉCHARGE)
        if offered and "TIE:" in top + " " + panel.read(1, x0=24):
            return "contest"
        return "result"
    screen = SCREENS.get(hints)
    if screen == "undo" and "QUIT" in top:
        return "quit"
    if screen:
        return screen
    title = top + " " + panel.read(1, x0=24)  # a contest's title: a row down on 128x64
    if "STARTS?" in title or "TIE:" in title:
        return "contest"
    if "THROW" in top or "/" in top:  # "THROW 1/3", or "1/3" and a hint's worth
        return "turn"
    return None
