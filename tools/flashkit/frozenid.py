"""The build id of the tray's package: one hash of firmware/dicetray's sources, the same whether
the package is frozen into a firmware (tools/frozen/manifest.py) or flashed as .mpy files."""

from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE = "dicetray"
MODULE = "dicetray_build"  # the frozen module that carries the id: ID = "..."


def sources(firmware: Path) -> list[Path]:
    """The package's .py files, in a fixed order (the ones a manifest's package() freezes)."""
    return sorted(p for p in (firmware / PACKAGE).rglob("*.py")
                  if "__pycache__" not in p.parts)


def source_id(firmware: Path) -> str:
    """16 hex digits of a sha256 over each source's path (relative to firmware/) and bytes."""
    digest = hashlib.sha256()
    for path in sources(firmware):
        data = path.read_bytes()
        digest.update(b"%s\0%d\0" % (path.relative_to(firmware).as_posix().encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()[:16]


def id_module(build_id: str) -> str:
    """The source of the frozen module that tells flash.sh which sources the firmware holds."""
    return (f'"""The dice tray frozen into this firmware: its sources\' build id."""\n\n'
            f'ID = "{build_id}"\n')
