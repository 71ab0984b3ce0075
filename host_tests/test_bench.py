"""The benchmark runs and reports every figure (its numbers are read, never asserted on time)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = (
    "rules_evals_per_s_cpython",
    "rules_evals_per_s_micropython",
    "games_per_s_cpython",
    "games_per_s_micropython",
    "rules_heap_bytes_micropython",
)


def test_bench_prints_one_json_line_with_every_key(micropython):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench.py")],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    for key in KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
