"""Every field of every screen stands apart: a blank pixel column on each side of each text and
die, on the panel itself, for every preset, 128x64 and 128x32, 2 to 8 players.

A field is what one drawing call puts down: a text (font.text: a name, a count, "THROW 1/3"), a
die (draw.die), the * that marks a seat the tray plays. The calls are recorded as the screens
draw; then the frame is read back: the column just left and just right of each field must hold
no ink over the field's rows (ink: lit, or dark for dark text on a lit cell or bar), and no two
fields on the same rows may share or touch a column. The worst cases are played, not picked:
whole games of every preset, every seat but P1 marked as the tray's, each player's tokens
raised to two digits up to the preset's pot, hints with their longest texts, the roll
animation's frames, and every end of a game with every player among its losers and winners.
"""

import pytest
from dicetray import draw, font, ui, ui_contest
from dicetray.game import Game
from dicetray.options import PRESET_NAMES, PRESETS
from dicetray.rules import LAST_HOLDER
from dicetray.screens import QUIT, RESUME, SETUP, TALLY
from dicetray.state import CHARGE, DECHARGE, ESPAGNOLE, FIRST_OUT, GameResult
from framebuf import MONO_VLSB, FrameBuffer
from screens.rig import Rig
from trayhost.autoplay import SeededDice

SIZES = ((128, 64), (128, 32))
# strategy.hint's longest texts: "OK" (it stops) before a chance, or before tenths of a token.
HINTS = {CHARGE: "OK 100%", DECHARGE: "OK -9.9T"}


class TokensRow:
    """The turn's row of tokens is copied from an image (ui._ROW, ui._tokens_row): with this,
    it is drawn afresh each time, and on_panel tells where a text drawn meanwhile shows."""

    def __init__(self, monkeypatch):
        self.at = None  # where the row being drawn goes on the panel
        row = ui._tokens_row

        def drawn(fb, w, game):
            ui._ROW[:] = [None, None]
            self.at = ui._holdings_y(game.n)
            try:
                row(fb, w, game)
            finally:
                self.at = None

        monkeypatch.setattr(ui, "_tokens_row", drawn)

    def on_panel(self, fb, y):
        """The panel's row of a text drawn at row y on fb; None: it is not on the panel (drawn
        into an image the screens copy, a die's, or the row of tokens readied)."""
        if self.at is not None:
            return y + self.at
        return None if fb._height < 32 else y


class Fields:
    """The fields drawn since the last clear: (x0, y0, x1, y1, ink, what)."""

    def __init__(self, monkeypatch):
        self.seen = []
        text, clear, die, big_name = font.text, font.clear, draw.die, draw.big_name

        row = TokensRow(monkeypatch)

        def record_text(fb, s, x, y, scale=1, c=1):
            at = row.on_panel(fb, y)
            if s and at is not None:
                self.seen.append((x, at, x + font.width(s, scale) - 1, at + 7 * scale - 1, c, s))
            return text(fb, s, x, y, scale, c)

        def record_clear(fb):
            self.seen = []
            clear(fb)

        def record_die(fb, x, y, s, value, kept=False, hint=False):
            n = len(self.seen)
            die(fb, x, y, s, value, kept, hint)
            del self.seen[n:]  # its "?" is the die's own ink
            if hint and not kept:  # a hint's brackets, [ and ], are the die's own ink
                self.seen.append((x - draw.MARGIN, y, x + s - 1 + draw.MARGIN, y + s - 1, 1,
                                  "die"))
            else:
                self.seen.append((x, y, x + s - 1, y + s - 1, 1, "die"))

        def record_name(fb, p, x, y, seats=()):
            n = len(self.seen)
            big_name(fb, p, x, y, seats)
            if p in seats:  # its mark: a * drawn after the name, as every list writes P3*
                assert [f[5] for f in self.seen[n + 1:]] == ["*"], \
                    "a seat the tray plays has no mark by its big name"

        monkeypatch.setattr(font, "text", record_text)
        monkeypatch.setattr(font, "clear", record_clear)
        monkeypatch.setattr(draw, "die", record_die)
        for module in (ui, ui_contest):
            monkeypatch.setattr(module, "big_name", record_name)

    def check(self, fb, w, h, where):
        seen = self.seen
        assert seen, where
        for x0, y0, x1, y1, ink, what in seen:
            assert 0 <= x0 and x1 < w and 0 <= y0 and y1 < h, (where, what, "off the panel")
            for x in (x0 - 1, x1 + 1):
                if 0 <= x < w:
                    col = [fb.pixel(x, y) for y in range(y0, y1 + 1)]
                    assert ink not in col, (where, what, "touches column %d" % x)
        for i, a in enumerate(seen):
            for b in seen[i + 1:]:
                if a[1] <= b[3] and b[1] <= a[3]:  # on the same rows
                    assert a[2] + 1 < b[0] or b[2] + 1 < a[0], (where, a[5], b[5])


def canvas(w, h):
    return FrameBuffer(bytearray(w * h // 8), w, h, MONO_VLSB)


def games(name, n):
    """Games of preset name for n players: P1 human, the others the tray's, hints on; one
    plays as dealt, one with every player's tokens raised to two digits up to the pot's, and
    the pot nearly empty (the décharge comes soon)."""
    for raised in (False, True):
        dice = SeededDice(n * 31 + PRESET_NAMES.index(name) * 7 + raised)
        g = Game(n, PRESETS[name], dice, computers=range(1, n), hints=True)
        if raised:
            top = PRESETS[name].tokens
            g.tokens[:] = [max(10, top - p) for p in range(n)]
            g.pot = 2
        yield g, dice


def moments(g, dice, steps=70):
    """Play g with random choices; yield each moment a screen draws, as (draw, label), draw a
    function of (fb, w, h)."""
    rng = SeededDice(99)
    for _ in range(steps):
        if g.over:
            yield (lambda fb, w, h: ui.over(fb, w, h, g)), "over"
            return
        contest = g.contest
        if contest is not None:
            yield (lambda fb, w, h: ui.contest(fb, w, h, g)), "contest"
            if g.can_announce():
                events = g.announce("is" if rng() < 4 else "comes")
            else:
                events = g.throw(())
        else:
            t = g.turn
            yield from turn_moments(g, t)
            if t.count and g.can_stop() and (not g.can_throw() or rng() < 3):
                events = g.stop()
            else:
                k = rng()
                keep = () if not t.count else (0,) if k < 3 else (1, 2) if k < 5 else ()
                events = g.throw(keep)
        kinds = [ev[0] for ev in events]
        if contest is not None and g.contest is not contest:
            yield (lambda fb, w, h: ui.outcome(fb, w, h, g)), "outcome"
        if "turn" in kinds or "tie_pass" in kinds:
            yield (lambda fb, w, h: ui.result(fb, w, h, g)), "result"
        # The décharge's phase screen; the charge's first turn says itself that it began.
        if [ev for ev in events if ev[0] == "phase" and ev[1] != CHARGE] and not g.over:
            yield (lambda fb, w, h: ui.phase(fb, w, h, g)), "phase"
        yield (lambda fb, w, h: ui.standings(fb, w, h, g, True, "ROLL:BACK OK:TALLY")), "table"


def turn_moments(g, t):
    yield (lambda fb, w, h: ui.turn(fb, w, h, g, t.kept)), "turn"
    if t.count:
        # The roll animation's frame, and the hint the strategy would give (its longest text)
        # on a human's turn: the tray's seats get none.
        yield (lambda fb, w, h: ui.turn(fb, w, h, g, t.kept, [6, 6, 6])), "rolling"
        if g.current in g.computers:
            return
        hint = (5, HINTS[DECHARGE if g.phase == DECHARGE else CHARGE])
        yield (lambda fb, w, h: ui.turn(fb, w, h, g, t.kept, None, hint)), "hint"


def endings(g):
    """The game's end in every way, with every player among its losers or its winners."""
    n = g.n
    g.phase = "over"
    for reason in (FIRST_OUT, ESPAGNOLE, LAST_HOLDER):
        for losers in ([n - 1], list(range(1, n))):
            winners = [p for p in range(n) if p not in losers]
            g.result = GameResult(losers, winners, reason)
            yield (lambda fb, w, h: ui.over(fb, w, h, g)), "over %s %d" % (reason, len(losers))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_field_of_the_game_screens_stands_apart(monkeypatch, name):
    fields = Fields(monkeypatch)
    frames = [(w, h, canvas(w, h)) for w, h in SIZES]
    for n in range(2, 9):
        for g, dice in games(name, n):
            drawn = moments(g, dice)
            for paint, label in drawn:
                for w, h, fb in frames:
                    paint(fb, w, h)
                    fields.check(fb, w, h, (name, n, h, label))
            if g.last is None:
                continue
            for paint, label in endings(g):
                for w, h, fb in frames:
                    paint(fb, w, h)
                    fields.check(fb, w, h, (name, n, h, label))


def test_the_screens_around_a_game_stand_apart(monkeypatch):
    """The setup through every value of every row, the tally with two-digit counts of eight
    seats, the resume prompt, quitting."""
    fields = Fields(monkeypatch)
    for h in (64, 32):
        rig = Rig([], height=h)
        app = rig.app
        settings = app.units[SETUP].settings
        settings["players"] = 8
        settings["computers"] = 7
        app.render()
        fields.check(app.fb, 128, h, ("setup", h))
        for row in range(30):
            for _ in range(12):
                rig.play("r")
                app.render()
                fields.check(app.fb, 128, h, ("setup", h, row))
            rig.play("2")
        rig.play("o")
        rig.app.tally.paid[:] = [10 + p for p in range(8)]
        app.tell(RESUME, "zanzibar")
        for screen in (TALLY, QUIT, RESUME):
            app.show(screen)
            app.render()
            fields.check(app.fb, 128, h, (screen, h))
