#!/usr/bin/env bash
# Runs every test: lint, the CPython tests and the MicroPython tier. Sets itself up on first use.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/bootstrap.sh
echo "== ruff"
.venv/bin/ruff check firmware host_tests tools
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
