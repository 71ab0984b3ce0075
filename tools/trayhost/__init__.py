"""The host side of the dice tray: what the simulator, the screen renderer, the bench, the game
log and the tests share. Nothing here goes to the Pico, and no tool imports the tests.

    framebuf      MicroPython's framebuf on CPython, as far as the firmware draws
    pins          fake button pins, a fake clock, the host's one ticks_add / ticks_diff
    oled          a fake I2C bus whose SSD1306 / SH1106 decodes the bytes into lit pixels
    oledpanel     that OLED: control bytes, RAM, power, what the glass shows
    oledcommands  its command interpreter: the commands and the registers each one sets
    canvas        the display interface on a bare frame buffer: the simulator's screen
    autoplay      seeded dice, a bot player and the loop that plays a game with it
    trayrun       a whole tray on fakes, driven by keys; in-memory files; the bot at the buttons
    slips         a game whose every stop or stake is first slipped and taken back
    night         a night at the bar: games back to back, settings switched on the setup menu
    savefuzz      real saves damaged on purpose, every accepted one played to its end
    savemutate    a save changed in meaning, one field at a time
    dicechoice    random choices made with a die: one of a sequence, a chance in six
    wallclock     the wall clock a bench reads on the WebAssembly MicroPython, to the us

pins, autoplay, trayrun, night and savefuzz (with savemutate, dicechoice) run on MicroPython
too: the MicroPython test tier mounts this package.
"""

try:
    import framebuf  # noqa: F401  (MicroPython's, built in: nothing to do)
except ImportError:  # CPython: make the firmware importable as it is on the Pico
    import os
    import sys

    from trayhost import framebuf

    sys.modules["framebuf"] = framebuf  # the firmware's `import framebuf` gets the stand-in
    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    _firmware = os.path.join(_root, "firmware")
    if _firmware not in sys.path:
        sys.path.append(_firmware)
