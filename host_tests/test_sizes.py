"""The house's sizes: every firmware module a room a newcomer reads whole (at most MODULE_LINES
lines), every class one job (at most CLASS_LINES lines, its docstring and comments included).
A room that grows past them is split by job (docs/architecture.md's module list)."""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
MODULE_LINES = 450
CLASS_LINES = 250


def modules():
    return sorted(FIRMWARE.rglob("*.py"))


def test_no_firmware_module_is_over_450_lines():
    long = {p.name: n for p in modules() if (n := len(p.read_text().splitlines())) > MODULE_LINES}
    assert long == {}, "split these by job"


def test_no_firmware_class_is_over_250_lines():
    long = {}
    for p in modules():
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ClassDef):
                n = node.end_lineno - node.lineno + 1  # pyright: ignore[reportOptionalOperand]
                if n > CLASS_LINES:
                    long[p.name + ":" + node.name] = n
    assert long == {}, "move what is not the class's job to the room of its job"


def test_the_sizes_are_measured_on_the_firmware():
    # Both tests above read the real tree: its rooms are there, and a long one is seen.
    names = {p.name for p in modules()}
    assert {"app.py", "game.py", "strategy.py"} <= names
    assert max(len(p.read_text().splitlines()) for p in modules()) > 200
