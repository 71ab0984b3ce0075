#!/usr/bin/env bash
# Runs the tray on this computer. Sets itself up on first use.
# For now: plays a whole game and prints it (pass gamelog options, e.g. --preset bar41 --players 4).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/bootstrap.sh
exec .venv/bin/python tools/gamelog.py "$@"
