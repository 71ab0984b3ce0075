"""Fixtures shared by the host tests, and the tiers: a test that uses a tier's fixture is marked
with the tier (pyproject.toml registers the markers; tools/test.sh --quick leaves them out)."""

import os

import pytest
import trayhost  # noqa: F401  (before any test imports the firmware: framebuf on CPython)
from mpy import TRAYHOST, copy_packages, node_ready, run_micropython

# The fixture each tier's tests cannot do without -> the tier's marker.
TIERS = {"micropython": "micropython", "pico": "pico", "site": "browser"}


def pytest_collection_modifyitems(items):
    for item in items:
        for fixture, marker in TIERS.items():
            if fixture in item.fixturenames:
                item.add_marker(marker)


@pytest.fixture(autouse=True)
def _speaks_the_default():
    """The language spoken is the VM's (dicetray.words): a test that changes it hands the next
    one the default back, as a new tray's boot would."""
    yield
    from dicetray import words

    words.use(words.DEFAULT)


@pytest.fixture(scope="session")
def micropython():
    """run_micropython(script, paths=(), mpy=False, heap=None): run a script on real MicroPython.

    Skipped where Node.js or the npm package is missing, except under CI, which must run it.
    """
    reason = node_ready()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the MicroPython tier: {reason}")
    if reason:
        pytest.skip(reason)
    return run_micropython


@pytest.fixture(scope="session")
def host_package(tmp_path_factory):
    """A folder holding the trayhost package, to mount on MicroPython beside the firmware."""
    return copy_packages(tmp_path_factory.mktemp("host"), TRAYHOST)
