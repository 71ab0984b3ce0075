"""The README and every other page of the docs as a reader uses them: every code example runs as
written, every command names a real script and only options it takes, every relative link and
anchor leads somewhere, and the module lists match the tree."""

import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Folders of the tree that hold no page of ours: installed packages, builds, caches.
NOT_OURS = {"node_modules", "typings", "build", "dicetray.egg-info", "__pycache__"}


def markdown_files():
    """Every .md file of the repository, installed packages and hidden folders left out."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in NOT_OURS)
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".md")]
    return found


DOCS = markdown_files()
FIRMWARE = ROOT / "firmware" / "dicetray"
README = ROOT / "README.md"
PLAYING = ROOT / "docs" / "playing.md"
DEVELOPING = ROOT / "docs" / "developing.md"
RULES = ROOT / "docs" / "rules.md"
# Commands cheap enough to run whole here; the others (the simulator in a terminal, flashing a
# board, the benches) are held to their script and its --help.
RUN_WHOLE = ("tools/gamelog.py ", "tools/run.sh --headless ")
COMMAND = re.compile(r"(\.venv/bin/\w+ |python3? )?(tools/|\.\./shared/)")


def name(doc):
    return str(doc.relative_to(ROOT))


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
    assert start is None, "%s: a block opened at line %d is never closed" % (name(doc), start)
    return found


def python_examples():
    return [pytest.param(code, id="%s:%d" % (name(doc), line))
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
                found += [("%s:%d" % (name(doc), line + 1 + n), cmd) for n, cmd in lines]
        for m in re.finditer(r"`((?:\.venv/bin/python |python3? )?tools/[^`]*)`", text):
            found.append(("%s:%d" % (name(doc), text.count("\n", 0, m.start()) + 1),
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


def section(doc, heading):
    """The text of doc under heading, up to the next heading."""
    text = doc.read_text()
    start = text.index("\n%s\n" % heading) + len(heading) + 2
    end = re.search(r"^#", text[start:], re.M)
    return text[start:start + end.start()] if end else text[start:]


def test_the_took_it_back_example_ends_as_if_the_stop_never_happened():
    """The player's guide's undo example (run whole above too) ends on the screen of the same
    keys without the stop and its undo (OK, then OK held and KEEP1)."""
    para = section(PLAYING, "### Taking back a slip")
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


# ---- the pages and their readers -------------------------------------------------------------


def test_every_page_but_the_front_one_says_who_it_is_for_in_its_first_line():
    for doc in DOCS:
        if doc != README:
            first = doc.read_text().splitlines()[0]
            assert first.startswith("# "), name(doc)
            assert re.search(r"\b(players?|makers?|developers?)\b", first), name(doc)


def test_the_front_page_is_short_with_the_keys_near_its_top():
    """At most 200 lines; the buttons' table within the first 80; the French players' summary
    one link away."""
    lines = README.read_text().splitlines()
    assert len(lines) <= 200
    keys = next(n for n, line in enumerate(lines, 1) if line.startswith("| screen | KEEP"))
    assert keys + 10 <= 80  # its head, its rule and a row per kind of screen
    assert "docs/playing.md#en-bref-pour-les-joueurs" in [target for n, target in links(README)]
    assert "#### En bref, pour les joueurs" in PLAYING.read_text()


# Each command's --help, and the guide (a page and its heading) that explains it.
GUIDES = {"tools/run.sh": PLAYING, "tools/test.sh": DEVELOPING}


@pytest.mark.parametrize("script", sorted(GUIDES))
def test_the_help_of_each_command_points_to_its_guide(script):
    said = help_text([script])
    pointed = re.findall(r"docs/[a-z]+\.md#[-\w]+", said)
    assert pointed, "%s --help names no guide" % script
    for target in pointed:
        assert broken(ROOT / "README.md", target) is None, target
        assert target.startswith(name(GUIDES[script]) + "#"), target


# ---- links ----------------------------------------------------------------------------------


def prose(doc, code=False):
    """doc's lines, (number, text), but its fenced blocks; its inline code spans blanked unless
    code (a heading's anchor keeps their text)."""
    kept, inside = [], False
    for n, line in enumerate(doc.read_text().splitlines(), 1):
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            kept.append((n, line if code else re.sub(r"`[^`]*`", "", line)))
    return kept


def slug(heading):
    """The anchor GitHub gives a heading: lower case, spaces to hyphens, and of the rest only
    letters, digits, marks, hyphens and underscores kept."""
    kept = [c for c in heading.strip().lower()
            if c in " -_" or unicodedata.category(c)[0] in "LNM"]
    return "".join(kept).replace(" ", "-")


def anchors(doc):
    """The anchors of doc's headings (a repeated one numbered -1, -2, ... as GitHub does)."""
    found = set()
    for _n, line in prose(doc, code=True):
        heading = re.match(r"#{1,6} (.*)", line)
        if heading:
            base = slug(heading.group(1))
            anchor, count = base, 0
            while anchor in found:
                count += 1
                anchor = "%s-%d" % (base, count)
            found.add(anchor)
    return found


def links(doc):
    """(line, target) of each link and picture in doc's prose: [text](target), ![alt](target)."""
    return [(n, m.group(1)) for n, line in prose(doc)
            for m in re.finditer(r"\]\(([^)\s]+)\)", line)]


def broken(doc, target):
    """Why target, a link written in doc, leads nowhere; None where it resolves."""
    if re.match(r"[a-z]+:", target):
        return None  # another site's address: not ours to check here
    path, _, anchor = target.partition("#")
    page = (doc.parent / path).resolve() if path else doc
    if not page.exists():
        return "no file %s" % path
    if anchor and (page.suffix != ".md" or anchor not in anchors(page)):
        return "no heading #%s in %s" % (anchor, page.name)
    return None


@pytest.mark.parametrize("doc", [pytest.param(d, id=name(d)) for d in DOCS])
def test_every_relative_link_and_anchor_resolves(doc):
    bad = ["%s:%d: %s (%s)" % (name(doc), n, target, broken(doc, target))
           for n, target in links(doc) if broken(doc, target)]
    assert bad == []


def test_a_broken_link_or_anchor_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Où jouer, et comment\n\n## `--web`: the page\n\nsee [here](#web-the-page)\n"
                    "```\n[a drawing](nowhere.md)\n```\n")
    assert anchors(page) == {"où-jouer-et-comment", "--web-the-page"}
    assert links(page) == [(5, "#web-the-page")]
    assert broken(page, "#web-the-page") == "no heading #web-the-page in page.md"
    assert broken(page, "#--web-the-page") is None
    assert broken(page, "#où-jouer-et-comment") is None
    assert broken(page, "other.md") == "no file other.md"
    assert broken(page, "https://micropython.org/download/") is None


# ---- the module lists -------------------------------------------------------------------------


def firmware_modules():
    return {p.name for p in FIRMWARE.glob("*.py") if p.name != "__init__.py"}


def named_modules(text):
    return set(re.findall(r"([a-z_][a-z0-9_]*\.py)\b", text))


def the_tree():
    """The drawing of the tree in the developer's guide."""
    part = section(DEVELOPING, "## The tree")
    return next(body for lang, body, line in blocks(DEVELOPING)
                if body in part and "firmware/" in body)


def architecture_table():
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index("## Modules, one line each")
    return text[start:text.index("\n## ", start + 1)]


def tool_modules():
    """The tools' packages' modules by name (the tree may drop the .py)."""
    return {p.stem for package in (ROOT / "tools").glob("*/__init__.py")
            for p in package.parent.glob("*.py") if p.name != "__init__.py"}


def test_the_developers_tree_names_every_tool_module_and_no_other():
    """The tools' modules are drawn in the developer's guide's tree; the firmware's have their
    line each in the architecture page's table (below), not again in the tree."""
    tree = the_tree()
    named = named_modules(tree)
    words = set(re.findall(r"[a-z_][a-z0-9_]*", tree))
    assert tool_modules() - words == set(), "tools' modules the developer's tree leaves out"
    real = {p.name for p in (ROOT / "firmware").rglob("*.py")} | {
        p.name for p in (ROOT / "tools").rglob("*.py") if "node_modules" not in p.parts}
    assert named - real == set(), "modules the developer's tree names and the tree has not"


def test_the_architecture_page_names_every_firmware_module_and_no_other():
    # The cells before a row's last (its job): the module's, after its family's.
    rows = [" ".join(line.split("|")[1:-2]) for line in architecture_table().splitlines()
            if line.startswith("|") and "`" in line]
    named = named_modules(" ".join(rows))
    assert firmware_modules() - named == set(), "modules the table leaves out"
    assert named - firmware_modules() - {"main.py"} == set(), "modules the table names in vain"


def test_the_rules_page_names_every_option_by_its_setup_label():
    from dicetray.options import OPTIONS

    text = RULES.read_text()
    said = re.search(r"The (\d+) options, by their setup labels: (.*?)\.\n", text, re.S)
    assert said, "the rules page's list of options is gone"
    assert int(said.group(1)) == len(OPTIONS)
    listed = " ".join(said.group(2).split())
    for row in OPTIONS:
        assert row[1] in listed, row[1]


def test_the_api_example_runs_on_micropython_too(micropython):
    """The rules core's API runs unchanged on MicroPython: the developer's guide says so of its
    example."""
    assert "runs this example on\nboth" in section(DEVELOPING, "## The rules core's API")
    code = next(code for lang, code, line in blocks(DEVELOPING) if lang == "python")
    assert micropython(code + "\nprint('ran')", paths=[str(ROOT / "firmware")]).split() == ["ran"]
