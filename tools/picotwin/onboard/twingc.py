"""MicroPython's gc module on the twin (sys.modules["gc"]): the VM's own, but a collection
costs the Pico's time (the driver's model, twinbus.costs["gc_us"]). The WebAssembly build
collects nothing while the board runs: what it allocates, it keeps."""

import gc as _gc

import twinbus

enable = _gc.enable
disable = _gc.disable
isenabled = _gc.isenabled
mem_alloc = _gc.mem_alloc
mem_free = _gc.mem_free
threshold = _gc.threshold


def collect():
    twinbus.charge(True)
    try:
        _gc.collect()
        twinbus.spend(twinbus.costs.get("gc_us", 0))
    finally:
        twinbus.on()
