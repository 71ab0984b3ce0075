"""Properties of whole random games: tokens kept, limits kept, games end, saves resume exactly."""

import json

from dicetray.game import MAX_THROWS, Game
from dicetray.options import OPTIONS, PRESETS, changed
from dicetray.rules import FIRST_OUT, LAST_HOLDER
from dicetray.save_check import load
from dicetray.store import Store
from fakes.flash import FakeFlash
from hypothesis import given, settings
from hypothesis import strategies as st
from trayhost.autoplay import SeededDice, apply, bot_action, play_random

TURN_CAP = 2000  # generous: the longest of thousands of bot games is a few hundred turns

presets = st.sampled_from(sorted(PRESETS))
players = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**31)


def option_strategy():
    parts = {}
    for name, _, allowed, _, _, _ in OPTIONS:
        if name == "tokens":  # a choice or a range, every value allowed; few tokens: short games
            allowed = range(allowed[0], 46)
        parts[name] = st.sampled_from(allowed)
    return st.fixed_dictionaries(parts)


def check_invariants(g, events, total):
    assert sum(g.tokens) + g.pot == total
    assert all(t >= 0 for t in g.tokens) and g.pot >= 0
    for ev in events:
        if ev[0] == "roll":
            n = ev[3]
            assert 1 <= n <= MAX_THROWS
            if g.opts.dry_charge and g.phase == "charge":
                assert n == 1


def play_checked(g, bot):
    total = g.opts.tokens
    while not g.over:
        follower_limit = g.turn.limit if g.contest is None and g.turn.pos > 0 else None
        events = apply(g, bot_action(g, bot))
        check_invariants(g, events, total)
        for ev in events:
            if ev[0] == "roll" and follower_limit:
                assert ev[3] <= follower_limit, "a follower threw past the limit"
        assert g.turn.number <= TURN_CAP, "game ran past %d turns" % TURN_CAP


@settings(max_examples=300, deadline=None)
@given(presets, players, seeds)
def test_presets_random_games_keep_tokens_and_limits_and_end(preset, n, seed):
    g = Game(n, preset, SeededDice(seed))
    play_checked(g, SeededDice(seed + 1))
    r = g.result
    assert r.losers and set(r.losers).isdisjoint(r.winners)
    if g.opts.end == LAST_HOLDER:
        assert r.losers == [p for p in range(n) if g.tokens[p] == g.opts.tokens]
        assert sorted(r.winners + r.losers) == list(range(n))
    else:
        assert all(g.tokens[p] == 0 for p in r.winners)


@settings(max_examples=300, deadline=None)
@given(option_strategy(), players, seeds)
def test_any_option_mix_keeps_tokens_and_ends(opts, n, seed):
    g = Game(n, changed(PRESETS["classic"], **opts), SeededDice(seed))
    play_checked(g, SeededDice(seed ^ 0x5A5A))


@settings(max_examples=60, deadline=None)
@given(presets, players, seeds, st.integers(min_value=5, max_value=99), st.booleans())
def test_save_and_load_at_every_point_gives_the_same_game(preset, n, seed, tokens, seats):
    """Saved as the tray saves (the setup in game.json, each action's record in game.now) and
    read back as its boot reads them, at every point of a game."""
    opts = changed(PRESETS[preset], tokens=tokens)
    g = Game(n, opts, SeededDice(seed), computers=list(range(1, n)) if seats else [],
             hints=seats)
    g.take_events()
    bot = SeededDice(seed + 7)
    store = Store(FakeFlash())
    while not g.over:
        store.save_game(g.to_dict())
        saved, problem = Store(store.fs.reboot()).load_game(lambda d: (d, None))
        assert problem is None
        twin = load(json.loads(json.dumps(saved)), g.roll.copy())
        assert twin == g
        action = bot_action(g, bot)
        assert apply(twin, action) == apply(g, action)
        assert twin == g


def test_thousands_of_random_games_end_well_under_the_cap():
    longest = 0
    for seed in range(2000):
        preset = sorted(PRESETS)[seed % 5]
        g = Game(2 + seed % 7, preset, SeededDice(seed))
        play_random(g, SeededDice(seed + 1))
        longest = max(longest, g.turn.number)
        assert sum(g.tokens) == g.opts.tokens and g.pot == 0 or g.opts.end == FIRST_OUT
    assert longest < TURN_CAP
