"""Writes saves_v2.json: saves of format version 2 and how that engine played each one on.

Run it on a checkout of commit 6794028 (the last engine that writes version 2; it refuses to
run on a later one):
    PYTHONPATH=firmware:tools python host_tests/vectors/make_saves_v2.py
Seeded bot games of every preset, 2 to 8 players; from each, the saves Game.to_dict() wrote
at the start, between throws in the charge and the décharge, in roll-offs and play-offs and one
action from the end. With each, the game played on from it with seeded dice and the seeded bot:
the number of events, their sha256, the final tokens and result.
"""

import hashlib
import json
import os

from dicetray.game import Game
from dicetray.rules import PRESET_NAMES
from dicetray.save_check import load
from dicetray.state import SAVE_VERSION
from trayhost.autoplay import SeededDice, apply, bot_action

HERE = os.path.dirname(os.path.abspath(__file__))


def kind(d):
    """The kind of moment a save is: phase, contest open, throws made by the player."""
    contest = d["contest"] is not None
    return "%s%s%s" % (d["phase"], "+contest" if contest else "",
                       "+thrown" if d["turn"]["count"] else "")


def snapshots(preset, players, seed, **seats):
    # Every save the game wrote, in order (the first: before any action). seats: the computer
    # seats and hints of a later engine's Game.
    game = Game(players, preset, SeededDice(seed), **seats)
    bot = SeededDice(seed + 1000)
    saves = [game.to_dict()]
    while not game.over:
        apply(game, bot_action(game, bot))
        saves.append(game.to_dict())
    return saves[:-1]  # the finished game is never resumed


def pick(saves):
    # One save of each kind (the first of its kind after a third of the game, where there is
    # one: a turn with history), and the one before the end.
    out = {}
    third = len(saves) // 3
    for d in saves[third:] + saves[:third]:
        out.setdefault(kind(d), d)
    out["last"] = saves[-1]
    return list(out.values())


def play_on(save, dice_seed, bot_seed):
    game = load(json.loads(json.dumps(save)), SeededDice(dice_seed))
    bot = SeededDice(bot_seed)
    events = []
    while not game.over:
        events.extend(apply(game, bot_action(game, bot)))
    plain = json.loads(json.dumps(events))
    return {
        "events": len(plain),
        "events_sha256": hashlib.sha256(json.dumps(plain).encode()).hexdigest(),
        "tokens": game.tokens,
        "result": game.to_dict()["result"],
    }


def write(name, snapshots, seed, dice_seed, bot_seed):
    """Write vectors/name: the picked saves of snapshots(preset, players, a seed) for every
    preset and 2, 4 and 8 players, each with how the engine played it on."""
    entries = []
    for i, preset in enumerate(PRESET_NAMES):
        for players in (2, 4, 8):
            for save in pick(snapshots(preset, players, seed * i + players)):
                entry = {"save": save, "dice_seed": dice_seed + len(entries),
                         "bot_seed": bot_seed + i}
                entry.update(play_on(save, entry["dice_seed"], entry["bot_seed"]))
                entries.append(entry)
    with open(os.path.join(HERE, name), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e, separators=(",", ":")) for e in entries)
                + "\n]\n")
    print(len(entries), "saves:", sorted({kind(e["save"]) for e in entries}))


def main():
    assert SAVE_VERSION == 2, "run this on commit 6794028: it writes version 2 saves"
    write("saves_v2.json", snapshots, 11, 5, 50)


if __name__ == "__main__":
    main()
