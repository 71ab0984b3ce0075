"""What a board or a build holds, as plain data: the planner compares two of these."""

from __future__ import annotations

import hashlib
from typing import NamedTuple


class Entry(NamedTuple):
    """A file or a folder, on the board or in the build: as pico_usb's LIST_PY prints it."""

    kind: str  # "F" or "D"
    size: int = 0
    sha256: str = "-"


Listing = dict[str, Entry]  # absolute path on the board -> what is there
FOLDER = Entry("D")


def kind(listing: Listing, path: str) -> str | None:
    """"F" or "D" at path, or None when nothing is there."""
    return listing[path].kind if path in listing else None


def file_entry(data: bytes) -> Entry:
    return Entry("F", len(data), hashlib.sha256(data).hexdigest())
