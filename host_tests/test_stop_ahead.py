"""A stop made as OK goes down (App.stop_ahead): the engine's work and the drawing are done while
the finger is on OK, and its release only sends the frame. Nothing of it shows, saves or sounds
before the release; held long (the table) or with another key first, it is taken back unseen.
Proved against a twin tray that makes every stop at OK's release, as before: the same bytes on
the bus, the same files, the same tunes, the same game, after every press."""

import json
import random

import pytest
from dicetray.screens import PLAY, RESULT, SETUP, STANDINGS
from test_micropython_app import FIRMWARE
from test_tray import ToneLog, to_first_throw
from trayhost.autoplay import SeededDice
from trayhost.trayrun import POLL_MS, RecordingI2C, Tray, bot_keys

KEYS = {"1": "KEEP1", "2": "KEEP2", "3": "KEEP3", "r": "ROLL", "o": "OK"}


def tray(seed, ahead=True):
    """A tray on the recording bus (a checksum of every byte), the memory flash and a tone log;
    the keepalive off, so that only presses put bytes on the bus. ahead=False: every stop is
    made at OK's release (the twin)."""
    t = Tray(SeededDice(seed), i2c=RecordingI2C(), seed=seed, buzzer=ToneLog())
    t.display.panel.refresh_ms = 0
    if not ahead:
        t.app.may_stop_ahead = lambda: False
    return t


def seen(t):
    """What a player and the flash could tell of a tray: its bus stream, its files, its tunes,
    its screen, its game."""
    g = t.app.game
    return (t.i2c.sum, t.i2c.bytes, dict(t.fs.files), list(t.buzzer.tones), t.app.screen,
            None if g is None else g.to_dict(), list(t.app.tally.paid), list(t.app.tally.last))


def hold(t, k, ms, also=None):
    """Press key k for ms, and with also=(key, after_ms, for_ms) another key meanwhile."""
    pin = t.pins[KEYS[k]]
    pin.press()
    if also is None:
        t.run(ms)
    else:
        other = t.pins[KEYS[also[0]]]
        t.run(also[1])
        other.press()
        t.run(also[2])
        other.release()
        t.run(max(POLL_MS, ms - also[1] - also[2]))
    pin.release()
    t.run(t.rest_ms)


def count_calls(obj, name):
    """Count the calls of obj.name (an instance's method, wrapped on the instance)."""
    calls = [0]
    method = getattr(obj, name)

    def counted(*args):
        calls[0] += 1
        return method(*args)

    setattr(obj, name, counted)
    return calls


def last_stop_of_a_turn(t, seed):
    """Play the bot on t until the last player of a turn may stop: that stop ends the turn."""
    bot = SeededDice(seed)
    for _ in range(500):
        app = t.app
        g = app.game
        keys = bot_keys(app, bot, (3, "classic"))
        if keys == "o" and app.screen == PLAY and g.contest is None and g.turn.count \
                and g.turn.pos == len(g.turn.order) - 1:
            return g
        t.keys(keys)
    raise AssertionError("no turn's last stop")


def test_while_ok_is_held_on_a_stop_nothing_shows_saves_or_sounds_and_its_release_only_sends():
    t = tray(3)
    g = last_stop_of_a_turn(t, 103)
    app = t.app
    before = seen(t)
    stops = count_calls(g, "stop")
    renders = count_calls(app, "render")
    t.pins["OK"].press()
    t.run(100)
    assert stops[0] == 1  # made as OK went down
    assert seen(t)[:4] == before[:4]  # not a byte, not a file, not a tone: the turn shows
    renders_down = renders[0]
    # The release: the step that says OK's press sends the frame, and draws nothing more.
    t.pins["OK"].release()
    sent = t.i2c.bytes
    steps = 0
    while t.i2c.bytes == sent:
        steps += 1
        assert steps < 20, "the release never sent the stop's frame"
        t.now += POLL_MS
        app.step(t.now)
    assert renders[0] == renders_down and stops[0] == 1
    assert app.screen == RESULT and t.i2c.bytes - sent > 500  # the result: a new screen
    assert len(t.buzzer.tones) > len(before[3])  # the result's tune, at the release
    assert t.fs.files != before[2]  # saved once shown
    # The same frame, files and tune as a stop made at the release.
    twin = tray(3, ahead=False)
    last_stop_of_a_turn(twin, 103)
    hold(twin, "o", 100)
    t.run(t.rest_ms)
    assert seen(t) == seen(twin)


def test_a_keepalive_due_while_ok_is_held_follows_the_stop_s_frame():
    # The panel's keepalive (the configuration and the whole frame, every refresh_ms) falls
    # due while the finger is on OK: the release sends the stop's frame alone, as with no
    # keepalive at all, and the keepalive goes at the next poll.
    frames = []
    for keepalive in (False, True):
        t = tray(3)
        last_stop_of_a_turn(t, 103)
        panel = t.display.panel
        if keepalive:
            panel.refresh_ms = 5000
            panel.last_refresh = t.now - panel.refresh_ms + 50  # due 50 ms into the hold
        t.pins["OK"].press()
        t.run(100)
        t.pins["OK"].release()
        sent = t.i2c.bytes
        while t.i2c.bytes == sent:
            t.now += POLL_MS
            t.app.step(t.now)
        frames.append(t.i2c.bytes - sent)
        if keepalive:
            t.now += POLL_MS
            t.app.step(t.now)
            assert t.i2c.bytes - sent - frames[-1] == \
                len(panel.init_seq) + t.display.full_frame_bytes() + 2
    assert frames[0] == frames[1] and t.app.screen == RESULT


def test_ok_held_long_on_a_turn_opens_the_table_and_takes_the_stop_back_unwritten():
    t = tray(5)
    g = to_first_throw(t)
    before = seen(t)
    hold(t, "o", 900)  # the table opens at 700 ms held
    assert t.app.screen == STANDINGS
    assert t.app.game.to_dict() == before[5] and t.fs.files == before[2]
    assert t.buzzer.tones == before[3]
    while t.app.screen != PLAY:  # back to the turn, as it was: it stops as ever
        t.key("o")
    assert g.turn.count == 1 and g.to_dict() == before[5]
    player = g.current
    t.key("o")
    assert g.current != player


@pytest.mark.parametrize("other", ["1", "2", "r"])
def test_another_key_while_ok_is_held_acts_on_the_turn_then_ok_stops_it(other):
    t = tray(7)
    twin = tray(7, ahead=False)
    for x in (t, twin):
        to_first_throw(x)
        hold(x, "o", 200, also=(other, 40, 60))
    assert seen(t) == seen(twin)


def test_a_cut_while_ok_is_held_resumes_the_turn_before_the_stop():
    t = tray(11)
    g = to_first_throw(t)
    was = g.to_dict()
    t.pins["OK"].press()
    t.run(50)
    assert t.app.held is not None
    again = Tray(SeededDice(11), i2c=RecordingI2C(), store=None, fs=t.fs, seed=11)  # replugged
    again.key("o")  # the resume prompt: OK plays on
    assert again.app.screen == PLAY and again.app.game.to_dict() == was


def random_game(seed, players, preset, computers=0, hints=False):
    """The bot plays on a tray that makes stops ahead and on its twin; OK is held for a random
    time (now and then long: the table), and now and then another key comes while it is held.
    The last `computers` seats are the tray's (their moments: half a second's wait). Compared
    after every press. Returns how many stops were made ahead and taken back."""
    rnd = random.Random(seed)
    a, b = tray(seed), tray(seed, ahead=False)
    for x in (a, b):
        x.app.units[SETUP].settings.update(computers=computers, hints=hints)
    made = count_calls(a.app, "stop_ahead")
    back = count_calls(a.app, "take_ahead_back")
    bot = SeededDice(seed + 100)
    want = (players, preset)
    for _ in range(3000):
        g = a.app.game
        if g is not None and not g.over and g.current in g.computers \
                and a.app.screen == PLAY:
            for x in (a, b):
                x.run(500)
            assert seen(a) == seen(b)
            continue
        keys = bot_keys(a.app, bot, want)
        for k in keys:
            if k == "o":
                roll = rnd.random()
                ms = 900 if roll < 0.1 else rnd.choice((5, 10, 30, 60, 120, 400))
                also = None
                if 0.1 <= roll < 0.25 and ms >= 60:
                    also = (rnd.choice("123r"), rnd.choice((0, 5, 20)), rnd.choice((5, 30)))
                for x in (a, b):
                    hold(x, k, ms, also)
            else:
                for x in (a, b):
                    x.key(k)
            assert seen(a) == seen(b)
            assert a.app.held is None
        if a.app.game is None and a.app.tally.last:  # the game was played to its end
            break
    else:
        raise AssertionError("no end")
    return made[0], back[0]


@pytest.mark.parametrize("seed,players,preset", [
    (1, 2, "classic"), (2, 3, "lebon"), (3, 4, "classic"), (4, 5, "lebon"),
])
def test_a_game_with_stops_made_ahead_is_the_game_made_at_each_release(seed, players, preset):
    made, back = random_game(seed, players, preset)
    assert made > 5 and back > 0


@pytest.mark.parametrize("seed,players,computers", [(5, 4, 2), (6, 8, 4)])
def test_with_seats_and_hints_too(seed, players, computers):
    made, back = random_game(seed, players, "classic", computers, hints=True)
    assert made > 5 and back > 0


def test_a_game_s_last_stop_taken_back_counts_no_round():
    t = tray(13)
    bot = SeededDice(113)
    ended = False
    for _ in range(3000):
        app = t.app
        keys = bot_keys(app, bot, (2, "classic"))
        if keys == "o" and app.screen == PLAY and app.game.can_stop():
            paid = list(app.tally.paid)
            t.pins["OK"].press()
            t.run(100)
            if app.game.over:  # the last stop, made ahead: its round counted in memory only
                ended = True
                t.run(800)  # held long: the table; the stop taken back
                t.pins["OK"].release()
                t.run(t.rest_ms)
                assert not app.game.over and app.tally.paid == paid
                assert app.screen == STANDINGS
                break
            t.pins["OK"].release()
            t.run(t.rest_ms)
            continue
        for k in keys:
            t.key(k)
    assert ended


def test_a_stop_taken_back_costs_the_bus_nothing_and_is_made_again_while_ok_is_held():
    # Taken back, the turn is drawn again over the stop's frame, never sent: the panel shows
    # the turn already, so only the press that came first puts bytes on the bus (a kept die).
    # OK still held, its stop is made again on the turn as it is now.
    t = tray(17)
    g = to_first_throw(t)
    player = g.current
    sent = t.i2c.bytes
    t.pins["OK"].press()
    t.run(100)
    t.pins["KEEP2"].press()
    t.now += POLL_MS
    t.app.step(t.now)  # KEEP2's press: the stop taken back, the die kept
    assert t.app.held is None and g.current == player and g.turn.kept == 2
    assert 0 < t.i2c.bytes - sent < 200  # the kept die's frame alone
    t.run(50)
    assert t.app.held is not None and g.current != player  # made again, not shown
    t.pins["KEEP2"].release()
    t.pins["OK"].release()
    t.run(t.rest_ms)
    assert t.app.held is None and g.current != player


ON_MICROPYTHON = """
import json
from trayhost.autoplay import SeededDice
from trayhost.trayrun import POLL_MS, RecordingI2C, Tray, bot_keys

KEYS = {"1": "KEEP1", "2": "KEEP2", "3": "KEEP3", "r": "ROLL", "o": "OK"}


def tray(ahead):
    t = Tray(SeededDice(21), i2c=RecordingI2C(), seed=21)
    t.display.panel.refresh_ms = 0
    if not ahead:
        t.app.may_stop_ahead = lambda: False
    return t


def seen(t):
    g = t.app.game
    return [t.i2c.sum, t.i2c.bytes, sorted(t.fs.files.items()), t.buzzer.tones, t.app.screen,
            None if g is None else g.to_dict(), list(t.app.tally.paid)]


def hold(t, ms, also):
    pin = t.pins["OK"]
    pin.press()
    if also is None:
        t.run(ms)
    else:
        other = t.pins[KEYS[also]]
        t.run(20)
        other.press()
        t.run(10)
        other.release()
        t.run(ms - 30)
    pin.release()
    t.run(t.rest_ms)


a, b = tray(True), tray(False)
made = [0, 0]
ahead, back = a.app.stop_ahead, a.app.take_ahead_back


def count_ahead(now):
    made[0] += 1
    ahead(now)


def count_back():
    made[1] += 1
    back()


a.app.stop_ahead = count_ahead
a.app.take_ahead_back = count_back
bot = SeededDice(121)
x = 7
same = True
for _ in range(3000):
    keys = bot_keys(a.app, bot, (3, "lebon"))
    for k in keys:
        if k == "o":
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            ms = (5, 60, 120, 900, 60, 200, 40, 120)[x % 8]
            also = "12r"[x % 3] if ms >= 60 and x % 5 == 0 else None
            for t in (a, b):
                hold(t, ms, also)
        else:
            for t in (a, b):
                t.key(k)
        same = same and seen(a) == seen(b)
    if a.app.game is None and a.app.tally.last:
        break
print(json.dumps([made[0], made[1], same, a.app.screen]))
"""


@pytest.mark.micropython
def test_on_micropython_stops_made_ahead_play_the_game_made_at_each_release(micropython,
                                                                            host_package):
    """The .mpy firmware on MicroPython: a lebon game of 3 with OK held for varied times (long
    ones: the table; another key meanwhile now and then) equals its twin's after every press."""
    out = micropython(ON_MICROPYTHON, paths=[FIRMWARE, host_package], mpy=True, timeout=600)
    made, back, same, screen = json.loads(out.strip().splitlines()[-1])
    assert same and made > 5 and back > 0 and screen == "setup"
