"""Buttons: debounce, press / long press, stuck buttons, clear() and tick wrap-around."""

import pytest
from dicetray.buttons import LONG, PRESS, Buttons, Edges
from hypothesis import given, settings
from hypothesis import strategies as st
from trayhost.pins import TICKS_MAX, TICKS_PERIOD, EdgePin, FakeClock, FakePin, ticks_diff

NAMES = ("KEEP1", "KEEP2", "KEEP3", "ROLL", "OK")
DEBOUNCE = Buttons.debounce_ms
LONG_MS = Buttons.long_ms


class Rig:
    """Five fake buttons, OK long-capable, polled every ``step`` ms by a fake clock; with
    ``edges``, the pins flag their changes as the board's interrupts do."""

    def __init__(self, start=0, down=(), step=1, long_press=("OK",), edges=False):
        self.clock = FakeClock(start)
        self.edges = Edges(len(NAMES)) if edges else None
        if edges:  # the board's order: the names sorted, as Buttons scans a dict of pins
            self.pins = {name: EdgePin(self.edges, sorted(NAMES).index(name), self.clock)
                         for name in NAMES}
        else:
            self.pins = {name: FakePin() for name in NAMES}
        for name in down:
            self.pins[name].press()
        self.buttons = Buttons(self.pins, self.clock.ticks_diff, long_press=long_press,
                               edges=self.edges)
        self.step = step
        self.elapsed = 0
        self.log = []  # (ms since the rig started, name, kind)

    def is_down(self, name):
        """Whether name is down, debounced, as of the last poll (the tray itself only asks
        whether any is: Buttons.any_down)."""
        return self.buttons._down[self.buttons.names.index(name)]

    def poll(self):
        """One poll, drained: every event that poll has to give, in order."""
        got = []
        for _ in range(len(NAMES) + 1):  # each button has at most one thing to say per poll
            event = self.buttons.poll(self.clock.ticks_ms())
            if event is None:
                return got
            got.append(event)
            self.log.append((self.elapsed, *event))
        raise AssertionError(f"poll keeps giving events: {got}")

    def run(self, ms):
        """Poll now and then every ``step`` ms for ``ms`` ms; return the events seen."""
        got = self.poll()
        for _ in range(ms // self.step):
            self.clock.sleep_ms(self.step)
            self.elapsed += self.step
            got += self.poll()
        return got

    def held_up(self, ms):
        """The main loop held up (a save): ms pass with no poll."""
        self.clock.sleep_ms(ms)
        self.elapsed += ms

    def press(self, name):
        self.pins[name].press()

    def release(self, name):
        self.pins[name].release()


def test_clean_press_is_reported_at_once_and_only_once():
    rig = Rig()
    assert rig.run(100) == []
    rig.press("ROLL")
    assert rig.poll() == [("ROLL", PRESS)]
    assert rig.run(300) == []
    rig.release("ROLL")
    assert rig.run(300) == []
    rig.press("ROLL")
    assert rig.poll() == [("ROLL", PRESS)]


def test_events_are_the_same_preallocated_tuples():
    rig = Rig()
    rig.press("KEEP2")
    (first,) = rig.poll()
    rig.release("KEEP2")
    rig.run(200)
    rig.press("KEEP2")
    (second,) = rig.poll()
    assert first is second
    assert first == ("KEEP2", PRESS)


def bounce(rig, name, toggles, final):
    """``toggles`` level changes of ``name`` polled within about 5 ms, ending at ``final``."""
    pin = rig.pins[name]
    got = []
    for k in range(toggles):
        pin.value(pin.level ^ 1)
        got += rig.poll()
        if k % 2:
            rig.clock.sleep_ms(1)
            rig.elapsed += 1
    pin.value(final)
    return got + rig.poll()


@pytest.mark.parametrize("name", ["KEEP1", "OK"])
def test_contact_bounce_gives_exactly_one_press(name):
    rig = Rig()
    got = bounce(rig, name, 10, 0)
    got += rig.run(100)
    got += bounce(rig, name, 10, 1)
    got += rig.run(200)
    assert got == [(name, PRESS)]


def test_plain_press_is_not_delayed_by_bounce():
    rig = Rig()
    got = bounce(rig, "KEEP3", 1, 0)  # the very first edge
    assert got == [("KEEP3", PRESS)]


def test_short_gap_while_held_is_bounce_not_a_new_press():
    rig = Rig()
    rig.press("ROLL")
    rig.run(100)
    rig.release("ROLL")
    rig.run(DEBOUNCE - 5)
    rig.press("ROLL")
    rig.run(100)
    assert [kind for _, _, kind in rig.log] == [PRESS]


def test_up_for_debounce_ms_is_a_release():
    rig = Rig()
    rig.press("ROLL")
    rig.run(100)
    rig.release("ROLL")
    rig.run(DEBOUNCE)
    rig.press("ROLL")
    rig.run(100)
    assert [kind for _, _, kind in rig.log] == [PRESS, PRESS]


def test_long_hold_gives_one_long_at_long_ms_and_no_press():
    rig = Rig()
    rig.press("OK")
    rig.run(3000)
    rig.release("OK")
    rig.run(300)
    assert rig.log == [(LONG_MS, "OK", LONG)]


def test_short_press_of_long_capable_button_gives_press_on_release():
    rig = Rig()
    rig.press("OK")
    assert rig.run(200) == []
    assert rig.is_down("OK")
    rig.release("OK")
    rig.run(300)
    # Said once the release has held for said_ms (a steady press: its bounce is long over).
    assert rig.log == [(200 + Buttons.said_ms, "OK", PRESS)]


def test_a_long_capable_press_ends_after_debounce_however_soon_its_meaning_is_said():
    rig = Rig()
    rig.press("OK")
    rig.run(100)
    rig.release("OK")
    rig.run(Buttons.said_ms + 2)  # said, but the release still bounces
    assert [kind for _, _, kind in rig.log] == [PRESS] and rig.is_down("OK")
    rig.press("OK")  # bounce: the contact closes again for a moment
    rig.run(3)
    rig.release("OK")
    rig.run(DEBOUNCE - 1)
    assert rig.is_down("OK")  # not yet up for debounce_ms since the bounce
    rig.run(2)
    assert not rig.is_down("OK") and len(rig.log) == 1  # the bounce made no press


def test_a_glitch_shorter_than_said_ms_in_a_held_ok_is_not_a_release():
    rig = Rig()
    rig.press("OK")
    rig.run(200)
    rig.release("OK")
    rig.run(Buttons.said_ms - 2)  # one poll or two of "up": a wobbly contact, not a release
    rig.press("OK")
    rig.run(LONG_MS)
    assert [kind for _, _, kind in rig.log] == [LONG]


def test_release_just_before_long_ms_is_a_press():
    rig = Rig()
    rig.press("OK")
    rig.run(LONG_MS - 1)
    rig.release("OK")
    rig.run(LONG_MS)
    assert [kind for _, _, kind in rig.log] == [PRESS]


@pytest.mark.parametrize("name", ["ROLL", "OK"])
def test_button_held_forever_never_repeats(name):
    rig = Rig(step=10)
    rig.press(name)
    rig.run(10 * 60 * 1000)
    assert len(rig.log) == 1
    assert rig.is_down(name)


@pytest.mark.parametrize("name", ["KEEP1", "OK"])
def test_button_stuck_at_boot_is_mute_until_released(name):
    rig = Rig(down=(name,))
    assert rig.is_down(name)
    assert rig.buttons.any_down()
    assert rig.run(3000) == []
    rig.release(name)
    assert rig.run(300) == []
    assert not rig.buttons.any_down()
    rig.press(name)
    rig.run(100)
    rig.release(name)
    rig.run(100)
    assert [event for _, *event in rig.log] == [[name, PRESS]]


def test_stuck_button_does_not_block_the_others():
    rig = Rig(down=("KEEP1",))
    rig.run(100)
    rig.press("ROLL")
    assert rig.poll() == [("ROLL", PRESS)]


def test_two_buttons_pressed_together_are_both_reported():
    rig = Rig()
    rig.press("KEEP1")
    rig.press("KEEP3")
    assert sorted(rig.poll()) == [("KEEP1", PRESS), ("KEEP3", PRESS)]
    assert rig.run(500) == []


def test_all_buttons_pressed_together_are_all_reported_once():
    rig = Rig()
    for name in NAMES:
        rig.press(name)
    got = rig.poll()
    rig.run(1000)
    for name in NAMES:
        rig.release(name)
    rig.run(100)
    assert sorted(got) == sorted((name, PRESS) for name in NAMES if name != "OK")
    assert [event for *_, event in rig.log].count(LONG) == 1


def test_one_event_per_poll_when_not_drained_nobody_starves():
    rig = Rig()
    for name in ("KEEP1", "KEEP2", "KEEP3"):
        rig.press(name)
    now = rig.clock.ticks_ms()
    got = [rig.buttons.poll(now) for _ in range(4)]
    assert sorted(got[:3]) == [("KEEP1", PRESS), ("KEEP2", PRESS), ("KEEP3", PRESS)]
    assert got[3] is None


@pytest.mark.parametrize("before_wrap", [1, 150, LONG_MS - 1])
def test_long_press_across_tick_wrap(before_wrap):
    start = TICKS_PERIOD - before_wrap
    rig = Rig(start=start)
    rig.press("OK")
    rig.run(LONG_MS + 100)
    assert rig.clock.ticks_ms() < start  # the clock did wrap during the press
    rig.release("OK")
    rig.run(200)
    assert rig.log == [(LONG_MS, "OK", LONG)]


def test_short_press_and_release_debounce_across_tick_wrap():
    rig = Rig(start=TICKS_MAX - 20)
    rig.press("OK")
    rig.run(10)
    rig.release("OK")
    rig.run(200)
    rig.press("ROLL")
    rig.run(5)
    rig.release("ROLL")
    rig.run(200)
    assert rig.log == [(10 + DEBOUNCE, "OK", PRESS), (210, "ROLL", PRESS)]


def test_clear_swallows_a_pending_long_capable_press_and_its_release():
    rig = Rig()
    rig.press("OK")
    rig.run(100)
    rig.buttons.clear()
    assert rig.run(2000) == []  # no LONG
    rig.release("OK")
    assert rig.run(300) == []  # no PRESS at release
    rig.press("OK")
    rig.run(50)
    rig.release("OK")
    rig.run(100)
    assert [kind for _, _, kind in rig.log] == [PRESS]


def test_clear_mutes_a_press_not_yet_polled():
    rig = Rig()
    rig.run(100)  # e.g. an animation ran and nobody polled while ROLL went down
    rig.press("ROLL")
    rig.buttons.clear()
    assert rig.run(200) == []
    rig.release("ROLL")
    assert rig.run(200) == []
    rig.press("ROLL")
    assert rig.poll() == [("ROLL", PRESS)]


def test_clear_mutes_a_held_button_reading_up_mid_bounce():
    rig = Rig()
    rig.press("OK")
    rig.run(100)
    rig.release("OK")  # one bouncy "up" reading while the finger is still on it
    rig.buttons.clear()
    rig.press("OK")
    rig.run(1000)
    rig.release("OK")
    rig.run(100)
    assert rig.log == []


def test_an_up_reading_seen_before_clear_does_not_count_towards_the_release():
    # The wake-up press: an "up" bounce is polled, the contact closes again, the app clears.
    rig = Rig()
    rig.press("ROLL")
    rig.run(100)
    rig.release("ROLL")
    rig.run(1)  # the bounce is seen: the release timer starts
    rig.press("ROLL")
    rig.buttons.clear()
    rig.clock.sleep_ms(DEBOUNCE + 10)  # the app is busy (a save, a redraw): no poll meanwhile
    rig.release("ROLL")  # one bounce ...
    rig.run(1)
    rig.press("ROLL")  # ... and back down: the same press, not a new one
    rig.run(200)
    rig.release("ROLL")
    rig.run(100)
    assert rig.log[1:] == []  # only the first press, before the clear


def test_press_and_release_between_two_polls_is_not_seen_without_the_board_s_edges():
    rig = Rig()
    rig.run(10)
    rig.press("ROLL")
    rig.held_up(60)
    rig.release("ROLL")
    rig.held_up(100)
    assert rig.run(100) == []


@pytest.mark.parametrize("name", ["KEEP2", "OK"])
def test_a_tap_made_while_the_loop_was_held_up_is_said_at_the_next_poll(name):
    rig = Rig(edges=True)
    assert rig.run(10) == []
    rig.held_up(30)
    rig.press(name)  # a 50 ms tap in the middle of a 200 ms save
    rig.held_up(50)
    rig.release(name)
    rig.held_up(120)
    assert rig.poll() == [(name, PRESS)]  # OK's short meaning: it was let go long before
    got = bounce(rig, name, 6, 1)  # the tap's release still bouncing after the save
    assert got + rig.run(300) == []
    assert not rig.buttons.any_down()
    rig.press(name)  # the next press is a press as ever
    got = rig.run(80)
    rig.release(name)
    assert got + rig.run(100) == [(name, PRESS)]
    assert rig.log[0][0] == 10 + 200  # the tap: said by the first poll after the save


def test_a_button_pressed_while_the_loop_was_held_up_and_still_down_is_one_press():
    rig = Rig(edges=True)
    rig.run(10)
    rig.press("KEEP1")
    rig.held_up(100)
    assert rig.poll() == [("KEEP1", PRESS)]
    rig.run(200)
    rig.release("KEEP1")
    assert rig.run(200) == []
    rig.press("OK")  # OK pressed during a save: held 700 ms from the poll that reads it is LONG
    rig.held_up(100)
    assert rig.run(LONG_MS - 1) == []
    assert rig.run(1) == [("OK", LONG)]


def test_edges_between_polls_that_come_on_time_are_noise():
    rig = Rig(edges=True, step=5)
    rig.run(10)
    for name in NAMES:  # a glitch of each line, 1 ms wide, between two polls 5 ms apart
        rig.press(name)
        rig.release(name)
        assert rig.run(5) == []
    assert rig.run(300) == [] and not rig.buttons.any_down()
    assert rig.edges.flag == bytearray(len(NAMES))  # every poll zeroes them


def test_a_release_bouncing_through_a_save_is_not_a_new_press():
    rig = Rig(edges=True)
    rig.press("ROLL")
    assert rig.poll() == [("ROLL", PRESS)]
    rig.run(100)
    rig.release("ROLL")  # let go, bouncing, just as a save holds the loop up
    rig.press("ROLL")
    rig.release("ROLL")
    rig.held_up(150)
    assert rig.run(300) == [] and not rig.buttons.any_down()


def test_a_held_button_let_go_and_pressed_again_while_the_loop_was_held_up_is_a_new_press():
    rig = Rig(edges=True)
    rig.press("KEEP1")
    assert rig.poll() == [("KEEP1", PRESS)]  # ... and a save holds the loop up 250 ms
    rig.held_up(120)
    rig.release("KEEP1")
    rig.held_up(80)
    rig.press("KEEP1")
    rig.held_up(50)
    assert rig.poll() == [("KEEP1", PRESS)]  # down steadily for 50 ms: the second press
    assert rig.run(100) == []
    rig.release("KEEP1")
    assert rig.run(300) == [] and not rig.buttons.any_down()
    assert [e[0] for e in rig.log] == [0, 250]


@pytest.mark.parametrize("name", ["KEEP1", "OK"])
def test_a_key_let_go_while_the_loop_was_held_up_counts_as_up_since_it_was_let_go(name):
    rig = Rig(edges=True)
    rig.press(name)
    got = rig.run(60)
    rig.release(name)  # let go 60 ms into a 155 ms save...
    rig.held_up(155)
    got += rig.run(15)
    rig.press(name)  # ... and pressed again 15 ms after it: up 110 ms, a release long sure
    got += rig.run(100)
    rig.release(name)
    got += rig.run(100)
    assert got == [(name, PRESS), (name, PRESS)]


def test_ok_let_go_and_pressed_again_while_the_loop_was_held_up_says_both_presses():
    rig = Rig(edges=True)
    rig.press("OK")
    rig.run(10)
    rig.held_up(100)  # OK let go short of LONG_MS, then pressed again, during a save
    rig.release("OK")
    rig.held_up(100)
    rig.press("OK")
    rig.held_up(50)
    assert rig.poll() == [("OK", PRESS)]  # the first press's meaning
    assert rig.run(200) == []
    rig.release("OK")
    assert rig.run(100) == [("OK", PRESS)]  # the second's, as it is let go


def test_a_press_again_just_before_the_loop_resumes_is_said_once_the_pin_is_steady():
    rig = Rig(edges=True)
    rig.press("ROLL")
    rig.poll()
    rig.held_up(100)
    rig.release("ROLL")
    rig.held_up(95)
    rig.press("ROLL")  # 5 ms before the poll: a press, or a release still bouncing?
    rig.held_up(5)
    assert rig.poll() == []
    assert rig.run(9) == []
    assert rig.run(1) == [("ROLL", PRESS)]  # down steady_ms since its last change
    assert rig.log[-1][0] == 195 + Buttons.steady_ms


def test_a_release_bouncing_as_the_loop_resumes_is_no_new_press():
    rig = Rig(edges=True)
    rig.press("ROLL")
    rig.poll()
    rig.held_up(150)
    rig.release("ROLL")
    rig.held_up(1)
    rig.press("ROLL")  # its bounce reads "down" at the poll...
    rig.held_up(1)
    assert rig.poll() == []
    rig.run(3)
    rig.release("ROLL")  # ... and settles up
    assert rig.run(300) == [] and not rig.buttons.any_down()


def test_a_press_s_bounce_noted_late_by_a_flash_erase_is_no_new_press():
    rig = Rig(edges=True)
    rig.press("KEEP2")
    assert rig.poll() == [("KEEP2", PRESS)]
    rig.held_up(Buttons.again_ms - 5)  # its bounce, noted as the erase ends
    rig.release("KEEP2")
    rig.press("KEEP2")
    rig.held_up(150)
    assert rig.run(300) == []
    rig.release("KEEP2")
    assert rig.run(100) == [] and not rig.buttons.any_down()


def test_clear_forgets_a_tap_made_while_the_loop_was_held_up():
    rig = Rig(edges=True)
    rig.run(10)
    rig.press("KEEP3")
    rig.held_up(50)
    rig.release("KEEP3")
    rig.held_up(50)
    rig.buttons.clear()
    assert rig.run(300) == []


def test_edges_must_have_one_byte_per_button():
    with pytest.raises(ValueError, match="edges"):
        Buttons({"OK": FakePin()}, ticks_diff, edges=Edges(2))


def test_ok_is_pending_from_its_press_until_its_meaning_is_said():
    # The app makes OK's stop while it is pending (App.stop_ahead) and shows it when said.
    rig = Rig(step=5)
    pending = rig.buttons.pending
    assert not pending("OK")
    rig.pins["OK"].press()
    assert rig.run(0) == [] and pending("OK")
    rig.run(100)
    rig.pins["OK"].release()
    got = []
    while not got:
        assert pending("OK")  # let go: pending till the release is sure
        got = rig.run(5)
    assert got == [("OK", PRESS)] and not pending("OK")
    rig.run(100)
    rig.pins["OK"].press()
    rig.run(LONG_MS - 10)
    assert pending("OK")
    assert rig.run(20) == [("OK", LONG)] and not pending("OK")  # said: held long
    rig.pins["KEEP1"].press()
    assert rig.run(5) == [("KEEP1", PRESS)] and not pending("KEEP1")  # said as it goes down
    rig.buttons.clear()
    assert not pending("OK")  # mute till let go: nothing to say


def test_ok_without_its_long_meaning_says_its_press_as_it_goes_down_and_only_then():
    # Where OK held means OK (the setup) the app switches its long meaning off.
    rig = Rig(step=5)
    rig.buttons.long_meaning("OK", False)
    rig.pins["OK"].press()
    assert rig.run(0) == [("OK", PRESS)] and not rig.buttons.pending("OK")
    assert rig.run(LONG_MS + 50) == []  # held long: no LONG
    rig.pins["OK"].release()
    assert rig.run(DEBOUNCE + 10) == []  # let go: nothing more
    rig.buttons.long_meaning("OK", True)
    rig.pins["OK"].press()
    assert rig.run(10) == [] and rig.buttons.pending("OK")  # back: it waits to be let go
    rig.buttons.long_meaning("OK", False)  # switched during a press: that press keeps its course
    rig.pins["OK"].release()
    assert rig.run(DEBOUNCE + 10) == [("OK", PRESS)]
    rig.buttons.long_meaning("OK", True)
    rig.pins["OK"].press()
    rig.run(LONG_MS - 10)
    rig.buttons.long_meaning("OK", False)
    assert rig.run(20) == [("OK", LONG)]  # held long, begun with its long meaning


def test_the_debounced_state_and_any_down_follow_the_pins():
    rig = Rig()
    assert not rig.buttons.any_down()
    rig.press("KEEP2")
    assert not rig.is_down("KEEP2")  # not polled yet
    rig.poll()
    assert rig.is_down("KEEP2") and rig.buttons.any_down()
    assert not rig.is_down("KEEP1")
    rig.release("KEEP2")
    rig.run(DEBOUNCE - 1)
    assert rig.is_down("KEEP2")  # could still be bounce
    rig.run(1)
    assert not rig.buttons.any_down()


def test_active_high_and_pins_as_a_list():
    clock = FakeClock()
    pin = FakePin(level=0)
    buttons = Buttons([("B", FakePin(level=0)), ("A", pin)], clock.ticks_diff, active_low=False)
    assert buttons.names == ("B", "A")
    assert buttons.poll(clock.ticks_ms()) is None
    pin.value(1)
    assert buttons.poll(clock.ticks_ms()) == ("A", PRESS)


def test_tunables_can_be_given_per_instance():
    clock = FakeClock()
    pin = FakePin()
    buttons = Buttons({"OK": pin}, clock.ticks_diff, long_ms=100, long_press=("OK",))
    pin.press()
    assert buttons.poll(clock.ticks_ms()) is None
    clock.sleep_ms(100)
    assert buttons.poll(clock.ticks_ms()) == ("OK", LONG)
    assert Buttons.long_ms == LONG_MS


def test_unknown_long_press_button_is_refused():
    with pytest.raises(ValueError):
        Buttons({"OK": FakePin()}, ticks_diff, long_press=("OKK",))


def test_fake_clock_wraps_like_micropython():
    clock = FakeClock(start=TICKS_MAX)
    before = clock.ticks_ms()
    clock.sleep_ms(2)
    assert clock.ticks_ms() == 1
    assert clock.ticks_diff(clock.ticks_ms(), before) == 2
    assert clock.ticks_diff(before, clock.ticks_ms()) == -2
    assert ticks_diff(TICKS_PERIOD // 2, 0) == -(TICKS_PERIOD // 2)
    assert ticks_diff(TICKS_PERIOD // 2 - 1, 0) == TICKS_PERIOD // 2 - 1
    assert clock.ticks_add(TICKS_MAX, 5) == 4
    assert clock.ticks_add(0, -1) == TICKS_MAX


# A physical press, as the pin sees it: a bounce burst (random levels for random short times,
# all within the debounce time) before a steady hold, another after it, then a steady rest long
# enough to be told from bounce.
def _within_debounce(runs):
    kept, total = [], 0
    for level, ms in runs:
        if total + ms >= DEBOUNCE:
            break
        kept.append((level, ms))
        total += ms
    return kept


bursts = st.lists(st.tuples(st.integers(0, 1), st.integers(1, 8)), max_size=12).map(
    _within_debounce
)
short_hold = st.integers(DEBOUNCE, 300)
long_hold = st.integers(LONG_MS + 100, LONG_MS + 500)
rest = st.integers(DEBOUNCE + 12, 400)
presses = st.tuples(bursts, st.one_of(short_hold, long_hold), bursts, rest)


def timeline(stream):
    """(level, ms) runs for a list of presses, when each press starts, and the kind it gives."""
    runs = [(1, 50)]
    starts = []
    expected = []
    t = 50
    for press_burst, hold, release_burst, rest_ms in stream:
        before = sum(ms for _, ms in press_burst)
        span = before + hold + sum(ms for _, ms in release_burst)
        assert hold >= LONG_MS or span < LONG_MS  # no press near the boundary
        # The press starts at the burst's first "down" (or with the hold), and is steady after.
        first_down = next((k for k, (level, _) in enumerate(press_burst) if level == 0), None)
        lead = before if first_down is None else sum(ms for _, ms in press_burst[:first_down])
        starts.append((t + lead, t + before))
        expected.append(LONG if hold >= LONG_MS else PRESS)
        runs += press_burst
        runs.append((0, hold))
        runs += release_burst
        runs.append((1, rest_ms))
        t += span + rest_ms
    return runs, starts, expected


@settings(max_examples=150, deadline=None)
@given(
    stream=st.lists(presses, min_size=1, max_size=4),
    long_capable=st.booleans(),
    step=st.integers(1, 5),
    start=st.one_of(st.integers(0, TICKS_MAX), st.integers(TICKS_MAX - 3000, TICKS_MAX)),
)
def test_random_bounce_gives_one_event_per_physical_press(stream, long_capable, step, start):
    runs, starts, expected = timeline(stream)
    clock = FakeClock(start)
    pin = FakePin()
    long_press = ("B",) if long_capable else ()
    buttons = Buttons({"B": pin}, clock.ticks_diff, long_press=long_press)
    got = []  # (ms since start, kind)
    t = 0
    run_end = 0
    for level, ms in runs:
        pin.value(level)
        run_end += ms
        while t < run_end:  # poll every `step` ms while the pin holds this run's level
            event = buttons.poll(clock.ticks_ms())
            if event is not None:
                got.append((t, event[1]))
            clock.sleep_ms(step)
            t += step
    kinds = [kind for _, kind in got]
    assert kinds == (expected if long_capable else [PRESS] * len(expected))
    if not long_capable:
        # Answered at once: by the first poll after the bounce burst began to settle.
        for (when, _), (first_edge, steady) in zip(got, starts, strict=True):
            assert first_edge <= when < steady + step


@settings(max_examples=150, deadline=None)
@given(
    stream=st.lists(st.tuples(bursts, short_hold, bursts, rest, st.booleans(),
                              st.integers(0, 1000)), min_size=1, max_size=4),
    long_capable=st.booleans(),
    step=st.integers(1, 5),
)
def test_presses_made_while_the_loop_is_held_up_give_one_event_each(stream, long_capable, step):
    # Some presses start while the main loop is held up (a save: no poll), which ends anywhere
    # from their first bounce to their rest (leaving the release time to be sure before the
    # next press). The board's edges tell Buttons of a press it could not read.
    changes, polls, starts, resumes = [(0, 1)], set(range(0, 50, step)), [], []
    t = 50
    for press_burst, hold, release_burst, rest_ms, held_up, where in stream:
        before = sum(ms for _, ms in press_burst)
        span = before + hold + sum(ms for _, ms in release_burst)
        first_down = next((k for k, (level, _) in enumerate(press_burst) if level == 0), None)
        lead = before if first_down is None else sum(ms for _, ms in press_burst[:first_down])
        starts.append((t + lead, t + before))
        u = t
        for level, ms in [*press_burst, (0, hold), *release_burst, (1, rest_ms)]:
            changes.append((u, level))
            u += ms
        resume = t + where * (span + rest_ms - DEBOUNCE - step - 2) // 1000 if held_up else t
        resumes.append(resume)
        polls.update(range(resume, t + span + rest_ms, step))
        t += span + rest_ms
    edges = Edges(1)
    clock = FakeClock()
    pin = EdgePin(edges, 0, clock)
    buttons = Buttons({"B": pin}, clock.ticks_diff, long_press=("B",) if long_capable else (),
                      edges=edges)
    got = []
    moments = sorted(set(polls) | {when for when, _ in changes})
    levels = dict(changes)
    for now in moments:
        if now in levels:
            pin.value(levels[now])
        if now in polls:
            clock.now = now
            event = buttons.poll(now)
            if event is not None:
                got.append((now, event[1]))
    assert [kind for _, kind in got] == [PRESS] * len(stream)
    if not long_capable:  # said by the first poll that can tell
        for (when, _), (first_edge, steady), resume in zip(got, starts, resumes, strict=True):
            assert first_edge <= when < max(resume, steady) + step


@pytest.mark.parametrize("first, second", [("KEEP2", "ROLL"), ("ROLL", "KEEP2"),
                                           ("KEEP3", "KEEP1")])
def test_presses_seen_at_one_poll_speak_in_the_order_they_went_down(first, second):
    rig = Rig(edges=True, step=5)
    rig.run(20)
    for warm_up in ("KEEP3", "KEEP1"):  # the scan's round starts after either of them
        rig.press(warm_up)
        rig.run(20)
        rig.release(warm_up)
        rig.run(100)
        rig.press(first)
        rig.clock.sleep_ms(1)
        rig.press(second)  # both down before the next poll, first one a millisecond sooner
        rig.clock.sleep_ms(2)
        assert rig.run(20) == [(first, PRESS), (second, PRESS)], warm_up
        rig.release(first)
        rig.release(second)
        rig.run(100)
