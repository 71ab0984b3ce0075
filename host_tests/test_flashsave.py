"""A game's save on the real littlefs code (tools/bench/flashsave.py: littlefs-python with the rp2
port's configuration): what it costs the flash, counted (never timed), and power cuts at every
program and erase of a save."""

import json

import pytest
from bench.flashsave import LastReleaseStore, LittleFsAdapter, measure, summary
from dicetray.game import Game
from dicetray.store import Store
from trayhost.autoplay import SeededDice, apply, bot_action


def test_a_saved_action_almost_never_erases_a_sector_and_programs_a_page_or_so():
    figures = summary(measure(Store, players=(3, 8)))
    assert figures["save_actions"] > 1000
    assert figures["save_erases_per_action"] <= 0.1
    assert figures["save_programs_per_action"] <= 2
    assert figures["save_flash_ms_p50"] <= figures["save_flash_ms_p95"] <= figures[
        "save_flash_ms_max"]


def test_taking_back_stops_and_stakes_costs_the_save_no_more_than_its_actions():
    """Every stop or stake first slipped and taken back: the undo keeps nothing on flash, its
    save is one action's, a record rewritten in place."""
    plain = measure(Store, players=(3,))
    slips = measure(Store, players=(3,), slips=True)
    assert len(slips) > len(plain) + 100  # a slip and its undo: two saves more each time
    figures = summary(slips)
    assert figures["save_erases_per_action"] <= 0.1
    assert figures["save_programs_per_action"] <= 2

def test_the_model_sees_the_erase_the_last_release_s_save_cost():
    figures = summary(measure(LastReleaseStore, players=(3,)), "v4_")
    assert figures["v4_erases_per_action"] >= 0.9 and figures["v4_programs_per_action"] >= 5


def saves(players, preset, seed, count):
    game = Game(players, preset, SeededDice(seed), computers=[1], hints=True)
    bot = SeededDice(seed + 1)
    out = [game.to_dict()]
    while len(out) < count and not game.over:
        apply(game, bot_action(game, bot))
        out.append(game.to_dict())
    return out


def loads(fs):
    return Store(fs=fs).load_game(lambda d: (d, None))


def test_a_game_saved_on_littlefs_resumes_after_a_remount():
    fs = LittleFsAdapter()
    store = Store(fs=fs)
    for data in saves(5, "bar41", 7, 60):
        store.save_game(data)
    image = bytes(fs.device.buffer)
    assert loads(LittleFsAdapter(image)) == (data, None)


@pytest.mark.parametrize("which", ["an action", "a new game", "an action of 8 players"])
def test_a_power_cut_before_any_program_or_erase_of_a_save_keeps_the_old_or_the_new(which):
    # The flash as the cut leaves it, before each write of the chip, mounted again.
    fs = LittleFsAdapter()
    store = Store(fs=fs)
    history = saves(8 if "8" in which else 3, "lebon", 11, 40)
    for data in history[:-1]:
        store.save_game(data)
    old, new = (history[-2], history[-1])
    if which == "a new game":
        new = saves(4, "classic", 12, 1)[0]
    fs.device.images = images = []
    store.save_game(new)
    fs.device.images = None
    assert images, "the save wrote nothing"
    seen = set()
    for image in images:
        data, problem = loads(LittleFsAdapter(image))
        assert problem is None
        if which == "a new game":
            assert data in (old, new, None)  # at a game's start: the old game, or no game
        else:
            assert data in (old, new)
        seen.add(json.dumps(data, sort_keys=True))
    # cuts before the commit find the old save
    assert json.dumps(old if which != "a new game" else None, sort_keys=True) in seen
    assert loads(LittleFsAdapter(bytes(fs.device.buffer))) == (new, None)
