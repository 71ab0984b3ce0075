"""Computer seats (dicetray.seat) and hints, through the buttons' path of a whole tray.

The tray plays the last seats of a game; a human (the seeded bot at the buttons) plays the
others. Each computer choice is the strategy's; it waits so a throw can be read, announces its
stop, and a human's press during its turn hurries it instead of playing for it.
"""

import random

import pytest
from dicetray import seat, strategy, ui
from dicetray.display import Display
from dicetray.game import Game
from dicetray.rules import evaluate
from dicetray.save_check import load
from dicetray.screens import PLAY, RESULT, STANDINGS
from dicetray.state import DECHARGE
from emupico.panel import Panel
from fakes.flash import saved_game
from test_tray import assert_panel_shows, assert_result_sane, glass, make_tray, tokens_ok
from trayhost import trayrun
from trayhost.autoplay import SeededDice
from trayhost.oled import FakeI2C
from trayhost.pins import ticks_diff
from trayhost.pressmeter import ELSEWHERE, IDLE, FirstFrame, merged, seats_tour
from trayhost.trayrun import bot_keys, seats_game


def watch_computers(tray):
    """Each computer throw's state and the choice the strategy makes on it, as the seat sees it."""
    seen = []
    app = tray.app
    step = app.step

    def stepped(now):
        g = app.game
        before = None
        if g is not None and app.screen == PLAY and g.contest is None and not g.over \
                and g.current in g.computers and g.turn.count and not g.must_stop():
            before = (g.turn.number, g.turn.pos, g.turn.count, tuple(g.turn.dice))
            if not seen or seen[-1][0] != before:
                seen.append((before, strategy.decide(g)[0], []))
        step(now)
        g = app.game
        if before is not None and g is not None:
            after = (g.turn.number, g.turn.pos, g.turn.count)
            if after != before[:3]:
                seen[-1][2].append(after)

    app.step = stepped
    return seen


@pytest.mark.parametrize("preset, players, computers",
                         [("classic", 4, 3), ("lebon", 3, 2), ("bar41", 2, 1),
                          ("jackpot", 5, 2), ("zanzibar", 4, 3)])
def test_computer_seats_play_a_whole_game_by_the_strategy(preset, players, computers):
    tray = make_tray(40 + players)
    seen = watch_computers(tray)
    games = []
    for _ in seats_game(tray, players, preset, SeededDice(7), computers):
        g = tray.app.game
        if g is not None and (not games or games[-1] is not g):
            games.append(g)
        if g is not None:
            assert tokens_ok(g)
    (game,) = games
    assert_result_sane(game)
    assert game.computers == list(range(players - computers, players))
    assert seen  # the computers threw, and each throw ended as the strategy chose
    for (number, pos, count, _dice), mask, after in seen:
        if mask is None:  # a stop: the next player, or the turn's end
            assert after[0] != (number, pos, count)
        else:
            assert (number, pos, count + 1) in after or after[0][1:] == (pos, count + 1)
    assert_panel_shows(tray)


def at_computer_throw(tray, bot, players=4, preset="classic", computers=3):
    """Play until a computer seat has just thrown and waits on its dice."""
    app = tray.app
    for _k in seats_game(tray, players, preset, bot, computers, wait_ms=20):
        g = app.game
        if g is not None and app.screen == PLAY and g.contest is None and \
                g.current in g.computers and g.turn.count and not app.clock.rolling \
                and not g.must_stop():
            return g
    raise AssertionError("no computer throw")


def test_a_computer_waits_on_its_throw_and_a_human_press_hurries_it_not_plays_for_it():
    tray = make_tray(51)
    app = tray.app
    g = at_computer_throw(tray, SeededDice(3))
    moment = (g.turn.pos, g.turn.count, g.turn.kept)
    tray.run(seat.THINK_MS // 2)  # half the time to read it: nothing yet
    assert (g.turn.pos, g.turn.count, g.turn.kept) == moment
    kept = g.turn.kept
    tray.key("2")  # a human's KEEP2: the computer acts at once, its own choice
    mask = strategy.decide(g)[0] if (g.turn.pos, g.turn.count) == moment[:2] else None
    assert (g.turn.pos, g.turn.count, g.turn.kept) != moment or app.clock.mark
    if mask is not None and g.turn.count == moment[1]:
        assert g.turn.kept != kept ^ 2 or mask & 2 != kept & 2
    assert_panel_shows(tray)


def test_a_computer_announces_its_stop_before_it_makes_it():
    tray = make_tray(52)
    app = tray.app
    bot = SeededDice(4)
    said = []
    for _ in range(200):
        g = at_computer_throw(tray, bot)
        if strategy.decide(g)[0] is None:
            who = g.current
            pos = g.turn.pos
            for _ in range(100):
                tray.run(100)
                if app.clock.mark:
                    said.append(app.clock.mark)
                    break
            assert g.turn.pos == pos and g.current == who  # said, not done yet
            # The box over whole rows, its text in the middle.
            top, high = ui.refusal_rows(64, g)
            assert glass(tray).read(top + (high - 7) // 2, ink=0).strip() in (
                "P%d*: STOP" % (who + 1), "P%d*: LE BON" % (who + 1))  # a seat, marked
            tray.run(seat.SAY_MS + 100)
            assert g.turn.pos != pos or g.turn.settling() or app.screen != PLAY
            break
        tray.run(seat.THINK_MS + 3 * seat.KEEP_MS)
    assert said


def test_a_computer_seat_is_marked_on_the_screens_that_name_players():
    tray = make_tray(53)
    app = tray.app
    bot = SeededDice(5)
    for _k in seats_game(tray, 4, "classic", bot, 2, wait_ms=50):
        if app.screen == RESULT:
            break
    text = " ".join(glass(tray).read(y) for y in range(0, 56))
    assert "P3*" in text or "P4*" in text
    assert "P1*" not in text and "P2*" not in text
    tray.key("o")  # on: the next turn, where OK held shows the standings (a computer's too)
    tray.key("O")
    assert app.screen == STANDINGS
    text = " ".join(glass(tray).read(y) for y in range(0, 56))
    assert "P3*" in text and "P4*" in text and "P1*" not in text


def test_the_marks_come_with_the_game_drawn_not_from_a_tray_drawn_before():
    # Nothing of a tray that drew its seats' marks stays for the next drawing (another tray,
    # a crash's screen, a picture): a game the tray plays no seat in shows none.
    tray = make_tray(53)
    for _k in seats_game(tray, 4, "classic", SeededDice(5), 2, wait_ms=50):
        if tray.app.screen == RESULT:
            break
    shown = " ".join(glass(tray).read(y) for y in range(0, 56))
    assert "P3*" in shown or "P4*" in shown
    display = Display(FakeI2C(), ticks_diff=ticks_diff)
    ui.standings(display.fb, 128, 64, Game(4, "classic", SeededDice(6)), False, "OK:BACK")
    text = " ".join(Panel.from_framebuffer(display.buffer).read(y) for y in range(0, 56))
    assert "P3" in text and "P4" in text and "*" not in text


def test_a_game_with_computer_seats_resumes_with_them():
    tray = make_tray(54)
    at_computer_throw(tray, SeededDice(6), computers=2)
    saved = saved_game(tray.fs.files)
    assert saved["computers"] == [2, 3] and saved["hints"] is False
    game = load(saved, None)
    assert game.computers == [2, 3]


def test_hints_show_the_strategy_s_keeps_under_the_dice_and_what_the_choice_is_worth():
    tray = make_tray(55)
    app = tray.app
    bot = SeededDice(8)
    seen = set()
    for _k in seats_game(tray, 3, "classic", bot, 1, hints=True, wait_ms=50):
        g = app.game
        if g is None or app.screen != PLAY or g.contest is not None or app.clock.rolling \
                or g.current in g.computers or not g.turn.count or g.must_stop():
            continue
        for _ in range(1000):  # the hint is made a piece a poll (Seat.work), then drawn
            if not app.working and not app.dirty:
                break
            tray.run(trayrun.POLL_MS)
        mask, text = strategy.hint(g)
        choice, value, unit = strategy.decide(g)
        assert mask == choice  # the seat's own choice, and what it is worth
        said = text[2:].strip() if mask is None else text
        assert text.startswith("OK") == (mask is None)
        if g.phase == DECHARGE:  # the tokens it expects to shed: "+0.9T", "OK-1.2T"
            assert said[0] in "+-" and said.endswith("T")
            assert abs(float(said[:-1]) - value / unit) <= 0.06
        else:  # the chance not to lose the turn: "85%", "OK 85%"
            assert said.endswith("%") and abs(int(said[:-1]) - 100 * value / unit) <= 0.6
        panel = glass(tray)
        for i in range(3):  # a die the strategy keeps stands between bars (a kept one: none)
            x, y, size = ui.die_at(64, g.n, i)
            bars = all(panel.rows[y + size // 2][c] for c in (x - 2, x + size + 1))
            assert bars == bool((mask or 0) & (1 << i) and not g.turn.kept & (1 << i))
        count = "THROW %d/%d" % (g.turn.count, g.max_throws())
        assert " ".join(panel.read(0, x0=24).split()).startswith(count)
        # The worth a word's gap after the phase; the throw's name beside the dice.
        line = " ".join(panel.read(9, x0=24).split())
        assert line in ("CHARGE " + text, "DECHARGE " + text)
        name = evaluate(g.turn.dice, g.opts).name.upper()
        assert " ".join(panel.read(33 if g.n <= 4 else 28, x0=50).split()) == name
        seen.add((g.phase, mask is None))
        if len(seen) == 4:
            break
    assert len(seen) == 4  # both phases, keeps and stops


def test_the_bot_presses_nothing_for_a_computer():
    tray = make_tray(56)
    app = tray.app
    g = at_computer_throw(tray, SeededDice(9))
    assert g.current in g.computers and bot_keys(app, SeededDice(1), (4, "classic"))


def test_no_press_waits_on_the_seats_work_it_is_done_at_idle_polls():
    # 8 players, the tray plays four, hints on, and now and then a human's ROLL hurries a
    # computer: the strategy's warm-up, decisions, stakes and hints all run at idle polls
    # (Seat.work), none between a press and its first frame, none in a seat's own press.
    meters = []
    try:
        seats_tour(watch=lambda tray: meters.append(FirstFrame(tray, seats=True)))
    finally:  # the last wrapped what the first had wrapped: undone from the last
        for meter in reversed(meters):
            meter.remove()
    report = merged(meters)
    for kind in ("hurry", "throw", "keep", "stop", "result->", "setup->game"):
        assert report[kind][0] > 0, kind  # pressed
    before = {kind: v[3] for kind, v in report.items() if type(v) is list and v[3]}
    assert before == {} and report[ELSEWHERE] == 0
    assert report[IDLE] > 20


def test_a_seat_whose_choice_no_idle_poll_made_makes_it_itself_in_the_end(monkeypatch):
    # A main loop with no idle poll (a button held down all along, a front end that never
    # idles): the seat plays on all the same, its choice made once it has waited as long again.
    monkeypatch.setattr(seat.Seat, "work", lambda self, app: False)
    tray = make_tray(57)
    g = at_computer_throw(tray, SeededDice(3))
    moment = (g.turn.pos, g.turn.count, g.turn.kept)
    tray.run(seat.THINK_MS + 100)
    assert (g.turn.pos, g.turn.count, g.turn.kept) == moment  # no choice made yet
    tray.run(seat.THINK_MS + 3 * seat.KEEP_MS + seat.SAY_MS)
    assert (g.turn.pos, g.turn.count, g.turn.kept) != moment


def _moment(app):
    # What a tray seat's turn is doing: its dice rolling, before its first throw, a roll-off,
    # its last throw being read, its stop said, or thinking on a throw (choice made or not).
    g = app.game
    if app.clock.rolling:
        return "rolling"
    if g.contest is not None:
        return "contest"
    if not g.turn.count:
        return "before"
    if g.must_stop():
        return "reading"
    if app.clock.mark:
        return "saying"
    return "thinking" if app.seat.choice != -1 else "choosing"


def test_a_press_in_a_seat_s_turn_answers_on_the_panel_at_once_in_every_state_of_it():
    # 8 players, the tray plays four, hints on: a human's ROLL at moments all over the seats'
    # turns reaches the bus within two polls, as a human's own press would, its last throw's
    # reading time included (the turn ends there, as it would once read); while the seat's
    # choice is still being made, within two polls of the poll that makes it.
    tray = make_tray(61)
    app = tray.app
    delays = {}
    ended = []
    when = random.Random(5)  # moments all over the turns
    rest = 0  # polls since the last key was let go (it reads up for debounce_ms first)
    for k in seats_game(tray, 8, "classic", SeededDice(71), 4, hints=True, wait_ms=5,
                        limit=100000):
        g = app.game
        if k != "." or g is None or app.screen != PLAY or g.current not in g.computers:
            continue
        rest += 1
        moment = _moment(app)
        if rest * trayrun.POLL_MS <= app.buttons.debounce_ms or (
                moment != "choosing" and when.random() > 0.02):
            continue
        before = tray.i2c.bytes_written
        turn = (g.turn.number, g.turn.pos)
        pin = tray.pins["ROLL"]
        pin.press()
        polls = made = None
        poll = 0
        while poll < trayrun.PRESS_MS // trayrun.POLL_MS or (polls is None and poll < 400):
            poll += 1
            if poll == trayrun.PRESS_MS // trayrun.POLL_MS:
                pin.release()
            tray.run(trayrun.POLL_MS)
            if polls is None and tray.i2c.bytes_written != before:
                polls = poll
            if made is None and app.seat.choice != -1:
                made = poll
        pin.release()
        rest = 0
        if moment == "choosing":  # counted from the poll that made the choice
            assert made is not None and polls is not None and polls >= made, (made, polls)
            polls -= made - 1
        delays.setdefault(moment, []).append(polls)
        if moment == "reading":
            ended.append(app.screen != PLAY or (g.turn.number, g.turn.pos) != turn)
    assert set(delays) >= {"rolling", "before", "reading", "thinking", "choosing"}
    for moment, polls in delays.items():
        # choosing: the seat's choice is still being made at idle polls (Seat.work), a piece a
        # poll, and they go on while the key is held: its press shows once it is made.
        assert None not in polls and max(polls) <= 2, (moment, polls)
    assert ended and all(ended)  # the last throw's press went on at once: the turn moved on
