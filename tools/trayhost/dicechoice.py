"""Random choices made with a die (a SeededDice): one item of a sequence, or yes n times in six."""


def pick(rng, seq):
    return seq[(rng() - 1 + 6 * (rng() - 1)) % len(seq)]


def chance(rng, n6):
    """True with probability n6/6."""
    return rng() <= n6
