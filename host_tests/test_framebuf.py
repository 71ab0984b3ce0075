"""The host's framebuf stand-in draws the very bytes MicroPython's framebuf draws."""

import json
import random

import pytest
import trayhost.framebuf as standin

SIZES = ((128, 64), (128, 32), (13, 11))  # 11 rows: a last page only partly there

# The same text runs on both VMs: ops in, a hex snapshot of the buffer every SNAP ops out.
DRAW = """
def draw(framebuf, width, height, ops, snap):
    buf = bytearray(width * ((height + 7) // 8))
    fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    out = []
    for i, op in enumerate(ops):
        name, args = op[0], op[1:]
        if name == "get":
            out.append(fb.pixel(*args))
        elif name == "blit":  # a strip of bytes, as the font blits a string, key, palette
            cell = bytearray(bytes.fromhex(args[0]))
            src = framebuf.FrameBuffer(cell, args[1], args[2], framebuf.MONO_VLSB)
            if args[6] is None:
                fb.blit(src, args[3], args[4], args[5])
            else:  # two colours: what 0 and 1 are drawn as
                pal = framebuf.FrameBuffer(bytearray(args[6]), 2, 1, framebuf.MONO_VLSB)
                fb.blit(src, args[3], args[4], args[5], pal)
        else:
            getattr(fb, name)(*args)
        if i % snap == snap - 1:
            out.append(bytes(buf).hex())
    out.append(bytes(buf).hex())
    return out
"""


def random_ops(width, height, n, seed):
    rng = random.Random(seed)

    def x():
        return rng.randint(-10, width + 10)

    def y():
        return rng.randint(-10, height + 10)

    def size(limit):
        return rng.choice((rng.randint(-3, 3), rng.randint(0, limit)))

    ops = []
    for _ in range(n):
        kind = rng.choice(("pixel", "pixel", "get", "fill_rect", "fill_rect", "rect", "fill",
                           "blit"))
        c = rng.randint(0, 1)
        if kind == "blit":  # one line (a 5x8 glyph or a string), two (scale-2 text), a die
            die = rng.choice((12, 13, 20))  # draw.die's images: a last page partly there
            sw, sh = rng.choice(((5, 8), (rng.randint(1, 40), 8), (rng.randint(1, 40), 16),
                                 (die, die)))
            cells = bytes(rng.randrange(256) for _ in range(sw * ((sh + 7) // 8))).hex()
            pal = rng.choice((None, None, [1, 0], [0, 1], [0, 0], [1, 1]))
            ops.append(["blit", cells, sw, sh, x(), y(), rng.choice((-1, 0, 1)), pal])
        elif kind == "pixel":
            ops.append(["pixel", x(), y(), c])
        elif kind == "get":
            ops.append(["get", x(), y()])
        elif kind == "fill":
            ops.append(["fill", c] if rng.random() < 0.1 else ["pixel", x(), y(), c])
        else:
            ops.append([kind, x(), y(), size(width + 4), size(height + 4), c])
    return ops


CASES = [[w, h, random_ops(w, h, 300, seed)] for seed, (w, h) in enumerate(SIZES)]


def test_the_stand_in_is_framebuf_on_cpython():
    import framebuf

    assert framebuf is standin


def test_a_short_drawing_reads_back():
    buf = bytearray(16 * 2)
    fb = standin.FrameBuffer(buf, 16, 12, standin.MONO_VLSB)
    fb.fill(1)
    fb.rect(2, 3, 5, 6, 0)
    fb.fill_rect(-4, -4, 6, 5, 0)
    assert fb.pixel(2, 3) == 0 and fb.pixel(3, 4) == 1 and fb.pixel(6, 8) == 0
    assert fb.pixel(1, 0) == 0 and fb.pixel(2, 0) == 1
    assert fb.pixel(16, 0) is None and fb.pixel(0, -1) is None
    assert buf[16 + 15] == 0x0F  # rows 8..11 of the last column lit, 12..15 outside
    with pytest.raises(ValueError):
        standin.FrameBuffer(bytearray(15), 16, 8, standin.MONO_VLSB)


def test_micropython_framebuf_draws_the_same_bytes(micropython):
    script = DRAW + "import framebuf, json\nCASES = json.loads(%r)\n" % json.dumps(CASES)
    script += "print(json.dumps([draw(framebuf, w, h, ops, 20) for w, h, ops in CASES]))\n"
    theirs = json.loads(micropython(script).strip().splitlines()[-1])
    ns = {}
    exec(DRAW, ns)
    for (w, h, ops), got in zip(CASES, theirs, strict=True):
        mine = ns["draw"](standin, w, h, ops, 20)
        assert mine == got, (w, h)
