"""The computer seat as first released: its strategy, odds and first player's table, kept as they
were (relative imports: it runs as bench.baseline on CPython and as baseline on MicroPython).

The arena plays the tray's seat against three of these, and the seats bench times a decision of
both on MicroPython; none of it goes to the Pico.
"""
