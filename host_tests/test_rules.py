"""Rules core: the 56 throws per preset against the texts' tables, the public API, the options
(options.py: the table and the presets)."""

import ast
import itertools
import json
import os

import pytest
from dicetray import rules
from dicetray.options import (
    OPTION_NAMES,
    OPTIONS,
    PRESET_NAMES,
    PRESETS,
    changed,
    make,
    option,
)
from dicetray.rules import (
    K_BRELAN,
    K_FICHE,
    K_NENETTE,
    K_OTHER,
    Options,
    RulesError,
    all_throws,
    evaluate,
    rank,
)

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "vectors", "rules_vectors.json")) as f:
    VECTORS = json.load(f)



def check_option(name, value):
    """The game's options with option name set to value: RulesError unless it is allowed."""
    make(**dict(PRESETS["classic"].to_dict(), **{name: value}))

def test_presets_are_the_five_texts():
    assert set(PRESETS) == {"classic", "jackpot", "zanzibar", "bar41", "lebon"}
    assert set(PRESET_NAMES) == set(PRESETS)
    assert PRESETS["bar41"].tokens == 41  # 003: "3 dés et 41 jetons"
    for name in ("classic", "jackpot", "zanzibar", "lebon"):
        assert PRESETS[name].tokens == 21


@pytest.mark.parametrize("preset", sorted(VECTORS))
def test_all_56_throws_rank_and_tokens(preset):
    rows = VECTORS[preset]
    opts = PRESETS[preset]
    combos = [evaluate(tuple(dice), opts) for dice, _ in rows]
    strengths = [c.strength for c in combos]
    # Strongest first, no two throws equal.
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == 56
    assert [c.tokens for c in combos] == [tokens for _, tokens in rows]


@pytest.mark.parametrize("preset", sorted(VECTORS))
def test_rank_orders_the_throws_as_the_texts_do_and_agrees_with_evaluate(preset):
    # rank() is what settles a turn (settle.key) and orders the table: the texts' order, in
    # any order of the dice, with the ace high or not, the same kind and strength as evaluate.
    strengths = [rank(tuple(dice), PRESETS[preset])[1] for dice, _ in VECTORS[preset]]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 56
    for ace_high in (False, True):
        opts = changed(PRESETS[preset], ace_high=ace_high)
        for dice, _ in VECTORS[preset]:
            c = evaluate(tuple(dice), opts)
            for perm in itertools.permutations(dice):
                assert rank(list(perm), opts) == (c.kind, c.strength), (dice, perm)


@pytest.mark.parametrize("preset", sorted(VECTORS))
def test_worth_is_what_the_texts_pay_for_a_throw_in_any_order(preset):
    # worth() is what a turn's end pays (payout): each throw's tokens as the texts give them,
    # in any order of the dice, with the ace high or not, and the kind evaluate() names.
    for ace_high in (False, True):
        opts = changed(PRESETS[preset], ace_high=ace_high)
        for dice, tokens in VECTORS[preset]:
            kind = evaluate(tuple(dice), opts).kind
            for perm in itertools.permutations(dice):
                assert rules.worth(list(perm), opts) == (kind, tokens), (dice, perm)


def test_vectors_cover_every_throw_once():
    for rows in VECTORS.values():
        assert sorted(tuple(d) for d, _ in rows) == sorted(all_throws())
    assert len(list(all_throws())) == 56


def test_public_api_example():
    c = evaluate((4, 2, 1), PRESETS["classic"])
    assert c.name == "421" and c.tokens == 10
    assert c.strength > evaluate((1, 1, 1), PRESETS["classic"]).strength


def test_dice_order_does_not_matter():
    for preset in PRESETS.values():
        for throw in all_throws():
            ref = evaluate(throw, preset)
            for perm in itertools.permutations(throw):
                c = evaluate(perm, preset)
                assert (c.strength, c.tokens, c.name) == (ref.strength, ref.tokens, ref.name)


def test_names_fit_a_128_pixel_line():
    # 8x8 font: 16 characters on 128 pixels; names are plain ASCII.
    for preset in PRESETS.values():
        for throw in all_throws():
            name = evaluate(throw, preset).name
            assert 0 < len(name) <= 10 and name.isascii()
    assert evaluate((6, 1, 1), PRESETS["classic"]).name == "2 aces 6"
    assert evaluate((2, 1, 2), PRESETS["classic"]).name == "nenette"


@pytest.mark.parametrize(
    "stronger, weaker, preset, text",
    [
        ((6, 4, 2), (4, 4, 2), "jackpot", "001: 6 4 2 est plus fort que 4 4 2"),
        ((6, 4, 1), (5, 5, 3), "lebon", "004: 6-4-1 est plus fort que 5-5-3"),
        ((6, 2, 2), (5, 5, 4), "bar41", "003: 622 bat 554"),
        ((6, 5, 4), (3, 2, 1), "lebon", "004: 6-5-4 sera plus fort que 3-2-1"),
        ((6, 5, 4), (3, 2, 1), "jackpot", "001: 6 5 4 est plus fort [que 3 2 1]"),
        ((6, 5, 4), (5, 4, 3), "bar41", "003: La suite 654 bat la suite 543"),
        ((2, 2, 2), (5, 1, 1), "bar41", "003: brelan de 2 bat As-5"),
        ((2, 2, 1), (6, 6, 5), "bar41", "003: Nénette ... bat toutes les autres non-figures"),
        ((3, 2, 2), (2, 2, 1), "lebon", "004: Tout bat nénette"),
        ((1, 1, 1), (6, 6, 6), "bar41", "003: Le brelan de 1 est le plus fort des brelans"),
        ((6, 1, 1), (6, 6, 6), "classic", "000: N°3 2 As – Six, N°4 3 Six"),
    ],
)
def test_examples_from_the_texts(stronger, weaker, preset, text):
    opts = PRESETS[preset]
    assert evaluate(stronger, opts).strength > evaluate(weaker, opts).strength, text


def test_bar41_ordinary_range_is_665_to_322():
    # 003: "665…322": with aces low, 665 tops the ordinary throws and 322 ends them.
    opts = PRESETS["bar41"]
    ordinary = [t for t in all_throws() if evaluate(t, opts).kind == K_OTHER]
    ordinary.sort(key=lambda t: evaluate(t, opts).strength)
    assert ordinary[-1] == (6, 6, 5) and ordinary[0] == (3, 2, 2)


def test_ace_high_option_moves_aces_in_ordinary_throws():
    hi = PRESETS["classic"]
    lo = changed(hi, ace_high=False)
    assert evaluate((6, 5, 1), hi).strength > evaluate((6, 6, 5), hi).strength
    assert evaluate((6, 5, 1), lo).strength < evaluate((6, 6, 5), lo).strength
    # Figures do not move.
    assert evaluate((6, 1, 1), lo).strength == evaluate((6, 1, 1), hi).strength


def test_kinds():
    opts = PRESETS["classic"]
    assert evaluate((3, 1, 1), opts).kind == K_FICHE
    assert evaluate((3, 3, 3), opts).kind == K_BRELAN
    assert evaluate((1, 2, 2), opts).kind == K_NENETTE
    assert evaluate((6, 6, 2), opts).kind == K_OTHER


def test_jackpot_421_is_worth_every_token_of_the_game():
    assert evaluate((4, 2, 1), PRESETS["jackpot"]).tokens == 21
    assert evaluate((4, 2, 1), changed(PRESETS["jackpot"], tokens=30)).tokens == 30
    assert evaluate((4, 2, 1), PRESETS["classic"]).tokens == 10


@pytest.mark.parametrize(
    "dice", [(0, 1, 2), (7, 1, 1), (1, 2), (1, 2, 3, 4), (1.0, 2, 3), ("1", 2, 3)]
)
def test_bad_dice_are_refused(dice):
    with pytest.raises(RulesError):
        evaluate(dice, PRESETS["classic"])


def test_options_are_validated():
    with pytest.raises(RulesError, match="tie"):
        changed(PRESETS["classic"], tie="coin")
    with pytest.raises(RulesError, match="tokens"):
        changed(PRESETS["classic"], tokens=0)
    with pytest.raises(RulesError, match="le_bon"):
        changed(PRESETS["classic"], le_bon=1)
    with pytest.raises(RulesError, match="unknown option"):
        changed(PRESETS["classic"], colour="red")
    with pytest.raises(RulesError, match="missing"):
        make(tokens=21)


def test_every_option_value_is_accepted_and_round_trips():
    base = PRESETS["classic"]
    for name, _, allowed, _, _, _ in OPTIONS:
        for v in allowed:
            o = changed(base, **{name: v})
            assert getattr(o, name) == v
            assert make(**o.to_dict()) == o


def test_each_option_is_one_complete_row_of_the_table():
    assert OPTION_NAMES == tuple(row[0] for row in OPTIONS)
    assert len(set(OPTION_NAMES)) == len(OPTIONS) == 18
    for row in OPTIONS:
        name, label, allowed, shown, default, help_ = row
        assert option(name) is row
        names = [shown[i] if shown and i < len(shown) else str(v) for i, v in enumerate(allowed)]
        widest = max(len(n) for n in names)
        assert label == label.upper() and len("*" + label + " ") + widest <= 21, name  # a row
        assert help_ and "\n" not in help_ and len(help_) <= 42, name
        check_option(name, default)
        assert getattr(PRESETS["classic"], name) == default  # classic is the table's defaults
        assert len(allowed) >= 2 and len(set(allowed)) == len(allowed), name
        assert all(type(v) is type(allowed[0]) for v in allowed), name
        if type(allowed) is range:  # integers lo..hi: shown may name the first few
            assert type(allowed[0]) is int and allowed.step == 1, name
            assert shown is None or len(shown) < len(allowed), name
        else:  # choices: each has its name on the menu
            assert type(allowed) is tuple and len(shown) == len(allowed), name
            assert len(set(shown)) == len(shown), name
        for v in allowed:
            if type(v) is not str:
                with pytest.raises(RulesError, match=name):
                    check_option(name, str(v))  # the right value of the wrong type
        if type(allowed[0]) is int:
            with pytest.raises(RulesError, match="integer"):
                check_option(name, True)  # a bool is no number
            for v in (allowed[0] - 1, allowed[-1] + 1):
                with pytest.raises(RulesError, match="%d..%d" % (allowed[0], allowed[-1])):
                    check_option(name, v)


def test_options_and_presets_come_from_the_table():
    assert tuple(PRESETS["classic"].to_dict()) == OPTION_NAMES  # in the table's order
    assert PRESETS["classic"].to_dict() == {row[0]: row[4] for row in OPTIONS}  # the defaults
    differs = {name: value for name, value in PRESETS["bar41"].to_dict().items()
               if value != option(name)[4]}
    assert differs == {"tokens": 41, "ranking": "bar41", "ace_high": False,
                       "nenette_value": 4, "nenette_fixed": 0, "start": "die",
                       "limit": "at_most", "two_player_pass": True,
                       "end": "last_holder", "decharge_start": "fewest"}
    for preset in PRESETS.values():
        assert make(**preset.to_dict()) == preset
        assert isinstance(preset, Options)
    assert changed(PRESETS["classic"], tokens=30) != PRESETS["classic"]
    with pytest.raises(AttributeError):
        PRESETS["classic"].colour  # noqa: B018
    assert not hasattr(PRESETS["classic"], "colour")
    with pytest.raises(RulesError, match="unknown option"):
        option("colour")


def test_replace_leaves_the_preset_alone():
    before = PRESETS["classic"].to_dict()
    changed(PRESETS["classic"], le_bon=True)
    assert PRESETS["classic"].to_dict() == before

# ---- the words options take: each named once in rules, compared by name, as saves hold them ----

WORDS = {  # each option that takes a word: its named values, in the setup menu's order
    "ranking": (rules.RANKING_CLASSIC, rules.RANKING_BAR41),
    "start": (rules.START_HIGH, rules.START_LOW, rules.START_DIE, rules.START_SEAT1),
    "limit": (rules.LIMIT_EXACT, rules.LIMIT_AT_MOST),
    "limit_from": (rules.FROM_FIRST, rules.FROM_PREVIOUS),
    "tie": (rules.TIE_LATER, rules.TIE_ROLLOFF, rules.TIE_PLAYOFF),
    "end": (rules.LAST_HOLDER, rules.FIRST_OUT),
    "decharge_start": (rules.DECHARGE_LOSER, rules.DECHARGE_FEWEST),
}
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware", "dicetray")


def test_every_word_an_option_takes_is_a_named_value():
    words = {row[0]: row[2] for row in OPTIONS if type(row[2][0]) is str}
    assert words == WORDS  # a word in the table that rules does not name fails here
    for name, values in WORDS.items():
        assert option(name)[4] in values  # the default too


def test_the_named_values_are_the_words_every_release_saved():
    # Saves and settings files hold the words: a renamed value would strand them.
    saved = {name: set() for name in WORDS}
    for vectors in ("saves_v1.json", "saves_v2.json"):
        with open(os.path.join(HERE, "vectors", vectors)) as f:
            for case in json.load(f):
                for name in WORDS:
                    saved[name].add(case["save"]["options"][name])
    for name, values in WORDS.items():
        assert saved[name] and saved[name] <= set(values), name


def test_the_firmware_compares_no_option_word_written_out():
    # A comparison with "at_most" written out would stay silently false once the value is
    # renamed in rules; by its name it follows.
    words = {w for values in WORDS.values() for w in values}
    found = []
    for name in sorted(os.listdir(FIRMWARE)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(FIRMWARE, name)) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            values = [node.left] + node.comparators
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.Set)):
                    values += right.elts  # o.start in ("die", "seat1")
            for c in values:
                if isinstance(c, ast.Constant) and c.value in words:
                    found.append("%s:%d %r" % (name, node.lineno, c.value))
    assert found == []
