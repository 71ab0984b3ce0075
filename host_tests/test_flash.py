"""tools/flash.sh against simulated Picos: mpremote's own command line over fakes/pico.py."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

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
from mpy import build_mpy

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
