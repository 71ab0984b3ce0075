"""A table reads the panel at a glance: every frame of played games keeps screens.legible's
rules (no two words touching, no glyph cut by what is drawn over it, no number without its
owner), in both languages, at 128x64 and 128x32, 2 to 8 players, the tray's seats and hints
on and off; and the font's accented capitals are as tall as their plain letters.

The games are a seeded sample of every preset: each frame the app draws is checked once (the
roll animation's frames, which differ only by their dice, one in four), and a refused press
(KEEP before the first throw) puts its message box over the turn now and then.
"""

import json
import random

import pytest
from dicetray import font
from dicetray.options import PRESET_NAMES
from dicetray.screens import PLAY
from screens import legible
from trayhost.autoplay import SeededDice
from trayhost.trayrun import MemFS, Tray, seats_game

ACCENTED = {"É": "E", "È": "E", "Ê": "E", "Ë": "E", "À": "A", "Â": "A", "Î": "I", "Ï": "I",
            "Ô": "O", "Ù": "U", "Û": "U", "Ü": "U", "Ç": "C"}


def _configs():
    # Every preset in both languages and both heights; the players, the seats and the hints
    # drawn from a seeded generator, the extremes (2 and 8 players) among them.
    rng = random.Random(421)
    out = []
    for k, preset in enumerate(PRESET_NAMES):
        for lang in ("en", "fr"):
            for height in (64, 32):
                players = (2, 8)[(k + len(out)) % 2] if rng.random() < 0.5 else rng.randint(3, 7)
                computers = rng.choice((0, players - 1, players // 2))
                hints = rng.random() < 0.5
                out.append((preset, lang, height, players, computers, hints, rng.randint(1, 999)))
    return out


class Watch:
    """Checks each frame the app renders (App.render), once per distinct frame."""

    def __init__(self, tray, where):
        self.tray = tray
        self.where = where
        self.rec = legible.Recorder()
        self.seen = set()
        self.frames = 0
        self.problems = []
        app = tray.app
        render = app.render

        def checked_render():
            render()
            if app.clock.rolling and self.frames % 4:
                self.frames += 1
                return
            d = tray.display
            buf = bytes(d.buffer)
            if buf in self.seen:
                return
            self.seen.add(buf)
            self.frames += 1
            for kind, what in legible.check(self.rec.fields, buf, d.width, d.height):
                self.problems.append((kind, what, app.screen, self.where))

        app.render = checked_render


@pytest.mark.parametrize("config", _configs(), ids=lambda c: "%s-%s-%d-%dp-%ds-%s" % (
    c[0], c[1], c[2], c[3], c[4], "hints" if c[5] else "plain"))
def test_every_frame_of_a_game_reads_at_a_glance(config):
    preset, lang, height, players, computers, hints, seed = config
    fs = MemFS()
    fs.files["settings.json"] = json.dumps({"lang": lang}).encode()
    tray = Tray(SeededDice(seed), fs=fs, height=height, seed=seed)
    watch = Watch(tray, config)
    rng = random.Random(seed)
    with watch.rec:
        tray.app.render()  # the setup, recorded
        for _ in seats_game(tray, players, preset, SeededDice(seed + 1), computers, hints):
            app = tray.app
            g = app.game
            if app.screen == PLAY and g is not None and not g.over and g.contest is None \
                    and not g.turn.count and g.current not in g.computers \
                    and rng.random() < 0.2:
                tray.key("1")  # refused: nothing thrown yet; its box goes over the turn
            if len(watch.problems) > 20:
                break
    assert watch.frames > 20, "too few frames seen"
    assert not watch.problems, watch.problems[:8]


@pytest.mark.parametrize("ch", sorted(ACCENTED))
def test_an_accented_capital_is_as_tall_as_its_plain_letter(ch):
    # Fixed in the font (its glyphs), not by the layout.
    assert font.width(ch) == font.width(ACCENTED[ch])
    assert not legible.accent_shorter(ch, ACCENTED[ch]), ch


def test_the_checker_finds_each_kind_of_problem():
    # The rules fail where they should: a bare row of counts, two words run together, a
    # message box over half a line (each drawn as the screens draw, on a 128x64 frame).
    from dicetray import draw
    from framebuf import MONO_VLSB, FrameBuffer

    def frame(paint):
        buf = bytearray(128 * 8)
        fb = FrameBuffer(buf, 128, 64, MONO_VLSB)
        rec = legible.Recorder()
        with rec:
            font.clear(fb)
            paint(fb)
        return sorted({kind for kind, _ in legible.check(rec.fields, buf, 128, 64)})

    assert frame(lambda fb: draw.cells(fb, 128, 47, 1, [("P%d" % i, "10", False)
                                                         for i in (1, 2, 3, 4)])) == []
    assert frame(lambda fb: font.text(fb, "10 10 1", 0, 47)) == ["owner"]
    assert frame(lambda fb: font.text(fb, "POT 10", 0, 47)) == []

    def counts(at):  # P1's 13, then P2's name: right after P1, or right-aligned in its cell
        def paint(fb):
            for s, x in (("P1", 0), ("13", at), ("P2", 64)):
                font.text(fb, s, x, 47)
        return paint

    assert frame(counts(18)) == []
    assert frame(counts(48)) == ["far"]  # nearer P2 than P1
    assert frame(counts(30)) == ["far"]  # more than a space and two pixels after P1

    def run_together(fb):
        x = font.text(fb, "DECHARGE", 28, 8)
        font.text(fb, "SUITE", x, 8)

    assert frame(run_together) == ["touch"]

    def box_over_half(fb):
        font.text(fb, "NOTHING TO BEAT YET", 0, 16)
        fb.fill_rect(0, 22, 128, 13, 0)

    assert frame(box_over_half) == ["cut"]

    def box_over_whole(fb):
        font.text(fb, "NOTHING TO BEAT YET", 0, 16)
        fb.fill_rect(0, 15, 128, 20, 1)

    assert frame(box_over_whole) == []

    def big_mark(x):
        def paint(fb):
            draw.big_name(fb, 1, 0, 0, (1,))
            font.text(fb, "ROUND 1", x, 0)
        return paint

    assert "touch" in frame(big_mark(draw.TEXT_X))  # on the seat's *
    assert frame(big_mark(draw.SEAT_X)) == []

    def dice(s, value, kept, spoil):
        def paint(fb):
            draw.die(fb, 40, 20, s, value, kept)
            if spoil:  # a pip run into the next: a glance no longer counts them
                fb.fill_rect(40 + s // 2 - 1, 20 + s // 4, 2, s // 2, 0 if kept else 1)
        return paint

    assert frame(dice(12, 6, False, False)) == frame(dice(19, 6, True, False)) == []
    assert frame(dice(12, 6, False, True)) == frame(dice(19, 6, True, True)) == ["pips"]

    # Lines stacked: a blank row between one line's foot and the next line's top (its
    # accent's row included), and between a line and the key bar's lit edge.
    def lines(gap, second):
        def paint(fb):
            font.text(fb, "SUITE 654", 0, 20)
            font.text(fb, second, 0, 27 + gap)
        return paint

    assert frame(lines(1, "NOTHING TO BEAT")) == []
    assert frame(lines(0, "NOTHING TO BEAT")) == ["stack"]
    assert frame(lines(1, "DÉCHARGE")) == ["stack"]  # its accent on the line above's foot
    assert frame(lines(2, "DÉCHARGE")) == []

    def over_bar(y):
        def paint(fb):
            draw.hints(fb, 128, 64, "OK:NEXT")
            font.text(fb, "LAST HOLDS", 0, y)
        return paint

    assert frame(over_bar(64 - 9 - 8)) == []
    assert frame(over_bar(64 - 9 - 7)) == ["stack"]
    assert legible.accent_shorter("E", "F") is False and legible.accent_shorter("F", "E")
