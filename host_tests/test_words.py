"""The catalogues (words.py, words_en.py, words_fr.py): the same texts in every language, the
same fields in each text, and only the language spoken loaded."""

import re
import sys

import pytest
from dicetray import options, words
from trayhost import hostwords

# Each language's catalogue, loaded as the tray loads it; the default spoken again after.
CATALOGUES = {code: words.use(code) for code in words.LANGS}
words.use(words.DEFAULT)


@pytest.fixture(autouse=True)
def _default_language():
    yield
    words.use(words.DEFAULT)


def texts(catalogue):
    return {name: getattr(catalogue, name) for name in dir(catalogue)
            if name.isupper() and name[0] != "_"}


def fields(text):
    return re.findall(r"%[sd%]", text)


def strings(value):
    """Every string value holds: itself, a tuple's or a dict's items."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)


@pytest.mark.parametrize("code", [c for c in words.LANGS if c != words.DEFAULT])
def test_every_catalogue_has_the_default_s_texts_with_the_same_fields(code):
    default = texts(CATALOGUES[words.DEFAULT])
    other = texts(CATALOGUES[code])
    assert sorted(set(default) - set(other)) == [], "texts %s lacks" % code
    assert sorted(set(other) - set(default)) == [], "texts only %s has" % code
    for name, text in default.items():
        theirs = other[name]
        if name == "OPTIONS":
            continue  # below
        if isinstance(text, dict):
            assert sorted(theirs) == sorted(text), name
            pairs = [(text[k], theirs[k]) for k in text]
        elif isinstance(text, tuple):
            assert len(theirs) == len(text), name
            pairs = list(zip(text, theirs, strict=True))
        else:
            pairs = [(text, theirs)]
        for mine, yours in pairs:
            assert fields(mine) == fields(yours), (name, mine, yours)


@pytest.mark.parametrize("code", words.LANGS)
def test_a_catalogue_names_every_option_and_each_of_its_values(code):
    own = CATALOGUES[code].OPTIONS
    if own is None:  # the options table's own words
        return
    assert sorted(own) == sorted(options.OPTION_NAMES)
    for name, _, allowed, shown, _, _ in options.OPTIONS:
        theirs = own[name]
        assert (theirs[1] is None) == (shown is None), name
        if shown is not None:
            assert len(theirs[1]) == len(shown), name
        named = theirs[1] or ()
        widest = max(len(named[i] if i < len(named) else str(a)) for i, a in enumerate(allowed))
        assert len("*" + theirs[0] + " ") + widest <= 21, name  # a setup row: label, value


HOST_LABELS = ("BUTTONS",)  # with SIM_* and WEB_*: the web page's and the simulator's labels


@pytest.mark.parametrize("code", words.LANGS)
def test_every_text_is_in_the_font(code):
    from dicetray import font

    drawn = set(font.CHARS) | set("abcdefghijklmnopqrstuvwxyzéèêëàâîïôùûüç")
    for name, value in texts(CATALOGUES[code]).items():
        if name in HOST_LABELS or name.startswith(("SIM_", "WEB_")):
            continue  # the host's: not drawn on the panel
        for text in strings(value):
            assert set(text) <= drawn, (text, set(text) - drawn)


def test_only_the_language_spoken_is_loaded():
    words.use("fr")
    assert "dicetray.words_fr" in sys.modules and "dicetray.words_en" not in sys.modules
    assert words.T.LANG_NAME == "FRANÇAIS" and words.lang == "fr"
    words.use("en")
    assert "dicetray.words_en" in sys.modules and "dicetray.words_fr" not in sys.modules
    assert words.T.LANG_NAME == "ENGLISH"
    assert words.use("xx") is words.T and words.lang == words.DEFAULT  # none: the default


def test_stepping_the_language_goes_round_every_one():
    seen = [words.DEFAULT]
    for _ in words.LANGS:
        seen.append(words.step(seen[-1], 1))
    assert seen[0] == seen[-1] and sorted(seen[1:]) == sorted(words.LANGS)
    assert words.step(words.step("fr", 1), -1) == "fr"


REFUSALS = ("NOT_NOW", "KEEP1_OR_KEEP3", "ROLL_TO_PLAY", "THROW_FIRST", "TWO_DICE_AT_MOST",
            "NO_THROW_LEFT")


@pytest.mark.parametrize("code", words.LANGS)
def test_every_key_bar_and_refusal_fits_across_the_panel(code):
    # The scenes draw some of them; these are drawn on a line of their own, whichever screen.
    from dicetray import font

    t = CATALOGUES[code]
    lines = [getattr(t, name) for name in texts(t) if name.startswith("KEYS_")]
    lines += [getattr(t, name) for name in REFUSALS] + [t.THROWS_DUE % 3, t.HINTS_LEGEND]
    for line in lines:
        assert font.width(line) <= 128 - 2, line  # the refusal's box keeps a pixel each side


def panel_texts(code):
    """{name: [strings]} of the texts a catalogue draws on the panel (not the host's)."""
    return {name: list(strings(value)) for name, value in texts(CATALOGUES[code]).items()
            if name not in HOST_LABELS and not name.startswith(("SIM_", "WEB_"))}


def words_of(text):
    return re.findall(r"[A-ZÀ-Ü0-9']+", text.upper())


def test_punctuation_is_spaced_one_way_in_each_language():
    # English: no space before : ! ?. French on the panel (21 columns, keys written OK:SUITE):
    # a space before ! and ?, none before :. French in the terminal and on the web page, where
    # room is no matter: a space before : ! ? as French print has it.
    for code in words.LANGS:
        for name, values in panel_texts(code).items():
            for text in values:
                assert not re.search(r" :", text), (code, name, text)
                if code == "fr":
                    assert not re.search(r"[^ ][!?]", text), (name, text)
                else:
                    assert not re.search(r" [!?]", text), (name, text)
    for name, value in texts(hostwords.Fr).items():
        if name.startswith(("SIM_", "WEB_")):
            for text in strings(value):
                assert not re.search(r"[^ ][:!?]( |$)", text), (name, text)


def test_the_host_s_words_are_the_host_s_alone_the_same_in_every_language():
    # The simulator's and the web page's texts live with the host's tools: a Pico holds its
    # catalogue in its heap, and shows none of them.
    for code in words.LANGS:
        assert not [n for n in texts(CATALOGUES[code]) if n in HOST_LABELS
                    or n.startswith(("SIM_", "WEB_"))], code
        assert hostwords.of(code) is hostwords.LANGS[code]
    en, fr = texts(hostwords.En), texts(hostwords.Fr)
    assert sorted(en) == sorted(fr) and "SIM_KEYS" in en and "WEB_LEGEND" in en
    for name in en:
        assert [fields(t) for t in strings(en[name])] == [fields(t) for t in strings(fr[name])]
    assert hostwords.of("xx") is hostwords.En


# What each idea is called, in each language: the word shows for that idea and for no other.
IDEAS = {
    "en": {
        "ROUND": {"THE_ROUND", "SETUP_MEANS"},  # the drinks the loser pays
        "TALLY": {"TALLY", "TALLY_LOST", "TALLY_PROBLEM", "KEYS_STANDINGS", "KEYS_OVER"},
        "TRY": {"ROUND_N"},  # a roll-off's or play-off's
        "TURN": {"RESUME_TURN", "RESUME_MEANS"},  # a player's
        "NEW": {"KEYS_NEW_GAME", "KEYS_TALLY_OVER", "NEW_GAME_STARTS"},
        "NEXT": {"KEYS_NEXT", "KEYS_NEXT_THROW"},  # moving on, the one word for it
        "BACK": {"KEYS_STANDINGS", "KEYS_TALLY", "KEYS_TALLY_OVER"},
    },
    "fr": {
        "TOURNÉE": {"THE_ROUND", "SETUP_MEANS"},
        "ARDOISE": {"TALLY", "TALLY_LOST", "KEYS_STANDINGS", "KEYS_OVER"},
        "ENSUITE": {"KEYS_NEXT", "KEYS_NEXT_THROW"},
        "SUITE": {"COMBOS"},  # a throw's name only: moving on is ENSUITE
        "ESSAI": {"ROUND_N"},
        "TOUR": {"RESUME_TURN", "RESUME_MEANS"},
        "NOUVELLE": {"KEYS_NEW_GAME", "NEW_GAME_STARTS"},
        "REJOUER": {"KEYS_TALLY_OVER"},
        "JEU": {"KEYS_STANDINGS", "KEYS_TALLY", "KEYS_TALLY_OVER"},  # back to the game
        "ENTAME": {"WHO_STARTS", "STARTS", "OPTIONS"},  # who starts: one verb, not COMMENCE
    },
}


@pytest.mark.parametrize("code", words.LANGS)
def test_one_word_per_idea(code):
    for word, names in IDEAS[code].items():
        found = {name for name, values in panel_texts(code).items()
                 if any(word in [w.rstrip("S") for w in words_of(text)] or word in words_of(text)
                        for text in values)}
        assert found == names, (word, found ^ names)
    # No word the other means: a key bar names each key as its button is called, in full.
    for name, values in panel_texts(code).items():
        for text in values:
            assert not re.search(r"(^| )(G\d|L|R|\d/[LR\d])[:/ ]", text), (name, text)
    # The moves' other words are gone (one word per move): GO ON, CONTINUE, PAID, COMMENCE.
    gone = {"en": {"CONTINUE", "PAID", "GO"}, "fr": {"CONTINUER", "COMMENCE", "REBELOTE"}}
    for name, values in panel_texts(code).items():
        for text in values:
            if name.startswith("KEYS_") or code == "fr":
                assert not gone[code] & set(words_of(text)), (name, text)
    # No English word on the French panel (GO, STOP).
    if code == "fr":
        for name, values in panel_texts(code).items():
            for text in values:
                assert not {"GO", "STOP"} & set(words_of(text)), (name, text)
