"""What a night's heap readings say: the slope of the live heap over the games' starts and its
drift from the 10th game, and the night's peak against its first games'. bench/night.py reads
the night on the host's MicroPython, emupico/night.py on the Pico; both sum it up here.
"""

FIRST = 9  # the 10th game: where the slope and the drift start
SPOKEN = 30  # the night's first games, each language spoken in them (trayhost.night)


def slope(values, first=0):
    """The least-squares slope of values[first:] against their index (per step of the index)."""
    ys = values[first:]
    n = len(ys)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = sum(ys) / n
    return sum((i - mx) * (y - my) for i, y in enumerate(ys)) / sum(
        (i - mx) ** 2 for i in range(n))


def summary(starts, peaks, first=FIRST, spoken=SPOKEN):
    """{slope, drift, peak, game_peak} of a night's readings, the live heap at each game's start
    and each game's peak (bench/night.py's soak_heap_* say what each is): game_peak is the
    highest of the first spoken games' (each language spoken once)."""
    first = min(first, len(starts) - 1)
    return {"slope": round(slope(starts, first), 1), "drift": starts[-1] - starts[first],
            "peak": max(peaks), "game_peak": max(peaks[:spoken])}
