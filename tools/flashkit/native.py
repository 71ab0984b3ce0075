"""Which form a module of machine code takes on a board: its .mpy, built for the RP2040's
Cortex-M0+ (armv6m), where the board's MicroPython loads that; else its source, which the board
compiles itself (the rp2 port has the viper emitter). A MicroPython with no emitter at all (the
WebAssembly port: the host twin) runs neither: it gets the .mpy, the very files of a Pico.

MicroPython loads machine code from a .mpy only when the file's version and sub-version are its
own and the file's arch passes its test: a Thumb port (armv6m up to armv7emdp) runs Thumb code of
its own arch or a lower one (py/persistentcode.h, MPY_FEATURE_ARCH_TEST). A board says all three
in sys.implementation._mpy (the version in bits 0-7, the sub-version in bits 8-9, the arch from
bit 10); a .mpy in its bytes 1 and 2 (the sub-version in bits 0-1, the arch from bit 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from flashkit.listing import Listing
from flashkit.pico_usb import Probe

# MicroPython's numbers for the native archs (MP_NATIVE_ARCH_*); 0: none, the VM runs bytecode
# only. Any other number (a newer arch, or flag bits above the arch) is trusted with nothing.
ARCHS = ("none", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
         "armv7emdp", "xtensa", "xtensawin", "rv32imc")
THUMB = range(ARCHS.index("armv6m"), ARCHS.index("armv7emdp") + 1)
COMPILES = "(its viper code compiles on the board)"


class Format(NamedTuple):
    """The .mpy format a board loads, or that a file is written in."""

    version: int
    sub: int  # the sub-version: machine code loads only where it is the same
    arch: int

    def text(self) -> str:
        return f"v{self.version}.{self.sub}"

    def arch_name(self) -> str:
        return ARCHS[self.arch] if self.arch < len(ARCHS) else f"arch {self.arch}"


def board_format(mpy: int) -> Format:
    """From sys.implementation._mpy."""
    return Format(mpy & 0xFF, mpy >> 8 & 3, mpy >> 10)


def file_format(header: bytes) -> Format:
    """From a .mpy's first bytes: "M", the version, the sub-version and arch."""
    return Format(header[1], header[2] & 3, header[2] >> 2)


def loads(board: Format, code: Format) -> bool:
    """The board loads this machine code: same version and sub-version, and Thumb code of the
    board's arch or a lower one on a Thumb board (none other is trusted)."""
    return ((board.version, board.sub) == (code.version, code.sub)
            and board.arch in THUMB and code.arch in THUMB and code.arch <= board.arch)


def natives(build: Listing) -> list[str]:
    """The build's modules of machine code: a .mpy with its source beside it."""
    return sorted(p for p in build if p.endswith(".mpy") and p[:-4] + ".py" in build)


def choice(probe: Probe, code: Format, name: str) -> tuple[bool, str]:
    """Whether the board gets the .mpy of module name (else its source), and the line that says
    which and why."""
    mp = f"MicroPython {probe.version}"
    board = board_format(probe.mpy or 0)
    if loads(board, code):
        return True, (f"{mp} ({board.arch_name()}) loads {code.arch_name()} .mpy "
                      f"{code.text()}: {name}.mpy goes as machine code")
    if board.arch == 0:  # neither form runs there: the one a Pico gets, whose import fails
        return True, (f"{mp} runs no machine code: {name}.mpy goes as on a Pico (its import "
                      "fails there and the firmware falls back to plain Python)")
    source = f"{name}.py goes as source"
    if not loads(board._replace(version=code.version, sub=code.sub), code):
        return False, (f"{mp} runs {board.arch_name()} code, not {code.arch_name()}: {source} "
                       f"{COMPILES}")
    return False, f"{mp} loads .mpy {board.text()}, not {code.text()}: {source} {COMPILES}"


def for_board(build: Listing, build_dir: Path, probe: Probe) -> tuple[Listing, list[str]]:
    """The build as this board must hold it: each module of machine code once, as its .mpy or
    as its source; and a line for each that says which and why."""
    chosen, lines = dict(build), []
    for mpy in natives(build):
        code = file_format((build_dir / mpy.lstrip("/")).read_bytes()[:3])
        takes_mpy, line = choice(probe, code, mpy[1:-4])
        del chosen[mpy[:-4] + ".py" if takes_mpy else mpy]
        lines.append(line)
    return chosen, lines
