#!/usr/bin/env bash
# Runs the tray. With a Pico running MicroPython on USB: installs or updates the tray on it
# (tools/flash.sh) and the Pico plays. Without one (or with --sim): the desktop simulator, the
# real firmware on fake hardware, in this terminal. Sets itself up on first use.
# Options after --sim go to the simulator (python tools/sim/play.py --help). With --web: builds the
# tray in a browser (tools/web) into build/web and serves it to the phones on this computer's
# network, printing their address and its QR code (options after --web go to tools/web/serve.py:
# --port N, --local for this computer only). Each entry point reads its whole command line
# before it builds or starts anything, so a wrong option costs no build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/bootstrap.sh
if [ "${1:-}" = "--web" ]; then
  shift
  exec .venv/bin/python tools/web/serve.py --build "$@"
elif [ "${1:-}" = "--sim" ]; then
  shift
elif [ $# -eq 0 ] && .venv/bin/mpremote devs 2>/dev/null | grep -qiE '2e8a:0005|MicroPython'; then
  echo "run: a Pico running MicroPython is on USB: installing the tray on it (tools/flash.sh)."
  echo "run: for the simulator instead: tools/run.sh --sim"
  exec tools/flash.sh
fi
exec .venv/bin/python tools/sim/play.py "$@"
