"""Every screen in every language (words_en.py, words_fr.py) at both panel heights: the scenes
of the pictures (tools/screens) played with each catalogue, and every text drawn checked: in
the panel, clear of the texts beside it on its line, every character in the font."""

import pytest
from dicetray import font, words
from screens import pictures, rig, troublescenes
from screens.scenes import SCENES
from test_screen_fields import TokensRow

BOX = font._BOX * 5  # the glyph offset of the box drawn for a character the font lacks
RAISED = font.CHARS[font._RAISED :]  # the capitals drawn with an accent above their cell


class Texts:
    """What font.text drew since the screen was last cleared, and what was wrong with it."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.drawn = []
        self.wrong = set()

    def text(self, s, x, y, scale, c):
        w = font.width(s, scale)
        where = "%r at %d,%d x%d" % (s, x, y, scale)
        if x < 0 or x + w > self.width or y < 0 or y + 7 * scale > self.height:
            self.wrong.add("off the %dx%d panel: %s" % (self.width, self.height, where))
        lacking = [ch for ch in s if font._glyph(ch) == BOX]
        if lacking:
            self.wrong.add("not in the font: %r in %s" % ("".join(lacking), where))
        for t, tx, ty, tscale, tc in self.drawn:
            # On one line, in one size and colour: two texts side by side must not touch.
            if (ty, tscale, tc) == (y, scale, c) and (t, tx) != (s, x):
                if tx <= x + w and x <= tx + font.width(t, tscale):
                    self.wrong.add("%r at %d runs into %s" % (t, tx, where))
        # An accent over a capital is drawn in the row above the line, a cedilla in the row
        # below it: on a 128x64 panel, on the panel (a 128x32 one has no row for it above its
        # top line: there the letter shows without its accent).
        for ch in s:
            if self.height >= 64 and ch.upper() in RAISED and y - scale < 0:
                self.wrong.add("%r's accent off the panel: %s" % (ch, where))
            if ch.upper() == "Ç" and y + 8 * scale > self.height:
                self.wrong.add("%r's cedilla off the panel: %s" % (ch, where))
        self.drawn.append((s, x, y, scale, c))


def walk(lang, height, monkeypatch):
    texts = Texts(128, height)
    real_text, real_clear = font.text, font.clear
    row = TokensRow(monkeypatch)

    def text(fb, s, x, y, scale=1, c=1):
        at = row.on_panel(fb, y)
        if at is not None:
            texts.text(s, x, at, scale, c)
        return real_text(fb, s, x, y, scale, c)

    def clear(fb):
        texts.drawn = []
        real_clear(fb)

    monkeypatch.setattr(font, "text", text)
    monkeypatch.setattr(font, "clear", clear)
    real_rig = rig.Rig.__init__

    def rig_init(self, shots, width=128, height=64, fs=None):  # every rig: the height walked
        real_rig(self, shots, width, texts.height, fs)

    monkeypatch.setattr(rig.Rig, "__init__", rig_init)
    real_i2c, real_display = troublescenes.FakeI2C, troublescenes.Display
    monkeypatch.setattr(troublescenes, "FakeI2C", lambda **kw: real_i2c(height=height, **kw))
    monkeypatch.setattr(troublescenes, "Display",
                        lambda i2c, **kw: real_display(i2c, height=height, **kw))
    shots = pictures.render_in(lang, SCENES)
    assert len(shots) >= 40 and texts.drawn  # the scenes ran, and drew through font.text
    return sorted(texts.wrong)


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("lang", words.LANGS)
def test_every_screen_s_text_fits_in_every_language(lang, height, monkeypatch):
    assert walk(lang, height, monkeypatch) == []


def test_the_walk_finds_a_text_too_long_and_a_glyph_missing(monkeypatch):
    # The same walk, with a catalogue that says too much and a sign the font lacks.
    words.use("fr")
    monkeypatch.setattr(words.T, "KEYS_NEXT", "OK:ON PASSE À LA SUITE")
    monkeypatch.setattr(words.T, "POT_EMPTY", "LE POT EST VIDE €")
    wrong = walk("fr", 64, monkeypatch)
    assert any("off the 128x64 panel: 'OK:ON PASSE" in w for w in wrong), wrong
    assert any("not in the font: '€'" in w for w in wrong), wrong
