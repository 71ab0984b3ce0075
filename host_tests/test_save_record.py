"""The record of a saved game (save_record.py; store_read.read_record reads it back): what
changes each action, packed into one short line of game.now that names the game.json it
belongs to. The store's side of the two files
(which is written when, power cuts) is in test_store.py and test_tray_power.py."""

import json
import os

import pytest
from dicetray.game import Game
from dicetray.options import PRESET_NAMES, PRESETS, changed
from dicetray.save_record import RECORD_FIELDS, SETUP_KEYS, checksum, record, setup_of
from dicetray.state import GAME_FIELDS, SaveError
from dicetray.store_read import read_record as read
from hypothesis import given, settings
from hypothesis import strategies as st
from trayhost.autoplay import SeededDice, apply, bot_action

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
INLINE = 128  # littlefs keeps a file this short in its folder's metadata (the rp2 port's cache)


def files(data):
    """game.json's bytes and game.now's for the saved dict data."""
    raw = json.dumps(setup_of(data)).encode()
    return raw, record(data, checksum(raw))


def back(raw, line):
    return read(json.loads(raw), raw, line)


def states(players, preset, seed, tokens=None, computers=()):
    """Every saved dict of one bot game, its first and its finished one included."""
    opts = PRESETS[preset] if tokens is None else changed(PRESETS[preset], tokens=tokens)
    game = Game(players, opts, SeededDice(seed), computers=computers, hints=seed % 2 == 1)
    bot = SeededDice(seed + 1)
    out = [game.to_dict()]
    while not game.over:
        apply(game, bot_action(game, bot))
        out.append(game.to_dict())
    return out


def test_the_setup_and_the_record_hold_every_field_of_a_save_once():
    assert set(SETUP_KEYS) == {"format", "version", "players", "options", "computers", "hints"}
    assert [f for f in GAME_FIELDS if f[0] not in SETUP_KEYS] == list(RECORD_FIELDS)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 8), st.integers(0, 2**31),
       st.sampled_from([None, 5, 35, 99]))
def test_every_state_of_a_game_reads_back_as_it_was_saved(preset, players, seed, tokens):
    for data in states(players, preset, seed, tokens, computers=[players - 1]):
        raw, line = files(data)
        assert back(raw, line) == data
        assert len(line) <= INLINE and line.isascii() and b"\n" not in line


def worst(players=8, tokens=99):
    """A saved dict whose record is the longest: the packed size depends on the lengths of the
    lists and the size of the numbers, never on the values of a die, a player or a count (each
    is a digit of a fixed radix). So every list is at its longest, all at once (more than any
    one moment holds), and every number at the largest the checker allows."""
    opts = changed(PRESETS["classic"], tokens=tokens).to_dict()
    every = list(range(players))
    big = 1 << 30
    throw = [6, 5, 4]
    return {
        "format": "dicetray-game", "version": 5, "players": players, "options": opts,
        "computers": every[1:], "hints": True, "tokens": [tokens] * players, "pot": tokens,
        "out": every[:-1], "phase": "decharge",
        "turn": {"number": big, "order": every, "pos": players - 1, "limit": 3, "count": 3,
                 "dice": throw, "kept": 6, "finals": [throw] * players,
                 "counts": [3] * players, "winner": players - 1, "loser": players - 1,
                 "amount": tokens, "queue": [[every, "both"]]},  # one queued contest at most
        "contest": {"players": every, "want": "both", "kind": "throw", "why": "tie",
                    "round": big, "results": [throw] * players, "stake": "comes"},
        "last": {"number": big, "phase": "decharge", "winner": players - 1,
                 "loser": players - 1, "amount": tokens, "wdice": throw, "ldice": throw,
                 "passed": True},
        "result": {"losers": every, "winners": every, "reason": "espagnole"},
    }


def test_the_longest_record_of_eight_players_at_the_most_tokens_stays_inline():
    raw, line = files(worst())
    assert len(line) <= INLINE, len(line)
    assert back(raw, line) == worst()


def test_a_record_s_length_does_not_depend_on_the_values_it_packs():
    # What the bound above rests on: other dice, players and counts, the same lengths.
    data = worst()
    other = json.loads(json.dumps(data))
    turn = other["turn"]
    turn["finals"] = [[1, 1, 2]] * 8
    turn["order"] = list(range(7, -1, -1))
    turn["pos"] = turn["winner"] = turn["loser"] = 0
    other["tokens"] = [0, 1, 2, 3, 4, 5, 6, 7]
    other["contest"]["results"] = [[2, 1, 1]] * 8
    assert len(files(other)[1]) == len(files(data)[1])
    assert back(*files(other)) == other


def test_real_games_of_eight_players_stay_under_the_worst_case():
    longest = max(len(files(d)[1]) for seed in range(12) for preset in PRESET_NAMES
                  for d in states(8, preset, seed, tokens=99, computers=[3, 5]))
    assert 40 < longest < len(files(worst())[1])


def test_every_byte_of_a_record_is_checked():
    data = states(4, "bar41", 3)[30]
    raw, line = files(data)
    for i in range(len(line)):
        for bit in (1, 4, 64):
            bad = line[:i] + bytes([line[i] ^ bit]) + line[i + 1:]
            with pytest.raises(SaveError):
                back(raw, bad)
    for cut in range(len(line)):
        with pytest.raises(SaveError):
            back(raw, line[:cut])


def test_a_record_is_refused_beside_another_game_s_setup():
    data = states(3, "classic", 5)[12]
    raw, line = files(data)
    other = json.dumps(dict(json.loads(raw), hints=not data["hints"])).encode()
    with pytest.raises(SaveError, match="another game"):
        back(other, line)
    not_a_setup = json.dumps({"players": 3}).encode()
    with pytest.raises(SaveError, match="not a setup"):  # even when the record names it
        read(json.loads(not_a_setup), not_a_setup, record(data, checksum(not_a_setup)))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_as_a_record_are_refused_as_a_bad_save(raw_record):
    raw, _ = files(states(8, "lebon", 2)[0])
    with pytest.raises(SaveError):
        back(raw, raw_record)


def digits(value):
    # A checksum as a record writes it: five characters of base 64, the lowest first.
    return bytes(48 + (value >> shift & 63) for shift in range(0, 30, 6))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=60), st.sampled_from([2, 5, 8]))
def test_any_digits_under_good_checksums_read_as_a_save_or_are_refused(body, players):
    # Random digits between the checksums: read as values of the fields (for the checker to
    # judge) or refused, never anything else.
    raw, line = files(states(players, "classic", 9)[0])
    head = line[:6] + bytes(48 + d for d in body)
    try:
        data = back(raw, head + digits(checksum(head)))
    except SaveError:
        return
    assert set(data) == set(SETUP_KEYS) | {f[0] for f in RECORD_FIELDS}


def test_a_value_outside_its_field_s_digits_is_never_written():
    data = states(3, "classic", 5)[12]
    for change in (lambda d: d["turn"].update(pos=8), lambda d: d.update(pot=22),
                   lambda d: d["turn"].update(dice=[7, 1, 1]),
                   lambda d: d.update(tokens=[-1, 0, 0])):
        bad = json.loads(json.dumps(data))
        change(bad)
        with pytest.raises(ValueError):
            record(bad, 0)


SCRIPT = """
import json
from dicetray.save_record import checksum, record
from dicetray.store_read import read_record as read
out = []
for data, setup in json.loads(%r):
    raw = setup.encode()  # game.json's bytes, as CPython wrote them
    line = record(data, checksum(raw))
    out.append([line.decode(), read(json.loads(raw), raw, line) == data])
print(json.dumps(out))
"""


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_micropython_writes_and_reads_the_same_records(micropython, mpy):
    saves = [d for seed in range(3) for d in states(2 + 3 * seed, "zanzibar", seed)[::9]]
    cases = [[d, files(d)[0].decode()] for d in saves + [worst()]]
    expected = [[files(d)[1].decode(), True] for d, _ in cases]
    out = micropython(SCRIPT % json.dumps(cases), paths=[FIRMWARE], mpy=mpy)
    assert json.loads(out.strip().splitlines()[-1]) == expected


def test_a_setup_with_a_key_no_game_writes_is_refused():
    data = states(3, "classic", 5)[1]
    raw, line = files(data)
    setup = json.loads(raw)
    setup["lang"] = "fr"  # a key the setup may hold: read with it
    raw_fr = json.dumps(setup).encode()
    assert back(raw_fr, record(data, checksum(raw_fr)))["lang"] == "fr"
    setup["colour"] = "red"  # one it may not
    raw_bad = json.dumps(setup).encode()
    with pytest.raises(SaveError):
        back(raw_bad, record(data, checksum(raw_bad)))
