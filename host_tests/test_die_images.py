"""A die is drawn once per look and then copied (draw.die): the copy is the die drawn, whatever
lies under it, and no press draws one anew once the tray has had a quiet moment."""

import random

import framebuf
import pytest
from dicetray import draw
from dicetray.app import App
from dicetray.screens import PLAY, SETUP
from trayhost.autoplay import SeededDice
from trayhost.trayrun import Tray

SIZES = (12, 13, 20)  # the turn's dice: 8 players, 128x32, 128x64 (ui._die_size)


def _frame(seed):
    # A 128x64 frame full of noise: what lies under a die where it is drawn.
    rng = random.Random(seed)
    buf = bytearray(rng.randrange(256) for _ in range(128 * 8))
    return buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


@pytest.mark.parametrize("s", SIZES)
def test_a_die_copied_is_the_die_drawn_over_anything(s):
    for value in range(7):
        for kept, hint in ((False, False), (True, False), (False, True), (True, True)):
            for seed, (x, y) in enumerate(((0, 0), (57, 26), (3, 9), (128 - s, 64 - s))):
                drawn_buf, drawn = _frame(seed)
                copied_buf, copied = _frame(seed)
                draw._draw_die(drawn, x, y, s, value, kept, hint)
                draw.die(copied, x, y, s, value, kept, hint)
                assert copied_buf == drawn_buf, (s, value, kept, hint, x, y)
                # The die's square is all its own: on another noise it is the same.
                other_buf, other = _frame(seed + 100)
                draw.die(other, x, y, s, value, kept, hint)
                for px in range(x, x + s):
                    for py in range(y, y + s):
                        assert other.pixel(px, py) == copied.pixel(px, py), (s, value, px, py)


def test_the_images_are_one_size_s_looks_at_most():
    draw._DICE[:] = [0, None]  # as at power-up
    draw.ready_dice(20)
    assert draw._DICE[0] == 20 and len(draw._DICE[1]) == draw.LOOKS
    draw.die(_frame(0)[1], 0, 0, 20, 5, True, True)  # kept and hinted: the kept look
    assert len(draw._DICE[1]) == draw.LOOKS
    draw.ready_dice(12)
    assert draw._DICE[0] == 12 and len(draw._DICE[1]) == draw.LOOKS  # 20's went


@pytest.mark.parametrize("height, players, seats", [(64, 2, 0), (64, 6, 2), (32, 3, 1)])
def test_no_press_draws_a_die_anew_once_the_tray_had_a_quiet_moment(monkeypatch, height,
                                                                     players, seats):
    anew = []  # (in a quiet moment, size) of each die drawn rather than copied
    quiet_now = [False]
    drawn, quiet = draw._draw_die, App.quiet

    def count(fb, x, y, s, *look):
        anew.append((quiet_now[0], s))
        drawn(fb, x, y, s, *look)

    def quietly(app):
        quiet_now[0] = True
        try:
            quiet(app)
        finally:
            quiet_now[0] = False

    monkeypatch.setattr(draw, "_draw_die", count)
    monkeypatch.setattr(App, "quiet", quietly)
    draw._DICE[:] = [0, None]  # as at power-up
    rng = random.Random(players)
    tray = Tray(SeededDice(players), height=height, seed=players)
    tray.app.units[SETUP].settings.update(players=players, computers=seats, hints=bool(seats))
    tray.run(100)  # the setup's quiet moment: the game OK starts, its dice ready
    assert anew and all(q for q, _ in anew)
    tray.key("o")
    turns = 0
    for _ in range(300):
        app = tray.app
        turns += app.screen == PLAY
        tray.key(rng.choice("123rrro") if app.screen == PLAY else "o")
    assert turns > 100
    assert [s for q, s in anew if not q] == []  # every die a press showed was copied
