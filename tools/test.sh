#!/usr/bin/env bash
# Runs every test: lint, the CPython tests and the MicroPython tier. Sets itself up on first use.
set -euo pipefail
QUICK="not micropython and not pico and not browser"  # the tiers' pytest markers
tiers=()
case "${1:-}" in
  --help | -h)
    echo "usage: tools/test.sh [--quick] [pytest arguments]"
    echo "  Every test: ruff, pyright, the CPython tests and the MicroPython, emulated-Pico and"
    echo "  browser tiers (each skipped, saying why, where it cannot run)."
    echo "  --quick  ruff, pyright and the CPython tests only: pytest -m \"$QUICK\""
    echo "  The tiers, and what each proves: docs/developing.md#the-tests"
    exit 0 ;;
  --quick)
    shift
    tiers=(-m "$QUICK") ;;
esac
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/bootstrap.sh
echo "== ruff"
.venv/bin/ruff check firmware host_tests tools
echo "== pyright (firmware against the MicroPython rp2 stubs)"
if [ -x tools/typecheck/node_modules/.bin/pyright ]; then
  tools/typecheck/node_modules/.bin/pyright --project pyproject.toml --level error
elif [ "${CI:-}" = "true" ]; then
  echo "pyright is missing: tools/bootstrap.sh should have installed it (npm)" >&2
  exit 1
else
  echo "pyright skipped: Node.js/npm not found (install them, then run tools/bootstrap.sh)"
fi
echo "== pytest"
exec .venv/bin/python -m pytest ${tiers[@]+"${tiers[@]}"} "$@"
