#!/usr/bin/env bash
# Builds MicroPython for the Pico with the dice tray frozen in, from a MicroPython source tree the
# maker has: tools/build_firmware.sh MICROPYTHON_DIR (see --help). The work is done by
# tools/build_firmware.py, which needs only Python 3 (the project's .venv is not needed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v python3 >/dev/null; then
  echo "build_firmware: python3 is needed (it also runs MicroPython's own build scripts)." >&2
  exit 3
fi
exec python3 "$root/tools/build_firmware.py" "$@"
