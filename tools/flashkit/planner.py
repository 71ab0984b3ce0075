"""The plan: the steps that make a board hold the build, from two listings (pure: no board, no
files). Only the tray's paths are touched (the build's top level: /main.py, /dicetray), never a
save."""

from __future__ import annotations

from typing import NamedTuple

from flashkit.exits import E_SETUP, FlashError
from flashkit.listing import Entry, Listing, kind

MAIN = "/main.py"  # copied last: a first flash cut short leaves a board that boots to the REPL
# The store's files, never removed: these names anywhere, and at the root any name starting with
# one of the prefixes (a game.bad.1 from a newer store, say).
SAVES = frozenset(
    "game.json game.now settings.json error.log error.old game.bad game.now.bad game.tmp"
    " settings.tmp tally.json tally.tmp tally.bad".split())
SAVE_PREFIXES = ("game.", "settings.", "error.", "tally.")


class Step(NamedTuple):
    """One thing to do on the board. action: rm, rmtree, mkdir, cp, rmdir; "same" and "keep"
    change nothing; "stuck" stops the run (a save is in the way)."""

    action: str
    path: str
    reason: str = ""


def is_save(path: str) -> bool:
    folder, _, name = path.rpartition("/")
    return name in SAVES or (folder == "" and name.startswith(SAVE_PREFIXES))


def holds_save(board: Listing, path: str) -> bool:
    """A save is at path, or in the folder at path."""
    if board[path].kind == "F":
        return is_save(path)
    return any(p.startswith(path + "/") and is_save(p) and e.kind == "F"
               for p, e in board.items())


def tray_roots(build: Listing) -> set[str]:
    """The paths the tray owns on the board: the build's top level (/main.py, /dicetray)."""
    return {"/" + path.split("/")[1] for path in build}


def owned(path: str, roots: set[str]) -> bool:
    return path in roots or any(path.startswith(root + "/") for root in roots)


def plan(build: Listing, board: Listing) -> list[Step]:
    """The steps that make the board hold the build, in the order to run them.

    What is in the way goes first (shadowing .py files too), then new folders, then the copies
    (main.py last, so an update never runs a new main.py on old modules), then the tray's files
    and folders the build no longer has (a foo.mpy where foo.py goes too: the .py is imported
    first meanwhile). Only the tray's paths (the build's top level) are touched, never a save.
    """
    roots = tray_roots(build)
    steps = in_the_way(build, board)
    steps += [Step("mkdir", p, "new") for p, e in sorted(build.items())
              if e.kind == "D" and kind(board, p) != "D"]
    steps += shadows(build, board, roots)
    files = sorted((p for p, e in build.items() if e.kind == "F"), key=lambda p: (p == MAIN, p))
    steps += [copy_step(p, build[p], board.get(p)) for p in files]
    gone = {s.path for s in steps if s.action in ("rm", "rmtree")}
    return steps + leftovers(build, board, gone, roots)


def in_the_way(build: Listing, board: Listing) -> list[Step]:
    """A board file where the build has a folder, or a folder where it has a file."""
    steps = []
    for path, entry in sorted(build.items()):
        there = board.get(path)
        if there is None or there.kind == entry.kind:
            continue
        is_file = there.kind == "F"
        goes = " where a folder goes" if is_file else " where a file goes"
        if holds_save(board, path):
            held = "a save file" if is_file else "a folder holding a save file"
            steps.append(Step("stuck", path, held + goes))
        else:
            steps.append(Step("rm" if is_file else "rmtree", path,
                              ("a file" if is_file else "a folder") + goes))
    return steps


def shadows(build: Listing, board: Listing, roots: set[str]) -> list[Step]:
    """The tray's foo.py files that MicroPython would import instead of the build's foo.mpy."""
    steps = []
    for path, there in sorted(board.items()):
        mpy = path.removesuffix(".py") + ".mpy"
        if (there.kind == "F" and path.endswith(".py") and path not in build
                and owned(path, roots) and not is_save(path) and kind(build, mpy) == "F"):
            steps.append(Step("rm", path, "would shadow " + mpy.rpartition("/")[2]))
    return steps


def leftovers(build: Listing, board: Listing, gone: set[str], roots: set[str]) -> list[Step]:
    """The tray's files and folders the build no longer has: removed, but the saves stay."""

    def stale(path):
        return (path not in build and owned(path, roots) and path not in gone
                and not any(path.startswith(g + "/") for g in gone))

    def why(path):
        if is_save(path):
            return "a save file"
        source = path.removesuffix(".mpy") + ".py"  # a module that goes as source here
        if path.endswith(".mpy") and kind(build, source) == "F":
            return source.rpartition("/")[2] + " goes instead"
        return gone_why

    gone_why = "not part of this firmware"
    steps = [Step("keep" if is_save(path) else "rm", path, why(path))
             for path, there in sorted(board.items()) if there.kind == "F" and stale(path)]
    return steps + [Step("rmdir", p, gone_why)
                    for p, e in sorted(board.items(), reverse=True)  # the deepest folders first
                    if e.kind == "D" and stale(p) and not holds_save(board, p)]


def copy_step(path: str, entry: Entry, there: Entry | None) -> Step:
    if there is None or there.kind != "F":
        return Step("cp", path, "new")
    if there != entry:
        return Step("cp", path, "changed")
    return Step("same", path)


def changes(steps: list[Step]) -> list[Step]:
    return [step for step in steps if step.action not in ("same", "keep")]


def describe(step: Step) -> str:
    """One step as people read it."""
    if step.action == "mkdir":
        return f"mkdir   {step.path}/"
    verb = {"keep": "keep", "cp": "copy"}.get(step.action, "remove")
    slash = "/" if step.action == "rmdir" else ""
    return f"{verb:<8}{step.path}{slash} ({step.reason})"


def refuse_stuck(steps: list[Step]):
    for step in steps:
        if step.action == "stuck":
            raise FlashError(E_SETUP, f"{step.path} on the board is {step.reason}; move that "
                             "save out of the way by hand.")


def plan_text(port: str, steps: list[Step]) -> list[str]:
    same = sum(step.action == "same" for step in steps)
    return [f"Plan for {port}:", *("  " + describe(s) for s in steps if s.action != "same"),
            f"  {same} file(s) already up to date"]
