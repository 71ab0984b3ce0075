"""emupico.kit without an emulator: reading screens from pixels, saying why the kit cannot run."""

import pytest
from dicetray import ui, words
from emupico import kit
from emupico.kit import Panel, PicoError, screen_of
from screens.pictures import render

# tools/screens' pictures (every screen the tray draws) -> the screen emupico reads.
EXPECTED = {
    "setup": "setup", "play": None, "phase": "phase", "result": "result",
    "standings": "standings", "resume": "resume", "over": "over", "notice": "notice",
    "outcome": "outcome",
    "quit": "quit", "tally": "tally", "undo": "undo",
}  # fmt: skip


@pytest.fixture(scope="module")
def rendered():
    return [s for s in render() if (s.width, s.height) == (128, 64)]


@pytest.fixture(scope="module")
def shots(rendered):
    return {s.name: Panel([s.bits[y * 128 : (y + 1) * 128] for y in range(64)])
            for s in rendered}


def test_every_screen_is_recognised(rendered, shots):
    # The tray as the Pico tier plays it: in the default language (the pictures in the others
    # are named <name>_<language>).
    others = tuple("_" + code for code in words.LANGS if code != words.DEFAULT)
    for name, shot_screen in ((s.name, s.screen) for s in rendered if not s.name.endswith(others)):
        panel = shots[name]
        want = EXPECTED.get(shot_screen)
        if shot_screen == "play":
            want = "turn" if name.startswith(("turn", "seat", "crowded")) else "contest"
        elif shot_screen is None:
            want = "safe" if name == "safe_mode" else "error"
        assert screen_of(panel) == want, name


def test_text_is_read_in_the_tray_s_own_font(shots):
    assert shots["setup"].hints() == "PLAYERS AT THE TABLE"
    assert shots["setup"].read(0) == "OK:START ROLL:CHANGE"
    assert shots["turn_thrown"].read(0) == "THROW 1/3  POT 21"  # "P3" is twice as big
    assert shots["turn_thrown"].read(0, scale=2) == "P3"
    assert shots["turn_thrown"].hints() == "KEEP, ROLL OR OK:STOP"
    assert shots["turn_last_throw"].hints() == "LAST THROW. OK:DONE"
    assert shots["save_lost"].read(2, scale=2) == "SAVE LOST"
    assert shots["playoff_stake"].hints() == "KEEP1:IS  KEEP3:COMES"
    assert shots["turn_thrown"].read(30) == ""  # the dice are no text


def test_panels_round_trip_through_the_kit_s_text_and_compare(shots):
    a, b = shots["turn_thrown"], shots["turn_kept"]
    assert Panel.from_text(a.text()) == a
    assert a != b and 0 < a.differences(b) < 128 * 64
    for i, kept in ((0, True), (1, False), (2, True)):  # dice 1 and 3 kept: solid
        x, y, s = ui.die_at(64, 4, i)
        assert (a.region(x - 1, y - 1, s + 2, s + 2) != b.region(x - 1, y - 1, s + 2, s + 2)) \
            == kept, i
    with pytest.raises(PicoError):
        Panel.from_text("\n".join(a.text().splitlines()[:31]))


def test_unavailable_says_what_the_set_up_lacks(monkeypatch, tmp_path):
    monkeypatch.setenv(kit.KIT_ENV, "")
    assert "switched off" in kit.not_set_up()
    assert kit.unavailable() == kit.not_set_up()
    monkeypatch.setenv(kit.KIT_ENV, str(tmp_path))
    assert "no emulated Pico kit" in kit.unavailable()
    (tmp_path / "pico").write_text("#!/bin/sh\n")
    monkeypatch.setenv("PATH", str(tmp_path))  # no node, npm or socat there
    assert "is not installed" in kit.unavailable()


def stand_in_kit(folder, check):
    """A kit in folder whose `pico` script notes each command in folder/calls and runs check's
    shell lines for `pico check`."""
    folder.mkdir()
    (folder / "pico").write_text('#!/bin/sh\necho "$1" >> "$(dirname "$0")/calls"\n'
                                 'case "$1" in check) %s;; esac\nexit 9\n' % check)
    (folder / "pico").chmod(0o755)
    return folder


def test_unavailable_relays_the_kits_own_check(monkeypatch, tmp_path):
    """Without a firmware image the kit's check says so (exit 3): that line is the reason every
    Pico test and bench skips with; "ready" (exit 0) lets them run."""
    monkeypatch.setattr(kit, "not_set_up", lambda: None)  # node, socat, ... are not the point
    no_uf2 = "no MicroPython rp2 firmware (.uf2) at /x/fw.uf2: this kit ships none"
    monkeypatch.setenv(kit.KIT_ENV, str(stand_in_kit(tmp_path / "a", 'echo "%s"; exit 3'
                                                         % no_uf2)))
    assert kit.unavailable() == "the emulated Pico kit cannot run here: " + no_uf2
    monkeypatch.setenv(kit.KIT_ENV, str(stand_in_kit(tmp_path / "b", "echo ready; exit 0")))
    assert kit.unavailable() is None


def test_every_tool_that_drives_the_kit_skips_with_its_reason(monkeypatch, tmp_path, capsys):
    """The bench's Pico figures are null, the seat's Pico decision is not taken, the profiler
    stops: each says the kit's reason, none starts an emulator."""
    from bench import seats
    from emupico import profile
    from emupico.bench import pico_figures

    monkeypatch.setattr(kit, "not_set_up", lambda: None)
    no_uf2 = "no MicroPython rp2 firmware (.uf2) at /x/fw.uf2: this kit ships none"
    monkeypatch.setenv(kit.KIT_ENV, str(stand_in_kit(tmp_path / "k", 'echo "%s"; exit 3'
                                                         % no_uf2)))
    said = []
    figures = pico_figures(log=said.append)
    assert figures and set(figures.values()) == {None}
    assert "pico_heap_boot" in figures and "pico_press_ms_p95" in figures
    assert seats.pico_decision(log=said.append) is None
    assert said == ["Pico figures skipped: the emulated Pico kit cannot run here: " + no_uf2,
                    "Seat decision on the Pico skipped: the emulated Pico kit cannot run here: "
                    + no_uf2]
    assert profile.main([]) == 2
    assert capsys.readouterr().err.strip().endswith(no_uf2)
    assert set((tmp_path / "k" / "calls").read_text().split()) == {"check"}
