"""The simulator's picture as lines of text: the panel in half blocks or braille, framed, with a
status line and the keys, sized to fit the terminal (or one line saying what size it needs).
The status line shows what a terminal cannot: the buzzer's tunes, a dimmed panel.

Text only, no terminal I/O: play.py writes the lines; the tests read them.
"""

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray import words
from dicetray.screens import SND_NO
from trayhost import hostwords
from trayhost.pins import ticks_diff

# Braille cells (U+2800..U+28FF) have 2x4 dots; dot n is bit n-1 of the code after U+2800.
# Dots 1 2 3 7 run down the left column, 4 5 6 8 down the right: DOTS[row][column].
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def half_blocks(pixels):
    """Two panel rows per text row: upper half, lower half, full or empty block."""
    lines = []
    for y in range(0, len(pixels), 2):
        top, bottom = pixels[y], pixels[y + 1] if y + 1 < len(pixels) else [0] * len(pixels[y])
        lines.append("".join(" ▄▀█"[(t and 2) | (b and 1)] for t, b in zip(top, bottom)))
    return lines


def braille(pixels):
    """Four panel rows and two columns per character, one braille dot a pixel."""
    width = len(pixels[0])
    lines = []
    for top in range(0, len(pixels), 4):
        cells = [0] * ((width + 1) // 2)
        for dots, row in zip(DOTS, pixels[top:top + 4]):
            left, right = dots
            for x, lit in enumerate(row):
                if lit:
                    cells[x >> 1] |= right if x & 1 else left
        lines.append("".join(chr(0x2800 + c) for c in cells))
    return lines


PICTURES = (half_blocks, braille)  # the biggest first: a pixel is worth more text cells


def framed(lines):
    width = len(lines[0])
    body = ["│" + line + "│" for line in lines]
    return ["┌" + "─" * width + "┐"] + body + ["└" + "─" * width + "┘"]


def size_of(lines):
    """(columns, rows) the lines take, one character a column."""
    return max(len(line) for line in lines), len(lines)


def fit(pixels, below, cols, rows):
    """The lines to draw on a cols x rows terminal: the framed panel, then the lines `below`
    (status, keys), in the biggest picture that fits; if none does, one line saying why."""
    for picture in PICTURES:
        lines = framed(picture(pixels)) + list(below)
        need_cols, need_rows = size_of(lines)
        if need_cols <= cols and need_rows <= rows:
            return lines
    # In the tray's language.
    return [hostwords.of(words.lang).SIM_TOO_SMALL % (cols, rows, need_cols, need_rows)]


CUE_MS = 800  # how long a tune's mark stays on the status line after its last note began
REFUSED_HZ = frozenset(SND_NO[0::2]) - {0}  # the refused press's notes, no other tune's


class SoundCue:
    """The buzzer made visible: what the last tone belonged to, for CUE_MS after it began.

    clock() gives the time of a tone (the same ticks as the `now` asked about): the buzzer's
    interface, tone(hz) and off(), carries no time.
    """

    def __init__(self, clock):
        self.clock = clock
        self.refused = False
        self.at = None

    def listen(self, buzzer):
        """Hear every tone buzzer plays from now on; it still plays them. (The tray harness
        builds the buzzer it hands the app, so the cue listens to that one.)"""
        play = buzzer.tone

        def tone(hz):
            play(hz)
            self.heard(hz)

        buzzer.tone = tone

    def heard(self, hz):
        self.refused = hz in REFUSED_HZ
        self.at = self.clock()

    def mark(self, now):
        if self.at is None or ticks_diff(now, self.at) >= CUE_MS:
            return ""
        return hostwords.of(words.lang).SIM_REFUSED if self.refused \
            else hostwords.of(words.lang).SIM_BEEP


def status(display, cue, now):
    """The line under the panel: the sound just played, and a panel dimmed (a press still acts)
    or dark (the press that wakes it does nothing else)."""
    said = [cue.mark(now)]
    if display.asleep:
        said.append(hostwords.of(words.lang).SIM_ASLEEP)
    elif display.dimmed:
        said.append(hostwords.of(words.lang).SIM_DIMMED)
    return "  ".join(w for w in said if w)
