"""A throw is written in the order it ranks (rules.written): of two ordinary throws, the one that
reads higher ranks higher, an ace that ranks above the six written A and first."""

import itertools

import pytest
from dicetray.options import PRESETS, changed
from dicetray.rules import K_OTHER, all_throws, evaluate, written

# How a reader orders the written faces: A above 6 above 5 ... above 1.
_READ = {"A": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2, "1": 1}


def _reads(text):
    return tuple(_READ[ch] for ch in text)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("ace_high", [False, True])
def test_of_two_ordinary_throws_the_one_that_reads_higher_ranks_higher(preset, ace_high):
    opts = changed(PRESETS[preset], ace_high=ace_high)
    ordinary = [evaluate(d, opts) for d in all_throws() if evaluate(d, opts).kind == K_OTHER]
    assert len(ordinary) > 30
    for a, b in itertools.combinations(ordinary, 2):
        wa, wb = written(a.dice, opts), written(b.dice, opts)
        assert (_reads(wa) > _reads(wb)) == (a.strength > b.strength), (wa, wb)


def test_the_ace_is_written_a_where_it_ranks_above_the_six():
    high = changed(PRESETS["classic"], ace_high=True)
    low = changed(PRESETS["classic"], ace_high=False)
    assert written((6, 3, 1), high) == "A63" and written((1, 3, 6), low) == "631"
    assert written((6, 2, 1), high) == "A62" and written((5, 2, 1), high) == "A52"
    for opts in (high, low):  # the sequences keep their digits; aces in figures rank first
        assert [written(d, opts) for d in ((1, 2, 4), (2, 1, 2), (3, 1, 2))] == \
            ["421", "221", "321"]
        assert written((1, 6, 1), opts) == "AA6" and written((1, 1, 1), opts) == "AAA"
        assert written((5, 5, 5), opts) == "555" and written((2, 4, 4), opts) == "442"
        assert written((4,), opts) == "4"


def test_a_turn_names_an_ordinary_throw_as_it_is_written():
    high = changed(PRESETS["classic"], ace_high=True)
    assert evaluate((1, 6, 3), high).name == "A63"
    assert evaluate((5, 4, 2), high).name == "542"
