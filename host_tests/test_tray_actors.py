"""Actors: something that is not a button (a replay, a computer seat) plays through app.add_actor.

An actor's press takes the very path of a button's: a recorded game replayed with no button
touched puts the same bytes on the bus, and a computer seat plays a whole game to its end.
"""

from dicetray.buttons import LONG, PRESS
from dicetray.screens import SETUP
from test_tray import assert_panel_shows, assert_result_sane, make_tray, play, tokens_ok
from trayhost.autoplay import SeededDice
from trayhost.pins import ticks_add, ticks_diff
from trayhost.trayrun import KEYS, Tray, bot_keys, play_game


class Replay:
    """Presses (ticks, (name, kind)) events at their ticks, as recorded from the buttons."""

    def __init__(self, events):
        self.events = list(events)
        self.i = 0

    def poll(self, app, now):
        if self.i < len(self.events) and ticks_diff(now, self.events[self.i][0]) >= 0:
            self.i += 1
            return self.events[self.i - 1][1]
        return None


class Seat:
    """A computer player: the keys trayrun's bot would press, one every gap_ms."""

    def __init__(self, bot, want, gap_ms=500):
        self.bot = bot
        self.want = want  # (players, preset)
        self.gap_ms = gap_ms
        self.keys = ""
        self.due = 0
        self.pressed = 0

    def poll(self, app, now):
        if ticks_diff(now, self.due) < 0:
            return None
        self.due = ticks_add(now, self.gap_ms)
        if not self.keys:
            self.keys = bot_keys(app, self.bot, self.want)
        k, self.keys = self.keys[0], self.keys[1:]
        self.pressed += 1
        return (KEYS[k], LONG if k == "O" else PRESS)


def recorded(tray):
    """Log every event the tray's buttons report: (ticks, event)."""
    log = []
    poll = tray.buttons.poll

    def logged(now):
        event = poll(now)
        if event is not None:
            log.append((now, event))
        return event

    tray.buttons.poll = logged
    return log


def test_a_replayed_game_puts_the_same_bytes_on_the_bus_with_no_button_pressed():
    buttons = Tray(SeededDice(8), seed=8)
    log = recorded(buttons)
    play_game(buttons, 3, "lebon", 8)
    buttons.keys("oOr1r")  # a new game, OK held (the table) and back, then play on
    assert len(log) > 100 and any(kind == LONG for _, (_, kind) in log)

    replay = Tray(SeededDice(8), seed=8)
    recorded_by_replay = recorded(replay)
    actor = Replay(log)
    replay.app.add_actor(actor)
    replay.run(buttons.now)
    assert actor.i == len(log) and not recorded_by_replay  # every press came from the actor
    assert (replay.i2c.bytes, replay.i2c.sum) == (buttons.i2c.bytes, buttons.i2c.sum)
    assert replay.fs.files == buttons.fs.files
    assert replay.app.screen == buttons.app.screen
    assert replay.display.buffer == buttons.display.buffer


def test_an_actor_press_takes_the_button_path_it_acts_on_a_dim_panel_wakes_a_dark_one():
    # Changed with "no lost press": a press on a dimmed (readable) panel acts, as a button's.
    tray = make_tray(31)
    tray.key("o")  # a game: its roll-off for who starts
    app = tray.app
    g = app.game
    seat = Replay([(ticks_add(tray.now, 70_000), ("ROLL", PRESS)),
                   (ticks_add(tray.now, 400_000), ("ROLL", PRESS)),
                   (ticks_add(tray.now, 401_000), ("ROLL", PRESS))])
    app.add_actor(seat)
    tray.run(69_000)
    assert tray.display.dimmed and not g.contest.results
    tray.run(1_500)  # the first press lights the dimmed panel and rolls
    assert seat.i == 1 and not tray.display.dimmed and len(g.contest.results) == 1
    tray.run(328_000)
    assert tray.display.asleep
    tray.run(2_000)  # the second wakes the dark panel, nothing else
    assert seat.i == 2 and not tray.display.asleep and len(g.contest.results) == 1
    tray.run(1_000)  # the third one rolls
    assert seat.i == 3 and len(g.contest.results) == 2
    assert_panel_shows(tray)


def test_a_computer_seat_plays_a_whole_game_with_no_button_pressed():
    players, preset, seed = 4, "zanzibar", 12
    by_hand = make_tray(seed)
    (want,) = play(by_hand, players, preset, SeededDice(seed + 100))

    tray = make_tray(seed)
    buttons = recorded(tray)
    seat = Seat(SeededDice(seed + 100), (players, preset))
    tray.app.add_actor(seat)
    games = []
    for _ in range(20_000):
        tray.run(500)
        g = tray.app.game
        if g is not None and (not games or games[-1] is not g):
            games.append(g)
            assert tokens_ok(g)
        if games and games[-1].over and tray.app.screen == SETUP:
            break
    (game,) = games
    assert_result_sane(game)
    assert game.to_dict() == want.to_dict()  # the same game as the one played by hand
    assert not buttons and seat.pressed > 50
    assert_panel_shows(tray)
