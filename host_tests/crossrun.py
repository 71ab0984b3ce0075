"""What the MicroPython tier computes, written once for both VMs: the results must be identical."""

import json

from dicetray.game import Game
from dicetray.options import PRESETS
from dicetray.rules import all_throws, evaluate
from dicetray.save_check import load
from scenario_runner import run
from trayhost.autoplay import SeededDice, apply, bot_action


def rules_table():
    """Every preset's 56 throws: dice, strength, tokens, name, kind."""
    table = {}
    for name in sorted(PRESETS):
        opts = PRESETS[name]
        rows = []
        for throw in all_throws():
            c = evaluate(throw, opts)
            rows.append([list(throw), c.strength, c.tokens, c.name, c.kind])
        table[name] = rows
    return table


def scenarios(path):
    with open(path) as f:
        return [run(sc) for sc in json.load(f)]


def random_games(count):
    """Seeded random games of every preset: final state, action count, turns."""
    out = []
    names = sorted(PRESETS)
    for seed in range(count):
        g = Game(2 + seed % 7, names[seed % len(names)], SeededDice(seed))
        bot = SeededDice(seed + 1)
        actions = 0
        while not g.over:
            if actions % 7 == 3:
                # Resume from a save now and then: play on with the loaded game.
                g = load(json.loads(json.dumps(g.to_dict())), g.roll)
            apply(g, bot_action(g, bot))
            actions += 1
        out.append({"seed": seed, "actions": actions, "state": g.to_dict()})
    return out


def main(vectors_dir, games=25):
    print(json.dumps({
        "rules": rules_table(),
        "scenarios": scenarios(vectors_dir + "/scenarios.json"),
        "games": random_games(games),
    }))
