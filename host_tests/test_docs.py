"""The README and docs/*.md as a reader uses them: every code example runs as written, every
command names a real script and only options it takes, and the module lists match the tree."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "hardware" / "README.md"]
FIRMWARE = ROOT / "firmware" / "dicetray"
# Commands cheap enough to run whole here; the others (the simulator in a terminal, flashing a
# board, the benches) are held to their script and its --help.
RUN_WHOLE = ("tools/gamelog.py ", "tools/run.sh --headless ")
COMMAND = re.compile(r"(\.venv/bin/\w+ |python3? )?(tools/|\.\./shared/)")


def blocks(doc):
    """(language, text, line) of each fenced block in doc."""
    lines = doc.read_text().splitlines()
    found, start, lang = [], None, ""
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            if start is None:
                start, lang = n, line[3:].strip()
            else:
                found.append((lang, "\n".join(lines[start:n - 1]), start))
                start = None
    assert start is None, "%s: a block opened at line %d is never closed" % (doc.name, start)
    return found


def python_examples():
    return [pytest.param(code, id="%s:%d" % (doc.name, line))
            for doc in DOCS for lang, code, line in blocks(doc) if lang == "python"]


def commands():
    """Each shell command the docs show: a line of a plain or shell block, or an inline
    `tools/...` span, with the script it runs."""
    found = []
    for doc in DOCS:
        text = doc.read_text()
        for lang, body, line in blocks(doc):
            lines = [(n, cmd.split("  #")[0].strip()) for n, cmd in enumerate(body.splitlines())]
            lines = [(n, cmd) for n, cmd in lines if cmd]
            # A block of commands: every line is one (a drawing of the tree is not).
            if lang in ("", "sh", "bash", "shell") and all(COMMAND.match(c) for n, c in lines):
                found += [("%s:%d" % (doc.name, line + 1 + n), cmd) for n, cmd in lines]
        for m in re.finditer(r"`((?:\.venv/bin/python |python3? )?tools/[^`]*)`", text):
            found.append(("%s:%d" % (doc.name, text.count("\n", 0, m.start()) + 1),
                          m.group(1)))
    return [pytest.param(cmd, id=where) for where, cmd in found]


def script_of(words):
    """The script a command runs: its first word, or the one after the interpreter."""
    return words[1] if words[0].endswith(("python", "python3")) else words[0]


def env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "firmware"),
                                                         str(ROOT / "tools")]))


@pytest.mark.parametrize("code", python_examples())
def test_every_python_example_runs_as_written(code):
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


_helps = {}


def help_text(words):
    script = script_of(words)
    if script not in _helps:
        runner = words[:words.index(script)] if script != words[0] else []
        if runner and runner[0] == "python":
            runner = [sys.executable]
        proc = subprocess.run([*runner, script, "--help"], cwd=ROOT, env=env(),
                              capture_output=True, text=True, timeout=300)
        _helps[script] = proc.stdout + proc.stderr
    return _helps[script]


@pytest.mark.parametrize("cmd", commands())
def test_every_command_names_a_real_script_and_options_it_takes(cmd):
    words = shlex.split(cmd)
    script = script_of(words)
    if script.startswith("../shared/"):
        assert script == "../shared/pico/pico" or script == "../shared/pico", cmd
        return
    path = ROOT / script
    assert path.exists(), "%s: no %s in the tree" % (cmd, script)
    if path.is_dir():
        assert len(words) == 1, cmd
        return
    flags = [w.split("=")[0] for w in words if w.startswith("--")]
    if flags or "--help" in words:
        said = help_text(words)
        for flag in flags:
            assert flag in said, "%s: %s --help does not name %s" % (cmd, script, flag)
    if cmd.replace(".venv/bin/python ", "").startswith(RUN_WHOLE):
        proc = subprocess.run(words, cwd=ROOT, env=env(), capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr


def test_the_took_it_back_example_ends_as_if_the_stop_never_happened():
    """The README's undo example (run whole above too) ends on the screen of the same keys
    without the stop and its undo (OK, then OK held and KEEP1)."""
    text = (ROOT / "README.md").read_text()
    para = text[text.index("**Took it back.**"):]
    para = para[:para.index("\n\n")]
    keys = re.search(r'`tools/run.sh --headless --keys "([^"]*)"`', para).group(1)
    plain = re.search(r'`--keys "([^"]*)"`', para).group(1)
    assert keys.replace("o1", "") == plain and "o1r" in keys

    def last_screen(k):
        proc = subprocess.run([sys.executable, "tools/sim/play.py", "--headless", "--keys", k],
                              cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        return [line for line in lines if not line.endswith(" screens")]  # but their count

    shown = last_screen(keys)
    assert "games over: 0, now on the turn screen" in shown
    assert shown == last_screen(plain)
    assert shown != last_screen(keys[:-1])  # the throw after the undo is on it


# ---- the module lists -------------------------------------------------------------------------


def firmware_modules():
    return {p.name for p in FIRMWARE.glob("*.py") if p.name != "__init__.py"}


def named_modules(text):
    return set(re.findall(r"([a-z_][a-z0-9_]*\.py)\b", text))


def readme_tree():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## For developers"):]
    return next(body for lang, body, line in blocks(ROOT / "README.md")
                if body in section and "firmware/" in body)


def architecture_table():
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index("## Modules, one line each")
    return text[start:text.index("\n## ", start + 1)]


def tool_modules():
    """The tools' packages' modules by name (the README's tree may drop the .py)."""
    return {p.stem for package in (ROOT / "tools").glob("*/__init__.py")
            for p in package.parent.glob("*.py") if p.name != "__init__.py"}


def test_the_readme_names_every_module_and_no_other():
    tree = readme_tree()
    named = named_modules(tree)
    assert firmware_modules() - named == set(), "firmware modules the README's tree leaves out"
    words = set(re.findall(r"[a-z_][a-z0-9_]*", tree))
    assert tool_modules() - words == set(), "tools' modules the README's tree leaves out"
    real = {p.name for p in (ROOT / "firmware").rglob("*.py")} | {
        p.name for p in (ROOT / "tools").rglob("*.py") if "node_modules" not in p.parts}
    assert named - real == set(), "modules the README's tree names and the tree has not"


def test_the_architecture_page_names_every_firmware_module_and_no_other():
    # The cells before a row's last (its job): the module's, after its family's.
    rows = [" ".join(line.split("|")[1:-2]) for line in architecture_table().splitlines()
            if line.startswith("|") and "`" in line]
    named = named_modules(" ".join(rows))
    assert firmware_modules() - named == set(), "modules the table leaves out"
    assert named - firmware_modules() - {"main.py"} == set(), "modules the table names in vain"


def test_the_readme_names_every_option_by_its_setup_label():
    from dicetray.options import OPTIONS

    text = (ROOT / "README.md").read_text()
    said = re.search(r"The (\d+) options, by their setup labels: (.*?)\.\n", text, re.S)
    assert said, "the README's list of options is gone"
    assert int(said.group(1)) == len(OPTIONS)
    listed = " ".join(said.group(2).split())
    for row in OPTIONS:
        assert row[1] in listed, row[1]


def test_the_readme_api_example_runs_on_micropython_too(micropython):
    """The rules core's API runs unchanged on MicroPython: the README says so of its example."""
    code = next(code for lang, code, line in blocks(ROOT / "README.md") if lang == "python")
    assert micropython(code + "\nprint('ran')", paths=[str(ROOT / "firmware")]).split() == ["ran"]
