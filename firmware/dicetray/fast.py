"""The tray's hot loops as viper machine code, for the Pico: text and the panel's diff.

Loaded by font.py and display.py when the VM has the native emitter (the rp2 port: flash.sh
builds this one module for the Cortex-M0+). On CPython, in the WebAssembly build and on a VM
without the emitter the import fails and they use their own Python loops, which produce the
very same bytes: host_tests check those, and the emulated-Pico tier compares the Pico's
screens (drawn by these) with the host's.
"""

# ptr8 is viper's own builtin: no Python name defines it.
# ruff: noqa: F821
# pyright: reportUndefinedVariable=false

import micropython


@micropython.viper
def draw_text(buf, w: int, h: int, s, x: int, y: int, scale: int, dark: int, glyphs, index,
              double) -> int:
    """Draw s into buf, a MONO_VLSB frame of w x h pixels (h a multiple of 8), as
    font.text does (scale 1 or 2, ink only, clipped); return the x after it. index maps codes
    32..126 to glyph numbers, the rest glyph 64 (one for a character's UTF-8 bytes); double
    doubles a nibble's bits (scale 2)."""
    dst = ptr8(buf)
    src = ptr8(s)
    g = ptr8(glyphs)
    ix = ptr8(index)
    dbl = ptr8(double)
    pages = h >> 3
    shift = y & 7
    top = y >> 3
    n = int(len(s))
    p = 0
    for _ in range(n):
        code = src[p]
        p += 1
        k = 64
        if code >= 32 and code <= 126:
            k = ix[code - 32]
        elif code >= 0xC0:
            while (src[p] & 0xC0) == 0x80:
                p += 1
        k *= 5
        for c in range(5):
            b = g[k + c]
            for r in range(scale):
                dx = x + c * scale + r
                if dx < 0 or dx >= w:
                    continue
                for part in range(scale):
                    v = b
                    if scale == 2:
                        if part == 0:
                            v = dbl[b & 15]
                        else:
                            v = dbl[b >> 4]
                    pg = top + part
                    lo = (v << shift) & 0xFF
                    hi = v >> (8 - shift)
                    if lo and pg >= 0 and pg < pages:
                        if dark:
                            dst[pg * w + dx] = dst[pg * w + dx] & (0xFF ^ lo)
                        else:
                            dst[pg * w + dx] = dst[pg * w + dx] | lo
                    pg += 1
                    if hi and pg >= 0 and pg < pages:
                        if dark:
                            dst[pg * w + dx] = dst[pg * w + dx] & (0xFF ^ hi)
                        else:
                            dst[pg * w + dx] = dst[pg * w + dx] | hi
        x += 6 * scale
    return x


@micropython.viper
def next_span(buf, shadow, i: int, end: int, gap_max: int) -> int:
    """The next span of changed bytes at or after i, before end: first * 2048 + last, or -1.
    A span runs on while the next change is within gap_max bytes of its last one."""
    a = ptr8(buf)
    b = ptr8(shadow)
    while i < end and a[i] == b[i]:
        i += 1
    if i >= end:
        return -1
    first = i
    last = i
    i += 1
    while i < end and i - last <= gap_max:
        if a[i] != b[i]:
            last = i
        i += 1
    return first * 2048 + last
