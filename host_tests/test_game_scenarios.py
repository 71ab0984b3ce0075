"""Scripted games, one per rule of the texts (vectors/scenarios.json names the line it checks):
how a turn ends and what it moves (settle.py, payout.py)."""

import json
import os

import pytest
from scenario_runner import run

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "vectors", "scenarios.json")) as f:
    SCENARIOS = json.load(f)


def is_subsequence(wanted, events):
    it = iter(events)
    return all(any(e == w for e in it) for w in wanted)


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s["name"][:50] for s in SCENARIOS])
def test_scenario(sc):
    t = run(sc)
    assert t["problems"] == [], sc["text"]
    exp = sc["expect"]
    for field in ("tokens", "pot", "phase", "out", "result", "current"):
        if field in exp:
            assert t[field] == exp[field], "%s (%s)" % (field, sc["text"])
    missing = [e for e in exp.get("events", []) if e not in t["events"]]
    assert not missing, "events missing: %r (%s)" % (missing, sc["text"])
    assert is_subsequence(exp.get("events", []), t["events"]), "events out of order"
    # Every refusal expected by the script happened, with a message.
    assert len(t["refused"]) == sum(a.startswith("!") for a in sc["actions"])
    assert all(msg for _, msg in t["refused"])


def test_every_preset_has_scenarios():
    presets = {s["preset"] for s in SCENARIOS}
    assert presets == {"classic", "jackpot", "zanzibar", "bar41", "lebon"}
    assert all(s["text"] for s in SCENARIOS)
