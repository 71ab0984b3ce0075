"""What the firmware's work takes on the Pico, as the host twin estimates it: the model that
moves the twin's clock (docs/architecture.md, "The host twin's clock").

The twin runs the firmware on the WebAssembly MicroPython, whose build is metered
(picotwin/meter.py): it counts the C functions the interpreter enters, a deterministic measure
of the interpreter's work (a bytecode that looks up a name, calls, indexes or adds enters one
or more; a simple loop's turn about a dozen). The twin's own code (its fakes of the machine,
the flash and the clock) runs with the meter off, and what the meter still sees of a read of
the clock (the twin's Python around it, the call into its JavaScript and back: a C call of a
microsecond on the Pico) is measured at each boot and taken off (vm.mjs, twinbus.calibrate).
Each time the firmware reads the clock, sleeps, writes to the panel or calls the flash, the
work since the last time is charged:

    CPU      work_ns per function entered where the Pico interprets; machine_ns per function
             entered where it runs machine code: the twin runs dicetray.fast (text, clearing,
             the panel's diff: viper on the Pico) from fast.py's source as Python
             (onboard/twinfast.py), so the firmware takes the Pico's path, and counts that
             Python at the machine code's rate. Both fitted to the emulated Pico's figures:
             KIT below, a throw with a hint and a seat's decision (docs/architecture.md gives
             the estimate beside each).
    bus      I2C as the kit models it, at the write's own frequency (board.I2C_FREQ, 400 kHz):
             9 clock periods per byte (the address and each data byte), 1 for the start and 1
             for the stop (22.5 us a byte); the CPU waits (onboard/machine.py, I2C.writeto).
    flash    the W25Q16JV's typical busy times, as the kit: a page program (littlefs programs
             32 to 128 bytes, a page each) 0.4 ms, a 4 KB sector erase 45 ms; and littlefs's own
             work on the Pico, fs_call_us a call plus fs_byte_us a byte read or written.
    import   mpy_byte_us a byte of a module's .mpy read by an import, beyond the read itself:
             MicroPython reads it through the VFS a few bytes at a time and interns each name
             (a search through the interned strings, a loop within one C function: the meter
             counts it once). Calibrated on the emulated Pico's boot: after the panel's first
             blank frame, it draws the setup more than 300 ms later (the tier's French setup,
             read at the first 300 ms quiet, was blank there), the modules of the main loop
             (about 60 KB of .mpy) loaded in between.
    gc       a collection (gc.collect(): the main loop's, at a quiet moment) gc_us.
    boot     boot_us from power-up to main.py (MicroPython's start, littlefs mounted).

What the model leaves out: a function's own cost (the WebAssembly build inlines other C than
the Pico's, and a loop inside one function counts once), so a kind of work whose mix differs
from the presses' is off by more (docs/architecture.md: the kit's figures and the
estimate's side by side). No XIP cache misses, no interrupts but the buttons', no collection
but the main loop's (the WebAssembly build collects nothing while the board runs). It is an
estimate: only the
real port proves the times (README). The Pico tier runs the twin slower than the estimate
(TIER, below), so that a test reading too early fails on the twin as it does on the port.
"""

from __future__ import annotations

# The Pico's times as the twin estimates them (ns, us, ms: as each key says).
PICO = {
    "work_ns": 800,  # CPU: a function the interpreter enters (calibrated: see KIT)
    "machine_ns": 20,  # CPU: either, in what the Pico runs as machine code (fast.py)
    "fs_call_us": 150,  # littlefs: a file call (open, stat, remove, rename, a read or write)
    "fs_byte_us": 0.25,  # littlefs: a byte read or written (copies through its caches)
    "mpy_byte_us": 5.0,  # an import: a byte of .mpy loaded (calibrated: see the docstring)
    "page_program_us": 400,  # W25Q16JV tPP, typical (the kit's FLASH_BUSY_NS too)
    "sector_erase_us": 45000,  # W25Q16JV tSE (4 KB), typical
    "gc_us": 6000,  # gc.collect() of the tray's heap
    "boot_us": 50000,  # power-up to main.py
}
# The twin's mechanics alone: no work costs time (its own tests of sleeps and interrupts).
NONE = dict.fromkeys(PICO, 0)
# The Pico tier's twin (Twin's default) is a slow Pico: the interpreter's and the machine
# code's work MARGIN times the estimate, the rest as it is (the bus, the chip, littlefs,
# imports, collections). A test that reads the panel before the tray drew what it checks then
# reads it early on the twin wherever it would on the port, so long as the estimate is short
# of the port's time by less than MARGIN: the widest the kit has shown is the first throw of a
# game with a seat and hints, whose hint came more than 380 ms after the dice landed there (the
# tier read before it, after a 300 ms quiet window and the release's 80 ms) and 274 ms after
# them by the estimate, 1.39 times less.
MARGIN = 1.5
CPU = ("work_ns", "machine_ns")
TIER = {k: v * MARGIN if k in CPU else v for k, v in PICO.items()}

# The emulated Pico's figures the model is calibrated on (bench.py on the kit, MicroPython 1.27
# RPI_PICO, 2 players, classic): press to panel complete, ms p95, counted from when the press
# acts (OK: its release); and a throw's first byte.
KIT = {"keep": 7.3, "stop": 37.0, "result": 45.5, "setup": 38.4, "throw_first": 17.0}



def flash_us(costs: dict, nbytes: int, erases: int, programs: int, module=False) -> float:
    """One file call that moved nbytes and made the chip erase and program so many times;
    module: the read of an import's .mpy."""
    per_byte = costs["fs_byte_us"] + (costs["mpy_byte_us"] if module else 0)
    return (costs["fs_call_us"] + nbytes * per_byte
            + erases * costs["sector_erase_us"] + programs * costs["page_program_us"])


__all__ = ["CPU", "KIT", "MARGIN", "NONE", "PICO", "TIER", "flash_us"]
