"""The game engine: illegal actions, save and load (state.py: the state the save is made of),
construction errors, its event sink."""

import ast
import json
import os
import re

import pytest
from dicetray import game as game_module
from dicetray.game import Game, GameError
from dicetray.options import PRESETS, changed
from dicetray.save_check import load
from scenario_runner import do
from trayhost.autoplay import ScriptedDice, SeededDice, apply, bot_action, play_random

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(os.path.dirname(HERE), "firmware", "dicetray")


def new(preset="classic", players=2, dice=(), **opts):
    opts.setdefault("start", "seat1")
    return Game(players, changed(PRESETS[preset], **opts), ScriptedDice(dice))


@pytest.mark.parametrize("players", [0, 1, 9, "3", 2.0])
def test_player_count_is_2_to_8(players):
    with pytest.raises(GameError, match="players"):
        Game(players, "classic", SeededDice(1))


def test_unknown_preset():
    with pytest.raises(GameError, match="unknown preset"):
        Game(3, "yahtzee", SeededDice(1))


def test_preset_name_or_options():
    assert Game(3, "bar41", SeededDice(1)).opts == PRESETS["bar41"]


def test_refusals_change_nothing_and_say_why():
    g = new(dice=[1, 2, 3, 4, 5, 6, 1, 2, 3])
    cases = [
        (lambda: g.throw((0,)), "before the first throw"),
        (lambda: g.stop(), "throw first"),
        (lambda: g.announce("is"), "stake"),
        (lambda: g.throw(player=1), "P1's turn"),
    ]
    for act, msg in cases:
        before = g.to_dict()
        with pytest.raises(GameError, match=msg):
            act()
        assert g.to_dict() == before
    g.throw()
    for keep, msg in [((0, 1, 2), "at least one die"), ((3,), "0..2"), ((1, 1), "twice")]:
        with pytest.raises(GameError, match=msg):
            g.throw(keep)


def test_a_fourth_throw_is_refused():
    g = new(dice=[1, 2, 3] * 4)
    for _ in range(3):
        g.throw()
    assert not g.can_throw() and g.can_stop()
    with pytest.raises(GameError, match="no throw left"):
        g.throw()
    assert g.turn.count == 3


def test_acting_after_the_end_is_refused():
    g = Game(3, "jackpot", SeededDice(5))
    play_random(g, SeededDice(6))
    for act in (g.throw, g.stop, lambda: g.announce("is")):
        with pytest.raises(GameError, match="over"):
            act()
    assert g.current is None and not g.can_throw()


def test_save_round_trip_through_json_resumes_identically():
    for preset in PRESETS:
        g = Game(4, preset, SeededDice(11))
        bot = SeededDice(12)
        for _ in range(40):
            if g.over:
                break
            apply(g, bot_action(g, bot))
        saved = json.loads(json.dumps(g.to_dict()))
        h = load(saved, SeededDice(99))
        g.roll = SeededDice(99)
        assert h == g
        b1, b2 = SeededDice(7), SeededDice(7)
        while not g.over:
            assert apply(g, bot_action(g, b1)) == apply(h, bot_action(h, b2))
        assert h.over and h.result == g.result


def test_kept_dice_are_the_players_choice_between_two_of_his_throws():
    g = new(dice=[4, 2, 6, 1, 5, 3, 3])  # classic, seat 1 starts: up to three throws
    with pytest.raises(GameError, match="nothing to keep"):
        g.keep(0)  # nothing thrown yet
    g.throw()
    assert g.turn.dice == [4, 2, 6] and g.turn.kept == 0
    assert g.keep(0) == [] and g.keep(1) == [] and g.turn.kept == 0b011
    before = g.to_dict()
    for die, msg in ((2, "at least one die"), (3, "0..2"), (-1, "0..2"), ("1", "0..2")):
        with pytest.raises(GameError, match=msg):
            g.keep(die)
        assert g.to_dict() == before
    g.keep(1)  # released
    assert g.turn.kept == 0b001
    g.throw((0,))  # the kept 4 stays, two dice fly: 1 and 5 land left to right
    assert g.turn.dice == [4, 1, 5] and g.turn.kept == 0b001  # still kept for the third
    g.throw((0, 2))
    assert g.turn.dice == [4, 3, 5] and g.turn.count == 3
    assert g.turn.kept == 0 and not g.can_keep()  # no throw left: nothing is kept
    with pytest.raises(GameError, match="nothing to keep"):
        g.keep(0)
    g.stop()
    assert g.current == 1 and g.turn.kept == 0


def test_kept_dice_are_released_when_the_player_stops_early():
    g = new(dice=[4, 2, 6])
    g.throw()
    g.keep(2)
    g.stop()  # the first player may stop after one throw
    assert g.current == 1 and g.turn.count == 0 and g.turn.kept == 0


def test_kept_dice_survive_a_save_and_its_load():
    g = new(dice=[4, 2, 6, 1])
    g.throw()
    g.keep(0)
    g.keep(2)
    saved = json.loads(json.dumps(g.to_dict()))
    assert saved["version"] == 5 and saved["turn"]["kept"] == 0b101
    h = load(saved, ScriptedDice([1]))
    assert h == g and h.turn.kept == 0b101
    h.throw((0, 2))
    assert h.turn.dice == [4, 1, 6]


def kept_save(count, kept, throws=(4, 2, 6, 1, 5, 3, 3, 3, 3)):
    g = new(dice=throws)
    for _ in range(count):
        g.throw()
    d = json.loads(json.dumps(g.to_dict()))
    d["turn"]["kept"] = kept
    return d


@pytest.mark.parametrize("count, kept, msg", [
    (1, 7, "kept must be an integer 0..6"),  # three kept: a throw would throw nothing
    (1, 8, "kept must be an integer 0..6"),
    (1, -1, "kept must be an integer 0..6"),
    (1, True, "kept must be an integer 0..6"),
    (0, 1, "dice kept with no throw to come"),  # nothing thrown yet
    (3, 1, "dice kept with no throw to come"),  # the last throw made
])
def test_saves_keeping_dice_that_cannot_be_kept_are_refused(count, kept, msg):
    load(kept_save(count, 0), None)  # the same save keeping nothing is fine
    with pytest.raises(GameError, match=msg):
        load(kept_save(count, kept), None)


def test_saves_keeping_dice_in_a_roll_off_are_refused():
    g = Game(3, "classic", SeededDice(3))  # a roll-off for who starts
    d = json.loads(json.dumps(g.to_dict()))
    d["turn"]["kept"] = 1
    with pytest.raises(GameError, match="dice kept with no throw to come"):
        load(d, None)


def corrupt(mutate):
    g = Game(3, "lebon", SeededDice(3))
    bot = SeededDice(4)
    for _ in range(12):
        apply(g, bot_action(g, bot))
    d = json.loads(json.dumps(g.to_dict()))
    mutate(d)
    return d


@pytest.mark.parametrize(
    "mutate, msg",
    [
        (lambda d: d.update(format="something-else"), "not a dice tray game"),
        (lambda d: d.update(version=6), "version"),
        (lambda d: d.pop("pot"), "keys"),
        (lambda d: d.update(extra=1), "keys"),
        (lambda d: d.update(pot=d["pot"] + 1), "add up"),
        (lambda d: d["tokens"].append(0), "one entry per player"),
        (lambda d: d.update(players=9), "players"),
        (lambda d: d["options"].update(tie="coin"), "options"),
        (lambda d: d.update(phase="halftime"), "phase"),
        (lambda d: d["turn"].update(count=4), "count"),
        (lambda d: d["turn"].update(order=[0, 0, 1]), "twice"),
        (lambda d: d["turn"].update(finals=[[1, 2, 9]]), "die"),
        (lambda d: d.update(result={"losers": [0], "winners": [], "reason": "x"}), "result"),
        (lambda d: d.update(tokens="lots"), "tokens"),
    ],
)
def test_bad_saves_are_rejected_clearly(mutate, msg):
    with pytest.raises(GameError, match=msg):
        load(corrupt(mutate), SeededDice(1))


@pytest.mark.parametrize("data", [None, [], "game", 42, {}])
def test_foreign_data_is_rejected(data):
    with pytest.raises(GameError, match="bad save"):
        load(data, SeededDice(1))


def test_scripted_dice_run_out_loudly():
    g = new(dice=[1, 2])
    with pytest.raises(IndexError):
        g.throw()


# ---- what the screens read after an action: places, the turn that ended, a decided contest ---


def test_ranked_places_the_players_done_best_first():
    g = new(players=4, dice=[6, 3, 2, 4, 2, 1, 2, 2, 1])
    for _ in range(3):
        g.throw()
        g.stop()
    # Classic: 421 beats any ordinary throw, and the nenette is the lowest of all.
    assert g.ranked() == [1, 0, 2]  # P2 421, P1 632, P3 221
    assert g.turn.order[:3] == [0, 1, 2] and g.turn.pos == 3


@pytest.mark.parametrize("tie, places", [("later", [1, 0]), ("rolloff", [0, 1])])
def test_ranked_equal_throws_follow_the_tie_rule_else_the_turn_order(tie, places):
    g = new(players=3, dice=[6, 3, 2, 2, 3, 6], tie=tie)
    for _ in range(2):
        g.throw()
        g.stop()
    assert g.ranked() == places


def test_the_turn_that_ended_stays_in_view_with_every_throw():
    g = new(players=3, dice=[6, 3, 2, 4, 2, 1, 5, 3, 1])
    for _ in range(3):
        g.throw()
        g.stop()
    ended = g.ended
    assert ended is not None and ended is not g.turn  # a new turn began
    assert ended.finals == [[6, 3, 2], [4, 2, 1], [5, 3, 1]]
    assert g.ranked(ended) == [1, 2, 0]  # 421, then 531 (the ace counts high), then 632
    assert g.ranked() == []  # nobody is done in the new turn


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_places_read_again_or_after_an_undo_are_those_worked_out_afresh(preset):
    # The places are worked out once per throw done (settle.ranking keeps them): whatever was
    # ranked before, the turn under way's or the one that ended, resumed or taken back, each
    # reading is the one a game that never ranked anything gives, in every kind of game.
    from dicetray.save_record import RECORD_FIELDS

    for players in (2, 3, 5, 8):
        rng = SeededDice(players)
        g = Game(players, PRESETS[preset], SeededDice(players * 7))
        undos = 0
        while not g.over:
            action = bot_action(g, rng)
            before = load(json.loads(json.dumps(g.to_dict())), None)
            apply(g, action)
            for turn in (None, g.ended, None, g.ended):  # the one kept, then the other
                assert g.ranked(turn) == afresh(g, turn)
            if action[0] == "stop" and undos < 3:  # taken back, then made again
                undos += 1
                g.take_back({name: getattr(before, name) for name, _ in RECORD_FIELDS})
                assert g.ranked() == before.ranked() == afresh(g)
                apply(g, action)
                assert g.ranked() == afresh(g)
        assert undos  # every game here saw a stop taken back


def afresh(g, turn=None):
    # g's places in turn as a game that never ranked anything works them out, checked against
    # a sort of every throw done by its key, a tie in turn order (the game places each throw
    # as it comes instead).
    from dicetray import settle

    t = turn or g.turn
    keys = [settle.key(g, i, t) for i in range(len(t.finals))]
    sorted_places = sorted(range(len(keys)), key=lambda i: (keys[i], -i), reverse=True)
    kept, g._keys = g._keys, None
    try:
        assert g.ranked(turn) == sorted_places
        return sorted_places
    finally:
        g._keys = kept


def test_a_decided_roll_off_stays_in_view_with_its_rolls():
    g = new(players=2, dice=[6, 3, 2, 6, 3, 2, 5, 2])
    for _ in range(2):
        g.throw()
        g.stop()
    assert g.contest is not None and g.decided is None
    g.throw()
    g.throw()
    contest, best, worst = g.decided
    assert contest.players == [0, 1] and contest.results == [[5], [2]]
    assert (best, worst) == ([0], [1]) and g.last.loser == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_play_off_values_each_roll_once_as_it_comes(monkeypatch, preset):
    # The roll that closes a play-off of eight does not value the seven before it again
    # (settle._roll_keys keeps them): no earlier roll is ranked during a later one, and what
    # each is worth is what ranking it afresh says.
    from dicetray import rules, settle
    from dicetray.state import THROW

    ranked = []
    monkeypatch.setattr(settle, "rank", lambda d, o: ranked.append(d) or rules.rank(d, o))
    earlier_rolls = checked = 0
    for players in [3, 5, 8] * 6:
        rng = SeededDice(players + checked)
        g = Game(players, PRESETS[preset], SeededDice(players * 11 + checked))
        while not g.over:
            c = g.contest
            earlier = list(c.results) if c is not None and c.kind == THROW else []
            del ranked[:]
            apply(g, bot_action(g, rng))
            assert not [d for d in earlier if any(r is d for r in ranked)]
            earlier_rolls += len(earlier)
            c = g.contest
            if c is not None and c.kind == THROW and g._rolls and g._rolls[0] is c.results:
                assert g._rolls[1] == [rules.rank(d, g.opts)[1] for d in c.results]
                checked += 1
    if PRESETS[preset].tie == "playoff":
        assert earlier_rolls > 10 and checked > 10


# ---- the event sink: every event goes through Game.emit, the engine's one way out -------------


class Recording(Game):
    """A game whose sink also keeps each event as it is told, before any action returns it."""

    def __init__(self, *args):
        self.told = []
        Game.__init__(self, *args)

    def emit(self, *event):
        self.told.append(event)
        Game.emit(self, *event)


def recorded_games():
    # Every scripted game of the scenarios (the only repeated play-off's stake is there) and a
    # bot's game of every preset: (what the sink was told, what the set-up and actions returned).
    with open(os.path.join(HERE, "vectors", "scenarios.json")) as f:
        scenarios = json.load(f)
    for sc in scenarios:
        g = Recording(sc["players"], changed(PRESETS[sc["preset"]], **sc.get("options", {})),
                      ScriptedDice(sc["dice"]))
        returned = g.take_events()
        for action in sc["actions"]:
            try:
                returned += do(g, action.lstrip("!"))
            except GameError:
                pass
        yield g.told, returned
    for players, preset in enumerate(PRESETS, 2):  # 2 players in classic (a two-player pass)
        g = Recording(players, preset, SeededDice(players))
        returned = g.take_events()
        play_random(g, SeededDice(players + 100), each=returned.extend)
        yield g.told, returned


def test_every_event_goes_through_the_public_sink_in_order():
    documented = set(re.findall(r'^  \("(\w+)"', game_module.__doc__, re.M))
    assert len(documented) == 12  # the docstring's table, read: roll, stop, ... over
    kinds = set()
    for told, returned in recorded_games():
        assert told == returned  # nothing returned that the sink was not told, in its order
        kinds.update(ev[0] for ev in told)
    assert kinds == documented  # every kind the docstring lists was told, and no other


def test_the_engine_calls_one_way_game_settle_payout():
    # Each module's imports of the engine's own modules: no call runs back up the chain.
    def engine_imports(name):
        with open(os.path.join(ENGINE, name + ".py")) as f:
            tree = ast.parse(f.read())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "dicetray":
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module.rpartition(".")[2])
        return found & {"game", "settle", "payout"}

    assert engine_imports("game") == {"settle"}
    assert engine_imports("settle") == {"payout"}
    assert engine_imports("payout") == set()
