"""A scripted game of four at the tray (trayhost.trayrun's harness, the simulator's), played
as a bar plays it: nobody presses DONE, a minute passes between two throws, a finger lands on
KEEP while the dice roll, the power is cut with dice kept, someone asks to quit and says no.

Every press is accounted for by the rules: on a turn a ROLL is a throw, a KEEP keeps or releases
a die, an OK stops before the throws are used up; nothing else is pressed on a turn, and each
player whose throws are used up moves the game on without a press.
"""

import json

from dicetray.clock import ANIM_MS, DIM_MS, READ_MS
from dicetray.save_check import load
from dicetray.screens import OVER, PLAY, QUIT, RESULT, RESUME, SETUP, STANDINGS, TALLY
from fakes.flash import FakeFlash
from test_tray import (
    assert_panel_shows,
    assert_result_sane,
    idle,
    kept_marks,
    levels,
    make_tray,
    mark,
    state,
)
from trayhost.autoplay import SeededDice
from trayhost.trayrun import bot_keys

PLAYERS, PRESET = 4, "classic"


class Table:
    """The tray and what happened at it: presses on turns by kind, turns that ended alone."""

    def __init__(self, seed):
        self.flash = FakeFlash()
        self.tray = make_tray(seed, flash=self.flash)
        self.bot = SeededDice(seed + 1)
        self.throws = self.keeps = self.stops = self.alone = 0
        self.done = set()  # the one-off scenes already played

    @property
    def app(self):
        return self.tray.app

    def turn_key(self, k):
        """Press k on a turn; it must do what the rules say k does there, and nothing else."""
        g = self.app.game
        count, kept, player = g.turn.count, g.turn.kept, g.current
        early = k == "o" and count < g.max_throws()
        self.tray.key(k)
        g = self.app.game
        if k == "r":
            assert g.turn.count == count + 1 and g.current == player, "a ROLL is a throw"
            self.throws += 1
        elif k == "o":
            assert early, "OK is pressed only to stop before the throws are used up"
            assert self.app.screen != PLAY or g.contest is not None or g.turn.count == 0
            self.stops += 1
        else:
            assert g.turn.kept == kept ^ (1 << "123".index(k)), "a KEEP toggles its die"
            self.keeps += 1
        assert mark(self.tray) == "", "no press of the bot is refused"

    def let_the_turn_end(self):
        """Throws used up: nobody presses; the dice are read, then the game moves on."""
        g = self.app.game
        player, number = g.current, g.turn.number
        self.tray.run(READ_MS // 2)
        assert (g.current, g.turn.number) == (player, number)  # still on the panel
        self.tray.run(READ_MS // 2 + ANIM_MS + 100)
        assert self.app.screen != PLAY or (g.current, g.turn.number) != (player, number)
        self.alone += 1

    def play(self):
        started = False
        while True:
            app = self.app
            g = app.game
            started = started or app.screen == PLAY
            if started and app.screen == SETUP:
                return
            if app.screen == PLAY and g.must_stop():
                self.let_the_turn_end()
                continue
            keys = bot_keys(app, self.bot, (PLAYERS, PRESET))
            if app.screen != PLAY or g.contest is not None:
                self.tray.keys(keys)
                continue
            if self.scenes(keys):
                continue  # the bot chooses again
            for k in keys:
                if self.app.game.must_stop():
                    break  # the throw landed the last one: it ends by itself
                if k in "123" and "cut" not in self.done and self.app.game.turn.count:
                    self.turn_key(k)
                    self.power_cut()
                    continue
                self.turn_key(k)

    def scenes(self, keys):
        """One-off moments of a bar's evening, each checked once, before the bot's keys; True
        when one took the bot's turn (it must look at the panel again)."""
        g = self.app.game
        tray = self.tray
        if "refused" not in self.done and g.turn.pos > 0 and g.turn.count == 0:
            before = state(tray)
            tray.key("o")  # a follower's OK before throwing
            assert state(tray) == before and mark(tray) == "THROW FIRST"
            self.done.add("refused")
        elif "dimmed" not in self.done and g.turn.number == 2 and g.turn.count == 0:
            idle(tray, DIM_MS + 1000)  # a minute between two players
            assert tray.display.dimmed
            self.done.add("dimmed")  # the bot's ROLL below throws at once
        elif "quit" not in self.done and g.turn.number == 3:
            before = state(tray)
            tray.keys("OO")
            assert self.app.screen == QUIT
            tray.key("o")  # no
            assert state(tray) == before and self.app.screen == PLAY
            self.done.add("quit")
        elif "animation" not in self.done and keys[0] == "r" and g.turn.count == 1 \
                and g.max_throws() == 3:
            self.keep_while_rolling()
            return True
        return False

    def keep_while_rolling(self):
        # The second throw; the bot's next choice pressed while the dice still roll.
        tray = self.tray
        g = self.app.game
        levels(tray, tray.pins["ROLL"], ((0, 20), (1, 50)))
        self.throws += 1
        assert self.app.clock.rolling and g.turn.count == 2
        wanted = bot_keys(self.app, self.bot, (PLAYERS, PRESET))  # on the landed dice
        if wanted[0] in "123":
            kept = g.turn.kept
            levels(tray, tray.pins["KEEP" + wanted[0]], ((0, 20), (1, 50)))
            self.keeps += 1
            assert not self.app.clock.rolling
            assert g.turn.kept == kept ^ (1 << "123".index(wanted[0]))
            assert_panel_shows(tray)
            self.done.add("animation")
        tray.run(500)

    def power_cut(self):
        # Dice just kept, the plug pulled: the tray comes back with the same dice kept.
        g = self.app.game
        saved = g.to_dict()
        marks = kept_marks(self.tray)
        self.tray = make_tray(7, flash=self.flash.reboot())
        self.flash = self.tray.fs
        assert self.app.screen == RESUME
        self.tray.key("o")
        assert self.app.game.to_dict() == saved and kept_marks(self.tray) == marks
        self.done.add("cut")


def test_a_game_of_four_at_the_bar_takes_no_needless_press_and_loses_none():
    table = Table(101)
    table.play()
    app = table.app
    assert table.done == {"refused", "dimmed", "quit", "animation", "cut"}
    saved = table.tray.store.saved[-1]  # the finished game, as last saved
    assert saved["phase"] == "over" and "game.json" not in table.flash.files
    assert_result_sane(load(saved, None))
    # Players whose throws were used up pressed nothing more: the old DONE presses.
    assert table.alone > 10 and table.throws > table.alone
    assert app.game is None and app.screen == SETUP
    losers = saved["result"]["losers"]
    paid = json.loads(table.flash.files["tally.json"])["paid"]
    assert paid == [1 if p in losers else 0 for p in range(8)]
    assert app.tally.paid == paid


def test_the_scripted_game_shows_the_end_then_the_tally_then_a_new_game():
    table = Table(103)
    seen = []
    real = table.tray.app.show

    def show(screen):
        seen.append(screen)
        real(screen)

    table.tray.app.show = show
    table.done.update({"refused", "dimmed", "quit", "animation", "cut"})  # the game alone
    table.play()
    # OK: the tally, OK: a new game
    assert seen[-4:] == [RESULT, OVER, TALLY, SETUP] and STANDINGS not in seen
    saved = table.tray.store.saved[-1]
    assert_result_sane(load(saved, None))
    paid = json.loads(table.flash.files["tally.json"])["paid"]
    assert sum(paid) == len(saved["result"]["losers"])
