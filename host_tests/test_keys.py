"""Keys that never surprise: no key loses a game, the undo is offered on the panel wherever it
can be made, every setup row and every end says what it means, both languages, both heights."""

import pytest
from dicetray import words
from dicetray.options import OPTIONS
from dicetray.rules import LIMIT_AT_MOST, START_SEAT1
from dicetray.screens import OVER, PLAY, QUIT, RESULT, RESUME, SETUP, STANDINGS, TALLY
from emupico.panel import Panel
from fakes.flash import FakeFlash
from screens.rig import Rig
from test_tray import make_tray

ROWS = 2 + len(OPTIONS) + 4  # PLAYERS, RULES, the options, TRAY PLAYS, HINTS, TALLY, LANGUAGE


@pytest.fixture(autouse=True)
def _english_after():
    yield
    words.use(words.DEFAULT)


def two_players(tray, lang="en", **options):
    """Two players, P1 starts (no roll-off), in lang: the game started, P1's turn shown."""
    s = tray.app.units[SETUP].settings
    s.update(players=2, lang=lang)
    s["options"].update(start=START_SEAT1, **options)
    tray.key("o")
    assert tray.app.screen == PLAY and tray.app.game.current == 0


def glass(tray):
    """What the panel shows, to be read; a 128x32 panel's rows at the top, its key bar's read
    where a 128x64 panel has it."""
    rows = [bytes(row) for row in tray.i2c.panel.pixels()]
    if len(rows) == 32:
        rows = rows[:23] + [bytes(128)] * 32 + rows[23:]
    return Panel(rows)


def bar(tray):
    return glass(tray).hints()


def snapshot(tray):
    return tray.app.screen, tray.app.game.to_dict(), tray.i2c.panel.pixels()


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_quitting_from_the_table_keeps_the_game_and_the_setup_offers_it(height, lang):
    flash = FakeFlash()
    tray = make_tray(7, flash=flash, height=height)
    two_players(tray, lang)
    tray.keys("rro")  # P1 throws twice and stops: P2's turn
    app = tray.app
    game = app.game.to_dict()
    t = words.T
    # The table's ROLL means back: on the question it says no, and so does OK (the tally's back).
    for no in "ro":
        tray.keys("OO")
        assert app.screen == QUIT and bar(tray) == t.KEYS_QUIT
        tray.key(no)
        assert app.screen == PLAY and app.game.to_dict() == game
    tray.keys("OoO")  # the table, the tally, its OK held: quit? from there too
    assert app.screen == QUIT
    tray.key("1")  # yes: the setup, the game kept on flash and offered on its last row
    assert app.screen == SETUP and app.game is None
    assert glass(tray).read(0).strip() == t.KEYS_RESUME_ROW
    assert bar(tray) == t.RESUME_MEANS % game["turn"]["number"]
    again = make_tray(8, flash=flash.reboot(), height=height)  # a power cycle: offered again
    assert again.app.screen == RESUME
    again.key("r")  # not now: to the setup, which offers it still
    assert again.app.screen == SETUP and glass(again).read(0).strip() == t.KEYS_RESUME_ROW
    again.key("o")  # resumed as it was left
    assert again.app.screen == PLAY and again.app.game.to_dict() == game
    tray.key("o")  # and on the tray left at the setup
    assert app.screen == PLAY and app.game.to_dict() == game


def test_a_new_game_replaces_the_game_left_at_its_first_throw_only():
    flash = FakeFlash()
    tray = make_tray(9, flash=flash)
    two_players(tray)
    tray.keys("rroOO1")  # P1 stops; quit from the table: the game kept
    left = flash.files["game.now"]
    tray.keys("2o")  # round to PLAYERS, OK: a new game, nothing thrown yet
    assert tray.app.screen == PLAY and flash.files["game.now"] == left
    again = make_tray(10, flash=flash.reboot())  # a power cut now offers the game left
    assert again.app.screen == RESUME
    again.key("o")
    assert again.app.game.turn.pos == 1 and again.app.game.current == 1
    tray.key("r")  # the new game's first throw replaces it
    assert flash.files["game.now"] != left
    tray.keys("OO1")
    assert glass(tray).read(0).strip() == words.T.KEYS_RESUME_ROW
    tray.key("o")
    assert tray.app.game.turn.count == 1 and tray.app.game.current == 0


@pytest.mark.parametrize("height", [64, 32])
def test_the_undo_is_offered_on_the_next_screen_until_a_die_is_thrown(height):
    slip = make_tray(11, height=height)
    plain = make_tray(11, height=height)
    for tray in (slip, plain):
        two_players(tray)
        tray.key("r")
    slip.key("o")  # the slip: P1 meant to throw again
    assert bar(slip) == "KEEP1:UNDO THE STOP"  # P2's turn, before its first throw
    slip.key("1")
    assert slip.app.undo is None
    for tray in (slip, plain):
        tray.keys("ro")
    assert snapshot(slip) == snapshot(plain)
    # A throw ends the offer: KEEP1 is a keep again, the bar the turn's own.
    assert bar(slip) == "KEEP1:UNDO THE STOP"
    slip.key("r")
    assert slip.app.undo is None and not bar(slip).startswith("KEEP1:UNDO")
    slip.key("1")
    assert slip.app.game.turn.kept == 1


def test_the_readme_s_undo_ends_where_the_stop_never_happened():
    # README: "o.rrrrro1r" (KEEP1 on the next turn) ends on the frame of "o.rrrrrr".
    slip = make_tray(1)
    plain = make_tray(1)
    slip.keys("o.rrrrro1r")
    plain.keys("o.rrrrrr")
    assert snapshot(slip) == snapshot(plain)


@pytest.mark.parametrize("lang, offer, ask", [
    ("en", "KEEP1:UNDO LE BON", "UNDO P2'S LE BON?"),
    ("fr", "GARDE 1:ANNULE LE BON", "ANNULER «P2 LE BON» ?"),
])
def test_a_le_bon_is_taken_back_as_le_bon(lang, offer, ask):
    tray = make_tray(12)
    two_players(tray, lang, limit=LIMIT_AT_MOST)
    tray.keys("rror")  # P1 stops after two throws: the limit; P2 throws once
    tray.key("o")  # P2 stops before the limit: le bon
    assert tray.app.screen == RESULT and bar(tray) == offer
    tray.key("O")  # OK held: asked first
    assert ask in (glass(tray).read(0).strip(), glass(tray).read(1).strip())
    tray.key("o")  # no
    assert tray.app.screen == RESULT and bar(tray) == offer
    tray.key("1")
    assert tray.app.screen == PLAY and tray.app.game.current == 1


def test_the_game_over_offers_the_undo_and_goes_on_to_the_tally():
    rig = Rig([])
    s = rig.app.units[SETUP].settings
    s.update(players=2)
    s["options"].update(start=START_SEAT1, limit=LIMIT_AT_MOST)
    rig.play("o")
    rig.game.tokens[:] = [0, 20]
    rig.game.pot = 1
    rig.redraw()
    rig.play("rro", [6, 3, 2], [4, 2, 1])  # P1 stops on 421 after two throws
    rig.play("ro", [6, 3, 2])  # P2 stops after one (le bon), loses the last token: P1 is out
    rig.play("o")
    assert rig.app.screen == OVER
    panel = Panel([bytes(row) for row in rig.i2c.panel.pixels()])
    assert panel.hints() == "KEEP1:UNDO LE BON"  # P2's le bon ended it, no die since
    # Why P2 pays: the game ended as P1 went out, and P2 holds the most tokens.
    lines = [" ".join(panel.read(y).split()) for y in range(19, 50, 9)]
    assert "FIRST OUT IN CHARGE" in lines and "MOST TOKENS: 21" in lines, lines
    rig.play("1")  # taken back: P2's turn again, its throw shown, the tally as it was
    assert rig.app.screen == PLAY and rig.game.current == 1 and rig.game.turn.count == 1
    rig.play("o")
    assert rig.app.screen == RESULT
    rig.play("o")
    assert rig.app.screen == OVER
    rig.play("r")  # ROLL, as OK: on to the tally, whose OK starts a new game
    assert rig.app.screen == TALLY
    rig.play("r")
    assert rig.app.screen == OVER
    rig.play("oo")
    assert rig.app.screen == SETUP and not rig.tray.fs.exists("game.json")


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_setup_row_says_what_it_means_on_the_bottom_line(height, lang):
    tray = make_tray(13, height=height)
    tray.app.units[SETUP].settings["lang"] = lang
    tray.app.redraw()
    tray.run(50)
    t = words.use(lang)
    said = []
    for _ in range(ROWS):
        said.append(bar(tray))
        assert glass(tray).read(0).strip() == t.SETUP_TITLE  # the keys, on the top line
        tray.key("2")
    assert len(set(said)) == ROWS, said  # each row its own meaning
    hints_row = ROWS - 3
    assert (said[hints_row] == t.HINTS_LEGEND) == (height == 64)  # figures: 128x64's turn only
    for text in said:
        assert text and "/" not in text.replace("%=", "").replace("/ LANGUAGE", ""), text


def test_a_tie_for_who_starts_says_tied_not_again():
    assert words.use("en").TIE_AGAIN == "TIED"
    assert "REBELOTE" not in words.use("fr").TIE_AGAIN


def test_english_throws_are_named_in_english():
    from dicetray.options import PRESETS
    from dicetray.rules import combo

    words.use("en")
    names = [combo(d, PRESETS["classic"]).name.upper() for d in
             ((1, 1, 1), (1, 1, 5), (4, 4, 4), (6, 5, 4), (2, 2, 1), (6, 4, 3))]
    assert names == ["3 ACES", "2 ACES 5", "THREE 4S", "RUN 654", "NENETTE", "643"]
    words.use("fr")
    assert combo((6, 1, 1), PRESETS["classic"]).name.upper() == "2 AS ET 6"


@pytest.mark.parametrize("name, text", [
    ("STARTS", "%s ENTAME"), ("WHO_STARTS", "QUI ENTAME ?"),
    ("LAST_HOLDS", "SEUL AVEC DES JETONS"),
    ("WON", ("GAGNANT: %s", "GAGNANTS: %s")), ("KEYS_NEXT", "OK:ENSUITE"),
    ("SAFE_MODE", "MODE SANS ÉCHEC"), ("KEYS_SAFE", "DÉBRANCHER POUR JOUER"),
    ("KEYS_TALLY_OVER", "OK:REJOUER LANCE:JEU"), ("UNDO_LINES", ("MÊMES DÉS QU'AVANT",
                                                                "RIEN D'AUTRE NE BOUGE")),
])
def test_french_as_the_bar_speaks_it(name, text):
    assert getattr(words.use("fr"), name) == text


def test_the_table_quit_question_is_never_reached_by_a_key_that_meant_back():
    tray = make_tray(14)
    two_players(tray)
    tray.key("r")
    tray.key("O")
    assert tray.app.screen == STANDINGS
    tray.keys("rO")  # back, then the table again: ROLL there never quits
    assert tray.app.screen == STANDINGS
    tray.key("O")
    tray.key("r")
    assert tray.app.screen == PLAY and tray.app.game.turn.count == 1
