"""The tray's hot loops as viper machine code, for the Pico: text, clearing, the panel's diff.

Loaded by font.py and display.py when the VM has the native emitter (the rp2 port: flash.sh
builds this one module for the Cortex-M0+). On CPython, in the WebAssembly build and on a VM
without the emitter the import fails and they use their own Python loops, which produce the
very same bytes: host_tests check those, and the emulated-Pico tier compares the Pico's
screens (drawn by these) with the host's.
"""

# ptr8, ptr16 and ptr32 are viper's own builtins: no Python name defines them.
# ruff: noqa: F821
# pyright: reportUndefinedVariable=false

import micropython


@micropython.viper
def draw_text(buf, w: int, h: int, s, x: int, y: int, scale: int, dark: int, glyphs, index,
              double, raised: int) -> int:
    """Draw s into buf, a MONO_VLSB frame of w x h pixels (h a multiple of 8), as
    font.text does (scale 1 or 2, ink only, clipped); return the x after it. index maps codes
    32..255 to glyph numbers (127's is the unknown box, drawn for any other code); s's bytes
    are UTF-8, a code above 127 two bytes of it. double doubles a nibble's bits (scale 2).
    Glyphs numbered raised and up, but for the box, are drawn a glyph row higher: their bit 0
    is the accent over the cell."""
    dst = ptr8(buf)
    src = ptr8(s)
    g = ptr8(glyphs)
    ix = ptr8(index)
    dbl = ptr8(double)
    pages = h >> 3
    n = int(len(s))
    p = 0
    for _ in range(n):
        code = src[p]
        p += 1
        if code >= 0xC0:  # a character's first UTF-8 byte: Latin-1 takes two (0xC2, 0xC3)
            code = ((code & 0x1F) << 6) | (src[p] & 0x3F)
            p += 1
            while (src[p] & 0xC0) == 0x80:  # longer: past Latin-1, the box
                code = 127
                p += 1
        box = ix[95]  # 127's: the box
        k = box
        if code >= 32 and code <= 255:
            k = ix[code - 32]
        gy = y
        if k >= raised and k != box:
            gy = y - scale
        shift = gy & 7
        top = gy >> 3
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
def zero(buf, n: int):
    """The first n bytes of buf set to 0, a word at a time (n a multiple of 4)."""
    w = ptr32(buf)
    for i in range(n >> 2):
        w[i] = 0


@micropython.viper
def plan_page(buf, shadow, out, ends, base: int, width: int, page: int, col0: int,
              gap_max: int, step: int, whole: int) -> int:
    """Lay out the transfers that bring one page of the panel from shadow to buf: for each
    span of changed bytes (a span runs on while the next change is within gap_max bytes of
    its last one; its width is rounded up to step and kept inside the page), out gets the
    4-byte command (page, column: col0 plus the span's first) then 0x40 and the span's bytes,
    which are copied into shadow too; ends[k] is the offset after span k in out. whole: the
    page as one span, changed or not. Returns the number of spans."""
    a = ptr8(buf)
    b = ptr8(shadow)
    o = ptr8(out)
    e = ptr16(ends)
    end = base + width
    i = base
    k = 0
    at = 0
    while i < end:
        if whole:
            first = base
            n = width
        else:
            while i < end and a[i] == b[i]:
                i += 1
            if i >= end:
                break
            first = i
            last = i
            i += 1
            while i < end and i - last <= gap_max:
                if a[i] != b[i]:
                    last = i
                i += 1
            n = (last - first + step) // step * step
            if n > width:
                n = width
            if first + n > end:
                first = end - n
        col = first - base + col0
        o[at] = 0x00  # panel.CTRL_CMD
        o[at + 1] = 0xB0 | page  # SET_PAGE
        o[at + 2] = col & 0x0F  # SET_COL_LO
        o[at + 3] = 0x10 | (col >> 4)  # SET_COL_HI
        o[at + 4] = 0x40  # CTRL_DATA
        at += 5
        for j in range(first, first + n):
            v = a[j]
            o[at] = v
            b[j] = v
            at += 1
        e[k] = at
        k += 1
        i = first + n
    return k
