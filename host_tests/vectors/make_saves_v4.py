"""Writes saves_v4.json: saves of format version 4 (the whole game in one JSON file) and how that
engine played each one on.

Run it on a checkout of commit a172668 (the last engine that writes version 4; it refuses to
run on a later one):
    PYTHONPATH=firmware:tools:host_tests/vectors python host_tests/vectors/make_saves_v4.py
The moments are make_saves_v2.py's (every preset, 2, 4 and 8 players, one save of each kind of
moment and one action from the end), from games with computer seats and hints as version 4
added them: the bot plays every seat, so the seats only shape the save.
"""

import json
import os

from dicetray import rules
from dicetray.game import Game
from dicetray.options import PRESET_NAMES
from dicetray.state import SAVE_VERSION
from trayhost.autoplay import SeededDice, apply, bot_action

rules.PRESET_NAMES = PRESET_NAMES  # where make_saves_v2's engine kept them
from make_saves_v2 import kind, pick, play_on  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def snapshots(preset, players, seed):
    # Every save the game wrote, in order (the first: before any action).
    computers = list(range(1, players, 2))  # every other seat, one human at least
    game = Game(players, preset, SeededDice(seed), computers=computers, hints=seed % 2 == 0)
    bot = SeededDice(seed + 1000)
    saves = [game.to_dict()]
    while not game.over:
        apply(game, bot_action(game, bot))
        saves.append(game.to_dict())
    return saves[:-1]  # the finished game is never resumed


def main():
    assert SAVE_VERSION == 4, "run this on commit a172668: it writes version 4 saves"
    entries = []
    for i, preset in enumerate(PRESET_NAMES):
        for players in (2, 4, 8):
            for save in pick(snapshots(preset, players, 13 * i + players)):
                entry = {"save": save, "dice_seed": 7 + len(entries), "bot_seed": 70 + i}
                entry.update(play_on(save, entry["dice_seed"], entry["bot_seed"]))
                entries.append(entry)
    with open(os.path.join(HERE, "saves_v4.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e, separators=(",", ":")) for e in entries)
                + "\n]\n")
    print(len(entries), "saves:", sorted({kind(e["save"]) for e in entries}))


if __name__ == "__main__":
    main()
