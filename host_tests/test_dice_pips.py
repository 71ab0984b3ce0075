"""A glance counts a die's pips at every size the tray draws, open, kept and hinted: each pip
stands a clear pixel from the die's border and from the other pips (screens.legible.pips), and
a hint's marks stand outside the die."""

import framebuf
import pytest
from dicetray import draw, ui
from screens import legible

SIZES = sorted({ui._die_size(h, n) for h in (32, 64) for n in range(2, 9)})


def _drawn(s, value, kept, hint, under=0):
    buf = bytearray(b"\xff" * (128 * 8) if under else 128 * 8)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    draw.die(fb, 20, 10, s, value, kept, hint)
    return buf, fb


@pytest.mark.parametrize("s", SIZES)
@pytest.mark.parametrize("look", ["open", "kept", "hint"])
def test_every_pip_stands_apart(s, look):
    kept, hint = look == "kept", look == "hint"
    for value in range(1, 7):
        for under in (0, 1):  # on a dark panel and over anything lit
            buf, _ = _drawn(s, value, kept, hint, under)
            assert legible.pips(buf, 128, 64, 20, 10, s, kept) == value, (s, look, value)


@pytest.mark.parametrize("s", SIZES)
def test_a_hint_differs_from_an_open_and_a_kept_die_outside_the_square(s):
    for value in range(1, 7):
        _, open_ = _drawn(s, value, False, False)
        _, hinted = _drawn(s, value, False, True)
        _, kept = _drawn(s, value, True, False)
        inside = [(x, y) for x in range(20, 20 + s) for y in range(10, 10 + s)]
        assert all(open_.pixel(x, y) == hinted.pixel(x, y) for x, y in inside)
        assert any(open_.pixel(x, y) != kept.pixel(x, y) for x, y in inside)
        # A bracket on each side, the whole die high, a blank column between it and the die
        # but for its ends, which turn towards the die: [ and ].
        for bar, blank in ((20 - 2, 20 - 1), (20 + s + 1, 20 + s)):
            assert all(hinted.pixel(bar, y) for y in range(10, 10 + s))
            assert [hinted.pixel(blank, y) for y in range(10, 10 + s)] == [1] + [0] * (s - 2) + [1]
            assert not any(open_.pixel(bar, y) for y in range(10, 10 + s))


def test_the_sizes_are_those_the_turn_draws():
    assert SIZES == [12, 19]
