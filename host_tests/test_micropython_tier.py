"""The MicroPython tier itself: scripts really run on MicroPython 1.27, from .py and from .mpy."""

import json
import re

import pytest
from mpy import MicroPythonError, MpyCrossError, build_mpy

COUNTS = '''\
"""A throwaway module: how many of each face."""


def tally(dice):
    counts = {}
    for die in dice:
        counts[die] = counts.get(die, 0) + 1
    return sorted(counts.items())
'''

USE_COUNTS = """\
import os, sys
import tally.counts
print(tally.counts.tally([4, 2, 1, 4]))
print(tally.counts.__file__)
print(sorted(os.listdir(sys.path[0])), sorted(os.listdir(sys.path[0] + "/tally")))
"""

MAKE_GARBAGE = """\
import gc, micropython
before = gc.mem_alloc()
for _ in range(300):
    garbage = bytearray(1024)
gc.collect()
print(gc.mem_alloc() - before)
micropython.mem_info()
"""


@pytest.fixture
def package(tmp_path):
    """A firmware-shaped folder: main.py beside a package."""
    (tmp_path / "tally").mkdir()
    (tmp_path / "tally" / "__init__.py").write_text("")
    (tmp_path / "tally" / "counts.py").write_text(COUNTS)
    (tmp_path / "main.py").write_text("print('main')\n")
    return tmp_path


def test_runs_on_micropython_1_27_with_32_bit_ints(micropython):
    script = "import sys, json\nimpl = sys.implementation\n"
    script += "print(json.dumps([impl.name, list(impl.version[:3]), sys.maxsize]))\n"
    name, version, maxsize = json.loads(micropython(script))
    assert name == "micropython"
    assert tuple(version) >= (1, 27)
    assert maxsize == 2**31 - 1


@pytest.mark.parametrize("mpy", [False, True], ids=["py", "mpy"])
def test_mounted_package_imports_and_computes(micropython, package, mpy):
    result, module_file, listing = micropython(USE_COUNTS, paths=[package], mpy=mpy).splitlines()
    assert result == "[(1, 1), (2, 1), (4, 2)]"
    suffix = ".mpy" if mpy else ".py"
    assert module_file == "/mnt/0/tally/counts" + suffix
    assert listing == f"['main.py', 'tally'] ['__init__{suffix}', 'counts{suffix}']"


def test_exception_becomes_micropython_error_with_traceback(micropython, package):
    script = "print('before')\nfrom tally.counts import tally\ntally(None)\n"
    with pytest.raises(MicroPythonError) as failure:
        micropython(script, paths=[package])
    assert "TypeError: 'NoneType' object isn't iterable" in str(failure.value)
    assert '"/mnt/0/tally/counts.py", line 6, in tally' in str(failure.value)
    assert failure.value.stdout == "before\n"


def test_gc_mem_alloc_sees_a_10k_bytearray(micropython):
    script = "import gc\ngc.collect()\nbefore = gc.mem_alloc()\nbuf = bytearray(10 * 1024)\n"
    script += "print(gc.mem_alloc() - before)\n"
    assert 10 * 1024 <= int(micropython(script)) < 11 * 1024


def heap_total(mem_info):
    return int(re.search(r"GC: total: (\d+),", mem_info)[1])


def test_heap_grows_as_garbage_is_never_collected_mid_script(micropython):
    # What benchmarks rely on: a gc.mem_alloc() delta counts every byte allocated in between.
    allocated, mem_info = micropython(MAKE_GARBAGE).split("\n", 1)
    assert int(allocated) >= 300 * 1024
    assert heap_total(mem_info) > 192 * 1024  # grew past the default first heap area
    _, mem_info = micropython(MAKE_GARBAGE, heap="1m").split("\n", 1)
    assert 1000 * 1024 < heap_total(mem_info) <= 1024 * 1024


LIVE_HEAP_PIECES = """\
bare = LIVE_HEAP
kept = bytearray(10 * 1024)
garbage = [bytearray(1024) for _ in range(50)]
garbage = None
#---
print(LIVE_HEAP - bare)
kept = None
#---
print(LIVE_HEAP - bare)
#---
raise ValueError("on line 11")
"""


def test_chunks_hand_each_piece_the_live_heap_left_by_the_one_before(micropython):
    # run.mjs --chunks: garbage collected between pieces; what stays referenced is counted.
    with pytest.raises(MicroPythonError) as failure:
        micropython(LIVE_HEAP_PIECES, chunks=True)
    kept, freed = (int(n) for n in failure.value.stdout.split())
    assert 10 * 1024 <= kept < 10 * 1024 + 200  # the 50 kB of garbage is not counted
    assert abs(freed) < 200  # back to the bare VM, give or take a global name
    assert 'line 11, in <module>' in str(failure.value)  # line numbers of the whole script


def test_framebuf_and_json_are_available(micropython):
    script = """\
import framebuf, json
fb = framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB)
fb.fill(0)
fb.pixel(3, 9, 1)
print(json.dumps({"lit": fb.pixel(3, 9), "dark": fb.pixel(4, 9)}))
"""
    assert json.loads(micropython(script)) == {"lit": 1, "dark": 0}


def test_build_mpy_names_the_file_mpy_cross_rejects(tmp_path):
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "good.py").write_text("X = 1\n")
    (tmp_path / "src" / "pkg" / "bad.py").write_text("def broken(:\n")
    with pytest.raises(MpyCrossError, match=r"(?s)pkg[/\\]bad\.py.*SyntaxError"):
        build_mpy(tmp_path / "src", tmp_path / "out")
