"""A page of the panel's transfers laid out in Python, as dicetray.fast's machine code does it.

display.py uses this where there is no native emitter (CPython, the WebAssembly build): the
same bytes, which host_tests and the emulated-Pico tier check. On the Pico it is never loaded.
"""

from dicetray.panel import CTRL_CMD, CTRL_DATA, SET_COL_HI, SET_COL_LO, SET_PAGE


def next_span(buf, shadow, i, end, gap_max):
    """The next span of bytes of buf that differ from shadow at or after i, before end, as
    first * 2048 + last, or -1; a span runs on while the next change is within gap_max bytes
    of its last one. Clean runs are skipped gap_max bytes at a time by one C compare, and only
    a changed window is looked at byte by byte."""
    a = memoryview(buf)
    b = memoryview(shadow)
    while True:
        if i >= end:
            return -1
        top = min(i + gap_max, end)
        if a[i:top] != b[i:top]:
            break
        i = top
    while buf[i] == shadow[i]:
        i += 1
    first = last = i
    while True:  # the window of gap_max bytes after last: one more change there extends it
        top = min(last + 1 + gap_max, end)
        if a[last + 1 : top] == b[last + 1 : top]:
            return first * 2048 + last
        last += 1
        while buf[last] == shadow[last]:
            last += 1


def plan_page(buf, shadow, out, ends, base, width, page, col0, gap_max, step, whole):
    """fast.plan_page in Python: the same bytes in out, shadow and ends. A whole page is
    copied a byte at a time, as the idle keepalive sends it, for a slice would allocate; a
    press's spans are copied by slices, in C."""
    end = base + width
    i = base
    k = at = 0
    while i < end:
        if whole:
            first, n = base, width
        else:
            span = next_span(buf, shadow, i, end, gap_max)
            if span < 0:
                break
            first, last = span >> 11, span & 2047
            n = min((last - first + step) // step * step, width)
            first = min(first, end - n)
        col = first - base + col0
        out[at] = CTRL_CMD
        out[at + 1] = SET_PAGE | page
        out[at + 2] = SET_COL_LO | (col & 0x0F)
        out[at + 3] = SET_COL_HI | (col >> 4)
        out[at + 4] = CTRL_DATA
        at += 5
        if whole:
            for j in range(first, end):
                v = buf[j]
                out[at] = v
                shadow[j] = v
                at += 1
        else:
            out[at : at + n] = shadow[first : first + n] = memoryview(buf)[first : first + n]
            at += n
        ends[k] = at
        k += 1
        i = first + n
    return k
