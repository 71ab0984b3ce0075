"""The tally: how many rounds each seat paid since it was last reset, kept on flash like the game.

A seat pays the round when it is among a finished game's losers (GameResult.losers): when
several hold the most tokens at the end, each of them pays. Seats are counted, not people: P1 is
whoever sits at seat 1. The file is replaced atomically, as the game is; a damaged one is kept
aside as tally.bad (the reason goes to error.log) and the count starts again from 0.
"""

FILE = "tally.json"
TMP = "tally.tmp"
BAD = "tally.bad"
FORMAT = "dicetray-tally"
SEATS = 8
MAX_BYTES = 1024  # a tally is ~100 bytes
TOP = 99999  # a count stops here (and fits the screen)


class Tally:
    """paid[p]: the rounds seat p paid; last: the stamp of the last game counted, so that a game
    is counted once even if the power is cut between its save and the tally's."""

    __slots__ = ("store", "paid", "last")

    def __init__(self, store):
        self.store = store
        self.paid = [0] * SEATS
        self.last = []

    def load(self):
        """Read the tally from flash: None, or a problem for the screen (the file kept aside)."""
        from dicetray import words
        from dicetray.store_read import (  # boot only: the app lets it go
            INVALID,
            keep_aside,
            problem_text,
            read_json,
        )

        s = self.store
        s.discard(TMP)  # a save cut short: tally.json is still the last whole one
        path = s.path(FILE)
        if not s.fs.exists(path):
            return None
        data, why = read_json(s, path, MAX_BYTES)
        if why is None:
            if _valid(data):
                self.paid = data["paid"]
                self.last = data["last"]
                return None
            why = INVALID
        problem = problem_text(words.T.TALLY_PROBLEM, why, keep_aside(s, FILE, BAD), BAD)
        s.log_error("%s: %s\n" % (path, problem))
        return problem

    def count(self, game):
        """Count the round a finished game's losers pay; False if it was counted already."""
        r = game.result
        stamp = [game.turn.number] + game.tokens + r.losers
        if stamp == self.last:
            return False
        paid = self.paid[:]  # a new list: a count taken back unsaved puts the old one back
        for p in r.losers:
            paid[p] = min(TOP, paid[p] + 1)
        self.paid = paid
        self.last = stamp
        return True

    def now(self):
        """What the tally holds now, for back_to: count never changes it in place."""
        return self.paid, self.last

    def back_to(self, was):
        """Hold again what now() said (a count made in memory is taken back unsaved)."""
        self.paid, self.last = was

    def uncount(self, game):
        """Take back the count of a finished game's round (its end is undone, to be played
        again): False if it was not the game counted last."""
        r = game.result
        if [game.turn.number] + game.tokens + r.losers != self.last:
            return False
        for p in r.losers:
            if self.paid[p]:
                self.paid[p] -= 1
        self.last = []
        return True

    def save(self):
        """Write the tally atomically; a full or failing flash raises OSError (old file kept)."""
        self.store.replace(TMP, FILE, {"format": FORMAT, "version": 1, "paid": self.paid,
                                       "last": self.last})

    def reset(self):
        """Every seat back to 0 rounds paid; save() writes it. The stamp stays: the game counted
        last is not counted again."""
        self.paid = [0] * SEATS


def _valid(d):
    # The file's fields, each of its type: never trust a file to crash nothing.
    if type(d) is not dict or len(d) != 4 or d.get("format") != FORMAT or d.get("version") != 1:
        return False
    paid, last = d.get("paid"), d.get("last")
    if type(paid) is not list or len(paid) != SEATS or type(last) is not list or len(last) > 20:
        return False
    for v in paid:
        if type(v) is not int or not 0 <= v <= TOP:
            return False
    for v in last:
        if type(v) is not int:
            return False
    return True
