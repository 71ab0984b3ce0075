"""The twin's Pico side: its clock, its pins' levels and the panel's bus, kept in lockstep with
the driver on the host (tools/picotwin/twin.py). MicroPython only (the WebAssembly VM).

Time is virtual. It moves when the firmware sleeps, as far as the driver lets it (until):
reaching that point, the VM sends what went to the panel since the last meeting and waits for
the driver's answer (how far to go next, and the buttons' changes on the way, each applied at
its own millisecond, calling the pin's interrupt handler as the chip would). And it moves by
what the firmware's work would take on the Pico (charge, spend: the model is the driver's,
tools/picotwin/cost.py, handed over in `costs`): the interpreter's work since the last charge
(twinjs.work(): the metered build's count, at the model's rates) whenever the firmware reads
the clock, sleeps or reaches the panel or the flash; the bus's bytes; the flash's busy times.
The twin's own code here runs with the meter off (reading it turns it off; twinjs.on() and
twinjs.off()), and what it still sees of a read of the clock is taken off (calibrate): only
the firmware's work counts.
"""

import json

import twinjs

TICKS_MAX = (1 << 30) - 1
IRQ_FALLING = 4
IRQ_RISING = 8

clock = [0, 0, 0]  # [now, until, us]: virtual ms since this boot (and us past it), the horizon
events = []  # [t, gpio, level] the driver announced, in time order
levels = {}  # gpio -> level, for the pins the driver drives (the buttons)
handlers = {}  # gpio -> (pin, handler, trigger)
bus = []  # [t, addr, hex bytes] of each write to the bus since the driver last heard
watchdog = [0, 0]  # [timeout ms, 0: none started; the time of the last feed]
irq = [False]  # an interrupt handler runs: the pins wait
costs = {"work_ns": 0}  # the driver's cost model (set at hello); work_ns 0: no clock
work = _work = twinjs.work
rate = twinjs.rate
off = twinjs.off
on = twinjs.on


def calibrate(read_clock):
    """The meter told what a read of the clock (read_clock: the twin's time.ticks_ms) counts
    beyond what the firmware did, taken off every reading: on the Pico that read is a C call
    of a microsecond or so, here the twin's Python and its calls into its JavaScript and back.
    A reading right after another moved by just that. Called with the meter off; it is on
    after, from nothing."""
    charge()
    read_clock()
    read_clock()
    twinjs.calibrate()
    on()


def ask(message):
    """One question to the driver, its answer (both JSON objects). Call with the meter off."""
    return json.loads(twinjs.call(json.dumps(message)))


def now_ms():
    """The clock now, in ms with its microseconds (the bus's timestamps)."""
    return clock[0] + clock[2] / 1000


def spend(us):
    """The clock moves on by us microseconds of the Pico's time (no pin is read meanwhile)."""
    us += clock[2]
    ms = int(us // 1000)
    clock[0] += ms
    clock[2] = us - ms * 1000
    if ms:
        bite_due()


def charge(stay_off=False):
    """The firmware's work since the last charge, spent (reading the meter turns it off: what
    follows is the twin's). Past the driver's horizon, the VM meets it, as at a sleep; pin
    changes whose time has come are applied (their interrupt handlers run here, as the chip's
    interrupts would have come in the middle of the work). The meter is on again after, unless
    stay_off (the caller's own code follows, and turns it on)."""
    ns = _work()
    try:
        if ns:
            spend(ns / 1000)
        if clock[0] >= clock[1]:
            meet()
        while events and events[0][0] <= clock[0] and not irq[0]:
            _, gpio, level = events.pop(0)
            set_level(gpio, level)
    finally:
        if not stay_off:
            on()


def meet():
    """At the driver's horizon: hand over the bus, take the next horizon and the pin changes.
    Called with the meter off."""
    answer = ask({"op": "sync", "t": clock[0], "bus": bus,
                  "wdt": watchdog if watchdog[0] else None})
    bus.clear()
    clock[1] = int(answer["until"])
    events.extend(answer["pins"])


def set_level(gpio, level):
    """A pin's level changes: its interrupt handler runs (the firmware's work: metered), and
    no other pin's while it does, as on the chip."""
    if levels.get(gpio, 1) == level:
        return
    levels[gpio] = level
    handler = handlers.get(gpio)
    if handler is not None and not irq[0]:
        pin, call, trigger = handler
        if trigger & (IRQ_RISING if level else IRQ_FALLING):
            irq[0] = True
            on()
            try:
                call(pin)
            finally:
                charge(True)
                irq[0] = False


def bite_due():
    """The watchdog bites once its timeout passed since the last feed: the driver resets us."""
    timeout, fed = watchdog
    if timeout and clock[0] - fed > timeout:
        clock[0] = fed + timeout
        off()
        ask({"op": "reset", "t": clock[0], "why": "watchdog"})


def advance(ms):
    """Sleep ms virtual milliseconds (from the clock once the work so far is charged): pin
    changes on the way happen at their time, or now when the work ran past it."""
    charge(True)
    try:
        target = clock[0] + ms
        while True:
            while events and events[0][0] <= target:
                t, gpio, level = events.pop(0)
                if t > clock[0]:
                    clock[0] = t
                    clock[2] = 0
                    bite_due()
                set_level(gpio, level)
            if target <= clock[1]:
                if target > clock[0]:
                    clock[0] = target
                    clock[2] = 0
                bite_due()
                return
            if clock[1] > clock[0]:
                clock[0] = clock[1]
                clock[2] = 0
            bite_due()
            meet()
    finally:
        on()
