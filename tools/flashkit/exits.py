"""The flash tool's exit codes, the error that stops a run with one, and the advice lines that
several of its messages end with."""

E_SETUP, E_USAGE, E_NO_BOARD, E_SEVERAL, E_NO_ANSWER = 1, 2, 3, 4, 5
E_NOT_MICROPYTHON, E_INCOMPATIBLE, E_COPY, E_VERIFY = 6, 7, 8, 9
UF2_URL = "https://micropython.org/download/RPI_PICO/"
UF2_URL_PICO2 = "https://micropython.org/download/RPI_PICO2/"  # its BOOTSEL drive: RP2350
# Safe mode, as the lines that end a message: main.py starts no game and no watchdog.
SAFE_MODE = (
    "  unplug the tray, hold OK while plugging it back in (safe mode: the screen says",
    "  SAFE MODE, or SANS ÉCHEC in French; no game runs, the USB REPL is free), then run",
    "  tools/flash.sh again.",
)
# No board to flash: what to check, in the order a maker at the table would.
NOT_FOUND = (
    "What to do:",
    "- Plug in a Pico that runs MicroPython, with a USB cable that carries data: a",
    "  charge-only cable lights the Pico, but this computer never sees it.",
    "- Then '.venv/bin/mpremote devs' lists it (MicroPython, USB id 2e8a:0005); if it",
    "  does not, try another cable or USB socket.",
    "- A Pico that shows up as a drive named RPI-RP2 (RP2350 on a Pico 2) instead has no",
    "  MicroPython yet:",
)
INSTALL = (
    "Install MicroPython 1.27: hold BOOTSEL while plugging the Pico in, then copy the .uf2",
    f"from {UF2_URL} onto the RPI-RP2 drive that appears;",
    f"a Pico 2: from {UF2_URL_PICO2} onto the RP2350 drive (a W:",
    "RPI_PICO_W, RPI_PICO2_W). The files on the board normally survive. Then run this again.",
)


class FlashError(Exception):
    """Stops the run with an exit code; the first line is printed after "flash: ", the rest
    indented."""

    def __init__(self, code: int, *lines: str):
        super().__init__(lines[0])
        self.code = code
        self.lines = lines
