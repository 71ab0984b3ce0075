"""tools/flash.sh's board interface (flashkit.pico_usb's Usb and Board) on the twin, so that
Twin.install runs flash.sh's own build, plan, copies and checks. The queries (what the board
runs, what it holds) run as flash.sh sends them, on the twin's VM; the copies and removals go
to its littlefs directly, as mpremote's filesystem calls do through the REPL."""

from __future__ import annotations

from collections.abc import Iterable

from emupico.panel import PicoError
from flashkit.listing import Listing
from flashkit.pico_usb import (
    PICO_USB,
    PROBE_PY,
    RESET_PY,
    Board,
    BoardError,
    BoardRaised,
    Port,
    Probe,
    listing_script,
    parse_listing,
    parse_probe,
)
from littlefs.errors import LittleFSError

PORT = "twin"


class TwinBoard:
    def __init__(self, twin):
        self.twin = twin

    def _exec(self, code: str) -> str:
        try:
            return self.twin.exec(code)
        except PicoError as exc:
            raise BoardRaised(str(exc).strip().splitlines()[-1]) from None

    def probe(self) -> Probe:
        return parse_probe(self._exec(PROBE_PY))

    def listing(self, roots: Iterable[str]) -> Listing:
        return parse_listing(self._exec(listing_script(roots)))

    def _fs(self, verb, call, *args):
        if self.twin.flash.lfs is None:
            self.twin.flash.mount()
        try:
            call(*args)
        except LittleFSError as exc:
            raise BoardError(f"{verb}: {args[0]}: littlefs error {exc.code}") from None

    def mkdir(self, path: str) -> None:
        self._fs("mkdir", self.twin.flash.lfs_call("mkdir"), path)

    def remove(self, path: str) -> None:
        self._fs("rm", self.twin.flash.lfs_call("remove"), path)

    def rmdir(self, path: str) -> None:
        self._fs("rmdir", self.twin.flash.lfs_call("remove"), path)

    def write(self, path: str, data: bytes) -> None:
        self._fs("cp", self.twin.flash.write_file, path, data)

    def reset(self) -> None:
        self._exec(RESET_PY)

    def close(self) -> None:
        pass


class TwinUsb:
    """The one port: the twin, a Pico running MicroPython."""

    def __init__(self, twin):
        self.twin = twin

    def ports(self) -> list[Port]:
        return [Port(PORT, "twin", PICO_USB[0], PICO_USB[1], "MicroPython", "Board in FS mode")]

    def connect(self, device: str) -> Board:
        return TwinBoard(self.twin)
