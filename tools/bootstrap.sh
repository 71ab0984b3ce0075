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

# Python side: reinstall only when pyproject.toml changed.
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "bootstrap: installing Python dev tools into .venv ..."
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi

# MicroPython on the host: Node.js plus the pinned npm package. Under CI it must be there.
mpdir=tools/micropython
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: installing Node.js for the MicroPython tier ..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "bootstrap: Node.js not found: the MicroPython test tier will be skipped (install nodejs + npm)."
  fi
fi
if command -v npm >/dev/null 2>&1 && [ -f "$mpdir/package.json" ]; then
  lockstamp=$mpdir/node_modules/.installed-$(cat "$mpdir/package.json" "$mpdir/package-lock.json" 2>/dev/null | sha1sum | cut -c1-12)
  if [ ! -f "$lockstamp" ]; then
    echo "bootstrap: installing MicroPython (WebAssembly) from npm ..."
    (cd "$mpdir" && npm ci --silent --no-audit --no-fund)
    rm -f "$mpdir"/node_modules/.installed-*
    touch "$lockstamp"
  fi
fi
