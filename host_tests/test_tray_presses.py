"""No needless press and no lost press: turns that end by themselves, presses in the roll
animation, kept dice across a power cut, and the counts of presses a turn costs.

Press counts are the rules' own: a throw is one ROLL, a keep one KEEP, stopping early one OK;
a player whose throws are used up presses nothing more (the turn ends READ_MS after the dice
land). Each figure below is worked out by hand in its comment.
"""


from dicetray.clock import ANIM_MS, DIM_MS, READ_MS
from dicetray.screens import OUTCOME, PLAY, RESULT, RESUME, STANDINGS
from fakes.flash import FakeFlash, saved_game
from test_tray import (
    assert_panel_shows,
    idle,
    kept_marks,
    levels,
    make_tray,
    mark,
    state,
    to_first_throw,
)
from trayhost.trayrun import POLL_MS, PRESS_MS, REST_MS

KEY_MS = PRESS_MS + REST_MS  # a key press: down, up, and the rest after it


class PressCount:
    """Counts the presses the buttons report (each a finger on a button)."""

    def __init__(self, tray):
        self.n = 0
        poll = tray.buttons.poll

        def counted(now):
            event = poll(now)
            if event is not None:
                self.n += 1
            return event

        tray.buttons.poll = counted


def choose(tray, preset_steps, players=4):
    """From the setup: the preset preset_steps after classic, players players, then OK."""
    keys = "2" + "r" * preset_steps + "1"  # RULES, next preset(s), back up to PLAYERS
    keys += ("r" if players > 4 else "3") * abs(players - 4)
    tray.keys(keys + "o")


def to_charge(tray):
    """Through the roll-off for who starts, to the charge's first turn: nothing thrown yet."""
    for _ in range(30):
        app = tray.app
        if app.screen == PLAY and app.game.contest is None:
            return app.game
        tray.key("r" if app.screen == PLAY else "o")
    raise AssertionError("no charge")


def test_a_classic_turn_of_three_throws_and_a_keep_costs_four_presses():
    # The first player of a classic turn has three throws: ROLL, KEEP1, ROLL, ROLL is 4 presses;
    # DONE is no longer needed (it was a fifth press).
    tray = make_tray(61)
    g = to_charge(tray)
    player = g.current
    count = PressCount(tray)
    tray.keys("r1rr")
    assert count.n == 4 and g.turn.count == 3 and g.current == player
    landed = tray.now - KEY_MS + ANIM_MS  # the last ROLL went down KEY_MS ago
    tray.run(landed + READ_MS - tray.now - 2 * POLL_MS)
    assert g.current == player and g.turn.pos == 0  # still on the panel, to be read...
    tray.run(4 * POLL_MS)
    assert g.turn.pos == 1 and g.current != player and g.turn.count == 0  # ...then it ends
    assert g.turn.limit == 3 and count.n == 4
    assert_panel_shows(tray)
    # The follower must throw three times too: three presses, then the turn moves on alone.
    tray.keys("rrr")
    tray.run(READ_MS)
    assert count.n == 7 and g.turn.pos == 2


def test_a_one_throw_turn_costs_one_press_in_a_dry_charge():
    # Le bon rules play the charge dry: one throw each. Four players: four ROLLs in all, and
    # the turn's result shows with no other press (it used to take a DONE each: eight).
    tray = make_tray(62)
    choose(tray, 4)  # classic -> jackpot -> zanzibar -> bar41 -> lebon
    g = to_charge(tray)
    assert g.opts.dry_charge and g.n == 4 and g.max_throws() == 1
    count = PressCount(tray)
    for i in range(4):
        tray.key("r")
        if i < 3:
            tray.run(READ_MS)
            assert g.turn.pos == i + 1
    tray.run(READ_MS)
    assert count.n == 4
    assert tray.app.screen == RESULT or g.contest is not None  # the result, or a tie to settle


def test_ok_or_roll_before_the_dice_were_read_ends_the_turn_at_once():
    for key in "or":
        tray = make_tray(63)
        g = to_charge(tray)
        tray.keys("rrr")
        player = g.current
        start = tray.now
        tray.key(key)  # well before READ_MS
        assert g.current != player and tray.now - start == KEY_MS < READ_MS


def test_a_turn_waits_on_the_standings_and_ends_once_it_shows_again():
    tray = make_tray(64)
    g = to_charge(tray)
    tray.keys("rrrO")  # throws used up, then the standings before READ_MS
    assert tray.app.screen == STANDINGS and g.turn.pos == 0
    tray.run(3 * READ_MS)
    assert tray.app.screen == STANDINGS and g.turn.pos == 0  # nothing happens out of sight
    tray.key("r")  # back to the game: its dice are read again
    assert g.turn.pos == 0
    tray.run(READ_MS - KEY_MS + 2 * POLL_MS)
    assert g.turn.pos == 1


def test_a_keep_during_the_roll_animation_lands_on_the_dice():
    tray = make_tray(65)
    g = to_charge(tray)
    app = tray.app
    roll, keep = tray.pins["ROLL"], tray.pins["KEEP2"]
    tray.key("r")
    levels(tray, roll, ((0, 20), (1, 50)))  # the second throw: the dice fly...
    assert app.clock.rolling and g.turn.count == 2 and g.turn.kept == 0
    levels(tray, keep, ((0, 20), (1, 50)))  # ...and KEEP2 goes down while they do
    assert not app.clock.rolling and g.turn.kept == 0b010  # landed, die 2 kept
    assert kept_marks(tray) == [False, True, False]
    assert_panel_shows(tray)  # the real dice, not the animation's faces
    second = g.turn.dice[1]
    tray.key("r")
    assert g.turn.count == 3 and g.turn.dice[1] == second


def test_roll_or_ok_during_the_roll_animation_only_land_the_dice():
    # A throw or a stop is a choice made on dice that were seen: during the animation ROLL and
    # OK show the dice at once and do nothing else.
    for name in ("ROLL", "OK"):
        tray = make_tray(66)
        g = to_charge(tray)  # the first player may stop at any time
        app = tray.app
        tray.key("r")
        levels(tray, tray.pins["ROLL"], ((0, 20), (1, 50)))
        before = state(tray)
        levels(tray, tray.pins[name], ((0, 20), (1, 50)))
        assert not app.clock.rolling and state(tray) == before and g.turn.count == 2
        assert_panel_shows(tray)


def test_a_keep_in_the_last_throw_s_animation_lands_and_says_no_throw_is_left():
    tray = make_tray(67)
    g = to_charge(tray)
    tray.keys("rr")
    levels(tray, tray.pins["ROLL"], ((0, 20), (1, 50)))
    assert tray.app.clock.rolling and g.turn.count == 3
    levels(tray, tray.pins["KEEP1"], ((0, 20), (1, 50)))
    assert not tray.app.clock.rolling and g.turn.kept == 0
    assert mark(tray) == "NO THROW LEFT"


def test_a_refusal_s_mark_goes_with_its_screen():
    tray = make_tray(75)
    g = to_charge(tray)
    tray.keys("rr")
    player = g.current
    tray.key("r")  # the last throw (down at KEY_MS ago): the turn ends READ_MS after landing
    tray.run(ANIM_MS + READ_MS - 500 - KEY_MS)
    levels(tray, tray.pins["KEEP1"], ((0, 20), (1, 50)))  # 0.5 s before: no throw left...
    assert mark(tray) == "NO THROW LEFT" and g.current == player  # ...for a second
    tray.run(500)  # the turn ended before the mark's second was over: the mark went with it
    assert g.current != player and mark(tray) == ""
    assert_panel_shows(tray)


def test_a_press_on_a_dimmed_panel_throws():
    # A minute between two players is normal in a bar: the first ROLL after it throws.
    tray = make_tray(68)
    g = to_charge(tray)
    idle(tray, DIM_MS + 1000)
    assert tray.display.dimmed
    count = PressCount(tray)
    tray.key("r")
    assert g.turn.count == 1 and count.n == 1 and not tray.display.dimmed


def test_a_power_cut_keeps_the_kept_dice():
    flash = FakeFlash()
    tray = make_tray(69, flash=flash)
    g = to_first_throw(tray)
    tray.keys("13")
    assert g.turn.kept == 0b101
    assert saved_game(flash.files)["turn"]["kept"] == 0b101  # saved at once
    dice = list(g.turn.dice)

    again = make_tray(70, flash=flash.reboot())  # the power comes back
    app = again.app
    assert app.screen == RESUME
    again.key("o")
    assert app.screen == PLAY and app.game.turn.kept == 0b101 and app.game.turn.dice == dice
    assert kept_marks(again) == [True, False, True]
    rolled = again.roll.rolled
    again.key("r")
    assert again.roll.rolled == rolled + 1  # one die thrown, the kept two stay
    assert [app.game.turn.dice[i] for i in (0, 2)] == [dice[0], dice[2]]


def test_a_power_cut_after_the_last_throw_resumes_a_turn_that_ends_by_itself():
    flash = FakeFlash()
    tray = make_tray(71, flash=flash)
    g = to_charge(tray)
    tray.keys("rrr")
    player = g.current
    again = make_tray(72, flash=flash.reboot())
    app = again.app
    again.key("o")  # resume
    assert app.screen == PLAY and app.game.current == player and app.game.must_stop()
    again.run(READ_MS)
    assert app.game.current != player


def test_every_refused_press_of_a_turn_says_why():
    tray = make_tray(73)
    g = to_charge(tray)
    tray.keys("ro")  # the first player throws once and stops: the others have one throw
    assert g.turn.pos == 1 and g.turn.limit == 1
    # KEEP1 would take that stop back (the bottom line offers it): KEEP2 and OK are refused.
    for key, why in (("2", "THROW FIRST"), ("o", "THROW FIRST")):
        tray.key(key)
        assert mark(tray) == why
    tray.key("r")  # the follower's one throw: none left
    assert mark(tray) == ""
    tray.key("2")
    assert mark(tray) == "NO THROW LEFT"
    assert_panel_shows(tray)


def test_the_outcome_and_results_still_take_one_press_each():
    # What the auto end does not touch: an outcome or a result waits for OK. The outcome of
    # the roll-off for who starts is the one screen before the first turn (it says who starts;
    # the turn shows the charge and the pot).
    tray = make_tray(74)
    tray.key("o")  # a classic game: the roll-off for who starts
    while tray.app.game.contest is not None:
        tray.key("r")
    assert tray.app.screen == OUTCOME
    tray.run(3 * READ_MS)
    assert tray.app.screen == OUTCOME
    tray.key("o")
    assert tray.app.screen == PLAY


def edge_buttons(tray):
    """The tray's buttons read through pins whose changes are noted, as the board's interrupts
    note them (dicetray.buttons.Edges): what tells the order of presses seen at one poll."""
    from dicetray.app import LONG_BUTTONS
    from dicetray.buttons import Buttons, Edges
    from trayhost.pins import EdgePin, ticks_diff
    from trayhost.trayrun import NAMES

    names = sorted(NAMES)
    edges = Edges(len(names))
    pins = {name: EdgePin(edges, names.index(name), tray) for name in names}
    tray.pins.update(pins)
    tray.buttons = Buttons(pins, ticks_diff, long_press=LONG_BUTTONS, edges=edges)
    tray.app.buttons = tray.buttons


def test_keep2_pressed_just_before_roll_at_one_poll_keeps_its_die_and_after_it_does_not():
    for first, second in (("2", "r"), ("r", "2")):
        tray = make_tray(31)
        edge_buttons(tray)
        g = to_first_throw(tray)
        # The buttons' scan resumes after the last one that spoke: KEEP3, then KEEP1, put
        # the other of the two first in either order.
        tray.keys("33" if first == "2" else "11")
        assert g.turn.kept == 0 and g.turn.count == 1 and g.turn.limit == 0  # 3 throws
        throws = []
        real_throw = g.throw

        def throw(keep=(), throws=throws, real_throw=real_throw, **kw):
            throws.append(tuple(keep))
            return real_throw(keep, **kw)

        g.throw = throw
        pins = tray.pins
        names = {"2": "KEEP2", "r": "ROLL"}
        pins[names[first]].press()
        tray.now += 2
        pins[names[second]].press()
        tray.run(PRESS_MS)
        pins[names[first]].release()
        pins[names[second]].release()
        tray.run(REST_MS)
        # KEEP2 first: the throw keeps the second die; ROLL first: it throws all three, and
        # KEEP2 keeps the second die of the new throw.
        assert throws == [(1,) if first == "2" else ()] and g.turn.count == 2
        assert g.turn.kept == 2
        assert_panel_shows(tray)


def test_where_ok_held_means_ok_it_acts_as_it_goes_down_and_its_release_says_nothing():
    # On the setup (and the resume prompt, a notice, quitting) OK held means what OK means:
    # it does not wait to be let go, as KEEP and ROLL do not.
    tray = make_tray(8)
    app = tray.app
    presses = PressCount(tray)
    tray.pins["OK"].press()
    tray.now += POLL_MS
    app.step(tray.now)  # the poll that sees it go down says it, and it starts the game
    assert app.game is not None and app.screen != "setup" and presses.n == 1
    shown = app.screen
    tray.run(900)  # held long: nothing more, no table
    tray.pins["OK"].release()
    tray.run(REST_MS)
    assert app.screen == shown and presses.n == 1  # the release said nothing


def test_ok_on_a_dark_setup_only_wakes_it():
    tray = make_tray(9)
    app = tray.app
    idle(tray, 301_000)  # five minutes: dark
    assert app.display.asleep
    tray.key("o")
    assert not app.display.asleep and app.screen == "setup" and app.game is None
    tray.key("o")
    assert app.game is not None

