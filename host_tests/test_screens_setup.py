"""The setup screen (screens_setup.py): each option stepped from the table, the settings kept
across a reboot, the language row, and the game made while the setup is quiet that OK then
starts.
"""

import json

from dicetray import words
from dicetray.options import OPTIONS, PRESETS
from dicetray.screens import PLAY, RESUME, SETUP
from dicetray.screens_setup import change_setting, computers, setup_rows
from fakes.flash import FakeFlash
from test_tray import assert_panel_shows, glass, make_tray


def test_setup_remembers_the_last_settings_across_a_reboot():
    flash = FakeFlash()
    tray = make_tray(18, flash=flash)
    app = tray.app
    assert app.screen == SETUP
    tray.keys("rr")  # players 4 -> 6
    tray.keys("2r")  # preset classic -> jackpot
    tray.keys("2r")  # tokens 21 -> 22
    want = json.loads(json.dumps(app.units[SETUP].settings))
    assert want["players"] == 6 and want["preset"] == "jackpot"
    assert want["options"] == dict(PRESETS["jackpot"].to_dict(), tokens=22)
    tray.key("o")
    assert app.screen == PLAY

    again = make_tray(19, flash=flash.reboot())
    app = again.app
    menu = app.units[SETUP]
    assert app.screen == RESUME and menu.settings is None  # read when the setup shows (RAM)
    again.key("r")  # no: a new game
    assert app.screen == SETUP and menu.settings == want
    rows = setup_rows(menu.settings)
    assert rows[:3] == [("PLAYERS", "6"), ("RULES", "JACKPOT"), ("*TOKENS", "22")]
    assert_panel_shows(again)
    again.key("o")
    assert app.game.n == 6 and app.game.opts.to_dict() == want["options"]


def test_ok_starts_the_game_made_while_the_setup_was_quiet_unless_a_setting_changed_since():
    # A quiet moment on the setup makes the game its settings start (App.quiet), so that OK
    # only has to show it; a setting changed after that moment still decides the game.
    labels = [label for label, _ in setup_rows(
        {"players": 4, "preset": "classic", "options": PRESETS["classic"].to_dict()})]
    changes = [("PLAYERS", lambda g: g.n == 5), ("TOKENS", lambda g: g.opts.tokens == 22),
               ("WHO STARTS", lambda g: g.opts.start == "throw_low"),
               ("TRAY PLAYS", lambda g: g.computers == [3]), ("HINTS", lambda g: g.hints),
               ("LANGUAGE", lambda g: g.lang == "fr")]
    for label, started in [(None, None)] + changes:
        tray = make_tray(20)
        app = tray.app
        menu = app.units[SETUP]
        tray.run(100)  # the boot's quiet moment
        made = menu.ready
        assert made is not None and made[1].n == 4 and not made[1].over
        if label is not None:  # as the menu changes it, with no quiet moment before OK
            change_setting(menu.settings, labels.index(label), 1)
        tray.key("o")
        assert app.screen == PLAY and menu.ready is None
        if label is None:
            assert app.game is made[1]
        else:
            assert app.game is not made[1] and started(app.game), label
        assert app.game.opts.to_dict() == menu.settings["options"]


def test_settings_no_game_takes_are_not_made_while_quiet():
    tray = make_tray(21)
    app = tray.app
    menu = app.units[SETUP]
    tray.run(100)
    assert menu.ready is not None  # made for the settings shown
    menu.settings["options"]["tokens"] = 3  # out of range: only a bug could put it there
    app.quiet()  # no error in the main loop's idle poll: OK will say it, as it always did
    assert menu.ready is None  # the game made for the settings before goes too


def test_the_setup_menu_shows_and_steps_each_option_from_the_table():
    s = {"players": 4, "preset": "classic", "options": PRESETS["classic"].to_dict()}
    labels = [label for label, _ in setup_rows(s)]
    # the table's order, then whether the tally is cleared as the game starts, the language
    assert labels == ["PLAYERS", "RULES"] + [row[1] for row in OPTIONS] + [
        "TRAY PLAYS", "HINTS", "TALLY", "LANGUAGE"]

    def shows(label):
        return dict((k.lstrip("*"), v) for k, v in setup_rows(s))[label]

    def step(label, n):
        change_setting(s, labels.index(label), n)
        return shows(label)

    assert [shows(k) for k in ("TOKENS", "RANKING", "ACE HIGH", "WHO STARTS", "NENETTE GETS")] == [
        "21", "CLASSIC", "ON", "BEST", "2"]
    assert step("ACE HIGH", 1) == "OFF" and step("ACE HIGH", -1) == "ON"
    assert [step("WHO STARTS", 1) for _ in range(4)] == ["WORST", "ONE DIE", "P1", "BEST"]
    assert step("NENETTE GETS", -2) == "OFF"  # 0: off
    assert step("NENETTE GETS", 1) == "1" and step("NENETTE WORTH", -1) == "1"
    assert step("TOKENS", 99 - 21) == "99" and step("TOKENS", 1) == "5"
    assert step("TIES", 1) == "PLAY-OFF" and step("TIES", 1) == "LATER"
    assert s["options"]["tie"] == "later" and s["options"]["nenette_fixed"] == 1
    assert ("*TIES", "LATER") in setup_rows(s)  # changed from the preset
    for i, (name, _, allowed, _, _, _) in enumerate(OPTIONS):  # every value in order, wrapping
        seen = [s["options"][name]]
        for _ in allowed:
            change_setting(s, labels.index(OPTIONS[i][1]), 1)
            seen.append(s["options"][name])
        assert seen[0] == seen[-1] and sorted(seen[1:], key=str) == sorted(allowed, key=str)
    assert step("RULES", 1) == "JACKPOT" and s["options"] == PRESETS["jackpot"].to_dict()
    assert step("PLAYERS", -3) == "8" and step("PLAYERS", 1) == "2"
    # The seats the tray plays: the last ones, one seat at least stays human.
    change_setting(s, labels.index("PLAYERS"), 2)  # 4 players
    assert [step("TRAY PLAYS", 1) for _ in range(4)] == ["P4", "P3-P4", "P2-P4", "NONE"]
    assert step("TRAY PLAYS", -1) == "P2-P4" and computers(s) == [1, 2, 3]
    change_setting(s, labels.index("PLAYERS"), -2)  # 2 players: one computer at most
    assert shows("TRAY PLAYS") == "P2" and computers(s) == [1]
    assert step("HINTS", 1) == "ON" and s["hints"] is True and step("HINTS", 1) == "OFF"


def test_every_setup_row_reads_as_a_label_and_its_value_in_both_languages():
    # Drawn at the row's two ends (ui.menu), a row's label and value stand more than two
    # spaces apart, whatever the value, the "*" of an option changed from its preset, the
    # preset and the players: "LE PLATEAU JOUE AUCUN" or "*2E NÉNETTE GAGNE OUI", a space
    # apart, read as one phrase.
    from dicetray import font

    def apart(rows, row):
        label, value = rows[row]
        # the label's ink from x=1, the value's ending at 126 (ui.menu)
        return 128 - font.width(value) - 1 - (1 + font.width(label)) > 2 * 6 + 1

    checked = 0
    try:
        for lang in ("en", "fr"):
            words.use(lang)
            for preset in PRESETS:
                for players in (2, 8):
                    base = {"players": players, "preset": preset, "computers": 0,
                            "hints": False, "options": PRESETS[preset].to_dict(), "lang": lang}
                    labels = [label for label, _ in setup_rows(base)]
                    for row, label in enumerate(labels):
                        if label == words.T.LANGUAGE:  # its value is the language's own name
                            assert apart(setup_rows(base), row)
                            continue
                        s = json.loads(json.dumps(base))
                        seen = set()
                        while True:
                            for clear in (False, True):  # TALLY: KEEP or CLEAR
                                rows = setup_rows(s, clear)
                                assert apart(rows, row), (lang, preset, rows[row])
                                checked += 1
                            if rows[row] in seen or label == words.T.TALLY:
                                break
                            seen.add(rows[row])
                            change_setting(s, row, 1)
    finally:
        words.use("en")
    assert checked > 1000


def test_tray_plays_and_hints_survive_a_reboot():
    """Every row the setup shows is kept: TRAY PLAYS and HINTS too, not only the options."""
    flash = FakeFlash()
    tray = make_tray(22, flash=flash)
    app = tray.app
    labels = [label.lstrip("*") for label, _ in setup_rows(app.units[SETUP].settings)]
    tray.keys("2" * labels.index("TRAY PLAYS") + "r")  # NONE -> the last seat
    tray.keys("2" * (labels.index("HINTS") - labels.index("TRAY PLAYS")) + "r")  # OFF -> ON
    want = json.loads(json.dumps(app.units[SETUP].settings))
    assert want["computers"] == 1 and want["hints"] is True
    tray.key("o")
    assert app.screen == PLAY and app.game.computers == [3] and app.game.hints
    again = make_tray(23, flash=flash.reboot())
    menu = again.app.units[SETUP]
    assert again.app.screen == RESUME
    again.key("r")  # no: a new game
    assert again.app.screen == SETUP and menu.settings == want
    again.key("o")
    assert again.app.game.computers == [3] and again.app.game.hints


def test_the_language_row_speaks_at_once_and_the_tray_keeps_it_across_a_reboot():
    flash = FakeFlash()
    tray = make_tray(21, flash=flash)
    app = tray.app
    assert glass(tray).read(0).strip() == "OK:START ROLL:CHANGE"  # a new tray: English
    tray.key("1")  # up from PLAYERS: round to the last row, the language
    assert " ".join(glass(tray).read(40, ink=0).split()) == "LANGUAGE ENGLISH"
    tray.key("r")
    assert app.units[SETUP].settings["lang"] == "fr" and words.lang == "fr"
    assert glass(tray).read(0).strip() == "OK:JOUER LANCE:CHANGE"  # the menu, in French now
    assert " ".join(glass(tray).read(40, ink=0).split()) == "LANGUE FRANÇAIS"
    tray.key("o")
    assert app.screen == PLAY and app.game.lang == "fr"
    assert json.loads(flash.files["settings.json"])["lang"] == "fr"
    assert json.loads(flash.files["game.json"])["lang"] == "fr"
    assert "LANCE" in glass(tray).read(56, ink=0)  # the key bar

    words.use("en")  # a new VM: a new tray speaks the default until it boots
    flash = flash.reboot()
    again = make_tray(22, flash=flash)
    assert again.app.screen == RESUME and words.lang == "fr"
    assert glass(again).read(2, scale=2).strip() == "REPRISE ?"
    again.key("r")  # not now: the setup, in the settings' French, offering the game still
    assert glass(again).read(0).strip() == "OK:REPRENDRE"
    again.keys("1r")  # up from the game's row to LANGUAGE: back to English
    assert glass(again).read(0).strip() == "OK:START ROLL:CHANGE"
    again.keys("or")  # a new game; its first throw replaces the game kept in the save
    assert again.app.game.lang == "en" and "lang" not in json.loads(flash.files["game.json"])


def test_settings_without_a_language_or_with_a_wrong_one_speak_the_default():
    for lang in (None, "xx", 3):
        flash = FakeFlash()
        settings = {"players": 3, "preset": "classic"}
        if lang is not None:
            settings["lang"] = lang
        flash.files["settings.json"] = json.dumps(settings).encode()
        tray = make_tray(23, flash=flash)
        assert words.lang == words.DEFAULT
        assert tray.app.units[SETUP].settings["lang"] == words.DEFAULT
        assert tray.app.units[SETUP].settings["players"] == 3


def _rows_after_a_power_cycle(flash, seed, resumed):
    """A tray booted on flash: the resume prompt's ROLL (a new game), or OK (resumed) then the
    game quit through the standings; the rows its setup then shows."""
    again = make_tray(seed, flash=flash.reboot())
    app = again.app
    assert app.screen == RESUME
    if resumed:
        again.keys("o")
        assert app.screen == PLAY
        again.keys("O")  # the standings
        again.keys("O")  # quit the game?
        again.keys("1")  # yes
    else:
        again.keys("r")
    assert app.screen == SETUP
    return again, setup_rows(app.units[SETUP].settings, app.units[SETUP].clear_tally)


def test_every_value_of_every_row_the_setup_shows_survives_a_power_cycle_and_a_resumed_game():
    """Each row of the menu (the firmware's own list, setup_rows) stepped through each of its
    values as the menu steps them: the game it starts saved, the tray powered off and on,
    and the setup shows the same rows, whether the saved game is resumed and quit, or a new
    game chosen at the prompt. ROUNDS PAID clears the tally as the game starts, and reads
    KEEP again after, as without the power cycle."""
    base = {"players": 4, "preset": "classic", "computers": 0, "hints": False,
            "options": PRESETS["classic"].to_dict()}
    labels = [label for label, _ in setup_rows(base)]
    seed = 100
    checked = 0
    for row, label in enumerate(labels):
        flash = FakeFlash()
        tray = make_tray(seed, flash=flash)
        app = tray.app
        menu = app.units[SETUP]
        assert setup_rows(menu.settings) == setup_rows(base)  # every row at its default
        if label == "TRAY PLAYS":  # 8 players: the tray may play 0 to 7 seats
            change_setting(menu.settings, labels.index("PLAYERS"), 4)
        seen = set()
        while True:
            seed += 1
            if label == "TALLY":  # an action, not a setting: only the buttons step it
                tray.keys("2" * row + "r")
            else:
                change_setting(menu.settings, row, 1)
            shown = setup_rows(menu.settings, menu.clear_tally)[row]
            if shown in seen:
                break  # round to the first value again
            seen.add(shown)
            clears = menu.clear_tally
            tray.keys("or")  # a game starts and throws: its settings are saved with it
            assert app.screen == PLAY, (label, shown)
            want = setup_rows(menu.settings, menu.clear_tally)
            assert want[row] == shown or clears and want[row] == (label, "KEEP")
            for resumed in (False, True):
                again, rows = _rows_after_a_power_cycle(flash, seed, resumed)
                assert rows == want, (label, shown, resumed)
                assert again.app.tally.paid == app.tally.paid
                checked += 1
            # on from the same tray and flash: its game quit (kept), the next value
            tray.keys("OO1")
            assert app.screen == SETUP
            tray.keys("2" * (1 + row))  # from the game kept's row round to PLAYERS, then on
        assert len(seen) == 8 if label == "TRAY PLAYS" else len(seen) > 1, label
    assert checked > 2 * len(labels)


def test_a_resumed_game_speaks_its_own_language_not_the_settings():
    # The game's language is kept with the game (game.json, beside its record), so a game
    # played in French resumes in French after the settings were set back to English.
    flash = FakeFlash()
    tray = make_tray(24, flash=flash)
    tray.keys("1r")  # the language row, to French
    tray.key("o")
    tray.key("r")  # a throw: the record after it names the French setup
    assert tray.app.game.lang == "fr"
    settings = json.loads(flash.files["settings.json"])
    settings["lang"] = "en"
    flash.files["settings.json"] = json.dumps(settings).encode()
    words.use("en")  # a new VM
    again = make_tray(25, flash=flash.reboot())
    assert again.app.screen == RESUME and words.lang == "fr"  # the prompt: the game's
    again.key("o")
    assert again.app.screen == PLAY and again.app.game.lang == "fr" and words.lang == "fr"
    assert "LANCE" in glass(again).read(56, ink=0) or "GARDE" in glass(again).read(56, ink=0)
    words.use("en")


def test_the_hints_row_shows_what_a_hint_says_in_the_bottom_line():
    # A new player meets the hints on the setup's HINTS row: there the bottom line is the
    # legend of "1/3 OK 96%" and "OK+0.9T" (each row's bottom line says what it means), in
    # the tray's language.
    tray = make_tray(21)
    assert glass(tray).hints() == "PLAYERS AT THE TABLE"
    tray.keys("111")  # up from PLAYERS, round to the last rows: LANGUAGE, TALLY, HINTS
    assert glass(tray).hints() == "OK=STOP %=SAFE T=SHED"
    tray.keys("1")
    assert glass(tray).hints() == "SEATS THE TRAY PLAYS"
    tray.keys("2r")  # back to HINTS, and on
    assert glass(tray).hints() == "OK=STOP %=SAFE T=SHED"
