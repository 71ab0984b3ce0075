"""Seeded dice and a simple bot player, the same on CPython and MicroPython (tests, log, bench)."""

from dicetray.rules import evaluate


class SeededDice:
    """A xorshift32 die: the same seed gives the same dice on every Python; no modulo bias."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def copy(self):
        twin = SeededDice(0)
        twin.state = self.state
        return twin

    def bits(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def __call__(self):
        while True:
            v = self.bits() >> 29  # 0..7; 6 and 7 are thrown away so every face is equally likely
            if v < 6:
                return v + 1


class ScriptedDice:
    """Dice from a list, in order; runs out loudly."""

    def __init__(self, values):
        self.values = list(values)
        self.i = 0

    def __call__(self):
        if self.i >= len(self.values):
            raise IndexError("scripted dice ran out after %d values" % self.i)
        v = self.values[self.i]
        self.i += 1
        return v


def _keep_for(dice):
    # Keep what is on the way to 421, or the aces, or a pair.
    want = [4, 2, 1]
    kept = []
    for i, d in enumerate(dice):
        if d in want:
            want.remove(d)
            kept.append(i)
    if len(kept) >= 2:
        return tuple(kept[:2])  # a throw must throw at least one die
    for face in (1, 6, 5, 4, 3, 2):
        idx = [i for i, d in enumerate(dice) if d == face]
        if len(idx) >= 2:
            return tuple(idx[:2])
    return tuple(kept)


def bot_action(game, rng):
    """One action for whoever must act: ("throw", keep) or ("stop",) or ("announce", stake)."""
    if game.can_announce():
        return ("announce", "comes" if rng() > 3 else "is")
    if game.contest is not None or game.turn.count == 0:
        return ("throw", ())
    if not game.can_throw():
        return ("stop",)
    combo = evaluate(game.turn.dice, game.opts)
    if game.can_stop() and (combo.tokens >= 4 or rng() == 6):
        return ("stop",)
    return ("throw", _keep_for(game.turn.dice))


def apply(game, action):
    """Apply a bot or scripted action tuple to the game; returns its events."""
    if action[0] == "throw":
        return game.throw(action[1])
    if action[0] == "stop":
        return game.stop()
    return game.announce(action[1])


def play_random(game, rng, max_actions=100000, each=None):
    """Play the game to its end with bot decisions; returns the number of actions.

    each(events), if given, gets the events of every action (the game log prints them)."""
    n = 0
    while not game.over:
        events = apply(game, bot_action(game, rng))
        if each is not None:
            each(events)
        n += 1
        if n > max_actions:
            raise RuntimeError("game did not end within %d actions" % max_actions)
    return n
