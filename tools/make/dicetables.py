"""Build firmware/dicetray/firsttable.py: what a follower reaches, for the first player's choice.

For each ranking table (classic or bar41), ace high or not, followers free to stop early or not,
and each limit of 1..3 throws, the table holds for each of the 56 throws (in rules.all_throws
order) a follower's best chance to end strictly above it and to end above or level with it,
playing exactly (dicetray.strategy) for that alone, rounded to 1/255: 4 * 2 * 3 * 56 * 2 bytes.
The tray reads the few bytes a decision needs; nothing is computed at import.

Usage: python tools/make/dicetables.py [--check]
--check writes nothing and exits 1 when the committed table is not what this builds.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware"))

from dicetray.odds import combos, ix, next_means  # noqa: E402
from dicetray.options import PRESETS, changed  # noqa: E402
from dicetray.rules import RANKING_BAR41, RANKING_CLASSIC  # noqa: E402
from dicetray.rules import all_throws as throws  # noqa: E402

TARGET = ROOT / "firmware" / "dicetray" / "firsttable.py"

HEAD = '''"""The first player's table (by tools/make_dicetables.py; strategy.chances reads it).

For (bar41, ace_high, free, limit) 112 bytes: a follower's best chance, in 255ths, to end above
each of the 56 throws (rules.all_throws order), then above or level with it.
"""

'''


def follower(opts, target, strict, limit, free):
    """A follower's best chance to end above target's strength (or level: strict False)."""
    s, _, _ = combos(opts)
    goal = s[ix(*target)]
    r = [0] * 216
    for a, b, c in throws():
        i = ix(a, b, c)
        r[i] = 1 if s[i] > goal or (not strict and s[i] == goal) else 0
    # The first throw throws all three; the sums are in 1 / 216**limit.
    return next_means(lambda k: r, 0, limit, free)[42] / 216 ** limit


def build():
    data = bytearray()
    for bar41 in (False, True):
        for ace_high in (False, True):
            opts = changed(PRESETS["classic"], ranking=RANKING_BAR41 if bar41 else RANKING_CLASSIC,
                           ace_high=ace_high)
            for free in (False, True):
                for limit in (1, 2, 3):
                    for strict in (True, False):
                        for t in throws():
                            data.append(int(follower(opts, t, strict, limit, free) * 255 + 0.5))
    return bytes(data)


def text():
    data = build()
    lines = [HEAD, "DATA = (\n"]
    for i in range(0, len(data), 24):
        lines.append("    %r\n" % data[i:i + 24])
    lines.append(")\n")
    return "".join(lines)


def main(argv):
    if "--check" in argv:
        if TARGET.read_text() != text():
            print("firsttable.py is stale: run python tools/make/dicetables.py")
            return 1
        return 0
    TARGET.write_text(text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
