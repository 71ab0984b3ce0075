#!/usr/bin/env bash
# Sets up everything the project needs, idempotently: a Python venv with the dev tools and the
# pinned MicroPython (WebAssembly build, from npm) that the MicroPython test tier runs on.
# Sourced or run by tools/test.sh and tools/run.sh; safe to run again at any time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

py=${PYTHON:-python3}
if ! command -v "$py" >/dev/null 2>&1; then
  echo "bootstrap: python3 (3.11 or newer) is needed; install it first." >&2
  exit 1
fi
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "bootstrap: Python 3.11 or newer is needed (found $("$py" --version))." >&2
  exit 1
fi

# pip, quiet: keeps its exit status, drops the index-location warnings some machines print.
pipq() {
  local out
  if ! out=$(.venv/bin/python -m pip --disable-pip-version-check "$@" 2>&1); then
    printf '%s\n' "$out" >&2
    return 1
  fi
  printf '%s\n' "$out" | grep -v -e "is ignored: it is neither" -e '^$' || true
}

# Python side: reinstall only when pyproject.toml changed.
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "bootstrap: installing Python dev tools into .venv ..."
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  pipq install --quiet -e ".[dev]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi

# The MicroPython rp2 stubs pyright checks the firmware against (the version is pinned here).
stubs=micropython-rp2-rpi-pico-stubs==1.27.0.post1
if [ ! -f "typings/.installed-$stubs" ]; then
  echo "bootstrap: installing the MicroPython rp2 stubs into typings/ ..."
  rm -rf typings
  pipq install --quiet --target typings "$stubs"
  touch "typings/.installed-$stubs"
fi

# Tools CI needs and a fresh machine may lack: tmux (the simulator's terminal test), shellcheck
# (flash.sh), socat (the emulated Pico's serial port), iproute2 (the web tray's network address
# test lists them with ip) and chromium (the page's browser tier, driven by Playwright at
# /usr/bin/chromium). Installed under CI; elsewhere their tests skip
# with a reason.
if [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null 2>&1; then
  missing=""
  command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
  command -v shellcheck >/dev/null 2>&1 || missing="$missing shellcheck"
  command -v socat >/dev/null 2>&1 || missing="$missing socat"
  command -v ip >/dev/null 2>&1 || missing="$missing iproute2"
  [ -x /usr/bin/chromium ] || missing="$missing chromium"
  if [ -n "$missing" ]; then
    echo "bootstrap: installing$missing ..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
fi

# MicroPython on the host: Node.js plus the pinned npm package. Under CI it must be there.
mpdir=tools/micropython
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: installing Node.js for the MicroPython tier ..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "bootstrap: Node.js not found: the MicroPython test tier will be skipped and the browser tray (--web) cannot be built (install nodejs + npm, then run this again)."
  fi
fi
# npm packages: MicroPython (WebAssembly) and pyright, each pinned by its package-lock.json.
for dir in "$mpdir" tools/typecheck; do
  if command -v npm >/dev/null 2>&1 && [ -f "$dir/package.json" ]; then
    lockstamp=$dir/node_modules/.installed-$(cat "$dir/package.json" "$dir/package-lock.json" 2>/dev/null | sha1sum | cut -c1-12)
    if [ ! -f "$lockstamp" ]; then
      echo "bootstrap: installing $dir from npm ..."
      (cd "$dir" && npm ci --silent --no-audit --no-fund)
      rm -f "$dir"/node_modules/.installed-*
      touch "$lockstamp"
    fi
  fi
done
