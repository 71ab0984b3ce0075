#!/usr/bin/env bash
# Runs the tray on this computer: the desktop simulator (the real firmware on fake hardware).
# Sets itself up on first use. Options go to the simulator (python tools/sim.py --help).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/bootstrap.sh
exec .venv/bin/python tools/sim.py "$@"
