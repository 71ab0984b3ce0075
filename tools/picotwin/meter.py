"""The twin's work meter: the pinned WebAssembly MicroPython with a counter of the C functions it
enters, so that the twin can charge the firmware's CPU work to its clock (picotwin/cost.py).

metered_wasm(folder) writes a copy of the build's micropython.wasm in which every function
defined in the module starts by adding the global `twin_on` (1, or 0 while the twin's own code
runs) to the global `twin_work`; both are exported, and vm.mjs reads them. The count is the
interpreter's own work, deterministic: the same firmware doing the same thing enters the same
functions, whatever the host's speed or load. Nothing else of the module changes: no
instruction moves but for the four added at the top of each function body (a function's code
offsets change, which only debug sections would mind; this build has none).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
WASM = (HERE.parent / "micropython" / "node_modules" / "@micropython"
        / "micropython-webassembly-pyscript" / "micropython.wasm")
WORK, ON = "twin_work", "twin_on"
_IMPORT, _GLOBAL, _EXPORT, _CODE = 2, 6, 7, 10
_GLOBAL_GET, _GLOBAL_SET, _I32_ADD, _I32_CONST, _END = 0x23, 0x24, 0x6A, 0x41, 0x0B
_I32, _MUTABLE = 0x7F, 1


def _uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_uleb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def _name(text: str) -> bytes:
    raw = text.encode()
    return _uleb(len(raw)) + raw


def _sections(data: bytes) -> list[tuple[int, bytes]]:
    if data[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    out, i = [], 8
    while i < len(data):
        sid = data[i]
        size, i = _read_uleb(data, i + 1)
        out.append((sid, data[i : i + size]))
        i += size
    return out


def _imported_globals(body: bytes) -> int:
    count, i = _read_uleb(body, 0)
    globals_ = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            n, i = _read_uleb(body, i)
            i += n
        kind = body[i]
        i += 1
        if kind == 0:  # a function: its type index
            _, i = _read_uleb(body, i)
        elif kind == 1:  # a table: its element type, then limits
            i += 1
            i = _skip_limits(body, i)
        elif kind == 2:  # a memory: limits
            i = _skip_limits(body, i)
        elif kind == 3:  # a global: its type and mutability
            i += 2
            globals_ += 1
        else:
            raise ValueError("unknown import kind %d" % kind)
    return globals_


def _skip_limits(body: bytes, i: int) -> int:
    flags = body[i]
    _, i = _read_uleb(body, i + 1)
    if flags & 1:
        _, i = _read_uleb(body, i)
    return i


def _vector(body: bytes) -> tuple[int, int]:
    """(count, offset of the first item) of a section that is one vector."""
    return _read_uleb(body, 0)


def instrument(data: bytes) -> bytes:
    """The module with the two globals and the count at each function's start."""
    sections = _sections(data)
    ids = [sid for sid, _ in sections]
    if _GLOBAL not in ids or _EXPORT not in ids or _CODE not in ids:
        raise ValueError("the module has no globals, exports or code section")
    imported = next((_imported_globals(b) for sid, b in sections if sid == _IMPORT), 0)
    out = [data[:8]]
    work = on = 0
    for sid, body in sections:
        if sid == _GLOBAL:
            count, i = _vector(body)
            work, on = imported + count, imported + count + 1
            body = (_uleb(count + 2) + body[i:]
                    + bytes([_I32, _MUTABLE, _I32_CONST]) + _uleb(0) + bytes([_END])
                    + bytes([_I32, _MUTABLE, _I32_CONST]) + _uleb(1) + bytes([_END]))
        elif sid == _EXPORT:
            count, i = _vector(body)
            body = (_uleb(count + 2) + body[i:] + _name(WORK) + bytes([3]) + _uleb(work)
                    + _name(ON) + bytes([3]) + _uleb(on))
        elif sid == _CODE:
            body = _count_calls(body, work, on)
        out.append(bytes([sid]) + _uleb(len(body)) + body)
    return b"".join(out)


def _count_calls(body: bytes, work: int, on: int) -> bytes:
    count, i = _vector(body)
    prologue = (bytes([_GLOBAL_GET]) + _uleb(work) + bytes([_GLOBAL_GET]) + _uleb(on)
                + bytes([_I32_ADD, _GLOBAL_SET]) + _uleb(work))
    out = [_uleb(count)]
    for _ in range(count):
        size, i = _read_uleb(body, i)
        end = i + size
        groups, j = _read_uleb(body, i)
        for _ in range(groups):  # the locals: (count, type) pairs
            _, j = _read_uleb(body, j)
            j += 1
        code = body[i:j] + prologue + body[j:end]
        out.append(_uleb(len(code)) + code)
        i = end
    return b"".join(out)


def metered_wasm(folder: Path) -> Path:
    """The metered build written in folder (once: a second call finds it there)."""
    path = Path(folder) / "micropython-metered.wasm"
    if not path.exists():
        path.write_bytes(instrument(WASM.read_bytes()))
    return path


__all__ = ["ON", "WASM", "WORK", "instrument", "metered_wasm"]
