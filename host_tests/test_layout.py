"""The tests' layout: the tiers are markers the quick run leaves out, and nothing else; each
firmware module has its test file, or a test file that says it tests that module too."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import TIERS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Records, for the collection it runs in, each test kept and each left out with its fixtures.
PROBE = '''
import json, os

found = {"kept": [], "left": []}


def pytest_deselected(items):
    found["left"] += [(i.nodeid, sorted(i.fixturenames)) for i in items]


def pytest_collection_finish(session):
    found["kept"] = [(i.nodeid, sorted(i.fixturenames)) for i in session.items]
    with open(os.environ["TIER_PROBE_OUT"], "w") as f:
        json.dump(found, f)
'''


def quick_selection():
    """The marker expression tools/test.sh --quick hands pytest."""
    said = re.search(r'^QUICK="([^"]+)"', (ROOT / "tools" / "test.sh").read_text(), re.M)
    assert said, "tools/test.sh no longer says which tests --quick runs"
    return said.group(1)


def test_the_quick_run_leaves_out_exactly_the_tests_that_use_a_tier(tmp_path):
    (tmp_path / "tierprobe.py").write_text(PROBE)
    out = tmp_path / "found.json"
    path = [str(tmp_path)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, TIER_PROBE_OUT=str(out), PYTHONPATH=os.pathsep.join(path))
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-p", "tierprobe", "-m", quick_selection()],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = json.loads(out.read_text())
    kept = [test for test, fixtures in found["kept"] if set(fixtures) & set(TIERS)]
    assert kept == [], "tests of a tier the quick run would run"
    left = [test for test, fixtures in found["left"] if not set(fixtures) & set(TIERS)]
    assert left == [], "CPython tests the quick run would leave out"
    assert found["left"], "the quick run leaves out no tier at all"


def test_the_quick_run_names_every_tier_s_marker_and_no_other():
    assert set(re.findall(r"not (\w+)", quick_selection())) == set(TIERS.values())


def test_each_firmware_module_has_its_test_file_or_one_that_names_it():
    named = set()
    for path in HERE.glob("test_*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        named |= set(re.findall(r"(?<![\w/.])(\w+)\.py\b", doc))  # not tools/.../x.py
    modules = {p.stem for p in (ROOT / "firmware").rglob("*.py") if p.name != "__init__.py"}
    alone = sorted(m for m in modules if not (HERE / f"test_{m}.py").exists() and m not in named)
    assert alone == [], "modules with no test_<module>.py and no test file naming them"
