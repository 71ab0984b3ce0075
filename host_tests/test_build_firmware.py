"""tools/build_firmware.sh and tools/frozen/manifest.py: the manifest read with stand-ins for
MicroPython's manifest functions, the build script's checks and commands with a fake tree and a
fake toolchain (CI cannot build MicroPython: the real build is the README's recipe)."""

import os
import shutil
import subprocess
from pathlib import Path

import build_firmware
import pytest
from build_firmware import E_BUILD, E_TOOLCHAIN, E_TREE, E_USAGE, BuildError, Options
from flashkit.frozenid import MODULE, id_module, source_id
from mpy import build_mpy

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MANIFEST = ROOT / "tools" / "frozen" / "manifest.py"
SCRIPT = ROOT / "tools" / "build_firmware.sh"


# ---- the manifest -------------------------------------------------------------------------


def read_manifest():
    """Run the manifest as MicroPython's makemanifest.py does (in its own folder), with
    stand-ins for include, package and module; returns (includes, {frozen path: source})."""
    includes, frozen = [], {}

    def include(path, **kwargs):
        includes.append(path)

    def package(package_path, files=None, base_path=".", opt=None):
        base = Path(base_path).resolve()
        assert files is None, "the whole package is frozen, not a list of files"
        for folder, _, names in os.walk(base / package_path):  # as makemanifest's _search
            for name in names:
                if name.endswith(".py"):
                    path = Path(folder, name)
                    frozen[path.relative_to(base).as_posix()] = path

    def module(module_path, base_path=".", opt=None):
        frozen[module_path] = Path(base_path).resolve() / module_path

    before = os.getcwd()
    os.chdir(MANIFEST.parent)
    try:
        exec(MANIFEST.read_text(), {"include": include, "package": package, "module": module})
    finally:
        os.chdir(before)
    return includes, frozen


def test_the_manifest_keeps_the_boards_own_frozen_modules():
    includes, _ = read_manifest()
    assert includes == ["$(PORT_DIR)/boards/manifest.py"]


def test_the_manifest_freezes_every_module_of_the_package_and_not_main_py(tmp_path):
    _, frozen = read_manifest()
    sources = {p.relative_to(FIRMWARE).as_posix() for p in (FIRMWARE / "dicetray").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert set(frozen) == sources | {MODULE + ".py"}
    assert "main.py" not in frozen and all(frozen[p] == FIRMWARE / p for p in sources)
    # The same modules flash.sh would copy to /dicetray as .mpy files.
    build_mpy(FIRMWARE, tmp_path)
    assert {p.relative_to(tmp_path).with_suffix(".py").as_posix()
            for p in (tmp_path / "dicetray").rglob("*.mpy")} == sources


def test_the_manifest_freezes_the_sources_build_id():
    _, frozen = read_manifest()
    text = frozen[MODULE + ".py"].read_text()
    assert text == id_module(source_id(FIRMWARE))
    scope = {}
    exec(text, scope)
    assert scope["ID"] == source_id(FIRMWARE) and len(scope["ID"]) == 16


def test_the_build_id_follows_the_packages_sources_alone(tmp_path):
    shutil.copytree(FIRMWARE, tmp_path / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    copy = tmp_path / "firmware"
    assert source_id(copy) == source_id(FIRMWARE)
    (copy / "main.py").write_text("# main.py is not frozen\n")
    (copy / "dicetray" / "__pycache__").mkdir()
    (copy / "dicetray" / "__pycache__" / "x.py").write_text("not a source\n")
    assert source_id(copy) == source_id(FIRMWARE)
    rules = copy / "dicetray" / "rules.py"
    rules.write_text(rules.read_text() + "\n")
    assert source_id(copy) != source_id(FIRMWARE)
    rules.rename(copy / "dicetray" / "rules2.py")  # a renamed module is another firmware
    assert source_id(copy) != source_id(FIRMWARE)


# ---- the build script, on a fake tree -----------------------------------------------------


def fake_tree(root, version=(1, 27, 0), board="RPI_PICO", missing=()):
    """A MicroPython source tree as far as the script looks at one."""
    (root / "py").mkdir(parents=True)
    (root / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR %d\n#define MICROPY_VERSION_MINOR %d\n"
        "#define MICROPY_VERSION_MICRO %d\n" % version)
    (root / "ports" / "rp2" / "boards" / board).mkdir(parents=True)
    for path, probe in build_firmware.SUBMODULES:
        if path not in missing:
            (root / path / probe).parent.mkdir(parents=True, exist_ok=True)
            (root / path / probe).write_text("")
    return root


@pytest.mark.parametrize("argv, options", [
    (["mp"], Options(Path("mp"))),
    (["--board", "RPI_PICO_W", "mp", "-j", "3"], Options(Path("mp"), "RPI_PICO_W", jobs=3)),
    (["mp", "--build", "out", "--picotool", "pt"],
     Options(Path("mp"), build=Path("out"), picotool=Path("pt"))),
    (["-h", "--bogus"], Options(help=True)),
])
def test_the_command_line(argv, options):
    assert build_firmware.parse_args(argv) == options


@pytest.mark.parametrize("argv, message", [
    ([], "name the MicroPython source tree"),
    (["--bogus", "mp"], "unknown option: --bogus"),
    (["mp", "other"], "one MicroPython tree only"),
    (["mp", "--board"], "--board needs a value"),
    (["mp", "-j", "0"], "-j needs a number of jobs"),
    (["mp", "-j", "many"], "-j needs a number of jobs"),
])
def test_a_bad_command_line(argv, message):
    with pytest.raises(BuildError) as refused:
        build_firmware.parse_args(argv)
    assert refused.value.code == E_USAGE and message in refused.value.lines[0]


def test_a_good_tree_passes_and_gives_its_version(tmp_path):
    assert build_firmware.check_tree(fake_tree(tmp_path), "RPI_PICO") == (1, 27, 0)


def test_the_version_is_read_as_micropython_writes_it(tmp_path):
    tree = fake_tree(tmp_path)
    (tree / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR (1)\n#define MICROPY_VERSION_MINOR (28)\n"
        "#define MICROPY_VERSION_MICRO (2)\n#define MICROPY_VERSION_PRERELEASE 0\n")
    assert build_firmware.tree_version(tree) == (1, 28, 2)


@pytest.mark.parametrize("spoil, message, advice", [
    (lambda t: shutil.rmtree(t), "is not a folder", None),
    (lambda t: (t / "py" / "mpconfig.h").unlink(), "is not a MicroPython source tree",
     "git clone -b v1.27.0"),
    (lambda t: shutil.rmtree(t / "ports" / "rp2" / "boards" / "RPI_PICO"), "has no board RPI_PICO",
     None),
    (lambda t: shutil.rmtree(t / "lib" / "pico-sdk"), "lacks the submodules lib/pico-sdk",
     "ports/rp2 BOARD=RPI_PICO submodules"),
    (lambda t: (t / "lib" / "tinyusb" / "src" / "tusb.h").unlink(),
     "lacks the submodules lib/tinyusb", "submodules"),
    (lambda t: (t / "py" / "mpconfig.h").write_text("/* no version */\n"),
     "names no MicroPython version", None),
])
def test_a_tree_that_cannot_build_is_refused(tmp_path, spoil, message, advice):
    tree = fake_tree(tmp_path / "mp")
    spoil(tree)
    with pytest.raises(BuildError) as refused:
        build_firmware.check_tree(tree, "RPI_PICO")
    assert refused.value.code == E_TREE and message in refused.value.lines[0]
    if advice:
        assert advice in "\n".join(refused.value.lines)


def test_every_missing_submodule_is_named_at_once(tmp_path):
    tree = fake_tree(tmp_path, missing=("lib/micropython-lib", "lib/mbedtls"))
    with pytest.raises(BuildError) as refused:
        build_firmware.check_tree(tree, "RPI_PICO")
    assert "lib/micropython-lib, lib/mbedtls" in refused.value.lines[0]


def test_the_toolchain_check():
    here = {"arm-none-eabi-gcc": "/usr/bin/arm-none-eabi-gcc", "cmake": "/usr/bin/cmake",
            "make": "/usr/bin/make"}
    newlib = "/usr/lib/arm-none-eabi/newlib/libc.a\n"
    build_firmware.check_toolchain(here.get, lambda command: newlib)
    for tool in here:
        with pytest.raises(BuildError) as refused:
            build_firmware.check_toolchain({**here, tool: None}.get, lambda command: newlib)
        assert refused.value.code == E_TOOLCHAIN and tool in refused.value.lines[0]
        assert "gcc-arm-none-eabi libnewlib-arm-none-eabi cmake" in refused.value.lines[1]
    with pytest.raises(BuildError) as refused:  # gcc without newlib names the bare file
        build_firmware.check_toolchain(here.get, lambda command: "libc.a\n")
    assert refused.value.code == E_TOOLCHAIN and "no C library (newlib)" in refused.value.lines[0]


def test_the_build_runs_cmake_with_the_manifest_and_names_the_uf2(tmp_path, capsys):
    tree, out = fake_tree(tmp_path / "mp"), tmp_path / "out"
    ran = []

    def run(command):
        ran.append(command)
        if command[:2] == ["cmake", "--build"]:
            out.mkdir()
            (out / "firmware.uf2").write_bytes(b"UF2\n")
        return 0

    options = Options(tree, build=out, jobs=2, picotool=tmp_path / "pt")
    uf2 = build_firmware.build(options, run, toolchain=lambda: None)
    assert uf2 == out.resolve() / "firmware.uf2"
    assert ran == [
        ["cmake", "-S", str(tree.resolve() / "ports" / "rp2"), "-B", str(out.resolve()),
         "-DPICO_BUILD_DOCS=0", "-DMICROPY_BOARD=RPI_PICO",
         f"-DMICROPY_FROZEN_MANIFEST={MANIFEST}", f"-Dpicotool_DIR={tmp_path / 'pt'}"],
        ["cmake", "--build", str(out.resolve()), "-j", "2"],
    ]
    assert "build id %s" % source_id(FIRMWARE) in capsys.readouterr().out


def test_a_tree_of_another_version_builds_with_a_note(tmp_path, capsys):
    tree, out = fake_tree(tmp_path / "mp", version=(1, 28, 0)), tmp_path / "out"

    def run(command):
        out.mkdir(exist_ok=True)
        (out / "firmware.uf2").write_bytes(b"UF2\n")
        return 0

    build_firmware.build(Options(tree, build=out), run, toolchain=lambda: None)
    assert "is MicroPython 1.28.0; this repo is tested with 1.27." in capsys.readouterr().out


def test_a_failed_build_stops_with_its_command(tmp_path):
    tree = fake_tree(tmp_path / "mp")
    with pytest.raises(BuildError) as failed:
        build_firmware.build(Options(tree, build=tmp_path / "out"), lambda command: 2,
                             toolchain=lambda: None)
    assert failed.value.code == E_BUILD and "cmake -S" in failed.value.lines[0]
    with pytest.raises(BuildError) as failed:  # the commands passed, but no .uf2 came out
        build_firmware.build(Options(tree, build=tmp_path / "out"), lambda command: 0,
                             toolchain=lambda: None)
    assert failed.value.code == E_BUILD and "made no" in failed.value.lines[0]


# ---- build_firmware.sh, the maker's entry point -------------------------------------------


def script(*args):
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60)


def test_help_names_the_recipe_and_every_exit_code():
    result = script("--help")
    assert result.returncode == 0 and result.stdout.startswith(
        "Usage: tools/build_firmware.sh MICROPYTHON_DIR")
    assert "make -C micropython/ports/rp2 BOARD=RPI_PICO submodules" in result.stdout
    for code in (0, 2, 3, 4, 5):
        assert f"{code} " in result.stdout.split("Exit codes:")[1]


@pytest.mark.parametrize("args, code, message", [
    ([], E_USAGE, "name the MicroPython source tree"),
    (["--bogus", "x"], E_USAGE, "unknown option: --bogus"),
    (["/nonexistent/micropython"], E_TREE, "/nonexistent/micropython is not a folder."),
])
def test_the_script_refuses_clearly(args, code, message):
    result = script(*args)
    assert result.returncode == code and result.stdout == ""
    assert result.stderr.startswith("build_firmware: " + message)


def test_the_script_refuses_a_folder_that_is_no_micropython(tmp_path):
    result = script(str(tmp_path))
    assert result.returncode == E_TREE
    assert "is not a MicroPython source tree" in result.stderr
    # shellcheck checks build_firmware.sh beside flash.sh (test_flash.py).

