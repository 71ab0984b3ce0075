"""picokit without an emulator: reading screens from pixels, and saying why the kit cannot run."""

import picokit
import pytest
import screens
from picokit import Panel, PicoError, screen_of

# tools/screens.py's pictures (every screen the tray draws) -> the screen picokit must read.
EXPECTED = {
    "setup": "setup", "play": None, "phase": "phase", "result": "result",
    "standings": "standings", "resume": "resume", "over": "over", "notice": "notice",
    "outcome": "outcome",
    "quit": "quit", "tally": "tally",
}  # fmt: skip


@pytest.fixture(scope="module")
def rendered():
    return [s for s in screens.render() if (s.width, s.height) == (128, 64)]


@pytest.fixture(scope="module")
def shots(rendered):
    return {s.name: Panel([s.bits[y * 128 : (y + 1) * 128] for y in range(64)])
            for s in rendered}


def test_every_screen_is_recognised(rendered, shots):
    for name, shot_screen in ((s.name, s.screen) for s in rendered):
        panel = shots[name]
        want = EXPECTED.get(shot_screen)
        if shot_screen == "play":
            want = "turn" if name.startswith(("turn", "seat")) else "contest"
        elif shot_screen is None:
            want = "safe" if name == "safe_mode" else "error"
        assert screen_of(panel) == want, name


def test_text_is_read_in_the_tray_s_own_font(shots):
    assert shots["setup"].hints() == "1/2 MOVE  3/R CHANGE"
    assert shots["setup"].read(0) == "NEW GAME  OK:START"
    assert shots["turn_thrown"].read(0) == "THROW 1/3  POT 21"  # "P3" is twice as big
    assert shots["turn_thrown"].read(0, scale=2) == "P3"
    assert shots["turn_thrown"].hints() == "KEEP, ROLL OR OK:STOP"
    assert shots["turn_last_throw"].hints() == "LAST THROW. OK:DONE"
    assert shots["save_lost"].read(0, scale=2) == "SAVE LOST"
    assert shots["playoff_stake"].hints() == "KEEP1:IS  KEEP3:COMES"
    assert shots["turn_thrown"].read(30) == ""  # the dice are no text


def test_panels_round_trip_through_the_kit_s_text_and_compare(shots):
    a, b = shots["turn_thrown"], shots["turn_kept"]
    assert Panel.from_text(a.text()) == a
    assert a != b and 0 < a.differences(b) < 128 * 64
    assert a.region(14, 24, 24, 24) != b.region(14, 24, 24, 24)  # dice 1 and 3 kept: solid
    assert a.region(52, 24, 24, 24) == b.region(52, 24, 24, 24)
    with pytest.raises(PicoError):
        Panel.from_text("\n".join(a.text().splitlines()[:31]))


def test_unavailable_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv(picokit.KIT_ENV, "")
    assert "switched off" in picokit.unavailable()
    monkeypatch.setenv(picokit.KIT_ENV, str(tmp_path))
    assert "no emulated Pico kit" in picokit.unavailable()
    (tmp_path / "pico").write_text("#!/bin/sh\n")
    monkeypatch.setenv("PATH", str(tmp_path))  # no node, npm or socat there
    assert "is not installed" in picokit.unavailable()


@pytest.mark.parametrize("uf2", ["", "build/firmware-RPI_PICO/firmware.uf2"])
def test_start_boots_the_firmware_named_in_the_environment(monkeypatch, tmp_path, uf2):
    """A stand-in kit script records what start asks of it."""
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "pico").write_text('#!/bin/sh\necho "$@" >> "$PICO_STATE/calls"\n'
                              'case "$1" in status) echo "not running";; pty) echo /tmp/tty;; '
                              'esac\n')
    (kit / "pico").chmod(0o755)
    monkeypatch.setenv(picokit.UF2_ENV, uf2)
    monkeypatch.chdir(tmp_path)  # a relative name is taken from the current directory
    pico = picokit.Pico(state=tmp_path, kit=kit)
    pico.start()
    assert pico.pty == "/tmp/tty"
    start = [c for c in (tmp_path / "calls").read_text().splitlines() if c.startswith("start")]
    want = ["start", "--uf2", str(tmp_path / uf2)] if uf2 else ["start"]
    assert start == [" ".join(want)]
