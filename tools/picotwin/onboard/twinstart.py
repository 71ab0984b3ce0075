"""The start of one boot of the twin's Pico: the fakes in place, the flash mounted at "/", then
main.py (as the rp2 port runs it) or, in exec mode, the code mpremote would send. What escapes
is told to the driver with the watchdog's state, which decides what the board does next."""

import io
import os
import sys

import machine  # the twin's, from /twin
import twinbus
import twinfast
import twingc
import twintime
import twinvfs


def _report(exc):
    buf = io.StringIO()
    sys.print_exception(exc, buf)  # pyright: ignore[reportAttributeAccessIssue]
    text = buf.getvalue()
    sys.stderr.write(text)
    return text


def start():
    twinbus.off()  # the twin's own start: the firmware's work is counted from main.py on
    config = twinbus.ask({"op": "hello"})
    costs = config["costs"]
    twinbus.costs.update(costs)
    twinbus.rate(costs["work_ns"], costs["machine_ns"])
    twinbus.levels.update({int(k): v for k, v in config["levels"].items()})
    twinbus.events.extend(config["pins"])
    twinbus.clock[1] = config["until"]
    sys.modules["time"] = twintime
    sys.modules["machine"] = machine
    sys.modules["gc"] = twingc
    import random

    random.seed(config["seed"])
    twinfast.load(config["fast"])  # the Pico's machine code, as the firmware finds it there
    os.umount("/")
    os.mount(twinvfs.Flash(), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    error = None
    twinbus.calibrate(twintime.ticks_ms)
    try:
        if config["mode"] == "exec":
            exec(config["code"], {"__name__": "__main__"})
        else:
            for name in ("boot.py", "main.py"):
                try:
                    source = open(name).read()
                except OSError:
                    continue
                exec(compile(source, name, "exec"), {"__name__": "__main__"})
    except BaseException as exc:  # what escaped: the REPL gets it on the board
        error = _report(exc)
    twinbus.charge(True)
    twinbus.ask({"op": "exit", "error": error, "t": twinbus.clock[0],
                 "wdt": twinbus.watchdog if twinbus.watchdog[0] else None, "bus": twinbus.bus})
