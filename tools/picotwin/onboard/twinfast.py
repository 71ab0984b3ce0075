"""The Pico's machine code on the twin: dicetray.fast, as the firmware finds it on the rp2 port.

On a Pico, flash.sh builds firmware/dicetray/fast.py for the Cortex-M0+ and font.py and
display.py take their text, clearing and the panel's diff from it; the WebAssembly VM has no
emitter, so without this they would take their own Python loops, a different path that costs
the interpreter many times what the machine code costs the Pico. load() runs fast.py's very
source here (handed over by the driver at hello) as Python, with viper's pointers standing for
themselves over the same buffers, and puts it in sys.modules as dicetray.fast: the firmware
takes the Pico's path, and while one of its functions runs the work meter counts at the
machine code's rate (twinjs.machine(); the rate is the driver's, tools/picotwin/cost.py).
"""

import sys

import twinjs

_IMPORT = "\nimport micropython\n"


class _Words:
    """ptr32 over a bytearray: a word written is its four bytes, little-endian."""

    def __init__(self, buf):
        self.buf = buf

    def __setitem__(self, i, v):
        buf = self.buf
        i *= 4
        buf[i] = v & 0xFF
        buf[i + 1] = (v >> 8) & 0xFF
        buf[i + 2] = (v >> 16) & 0xFF
        buf[i + 3] = (v >> 24) & 0xFF


def ptr8(obj):
    """viper's byte pointer: a str's is its UTF-8 bytes, read up to the NUL after them."""
    if type(obj) is str:
        return obj.encode() + b"\0"
    return obj


def ptr16(obj):
    return obj


def ptr32(obj):
    return _Words(obj)


def _machine_code(fn):
    def run(*args):
        twinjs.machine(1)
        try:
            return fn(*args)
        finally:
            twinjs.machine(0)

    return run


class _Emitters:
    pass


emitters = _Emitters()
emitters.viper = _machine_code  # pyright: ignore[reportAttributeAccessIssue]
emitters.native = _machine_code  # pyright: ignore[reportAttributeAccessIssue]


def load(source):
    """fast.py's source, run here as dicetray.fast: its decorators @micropython.viper and
    .native (which MicroPython's compiler takes for its emitters, missing here) read as the
    ones above, which mark what the meter counts as machine code."""
    if _IMPORT not in source or "@micropython." not in source:
        raise ValueError("fast.py no longer reads as the twin expects (its emitters)")
    source = source.replace(_IMPORT, "\n").replace("@micropython.", "@emitters.")
    exec(source, globals())
    sys.modules["dicetray.fast"] = sys.modules[__name__]
