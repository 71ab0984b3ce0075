"""Running the plan on a board: check it, print the plan, copy and remove, read it all back to
verify, reset. Every call to the board goes through pico_usb.Board."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path

from flashkit.build import MpyCross, build_tray
from flashkit.checks import check_board, refuse_running_game, unanswered
from flashkit.exits import E_COPY, E_NO_ANSWER, E_VERIFY, SAFE_MODE, FlashError
from flashkit.listing import Listing
from flashkit.native import for_board
from flashkit.pico_usb import Board, BoardError, BoardRaised, Garbled, Usb
from flashkit.planner import (
    Step,
    changes,
    describe,
    plan,
    plan_text,
    refuse_stuck,
    tray_roots,
)


def run(usb: Usb, port: str, firmware: Path, dry_run: bool):
    """Build firmware, open the board on port and update it (see update)."""
    with tempfile.TemporaryDirectory(prefix="dicetray-flash.") as tmp:
        build_dir = Path(tmp)
        listing, cross = build_tray(firmware, build_dir)
        try:
            board = usb.connect(port)
        except BoardError as exc:
            raise unanswered(port, exc) from None
        try:
            update(board, port, listing, cross, build_dir, dry_run)
        finally:
            board.close()


def update(board: Board, port: str, build: Listing, cross: MpyCross, build_dir: Path,
           dry_run: bool):
    """Check the board, print the plan, and (unless dry_run) run it, verify it and reset."""
    probe = check_board(board, port, cross)
    build, natives = for_board(build, build_dir, probe)
    print(f"Built {sum(e.kind == 'F' for e in build.values())} files from firmware/ with "
          f"{cross.label}")
    for line in natives:
        print(line)
    roots = tray_roots(build)
    before = read_listing(board, port, roots)
    steps = plan(build, before)
    refuse_stuck(steps)
    print("\n".join(plan_text(port, steps)))
    todo = len(changes(steps))
    if dry_run:
        if probe.watchdog and todo:
            print("Note: the tray's game is running (watchdog on): start it in safe mode before "
                  "the real run.")
        print(f"Dry run: nothing was changed on the board ({todo} step(s) would run).")
        return
    if not todo:
        print("The board already has this firmware: nothing to copy.")
    else:
        refuse_running_game(probe, port)
        apply(board, steps, build_dir, before, port)
        verify(board, port, build, roots)
    reset(board)


def read_listing(board: Board, port: str, roots: Iterable[str]) -> Listing:
    """What the board holds at roots; a board that stops answering stops the run."""
    try:
        return board.listing(roots)
    except (BoardRaised, Garbled) as exc:
        raise unanswered(port, exc) from None
    except BoardError:
        raise FlashError(E_NO_ANSWER, f"the board on {port} stopped answering while listing "
                         "its files.", "If the tray is installed, its game may be running with "
                         "its watchdog on:", *SAFE_MODE) from None


def apply(board: Board, steps: list[Step], build_dir: Path, before: Listing, port: str):
    """Run the plan's changes on the board; a failure part-way stops with E_COPY."""
    try:
        for step in changes(steps):
            if step.action == "cp":
                board.write(step.path, (build_dir / step.path.lstrip("/")).read_bytes())
            elif step.action == "rmtree":
                for path in sorted((p for p in before if p.startswith(step.path + "/")),
                                   reverse=True):  # a folder's contents before the folder
                    (board.rmdir if before[path].kind == "D" else board.remove)(path)
                board.rmdir(step.path)
            else:
                {"mkdir": board.mkdir, "rm": board.remove, "rmdir": board.rmdir}[step.action](
                    step.path)
    except BoardError as exc:
        raise FlashError(
            E_COPY, f"copying to {port} stopped part-way: {exc}.",
            "Run tools/flash.sh again: it sends only what is still missing or different, so it",
            "finishes the job. The saves on the board were not touched. If the board stops "
            "answering:", *SAFE_MODE) from None


def verify(board: Board, port: str, build: Listing, roots: set[str]):
    """Read the board back: what the plan still finds to do is what did not land."""
    print("Checking what landed ...")
    left = changes(plan(build, read_listing(board, port, roots)))
    if left:
        raise FlashError(E_VERIFY, "the board does not hold the build after copying; still to "
                         "do:", *map(describe, left), "Run tools/flash.sh again; if this keeps "
                         "happening, the board's flash may be full or worn.")
    print("Verified: every file on the board matches the build.")


def reset(board: Board):
    """Restart the board into the tray; a failed reset only needs a replug."""
    try:
        board.reset()
        print("Done: the board restarts as the dice tray.")
    except BoardError:
        print("Done, but the reset failed: unplug the tray and plug it back in to start it.")
