"""The rules core on real MicroPython (from .py and from .mpy): the same results as on CPython."""

import json
import os
import shutil

import crossrun
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
VECTORS = os.path.join(HERE, "vectors")


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    # Only what the probe needs, so .mpy builds do not compile the pytest files; the bot comes
    # from the trayhost package, mounted beside (host_package).
    d = tmp_path_factory.mktemp("harness")
    for src in (os.path.join(HERE, "crossrun.py"), os.path.join(HERE, "scenario_runner.py")):
        shutil.copy(src, d)
    shutil.copytree(VECTORS, d / "vectors", ignore=shutil.ignore_patterns("*.py"))
    return str(d)


@pytest.fixture(scope="module")
def expected():
    return json.loads(json.dumps({
        "rules": crossrun.rules_table(),
        "scenarios": crossrun.scenarios(os.path.join(VECTORS, "scenarios.json")),
        "games": crossrun.random_games(25),
    }))


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_micropython_gives_identical_results(micropython, harness, host_package, expected, mpy):
    script = "import crossrun\ncrossrun.main('/mnt/1/vectors')\n"
    out = micropython(script, paths=[FIRMWARE, harness, host_package], mpy=mpy)
    got = json.loads(out.strip().splitlines()[-1])
    assert got["rules"] == expected["rules"]
    for mine, theirs in zip(got["scenarios"], expected["scenarios"], strict=True):
        assert mine == theirs, mine["name"]
        assert mine["problems"] == []
    assert got["games"] == expected["games"]


def test_micropython_matches_the_vectors(micropython, harness, host_package):
    # Independent of CPython: MicroPython's ranking equals the texts' tables.
    with open(os.path.join(VECTORS, "rules_vectors.json")) as f:
        vectors = json.load(f)
    out = micropython("import crossrun, json\nprint(json.dumps(crossrun.rules_table()))\n",
                      paths=[FIRMWARE, harness, host_package])
    table = json.loads(out.strip().splitlines()[-1])
    for preset, rows in vectors.items():
        by_dice = {tuple(r[0]): r for r in table[preset]}
        got = [by_dice[tuple(sorted(d, reverse=True))] for d, _ in rows]
        strengths = [r[1] for r in got]
        assert strengths == sorted(strengths, reverse=True), preset
        assert [r[2] for r in got] == [t for _, t in rows], preset


def test_micropython_runs_from_mpy_files_only(micropython, harness, host_package):
    out = micropython("import dicetray.game as g\nprint(g.__file__)\n",
                      paths=[FIRMWARE, harness, host_package], mpy=True)
    assert out.strip().endswith("game.mpy")
