"""The wall clock a bench reads on the WebAssembly MicroPython: ticks_us() from Node's
performance.now() through the build's js module, to the microsecond (the build's own
time.ticks_us counts whole milliseconds); time.ticks_us where there is no js module."""

try:
    import js

    _perf = js.performance

    def ticks_us():
        return int(_perf.now() * 1000)
except ImportError:
    from time import ticks_us  # noqa: F401  (MicroPython's; a port without js)
