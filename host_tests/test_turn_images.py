"""A turn screen copies its dice (draw.die: once drawn per look) and its row of tokens (ui: once
drawn per count of tokens): a copy is what drawing would give, and no press draws one anew once
the tray has had a quiet moment."""

import random

import framebuf
import pytest
from dicetray import draw, ui
from dicetray.app import App
from dicetray.screens import PLAY, SETUP
from trayhost.autoplay import SeededDice
from trayhost.trayrun import Tray

SIZES = (12, 20)  # the turn's dice: 128x32 and 8 players, 128x64 (ui._die_size)


def _frame(seed):
    # A 128x64 frame full of noise: what lies under a die where it is drawn.
    rng = random.Random(seed)
    buf = bytearray(rng.randrange(256) for _ in range(128 * 8))
    return buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


@pytest.mark.parametrize("s", SIZES)
def test_a_die_copied_is_the_die_drawn_over_anything(s):
    for value in range(7):
        for kept, hint in ((False, False), (True, False), (False, True), (True, True)):
            for seed, (x, y) in enumerate(((2, 0), (57, 26), (3, 9), (126 - s, 64 - s))):
                drawn_buf, drawn = _frame(seed)
                copied_buf, copied = _frame(seed)
                draw._draw_die(drawn, x, y, s, value, kept, hint)
                draw.die(copied, x, y, s, value, kept, hint)
                assert copied_buf == drawn_buf, (s, value, kept, hint, x, y)
                # The die's square and its hint bars' margins are all its own: on another
                # noise they are the same.
                other_buf, other = _frame(seed + 100)
                draw.die(other, x, y, s, value, kept, hint)
                for px in range(x - draw.MARGIN, x + s + draw.MARGIN):
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


def _afresh():
    # Nothing copied yet, as at power-up: every die, row of tokens and throw's text anew.
    draw._DICE[:] = [0, None]
    ui._ROW[:] = [None, None]
    ui._THROWN[:] = [None, []]


@pytest.mark.parametrize("height, players, seats", [(64, 2, 0), (64, 6, 2), (32, 3, 1),
                                                    (64, 8, 4)])
def test_no_press_draws_a_die_or_the_tokens_anew_once_the_tray_had_a_quiet_moment(
        monkeypatch, height, players, seats):
    anew = []  # (in a quiet moment, what) of each die or row of tokens drawn, not copied
    quiet_now = [False]
    drawn, holdings, quiet, thrown = draw._draw_die, ui._holdings, App.quiet, ui._thrown
    written = []  # (in a quiet moment, the throw there at the last quiet moment) per text
    last_quiet = [None, 0]  # the turn's finals at the last quiet moment, and how many

    def count_die(fb, x, y, s, *look):
        anew.append((quiet_now[0], "die %d" % s))
        drawn(fb, x, y, s, *look)

    def count_row(w, game):
        was = ui._ROW[1]
        image = holdings(w, game)
        if image is not was:
            anew.append((quiet_now[0], "tokens %r" % (game.tokens,)))
        return image

    def count_texts(game, t):
        had = len(ui._THROWN[1]) if ui._THROWN[0] is t.finals else 0
        texts = thrown(game, t)
        known = last_quiet[1] if last_quiet[0] is t.finals else 0
        written.extend((quiet_now[0], i < known) for i in range(had, len(texts)))
        return texts

    def quietly(app):
        quiet_now[0] = True
        try:
            quiet(app)
        finally:
            quiet_now[0] = False
        if app.game is not None:
            last_quiet[:] = [app.game.turn.finals, len(app.game.turn.finals)]

    monkeypatch.setattr(draw, "_draw_die", count_die)
    monkeypatch.setattr(ui, "_holdings", count_row)
    monkeypatch.setattr(ui, "_thrown", count_texts)
    monkeypatch.setattr(App, "quiet", quietly)
    _afresh()
    rng = random.Random(players)
    tray = Tray(SeededDice(players), height=height, seed=players)
    tray.app.units[SETUP].settings.update(players=players, computers=seats, hints=bool(seats))
    tray.run(100)  # the setup's quiet moment: the game OK starts, its turns ready
    assert anew and all(q for q, _ in anew)
    tray.key("o")
    turns = ends = 0
    for _ in range(600):
        app = tray.app
        turns += app.screen == PLAY
        ends += app.screen != PLAY
        tray.key(rng.choice("123rrro") if app.screen == PLAY else "o")
    assert turns > 100 and ends > 8  # turns ended, tokens moved: rows drawn anew meanwhile
    assert len({what for q, what in anew if what.startswith("tokens")}) > 3 or height < 64
    assert [what for q, what in anew if not q] == []  # every one a press showed was copied
    # A turn's result names each throw: a press writes the texts of throws made since the last
    # quiet moment alone (the stop's own; those of seats a press hurried), never an older one.
    assert [q for q, known in written if known and not q] == []
    if height >= 64 and players > 2:
        assert sum(not q for q, _ in written) > 3 and sum(q for q, _ in written) > 20


@pytest.mark.parametrize("height, players, seats", [(64, 3, 0), (64, 8, 3), (32, 5, 2)])
def test_a_screen_drawn_from_copies_is_the_screen_drawn_afresh(height, players, seats):
    # After every key of a random game (players leave in the décharge, tokens move), what the
    # panel shows equals the same screen rendered with nothing to copy.
    rng = random.Random(height + players)
    tray = Tray(SeededDice(players), height=height, seed=players)
    tray.app.units[SETUP].settings.update(players=players, computers=seats, hints=bool(seats),
                                          preset="lebon")
    tray.key("o")
    checked = 0
    for _ in range(400):
        app = tray.app
        tray.key(rng.choice("123rrro") if app.screen == PLAY else rng.choice("oor"))
        if app.dirty or app.clock.rolling:
            continue
        shown = bytes(tray.display.buffer)
        _afresh()
        app.render()
        assert bytes(tray.display.buffer) == shown, app.screen
        checked += app.screen == PLAY
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_the_row_of_tokens_drawn_by_the_pico_s_text_loop_is_the_same(monkeypatch, players):
    # On the Pico the row's texts are written into its image by machine code (font.frame_of,
    # fast.draw_text); that loop run as Python draws the very image framebuf's text does.
    from dicetray import font
    from dicetray.game import Game
    from dicetray.options import PRESETS
    from test_font import _fast_as_python

    game = Game(players, PRESETS["classic"], SeededDice(1))
    for tokens in ([0] * players, list(range(10, 10 + players)), [21] * players):
        game.tokens[:] = tokens
        game.out[:] = [1] if players > 2 else []
        images = []
        for loop in (None, _fast_as_python()):
            monkeypatch.setattr(font, "draw_text", loop)
            ui._ROW[:] = [None, None]
            image = ui._holdings(128, game)
            images.append(bytes(image._buf))
        assert images[0] == images[1] and any(images[0]), tokens
