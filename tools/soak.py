"""Soak the save checker: mutate real saves by meaning, and play every accepted one to its end.

    .venv/bin/python tools/soak.py [--cases 10000] [--seed 1]

Prints how many mutated saves were refused (and why) and how many were accepted and played on
to the end with random legal actions, every screen drawn on the way in. Any crash, any game
that does not end, any state the checker would refuse on the way, stops it with the save that
did it and exit status 1.
"""

import argparse
import json
import sys
import time

import trayhost  # noqa: F401  (first: the firmware on the path, framebuf on CPython)
from trayhost import savefuzz


def soak(count, seed, out=print):
    """Run count cases; returns (refused reasons -> count, played, most actions)."""
    reasons = {}
    played = 0
    longest = 0
    for i, data in enumerate(savefuzz.cases(seed, count)):
        before = json.dumps(data)
        try:
            kind, detail = savefuzz.play_on(data, seed * 100003 + i)
        except Exception:
            out("case %d failed; its save:\n%s" % (i, before))
            raise
        if kind == "refused":
            why = detail.split(": ", 1)[-1]
            reasons[why] = reasons.get(why, 0) + 1
        else:
            played += 1
            longest = max(longest, detail)
    return reasons, played, longest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    start = time.time()
    try:
        reasons, played, longest = soak(args.cases, args.seed)
    except Exception as e:
        print("FAILED: %s: %s" % (type(e).__name__, e))
        return 1
    refused = sum(reasons.values())
    print("%d mutated saves in %.0f s: %d refused, %d accepted and played to the end"
          " (the longest in %d actions)" % (args.cases, time.time() - start, refused, played,
                                            longest))
    for why, n in sorted(reasons.items(), key=lambda item: -item[1]):
        print("%7d  refused: %s" % (n, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
