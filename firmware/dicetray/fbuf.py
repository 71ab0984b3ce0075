"""Pure-Python stand-in for MicroPython's ``framebuf`` (MONO_VLSB only), used where it is missing.

MicroPython has ``framebuf`` built in; CPython does not, so ``display.py`` falls back to this
module there. The API is the same as ``framebuf.FrameBuffer`` for what the dice tray draws:
``fill``, ``pixel``, ``hline``, ``vline``, ``line``, ``rect``, ``fill_rect``, ``ellipse``,
``text``, ``blit`` and ``scroll``, with the same argument order, defaults and clipping. Geometry
is pixel for pixel the same as the real module (checked against MicroPython 1.27's framebuf on
random calls); ``poly`` is not provided.

One deliberate difference: ``text`` uses this module's own 8x8 font (5x7 glyphs, one blank
column on the left, descenders in the bottom row), not MicroPython's built-in font. Both advance
8 pixels per character and draw only the "on" pixels, so layouts match but glyph pixels do not:
tests must not compare rendered text between CPython and MicroPython pixel for pixel.
"""

MONO_VLSB = 0  # the only format this stand-in implements
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# 5 column bytes per glyph (bit 0 = top row) for ASCII 32..127; 127 is the "unknown" box.
_FONT = (
    b"\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x07\x00\x07\x00\x14\x7f\x14\x7f\x14"
    b"\x24\x2a\x7f\x2a\x12\x23\x13\x08\x64\x62\x36\x49\x55\x22\x50\x00\x04\x03\x00\x00"
    b"\x00\x1c\x22\x41\x00\x00\x41\x22\x1c\x00\x14\x08\x3e\x08\x14\x08\x08\x3e\x08\x08"
    b"\x00\xa0\x60\x00\x00\x08\x08\x08\x08\x08\x00\x60\x60\x00\x00\x20\x10\x08\x04\x02"
    b"\x3e\x51\x49\x45\x3e\x00\x42\x7f\x40\x00\x42\x61\x51\x49\x46\x21\x41\x45\x4b\x31"
    b"\x18\x14\x12\x7f\x10\x27\x45\x45\x45\x39\x3c\x4a\x49\x49\x30\x01\x71\x09\x05\x03"
    b"\x36\x49\x49\x49\x36\x06\x49\x49\x29\x1e\x00\x36\x36\x00\x00\x00\x56\x36\x00\x00"
    b"\x08\x14\x22\x41\x00\x14\x14\x14\x14\x14\x00\x41\x22\x14\x08\x02\x01\x51\x09\x06"
    b"\x32\x49\x79\x41\x3e\x7e\x11\x11\x11\x7e\x7f\x49\x49\x49\x36\x3e\x41\x41\x41\x22"
    b"\x7f\x41\x41\x22\x1c\x7f\x49\x49\x49\x41\x7f\x09\x09\x09\x01\x3e\x41\x49\x49\x7a"
    b"\x7f\x08\x08\x08\x7f\x00\x41\x7f\x41\x00\x20\x40\x41\x3f\x01\x7f\x08\x14\x22\x41"
    b"\x7f\x40\x40\x40\x40\x7f\x02\x0c\x02\x7f\x7f\x04\x08\x10\x7f\x3e\x41\x41\x41\x3e"
    b"\x7f\x09\x09\x09\x06\x3e\x41\x51\x21\x5e\x7f\x09\x19\x29\x46\x46\x49\x49\x49\x31"
    b"\x01\x01\x7f\x01\x01\x3f\x40\x40\x40\x3f\x1f\x20\x40\x20\x1f\x3f\x40\x38\x40\x3f"
    b"\x63\x14\x08\x14\x63\x07\x08\x70\x08\x07\x61\x51\x49\x45\x43\x00\x7f\x41\x41\x00"
    b"\x02\x04\x08\x10\x20\x00\x41\x41\x7f\x00\x04\x02\x01\x02\x04\x80\x80\x80\x80\x80"
    b"\x00\x01\x02\x04\x00\x20\x54\x54\x54\x78\x7f\x48\x44\x44\x38\x38\x44\x44\x44\x20"
    b"\x38\x44\x44\x48\x7f\x38\x54\x54\x54\x18\x08\x7e\x09\x01\x02\x18\xa4\xa4\xa4\x7c"
    b"\x7f\x08\x04\x04\x78\x00\x44\x7d\x40\x00\x40\x80\x84\x7d\x00\x7f\x10\x28\x44\x00"
    b"\x00\x41\x7f\x40\x00\x7c\x04\x18\x04\x78\x7c\x08\x04\x04\x78\x38\x44\x44\x44\x38"
    b"\xfc\x24\x24\x24\x18\x18\x24\x24\x24\xfc\x7c\x08\x04\x04\x08\x48\x54\x54\x54\x24"
    b"\x04\x3f\x44\x40\x20\x3c\x40\x40\x20\x7c\x1c\x20\x40\x20\x1c\x3c\x40\x30\x40\x3c"
    b"\x44\x28\x10\x28\x44\x1c\xa0\xa0\xa0\x7c\x44\x64\x54\x4c\x44\x00\x08\x36\x41\x00"
    b"\x00\x00\x7f\x00\x00\x00\x41\x36\x08\x00\x08\x04\x08\x10\x08\x7f\x41\x41\x41\x7f"
)
_FIRST = 32
_LAST = 127


class FrameBuffer:
    """A MONO_VLSB frame buffer over ``buf``: byte ``(y // 8) * stride + x``, bit ``y % 8``."""

    def __init__(self, buf, width, height, format, stride=None):
        if format != MONO_VLSB:
            raise ValueError("fbuf implements MONO_VLSB only")
        if stride is None:
            stride = width
        if width < 1 or height < 1 or stride < width:
            raise ValueError("invalid size")
        if len(buf) < ((height + 7) // 8) * stride:
            raise ValueError("buffer too small")
        self.buf = buf
        self.width = width
        self.height = height
        self.stride = stride

    def _set(self, x, y, c):
        i = (y >> 3) * self.stride + x
        if c:
            self.buf[i] |= 1 << (y & 7)
        else:
            self.buf[i] &= ~(1 << (y & 7)) & 0xFF

    def _get(self, x, y):
        return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1

    def _plot(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            self._set(x, y, c)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        if w < 1 or h < 1 or x + w <= 0 or y + h <= 0 or x >= self.width or y >= self.height:
            return
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        buf, stride = self.buf, self.stride
        y = y0
        while y < y1:
            # One page at a time: a mask of the rows covered in this page, applied per column.
            end = min(y1, (y & ~7) + 8)
            mask = ((1 << (end - y)) - 1) << (y & 7)
            base = (y >> 3) * stride
            for i in range(base + x0, base + x1):
                buf[i] = buf[i] | mask if c else buf[i] & ~mask & 0xFF
            y = end

    def fill(self, c):
        self.fill_rect(0, 0, self.width, self.height, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        # Bresenham, walking the long axis; both end points are drawn.
        dx, dy = abs(x2 - x1), abs(y2 - y1)
        sx = 1 if x2 > x1 else -1
        sy = 1 if y2 > y1 else -1
        steep = dy > dx
        if steep:
            x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self._plot(y1, x1, c)
            else:
                self._plot(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self._plot(x2, y2, c)

    def _quadrants(self, cx, cy, x, y, c, f, m):
        # m: bit 0 top right, bit 1 top left, bit 2 bottom left, bit 3 bottom right.
        if f:
            if m & 1:
                self.fill_rect(cx, cy - y, x + 1, 1, c)
            if m & 2:
                self.fill_rect(cx - x, cy - y, x + 1, 1, c)
            if m & 4:
                self.fill_rect(cx - x, cy + y, x + 1, 1, c)
            if m & 8:
                self.fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            if m & 1:
                self._plot(cx + x, cy - y, c)
            if m & 2:
                self._plot(cx - x, cy - y, c)
            if m & 4:
                self._plot(cx - x, cy + y, c)
            if m & 8:
                self._plot(cx + x, cy + y, c)

    def ellipse(self, x, y, xr, yr, c, f=False, m=0xF):
        # Kennedy's integer ellipse: first the part where x steps, then the part where y steps.
        if xr == 0 and yr == 0:
            if m & 0xF:
                self._plot(x, y, c)
            return
        a2, b2 = 2 * xr * xr, 2 * yr * yr
        px, py = xr, 0
        xchange, ychange = yr * yr * (1 - 2 * xr), xr * xr
        err, stop_x, stop_y = 0, b2 * xr, 0
        while stop_x >= stop_y:
            self._quadrants(x, y, px, py, c, f, m)
            py += 1
            stop_y += a2
            err += ychange
            ychange += a2
            if 2 * err + xchange > 0:
                px -= 1
                stop_x -= b2
                err += xchange
                xchange += b2
        px, py = 0, yr
        xchange, ychange = yr * yr, xr * xr * (1 - 2 * yr)
        err, stop_x, stop_y = 0, 0, a2 * yr
        while stop_x <= stop_y:
            self._quadrants(x, y, px, py, c, f, m)
            px += 1
            stop_x += b2
            err += xchange
            xchange += b2
            if 2 * err + ychange > 0:
                py -= 1
                stop_y -= a2
                err += ychange
                ychange += a2

    def text(self, s, x, y, c=1):
        for ch in s:
            code = ord(ch)
            if code < _FIRST or code > _LAST:
                code = _LAST
            base = (code - _FIRST) * 5
            for col in range(5):
                bits = _FONT[base + col]
                px = x + 1 + col
                row = 0
                while bits:
                    if bits & 1:
                        self._plot(px, y + row, c)
                    bits >>= 1
                    row += 1
            x += 8

    def blit(self, src, x, y, key=-1, palette=None):
        if isinstance(src, tuple):
            src = FrameBuffer(*src)
        # Only the overlap of the source placed at (x, y) with this buffer is visited.
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + src.width, self.width), min(y + src.height, self.height)
        for py in range(y0, y1):
            for px in range(x0, x1):
                v = src._get(px - x, py - y)
                if palette is not None:
                    v = palette.pixel(v, 0)
                if v != key:
                    self._set(px, py, v)

    def scroll(self, xstep, ystep):
        # Shift the contents; the uncovered strip keeps its old pixels, as framebuf does.
        w, h = self.width, self.height
        if xstep < 0:
            xs, xe, dx = 0, w + xstep, 1
        else:
            xs, xe, dx = w - 1, xstep - 1, -1
        if ystep < 0:
            ys, ye, dy = 0, h + ystep, 1
        else:
            ys, ye, dy = h - 1, ystep - 1, -1
        for py in range(ys, ye, dy):
            for px in range(xs, xe, dx):
                self._set(px, py, self._get(px - xstep, py - ystep))
