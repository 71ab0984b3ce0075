"""The benches: python tools/bench/figures.py prints every figure, its last line one JSON object.

    figures  the rules core's speed and heap, then every bench below, into one JSON line
    tray     the whole tray: bus bytes and time per press, heap after boot and at its peak, idle
    seats    the computer seat: the arena's shares, a decision's time on the emulated Pico
    arena    computer seats against weaker players: how often each pays the round
    page     the tray in a browser: the page's start and a click's time to the canvas
    baseline the computer seat as first released (a package): the arena's opponent

The emulated Pico's figures are emupico.bench's.
"""
