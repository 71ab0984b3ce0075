"""Runs scripted game scenarios (data in vectors/scenarios.json) on CPython or MicroPython.

An action is a short string: "T" throw, "T01" throw keeping dice 0 and 1, "L2" throw keeping die 2
and say "le bon" (this throw is the last), "S" stop, "Ais"/"Acomes" announce a play-off stake.
A leading "!" means the action must be refused with a GameError and change nothing.
"""

import json

from dicetray.game import Game, GameError
from dicetray.options import PRESETS, changed


class Script:
    """Scripted dice, in order."""

    def __init__(self, values):
        self.values = values
        self.i = 0

    def __call__(self):
        v = self.values[self.i]
        self.i += 1
        return v


def do(game, action):
    verb = action[0]
    rest = action[1:]
    if verb == "T":
        return game.throw(tuple(int(c) for c in rest))
    if verb == "L":
        return game.throw(tuple(int(c) for c in rest), True)
    if verb == "S":
        return game.stop()
    if verb == "A":
        return game.announce(rest)
    raise ValueError("unknown scenario action %r" % action)


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def run(sc):
    """Play one scenario; returns a JSON-compatible transcript (the same on every Python)."""
    opts = changed(PRESETS[sc["preset"]], **sc.get("options", {}))
    game = Game(sc["players"], opts, Script(sc["dice"]))
    events = []
    refused = []
    problems = []
    for i, action in enumerate(sc["actions"]):
        must_fail = action.startswith("!")
        if must_fail:
            action = action[1:]
        before = game.to_dict()
        try:
            events.extend(_plain(do(game, action)))
        except GameError as e:
            refused.append([i, str(e)])
            if not must_fail:
                problems.append("action %d %s refused: %s" % (i, action, e))
            if game.to_dict() != before:
                problems.append("action %d %s changed the game although refused" % (i, action))
            continue
        if must_fail:
            problems.append("action %d %s was accepted but must be refused" % (i, action))
    return {
        "name": sc["name"],
        "tokens": game.tokens,
        "pot": game.pot,
        "phase": game.phase,
        "out": game.out,
        "turn": game.turn.number,
        "current": game.current,
        "result": None if game.result is None else game.to_dict()["result"],
        "events": events,
        "refused": refused,
        "problems": problems,
        "save": game.to_dict(),
    }


def run_file(path):
    with open(path) as f:
        scenarios = json.load(f)
    return [run(sc) for sc in scenarios]
