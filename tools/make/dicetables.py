"""Build firmware/dicetray/firsttable.py: what a player still to throw reaches against a throw.

The seat counts the players still to throw (docs/strategy.md): each, it assumes, plays best to
end above the seat's final throw with the throws its limit gives it. This table holds, for
each ranking order (classic or bar41 table, ace high or not), followers free to stop early or
not, each way a level counts and each limit of 2 or 3 throws (one throw has nothing to choose:
the tray counts it), a follower's chance to end above each of the 56 throws (rules.all_throws
order) and, where a level is a tie to settle, its chance to end level, playing best for
above + level / 2 (a level "the later wins" counts as above). Rounded to 1/255, a byte each.
The tray reads the bytes a decision needs; nothing is computed at import.

The follower here is worked out exactly, in floats, with its own sums (not dicetray.odds's):
each keep is summed over the faces of the dice thrown; among equal choices it stops first,
then keeps as the tray lists its keeps (nothing, one die, two).

Usage: python tools/make/dicetables.py [--check]
--check writes nothing and exits 1 when the committed table is not what this builds.
"""

import sys
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware"))

from dicetray.options import PRESETS, changed  # noqa: E402
from dicetray.rules import RANKING_BAR41, RANKING_CLASSIC, evaluate  # noqa: E402
from dicetray.rules import all_throws as throws  # noqa: E402

TARGET = ROOT / "firmware" / "dicetray" / "firsttable.py"

# How a follower's level with the target counts, by block: a tie to settle (FAIR), a win
# (LATER: the later of two equal throws wins), or a tie only in as many throws, fewer winning
# (FEWER: rule "fewer throws win", the target made in as many throws as the limit).
FAIR, LATER, FEWER = "fair", "later", "fewer"

HEAD = '''"""What the players after reach (by tools/make/dicetables.py; turn_odds reads it).

For each ranking order (bar41 table or not, then ace high or not: 896 bytes each), followers not
free to stop early (336 bytes) then free (560): blocks of 56 bytes, one per throw in
rules.all_throws order, a follower's best chance in 255ths against that throw with 2 then 3
throws: "fair" (a level is a tie to settle): above, level, above, level; "later" (a level
wins): above, above; for free followers, "fewer" (rule fewer throws win, the throw made in as
many throws as the limit): above, level, above, level.
"""

'''


def outcomes():
    """For each of the 43 keep slots (dicetray.odds' numbering), [(throw, probability)] of the
    throw after it: the kept dice and the faces of the others."""
    index = {t: n for n, t in enumerate(throws())}
    out = {}
    for kept in [()] + [(a,) for a in range(1, 7)] + [(a, b) for a in range(1, 7)
                                                       for b in range(1, a + 1)]:
        slot = 42 if not kept else 35 + kept[0] if len(kept) == 1 else \
            (kept[0] - 1) * 6 + kept[1] - 1
        faces = list(product(range(1, 7), repeat=3 - len(kept)))
        dist = {}
        for f in faces:
            n = index[tuple(sorted(kept + f, reverse=True))]
            dist[n] = dist.get(n, 0) + 1 / len(faces)
        out[slot] = sorted(dist.items())
    return out


def keeps():
    """Each throw's keep slots, in the tray's order: nothing, one die (lowest first), two."""
    out = []
    for a, b, c in throws():
        slots = {42, 35 + a, 35 + b, 35 + c, (a - 1) * 6 + b - 1, (a - 1) * 6 + c - 1,
                 (b - 1) * 6 + c - 1}
        out.append(sorted(slots, key=lambda s: (0 if s == 42 else 1 if s >= 36 else 2, s)))
    return out


def follower(strengths, target, limit, free, mode, moves):
    """(above, level): the chances of a follower with limit throws playing best for above +
    level / 2 against throw target."""
    goal = strengths[target]

    def score(n, count):
        # (value, above, level) of ending on throw n after count throws.
        s = strengths[n]
        if s > goal:
            return 1.0, 1.0, 0.0
        if s < goal:
            return 0.0, 0.0, 0.0
        if mode == LATER or (mode == FEWER and count < limit):
            return 1.0, 1.0, 0.0
        return 0.5, 0.0, 1.0

    slots, outcome = moves
    after = None  # (value, above, level) of each throw after throw count + 1, played best
    for count in range(limit, 0, -1):
        now = []
        if after is not None:
            sums = {s: tuple(sum(p * after[m][j] for m, p in dist) for j in range(3))
                    for s, dist in outcome.items()}
        for n in range(56):
            options = []
            if count == limit or free:
                options.append(score(n, count))
            if count < limit:
                options.extend(sums[s] for s in slots[n])
            top = max(o[0] for o in options)
            now.append(next(o for o in options if o[0] >= top - 1e-12))
        after = now
    first = outcome[42]
    return (sum(p * after[m][1] for m, p in first), sum(p * after[m][2] for m, p in first))


def byte(p):
    return int(p * 255 + 0.5)


def build():
    moves = keeps(), outcomes()
    data = bytearray()
    for bar41 in (False, True):
        for ace_high in (False, True):
            opts = changed(PRESETS["classic"], ranking=RANKING_BAR41 if bar41 else RANKING_CLASSIC,
                           ace_high=ace_high)
            strengths = [evaluate(t, opts).strength for t in throws()]
            for free in (False, True):
                for mode in (FAIR, LATER, FEWER) if free else (FAIR, LATER):
                    for limit in (2, 3):
                        pairs = [follower(strengths, t, limit, free, mode, moves)
                                 for t in range(56)]
                        data.extend(byte(a) for a, _ in pairs)
                        if mode != LATER:
                            data.extend(byte(e) for _, e in pairs)
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
