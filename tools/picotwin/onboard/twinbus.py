"""The twin's Pico side: its clock, its pins' levels and the panel's bus, kept in lockstep with
the driver on the host (tools/picotwin/twin.py). MicroPython only (the WebAssembly VM).

Time is virtual: it moves only when the firmware sleeps, and the driver says how far it may go
(until). Reaching that point, the VM sends what went to the panel since the last meeting and
waits for the driver's answer: how far to go next and the buttons' changes on the way, each
applied at its own millisecond, calling the pin's interrupt handler as the chip would.
"""

import json

import twinjs

TICKS_MAX = (1 << 30) - 1
IRQ_FALLING = 4
IRQ_RISING = 8

clock = [0, 0]  # [now, until]: virtual ms since this boot, and how far the driver lets it run
events = []  # [t, gpio, level] the driver announced, in time order
levels = {}  # gpio -> level, for the pins the driver drives (the buttons)
handlers = {}  # gpio -> (pin, handler, trigger)
bus = []  # [t, addr, hex bytes] of each write to the bus since the driver last heard
watchdog = [0, 0]  # [timeout ms, 0: none started; the time of the last feed]


def ask(message):
    """One question to the driver, its answer (both JSON objects)."""
    return json.loads(twinjs.call(json.dumps(message)))


def meet():
    """At the driver's horizon: hand over the bus, take the next horizon and the pin changes."""
    answer = ask({"op": "sync", "t": clock[0], "bus": bus,
                  "wdt": watchdog if watchdog[0] else None})
    bus.clear()
    clock[1] = answer["until"]
    events.extend(answer["pins"])


def set_level(gpio, level):
    if levels.get(gpio, 1) == level:
        return
    levels[gpio] = level
    handler = handlers.get(gpio)
    if handler is not None:
        pin, call, trigger = handler
        if trigger & (IRQ_RISING if level else IRQ_FALLING):
            call(pin)


def bite_due():
    """The watchdog bites once its timeout passed since the last feed: the driver resets us."""
    timeout, fed = watchdog
    if timeout and clock[0] - fed > timeout:
        clock[0] = fed + timeout
        ask({"op": "reset", "t": clock[0], "why": "watchdog"})


def advance(ms):
    """Sleep ms virtual milliseconds: pin changes on the way happen at their time."""
    target = clock[0] + ms
    while True:
        while events and events[0][0] <= target:
            t, gpio, level = events.pop(0)
            if t > clock[0]:
                clock[0] = t
                bite_due()
            set_level(gpio, level)
        if target <= clock[1]:
            clock[0] = target
            bite_due()
            return
        clock[0] = clock[1]
        bite_due()
        meet()

