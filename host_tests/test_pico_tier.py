"""The tray on a Pico: installed by flash.sh, played through its buttons, power-cut; the machine
code of fast.py against the Python it stands for.

Every test runs on two boards, each serving the whole module (a new board, the tray installed by
tools/flash.sh, then the tests in order): the host twin (tools/picotwin: the firmware's main.py
on the WebAssembly MicroPython, with the tray's panel, buttons, littlefs flash and watchdog
faked on the host), always; and the emulated Pico (tools/emupico/kit.py, the kit at
../shared/pico or $DICETRAY_PICO_KIT), which runs the official MicroPython rp2 firmware with the
tray's panel, buttons and flash chip, where it can run. What needs the real port's clock or
machine code (the real_port marker) is skipped on the twin. Screens that do not depend on the
dice are compared pixel for pixel with what the host draws running the same firmware on CPython
(tools/trayhost/trayrun.py); the rest is read from the panel's text. The dice come from the
board's random source (the kit's hardware noise; the twin's seeded random), so no test predicts
them.

The kit's run is skipped, with the reason, wherever the kit cannot run (`pico check`: it ships
no firmware image, so a maker provides one: docs/developing.md), under CI=true too. What the
project's own set-up installs (the kit's folder, Node.js, npm, socat, mpremote; Node.js and the
pinned MicroPython for the twin) must be there under CI=true.
"""

import json
import os

import pytest
from dicetray import clock, crash, draw, ui, words_en, words_fr
from dicetray.display import Display
from dicetray.options import PRESETS
from dicetray.rules import START_SEAT1
from dicetray.store import Store
from emupico import kit, night
from emupico.bot import FIRST_THROW, choose, quiet_ms
from emupico.kit import Panel, Pico, screen_of
from picotwin import twin
from trayhost import savefuzz, trayrun
from trayhost.autoplay import ScriptedDice
from trayhost.pins import ticks_diff

SETUP_HINTS = "PLAYERS AT THE TABLE"  # the setup's first row: what it means
# ui.turn's dice row on a 128x64 panel, two players (ui.die_at), each read with the columns of
# a hint's bars and a row round it. A kept die is drawn solid: a pixel just inside its double
# border is lit only then.
DIE_X = tuple(ui.die_at(64, 2, i)[0] - draw.MARGIN for i in range(3))
DIE_Y = ui.die_at(64, 2, 0)[1] - 1
DIE_W = ui.die_at(64, 2, 0)[2] + 2 * draw.MARGIN
DIE_H = ui.die_at(64, 2, 0)[2] + 2
# A truncated save (power lost while writing, on a filesystem without atomic rename), and one
# nested 550 levels deep (6.5 KB): parsing or printing it recursively overflows the Pico's stack.
TRUNCATED = b'{"format": "dicetray-game", "vers'
DEEP = b'{"format": ' + (b"[" + b" " * 10) * 550 + b"]" * 550 + b"}"
# Saves that once kept the Pico from reading them, each just under the 16 KB limit: a real save
# whose player count has 15,500 digits (the watchdog reset the board in a loop), and a format
# nested 8,170 deep (the parser ran out of heap: two error screens). The notice, with the file
# kept aside, must show this soon after power-up.
COSTLY = {"long-number": savefuzz.long_number(), "nested-8170-deep": savefuzz.nested()}
NOTICE_WITHIN_MS = 2000
NIGHT_GAMES = 3  # the bench's Pico night is 20 (emupico/night.py)
SAVE_FILES = ["game.json", "game.now", "settings.json"]
# Two players, classic rules, P1 starting (no roll-off); and with 5 tokens, a game that ends soon.
TWO_CLASSIC = {"players": 2, "preset": "classic",
               "options": dict(PRESETS["classic"].to_dict(), start=START_SEAT1)}
TWO_SHORT = dict(TWO_CLASSIC, options=dict(TWO_CLASSIC["options"], tokens=5))
THROWN = "KEEP, ROLL OR OK:STOP"  # a turn's hints after a throw, throws left (dicetray.ui)
HINTS_Y = 56  # the bottom line: a seat's turn says there that the tray plays (ink 1, boxed)


REAL_PORT = "the host twin has no real clock and runs no machine code: needs the real port"
# What a test waits for on the panel comes within a promise, in emulated ms; a test reads the
# panel once what it checks is there, or fails once the promise is broken (wait_for).
FIRST_SCREEN_MS = 1500  # power-up to the first screen
ANSWER_MS = 1000  # a press to its screen (a throw: to its dice landed)
HINT_MS = 1000  # the dice landed to their hint
FRAME_MS = 40  # a frame caught half sent is whole this much later (a whole frame: ~25 ms)


@pytest.fixture(scope="module", params=["twin", "kit"])
def pico(request):
    """A new board (the host twin, or the emulated Pico) with the tray installed by
    tools/flash.sh (its exit code and output in .installed); stopped after the module's tests."""
    ci = os.environ.get("CI") == "true"
    if request.param == "twin":
        missing = twin.unavailable()
        if missing and ci:
            pytest.fail("CI must have what the host twin needs: " + missing)
        if missing:
            pytest.skip(missing)
        board = twin.Twin()
    else:
        missing = kit.not_set_up()
        if missing and ci:
            pytest.fail("CI must have what the emulated Pico tier needs: " + missing)
        reason = kit.unavailable()
        if reason:
            pytest.skip(reason)
        board = Pico()
    try:
        board.start(fresh=True)
        board.installed = board.install()
        yield board
        if isinstance(board, twin.Twin):  # nothing the tests did not see went wrong
            assert (board.escaped, board.hangs, board.oled.errors) == ([], 0, [])
    finally:
        board.stop()


@pytest.fixture(autouse=True)
def real_port_only(request, pico):
    """Skips a test marked real_port on the twin."""
    if request.node.get_closest_marker("real_port") and isinstance(pico, twin.Twin):
        pytest.skip(REAL_PORT)


# ---- what the host draws for the same screens ---------------------------------------------


def host_tray(files=None):
    """The tray on the host's fakes, booted with these files on its flash."""
    fs = trayrun.MemFS()
    fs.files.update(files or {})
    return trayrun.Tray(ScriptedDice(()), fs=fs)


def drawn(tray):
    return Panel.from_framebuffer(tray.display.buffer)


def host_safe_mode():
    display = Display(trayrun.RecordingI2C(), ticks_diff=ticks_diff)
    crash.safe_mode(display)
    return Panel.from_framebuffer(display.buffer)


def assert_shows(panel, expected, what):
    if panel != expected:
        pytest.fail("%s: the Pico's panel differs from the host's in %d pixels\nPico:\n%s\n"
                    "host:\n%s" % (what, panel.differences(expected), panel.text(),
                                   expected.text()))


# ---- driving the board ----------------------------------------------------------------------


def wait_for(pico, done, within, since=None, fresh=False, step=20):
    """The panel once done(panel) holds, read again a frame later (a frame caught half sent
    is whole then): waited for in emulated time, at most until `within` ms after `since` (now
    by default). fresh: only once something was written to the panel from now on (the panel
    keeps its picture through a power cycle). At the deadline, the panel as it is: the test's
    own assertion then says what is missing."""
    since = pico.now() if since is None else since
    writes = pico.stats()["oled"]["i2c_writes"] if fresh else None
    while True:
        panel = pico.panel()
        drawn = writes is None or pico.stats()["oled"]["i2c_writes"] != writes
        if drawn and done(panel):
            pico.wait(FRAME_MS)
            again = pico.panel()
            if done(again):
                return again
        if pico.now() - since >= within:
            return panel
        pico.wait(step)


def boot(pico, hold=None, within=FIRST_SCREEN_MS, until=None):
    """Power-cycle and return the panel once the tray has drawn its first screen (one
    screen_of knows, or until(panel)), within `within` ms of power-up."""
    since = pico.now()
    pico.powercycle(hold)
    done = until or (lambda p: screen_of(p) is not None)
    panel = wait_for(pico, done, within, since, fresh=True)
    assert done(panel), "no first screen within %d ms of power-up:\n%s" % (within, panel.text())
    return panel


def boot_quietly(pico, hold=None):
    """Power-cycle and return the panel once the tray has drawn its first screen, whatever it
    is (boot waits for one screen_of knows: the English ones): anything lit."""
    return boot(pico, hold, until=lambda p: any(any(row) for row in p.rows))


def boot_with(pico, files, within=FIRST_SCREEN_MS):
    """Write files onto the board in safe mode (in whatever language), then boot it normally:
    (its first screen, within `within` ms, and the power-up's time)."""
    boot_quietly(pico, hold="OK")
    pico.write_files(files)
    since = pico.now()
    return boot(pico, within=within), since


def press(pico, key, until=None, within=ANSWER_MS):
    """Press key and return (latency figures, the panel once it settled: a throw's dice landed,
    though its save holds the animation's frames back for a while); given until, the panel
    once until(panel) holds, within `within` ms of the press."""
    since = pico.now()
    figures = pico.latency(key, quiet=quiet_ms(key))
    if until is None:
        return figures, pico.panel()
    return figures, wait_for(pico, until, within, since)


def press_long(pico, key):
    """Hold key a second (its long meaning: OK opens the table); as press."""
    figures = pico.latency(key, long=True, quiet=quiet_ms(key))
    return figures, pico.panel()


def showing(expected):
    """The test that the panel shows what the host draws."""
    return lambda p: p == expected


def roll_off(pico, panel):
    """Roll for who starts until someone does (ties roll again after their outcome); the
    panel saying who starts."""
    for _ in range(20):  # each roll stays in view; ties roll again after their outcome
        _, panel = press(pico, "ROLL")
        if screen_of(panel) == "outcome":
            if "STARTS" in panel.read(0, scale=2):
                return panel
            _, panel = press(pico, "OK")
        assert screen_of(panel) == "contest", panel.text()
    pytest.fail("nobody started after 20 rolls:\n" + panel.text())


def seat_thinks(panel):
    """A computer seat's turn is on the panel: it plays on its own (dicetray.seat)."""
    return screen_of(panel) == "turn" and panel.read(HINTS_Y) == words_en.SEATS


def seat_moves(pico, panel, within=10000):
    """Wait, pressing nothing, until the seat's turn changes on the panel; that panel."""
    waited = 0
    while waited < within:
        pico.wait(250)
        waited += 250
        now = pico.panel()
        if now != panel:
            return pico.settle(quiet=quiet_ms("ROLL"))
    pytest.fail("the seat did not move within %d ms:\n%s" % (within, panel.text()))


def play_until(pico, panel, done, limit=400):
    """Play the humans' part (emupico.bot's choices), letting seats play theirs, until
    done(panel); that panel."""
    for _ in range(limit):
        if done(panel):
            return panel
        if seat_thinks(panel):
            panel = seat_moves(pico, panel)
            continue
        key, _ = choose(screen_of(panel), panel.hints(), kept=True)
        _, panel = press(pico, key)
    pytest.fail("not done after %d presses:\n%s" % (limit, panel.text()))


def cut_during_save(pico, key):
    """Press key and cut the power while the press is saved, then power up again; the panel
    once the tray drew its first screen. On the twin the power goes in the save's first write
    to the flash (torn: see picotwin.flashfs); on the kit, which runs in real time, soon after
    the press."""
    if isinstance(pico, twin.Twin):
        pico.cut_after(0)
        pico.tap(key, 120)
        pico.wait(1000)
        assert not pico.powered, "the press wrote nothing to the flash"
    else:
        pico.down(key)
        pico.wait(60)
        pico.up(key)
    return boot(pico)


def throw_of(top):
    """The throw a turn's top line counts ("THROW 2/3", or a hint's "2/3 OK 48%")."""
    for word in top.split():
        if "/" in word and word[0].isdigit():
            return int(word.split("/")[0])
    return 0


def saved_game(files):
    """The game the board's save files hold (SAVE_FILES, read_files), as the firmware's own
    reader (store_read, through Store.load_game) reads it at boot."""
    fs = trayrun.MemFS()
    fs.files.update({name: data for name, data in files.items() if data is not None})
    data, problem = Store(fs=fs).load_game(lambda d: (d, None))
    assert problem is None and data is not None, problem
    return data


def kept(panel, die):
    return panel.pixel(DIE_X[die] + draw.MARGIN + 2, DIE_Y + 3) == 1


def die_picture(panel, die):
    return panel.region(DIE_X[die], DIE_Y, DIE_W, DIE_H)


def top_line(panel):
    return panel.read(0)


def phase_lines(panel):
    """A 128x64 turn's lines where its phase goes: before the throw's name, or after the count
    when the name leaves no room for it."""
    return top_line(panel) + " " + panel.read(9, x0=24)


# ---- the tests, in order: each leaves the board in the state the next expects -----------------


def test_flash_sh_installs_the_tray_and_it_boots_to_the_host_s_setup_screen(pico):
    code, out = pico.installed
    assert code == 0, out
    assert "Verified: every file on the board matches the build." in out
    expected = drawn(host_tray())
    panel = wait_for(pico, showing(expected), FIRST_SCREEN_MS)
    assert_shows(panel, expected, "the first boot")


def test_a_game_through_the_buttons_survives_a_power_cut(pico):
    panel, _ = boot_with(pico, {"game.json": None, "game.now": None, "settings.json": None})
    host = host_tray()
    assert_shows(panel, drawn(host), "setup")
    resets = pico.stats()["resets"]

    # Two players (KEEP3 lowers the count), then OK: the roll-off for who starts.
    for key, k in (("KEEP3", "3"), ("KEEP3", "3"), ("OK", "o")):
        host.key(k)
        figures, panel = press(pico, key, until=showing(drawn(host)))
        assert_shows(panel, drawn(host), "after %s" % key)
        assert figures["bytes"] > 0
    assert screen_of(panel) == "contest" and panel.read(18, ink=0, x1=63) == "P1"

    panel = roll_off(pico, panel)
    _, panel = press(pico, "OK")  # the charge's first turn follows who starts directly
    assert screen_of(panel) == "turn" and panel.hints() == FIRST_THROW, panel.text()
    assert "THROW 0/3" in top_line(panel)

    # The first throw animates the dice, then lets the player keep or stop.
    _, panel = press(pico, "ROLL")
    assert "THROW 1/3" in top_line(panel)
    assert panel.hints() == THROWN
    assert not any(kept(panel, d) for d in range(3))
    for want in (True, False, True):
        _, panel = press(pico, "KEEP1")
        assert kept(panel, 0) is want and not kept(panel, 1) and not kept(panel, 2)
    face = die_picture(panel, 0)
    # The next throw, and KEEP2 tapped for 30 ms at once: the tray is saving the throw then
    # (from the animation's first frame) and reads no button, but the pin's interrupt tells it
    # of the tap: the dice land and the second is kept.
    pico.down("ROLL")
    pico.tap("KEEP2", 30)
    pico.up("ROLL")
    panel = pico.settle()
    assert "THROW 2/3" in top_line(panel)
    assert kept(panel, 0) and die_picture(panel, 0) == face, "the kept die changed"
    assert kept(panel, 1) and not kept(panel, 2), "the tap during the save was lost"
    assert pico.stats()["resets"] == resets, "the board reset during the game"

    # Power cut. Safe mode (OK held) shows its screen and frees the REPL: read the save.
    panel = boot(pico, hold="OK")
    assert_shows(panel, host_safe_mode(), "safe mode")
    files = pico.read_files(SAVE_FILES)
    saved = saved_game(files)
    assert (saved["players"], saved["phase"], saved["turn"]["count"]) == (2, "charge", 2)
    assert json.loads(files["settings.json"])["players"] == 2

    # Back on: the resume prompt, then the turn, as the host draws them from the same files.
    host = host_tray(files)
    panel = boot(pico, until=showing(drawn(host)))
    assert_shows(panel, drawn(host), "the resume prompt")
    host.key("o")
    _, panel = press(pico, "OK", until=showing(drawn(host)))
    assert_shows(panel, drawn(host), "the resumed turn")
    assert kept(panel, 0) and die_picture(panel, 0) == face, "the kept die came back"

    # And the game goes on: the last throw, read for a moment, then the next player with no
    # press (the player's throws are used up).
    _, panel = press(pico, "ROLL")
    assert "THROW 3/3" in top_line(panel) and panel.hints() == "LAST THROW. OK:DONE", panel.text()
    pico.wait(clock.ANIM_MS + clock.READ_MS)  # from the roll animation's end, due or not
    panel = pico.panel()
    assert screen_of(panel) == "turn" and panel.hints() == FIRST_THROW, panel.text()
    assert "THROW 0/3" in top_line(panel)


@pytest.mark.real_port
def test_a_press_reaches_the_panel_in_emulated_time_and_a_throw_animates(pico):
    panel, _ = boot_with(pico, {"game.json": None, "game.now": None,
                                "settings.json": json.dumps(TWO_CLASSIC).encode()})
    figures, panel = press(pico, "OK")  # the setup's OK: the game starts, P1 first
    assert figures["first_byte_ms"] is not None and figures["bytes"] > 0, figures
    assert screen_of(panel) == "turn" and panel.hints() == FIRST_THROW, panel.text()
    figures, panel = press(pico, "ROLL")
    assert figures["last_byte_ms"] - figures["first_byte_ms"] >= 250, figures
    assert figures["last_byte_ms"] >= clock.ANIM_MS, "the dice had not landed: %r" % (figures,)


def hinted(panel):
    """A human's throw with its hint: its count on the top line, and under it its worth."""
    worth = panel.read(9, x0=24)
    return bool(throw_of(top_line(panel))) and ("%" in worth or "T " in worth + " ")


def test_a_game_with_a_seat_and_hints_plays_to_its_end_through_the_buttons(pico):
    settings = json.dumps(dict(TWO_CLASSIC, computers=1, hints=True)).encode()
    files = {"settings.json": settings, "game.json": None, "game.now": None, "tally.json": None}
    panel, _ = boot_with(pico, files)
    host = host_tray({"settings.json": settings})
    assert_shows(panel, drawn(host), "the setup with the tray playing P2 and hints on")
    host.key("o")
    _, panel = press(pico, "OK", until=showing(drawn(host)))
    assert_shows(panel, drawn(host), "P1's first turn with its hint")
    resets = pico.stats()["resets"]

    seat_turns = human_throws = 0
    landed = pico.now()
    for _ in range(400):
        screen = screen_of(panel)
        if screen == "over":
            break
        if seat_thinks(panel):  # P2 plays on its own: no press
            assert panel.read(0, scale=2, x1=23) == "P2", panel.text()  # its dot past x=22
            seat_turns += 1
            panel = seat_moves(pico, panel)
            continue
        if screen == "turn" and panel.hints() == THROWN:  # a decision left: its chance hinted
            human_throws += 1
            # "THROW 1/3" on the top line; under it, before the throw's name, its worth:
            # "OK 48%", "+0.4T": within HINT_MS of the dice landing (the throw's last frame)
            panel = wait_for(pico, hinted, HINT_MS, landed)
            assert hinted(panel), "no hint %d ms after the dice landed:\n%s" % (
                HINT_MS, panel.text())
        key, _ = choose(screen, panel.hints(), kept=True)
        since = pico.now()
        figures, panel = press(pico, key)
        landed = since + (figures["last_byte_ms"] or 0)
    assert screen_of(panel) == "over", panel.text()
    assert seat_turns and human_throws, (seat_turns, human_throws)
    assert pico.stats()["resets"] == resets

    # The end counted in the tally, the game gone from the flash.
    boot(pico, hold="OK")
    saves = pico.read_files(["game.json", "game.now", "tally.json"])
    assert saves["game.json"] is None and saves["game.now"] is None
    assert sum(json.loads(saves["tally.json"])["paid"]) >= 1


def test_a_power_cut_in_the_decharge_and_at_a_game_s_end_resumes_or_counts_once(pico):
    panel, _ = boot_with(pico, {"settings.json": json.dumps(TWO_SHORT).encode(),
                                "game.json": None, "game.now": None, "tally.json": None})
    _, panel = press(pico, "OK")
    for _ in range(6):  # games until one has a décharge
        panel = play_until(pico, panel, lambda p: screen_of(p) == "over" or
                           (screen_of(p) == "phase" and p.read(2, scale=2) == "DECHARGE"))
        if screen_of(panel) == "phase":
            break
        _, panel = press(pico, "OK")  # a new game
        _, panel = press(pico, "OK")
    assert screen_of(panel) == "phase", "no game reached the décharge:\n" + panel.text()
    _, panel = press(pico, "OK")
    assert screen_of(panel) == "turn" and panel.hints() == FIRST_THROW, panel.text()
    _, panel = press(pico, "ROLL")
    # The décharge's turn (its phase: where the throw's name leaves room for it).
    before = phase_lines(panel), [die_picture(panel, d) for d in range(3)]
    assert screen_of(panel) == "turn", panel.text()

    # Cut between two presses: the décharge's turn comes back as it was.
    panel = boot(pico)
    assert screen_of(panel) == "resume", panel.text()
    _, panel = press(pico, "OK")
    assert (phase_lines(panel), [die_picture(panel, d) for d in range(3)]) == before

    # Cut while the next throw is saved: the turn comes back before or after that throw.
    thrown = top_line(panel)
    panel = cut_during_save(pico, "ROLL")
    assert screen_of(panel) == "resume", panel.text()
    _, panel = press(pico, "OK")
    assert screen_of(panel) == "turn", panel.text()
    assert throw_of(top_line(panel)) in (throw_of(thrown), throw_of(thrown) + 1), panel.text()

    # The game's end, then a cut: no game to resume, and its round counted once.
    panel = play_until(pico, panel, lambda p: screen_of(p) == "over")
    panel = boot(pico)
    assert screen_of(panel) == "setup", panel.text()
    boot(pico, hold="OK")
    first = pico.read_files(["game.json", "game.now", "tally.json"])
    assert first["game.json"] is None and first["game.now"] is None
    boot(pico)
    boot(pico, hold="OK")
    assert pico.read_files(["tally.json"])["tally.json"] == first["tally.json"], "counted twice"
    assert sum(json.loads(first["tally.json"])["paid"]) >= 1


def test_the_resume_prompt_and_the_resumed_game_speak_french(pico):
    settings = json.dumps(dict(TWO_CLASSIC, lang="fr")).encode()
    boot(pico, hold="OK")
    pico.write_files({"settings.json": settings, "game.json": None, "game.now": None})
    host = host_tray({"settings.json": settings})
    panel = boot(pico, until=showing(drawn(host)))  # screen_of knows the English ones only
    assert_shows(panel, drawn(host), "the French setup")
    host.key("o")
    press(pico, "OK", until=showing(drawn(host)))
    _, panel = press(pico, "ROLL", until=lambda p: throw_of(top_line(p)) == 1)
    assert throw_of(top_line(panel)) == 1, panel.text()
    boot_quietly(pico, hold="OK")
    files = pico.read_files(SAVE_FILES)
    assert saved_game(files)["lang"] == "fr"

    host = host_tray(files)
    panel = boot(pico, until=showing(drawn(host)))
    assert panel.hints() == words_fr.KEYS_RESUME, panel.text()
    assert_shows(panel, drawn(host), "the French resume prompt")
    host.key("o")
    _, panel = press(pico, "OK", until=showing(drawn(host)))
    assert_shows(panel, drawn(host), "the resumed turn, in French")


def seat_acted(panel):
    """After a press in the seat's turn: the seat's turn goes on, or its result shows."""
    return screen_of(panel) == "result" or (
        seat_thinks(panel) and panel.read(0, scale=2, x1=23) == "P2")


@pytest.mark.parametrize("key,long", [("KEEP1", False), ("KEEP2", False), ("KEEP3", False),
                                      ("ROLL", False), ("OK", False), ("OK", True)],
                         ids=["KEEP1", "KEEP2", "KEEP3", "ROLL", "OK", "OK-held"])
def test_a_press_while_a_seat_thinks_hurries_it_or_shows_the_table(pico, key, long):
    if not seat_thinks(pico.panel()):  # else the last press's game: its seat thinks again
        settings = json.dumps(dict(TWO_CLASSIC, computers=1)).encode()
        panel, _ = boot_with(pico, {"settings.json": settings, "game.json": None,
                                    "game.now": None})
        _, panel = press(pico, "OK")
    panel = play_until(pico, pico.panel(), seat_thinks)
    resets = pico.stats()["resets"]
    since = pico.now()
    figures = pico.latency(key, long=long, quiet=quiet_ms(key))
    if long:
        panel = wait_for(pico, lambda p: screen_of(p) == "standings", ANSWER_MS, since + 1000)
    else:
        panel = wait_for(pico, seat_acted, ANSWER_MS, since)
    assert figures["bytes"] > 0, "the press changed nothing on the panel"
    assert pico.stats()["resets"] == resets
    if long:  # OK held: the table, over the seat's turn; ROLL goes back and the seat plays on
        assert screen_of(panel) == "standings", panel.text()
        _, panel = press(pico, "ROLL", until=seat_thinks)
        assert seat_thinks(panel), panel.text()
        panel = seat_moves(pico, panel)
    else:  # the seat acts at once, for itself: its turn goes on, or ends, with no human move
        assert seat_thinks(panel) or screen_of(panel) == "result", panel.text()
        assert panel.read(0, scale=2, x1=23) == "P2" or screen_of(panel) == "result", (
            panel.text())  # the name, its seat's dot past x=22
    assert pico.stats()["resets"] == resets


def test_a_stop_taken_back_on_the_board_resumes_as_the_turn_it_was(pico):
    panel, _ = boot_with(pico, {"settings.json": json.dumps(TWO_CLASSIC).encode(),
                                "game.json": None, "game.now": None})
    _, panel = press(pico, "OK")
    assert screen_of(panel) == "turn" and panel.hints() == FIRST_THROW, panel.text()
    _, panel = press(pico, "ROLL")
    before = top_line(panel), [die_picture(panel, d) for d in range(3)]
    assert throw_of(before[0]) == 1, panel.text()
    _, panel = press(pico, "OK")  # the slip: P1 meant to throw again
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) != before
    # Hold OK: the table, its bar offering the undo; KEEP1 takes the stop back.
    _, panel = press_long(pico, "OK")
    assert screen_of(panel) == "standings" and panel.hints() == "KEEP1:UNDO THE STOP", (
        panel.text())
    _, panel = press(pico, "KEEP1")
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) == before, panel.text()
    # Saved like any action: a power cut now resumes the turn as it was, not the slip.
    panel = boot(pico)
    assert screen_of(panel) == "resume", panel.text()
    _, panel = press(pico, "OK")
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) == before, panel.text()
    _, panel = press(pico, "ROLL")
    assert throw_of(top_line(panel)) == 2, panel.text()


def press_for(pico, key, want, long=False):
    """Press key (held a second when long) and return the panel once want(panel) holds: what
    the test checks, waited for on the panel."""
    pico.down(key)
    pico.wait(1000 if long else 120)
    pico.up(key)
    return pico.settle(quiet=50, until=want)


def test_the_undo_is_offered_and_quitting_keeps_the_game_through_the_buttons(pico):
    panel, _ = boot_with(pico, {"settings.json": json.dumps(TWO_CLASSIC).encode(),
                                "game.json": None, "game.now": None})
    panel = press_for(pico, "OK", lambda p: p.hints() == FIRST_THROW)
    panel = press_for(pico, "ROLL", lambda p: throw_of(top_line(p)) == 1 and p.hints() == THROWN)
    before = top_line(panel), [die_picture(panel, d) for d in range(3)]
    # The slip: P1 stops. P2's turn, before its first throw, offers it back: KEEP1 does it.
    panel = press_for(pico, "OK", lambda p: p.hints() == "KEEP1:UNDO THE STOP")
    assert screen_of(panel) == "turn" and panel.read(0, scale=2) == "P2", panel.text()
    panel = press_for(pico, "KEEP1", lambda p: p.hints() == THROWN)
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) == before, panel.text()
    # Quit from the table: ROLL (the table's back) says no; KEEP1 says yes, the game kept.
    panel = press_for(pico, "OK", lambda p: screen_of(p) == "standings", long=True)
    panel = press_for(pico, "OK", lambda p: screen_of(p) == "quit", long=True)
    assert panel.hints() == "KEEP1:YES  OK:NO", panel.text()
    panel = press_for(pico, "ROLL", lambda p: screen_of(p) == "turn")
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) == before, panel.text()
    press_for(pico, "OK", lambda p: screen_of(p) == "standings", long=True)
    press_for(pico, "OK", lambda p: screen_of(p) == "quit", long=True)
    panel = press_for(pico, "KEEP1", lambda p: screen_of(p) == "setup")
    assert top_line(panel) == "OK:RESUME THE GAME" and panel.hints() == "GAME LEFT AT TURN 1", (
        panel.text())
    # Kept across a power cut: the prompt offers it, its no goes to the setup, which does too.
    panel = boot(pico)
    assert screen_of(panel) == "resume", panel.text()
    panel = press_for(pico, "ROLL", lambda p: top_line(p) == "OK:RESUME THE GAME")
    panel = press_for(pico, "OK", lambda p: screen_of(p) == "turn")
    assert (top_line(panel), [die_picture(panel, d) for d in range(3)]) == before, panel.text()


def test_a_short_night_of_games_back_to_back_plays_on_one_heap(pico):
    # The bench's Pico night (emupico/night.py), shortened: games back to back through the
    # buttons, the seats, hints and language switched on the setup menu between them. Where the
    # heap is the port's (the kit), a game's start is where the one before it started.
    boot(pico, hold="OK")
    resets = pico.stats()["resets"]
    got = night.play(pico, games=NIGHT_GAMES)
    starts = got["starts"]
    assert len(starts) == NIGHT_GAMES and all(starts) and got["polls"] > 0, got
    assert pico.stats()["resets"] == resets, "the board reset during the night"
    if getattr(pico, "real_heap", True):
        assert max(starts[1:]) - starts[1] <= 1024, starts


@pytest.mark.parametrize("bad", [TRUNCATED, DEEP], ids=["truncated", "nested-550-deep"])
def test_a_damaged_save_is_refused_without_a_reset_loop(pico, bad):
    panel, since = boot_with(pico, {"game.json": bad, "game.bad": None})
    resets = pico.stats()["resets"]
    # Longer than the error screen stays before a crashed game restarts.
    pico.wait(max(0, since + crash.ERROR_SHOW_MS + 1000 - pico.now()))
    later = pico.panel()
    climbed = pico.stats()["resets"] - resets
    assert screen_of(panel) == "notice" and later == panel and not climbed, (
        "want the SAVE LOST notice, steady, and no reset; the board reset %d times and shows:\n%s"
        % (climbed, later.text()))
    if bad == TRUNCATED:  # the host reads this one the same way: the very same notice
        assert_shows(panel, drawn(host_tray({"game.json": bad})), "the notice")
    _, panel = press(pico, "OK")
    assert panel.hints() == SETUP_HINTS, panel.text()
    assert pico.stats()["resets"] == resets


@pytest.mark.parametrize("name", sorted(COSTLY))
def test_a_save_too_costly_to_read_is_refused_without_a_reset(pico, name):
    bad = COSTLY[name]
    panel, _ = boot_with(pico, {"game.json": bad, "game.bad": None}, NOTICE_WITHIN_MS)
    resets = pico.stats()["resets"]
    pico.wait(crash.ERROR_SHOW_MS + 1000)
    later = pico.panel()
    climbed = pico.stats()["resets"] - resets
    assert screen_of(panel) == "notice" and later == panel and not climbed, (
        "want the SAVE LOST notice, steady, and no reset; the board reset %d times and shows:\n%s"
        % (climbed, later.text()))
    assert_shows(panel, drawn(host_tray({"game.json": bad})), "the notice")
    boot(pico, hold="OK")
    assert pico.read_files(["game.json", "game.bad"]) == {"game.json": None, "game.bad": bad}


@pytest.mark.real_port
@pytest.mark.parametrize("name", sorted(COSTLY))
def test_a_save_too_costly_to_read_is_refused_within_two_seconds(pico, name):
    bad = COSTLY[name]
    panel, since = boot_with(pico, {"game.json": bad, "game.bad": None}, NOTICE_WITHIN_MS)
    shown_ms = pico.now() - FRAME_MS - since  # at most: read a frame after it was there
    assert screen_of(panel) == "notice", panel.text()
    assert shown_ms <= NOTICE_WITHIN_MS, "the notice showed %d ms after power-up" % shown_ms


# Machine code (dicetray.fast, built for the Cortex-M0+) against the firmware's own Python, on
# the board: text drawn straight into the frame against framebuf's blit of the same strip, the
# frame cleared against framebuf's fill, and a page's transfers against their Python layout.
# Random cases from a fixed seed.
NATIVE_CHECK = r"""
import framebuf, json
from dicetray import display, fast, fast_python, font

seed = [12345]
def rnd(n):
    x = seed[0]
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    seed[0] = x
    return x % n

CHARS = font.CHARS + "az\x01\xe9"
texts = spans = 0
for h in (64, 32):
    a = bytearray(128 * h // 8)
    b = bytearray(128 * h // 8)
    noise = bytearray(rnd(256) for _ in range(len(a)))
    fa = font.Frame(framebuf.FrameBuffer(a, 128, h, framebuf.MONO_VLSB), a, 128, h)
    fb = framebuf.FrameBuffer(b, 128, h, framebuf.MONO_VLSB)
    for case in range(100):
        a[:] = b[:] = noise if case % 2 else bytes(len(a))
        s = "".join(CHARS[rnd(len(CHARS))] for _ in range(rnd(23)))
        x, y, scale, c = rnd(160) - 20, rnd(h + 20) - 18, 1 + rnd(2), rnd(2)
        xa = font.text(fa, s, x, y, scale, c)  # machine code: a Frame
        xb = font.text(fb, s, x, y, scale, c)  # framebuf's blit
        assert a == b and xa == xb, (s, x, y, scale, c)
        texts += 1
    a[:] = b[:] = noise
    font.clear(fa)  # machine code: a Frame
    font.clear(fb)  # framebuf's fill
    assert a == b == bytes(len(a))

class Bus:
    def __init__(self):
        self.sent = []
    def writeto(self, addr, data):
        self.sent.append(bytes(data))
        return len(data)
    def writeto_mem(self, *args):
        pass

native = display.plan_page
for case in range(30):
    out = []
    for use in (native, fast_python.plan_page):
        display.plan_page = use
        bus = Bus()
        d = display.Display(bus)
        seed[0] = 777 + case
        for frame in range(4):
            for _ in range(rnd(40)):
                d.buffer[rnd(1024)] ^= 1 << rnd(8)
            for _ in range(rnd(3)):
                i = rnd(1024)
                for j in range(i, min(1024, i + rnd(30))):
                    d.buffer[j] = rnd(256)
            d.show()
        out.append(bus.sent)
    display.plan_page = native
    assert out[0] == out[1], case
    spans += 1
print(json.dumps({"native": fast.draw_text is font.draw_text and fast.zero is font.zero
                            and native is fast.plan_page,
                  "texts": texts, "frames": spans}))
"""


@pytest.mark.real_port
def test_the_pico_s_machine_code_draws_and_diffs_as_the_python_does(pico):
    boot(pico, hold="OK")  # safe mode: the tray's loop is not running
    out = pico.exec(NATIVE_CHECK, timeout=600)
    got = json.loads(out.strip().splitlines()[-1])
    assert got == {"native": True, "texts": 200, "frames": 30}, out
