"""The app's fields are its own, and the clock's are the clock's: the screen units, the boot and
the seats change them through their methods (show, tell, play, needs_save...; say, land...),
never by assigning them. Read from the firmware's source, so a new module is held to it too."""

import ast
import os

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "firmware", "dicetray")


def assigned_fields(path):
    """(line, owner, field) of each field assigned through app. or .clock. in the file."""
    with open(path) as f:
        tree = ast.parse(f.read())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for t in ast.walk(target):
                if not isinstance(t, ast.Attribute) or not isinstance(t.ctx, ast.Store):
                    continue
                owner = t.value
                if isinstance(owner, ast.Name) and owner.id == "app":
                    found.append((t.lineno, "app", t.attr))
                elif isinstance(owner, ast.Attribute) and owner.attr == "clock":
                    found.append((t.lineno, "clock", t.attr))
    return found


def test_the_finder_sees_an_assignment_to_an_app_or_a_clock_field(tmp_path):
    path = tmp_path / "unit.py"
    path.write_text("def f(app, x):\n    app.dirty = True\n    x.clock.mark, y = None, 1\n"
                    "    app.unsaved |= 1\n    app.show(1)\n")
    assert assigned_fields(path) == [(2, "app", "dirty"), (3, "clock", "mark"),
                                     (4, "app", "unsaved")]


def test_no_module_assigns_a_field_of_the_app_or_of_its_clock():
    for name in sorted(os.listdir(FIRMWARE)):
        if name.endswith(".py"):
            found = assigned_fields(os.path.join(FIRMWARE, name))
            assert found == [], "%s assigns %r: ask through a method" % (name, found)
