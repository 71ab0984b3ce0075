"""The tray on the emulated Pico (the kit at ../shared/pico): driving it and measuring there.

    kit            drives the kit: start, install the tray, press, read the panel
    panel          the tray's panel read back from pixels: the picture, its text, its screen
    bot            the bot that plays the tray on it for the bench, and its samples
    bench          press-to-panel latency and heap there: the bench's Pico figures
    profile        where a press's time goes there (python tools/emupico/profile.py)
    profile_board  the code profile runs on the board

The panel is read with the tray's own font and the bot keeps the tray's timings: importing the
package makes the firmware importable (through trayhost).
"""

import trayhost  # noqa: F401
