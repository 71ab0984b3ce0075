"""Pure-Python stand-in for MicroPython's ``framebuf`` (MONO_VLSB only), used where it is missing.

MicroPython has ``framebuf`` built in; CPython does not, so ``display.py`` falls back to this
module there. The API is the same as ``framebuf.FrameBuffer`` for what the dice tray draws:
``fill``, ``pixel``, ``hline``, ``vline``, ``line``, ``rect``, ``fill_rect``, ``ellipse``,
``text``, ``blit`` and ``scroll``, with the same argument order, defaults and clipping. Geometry
is pixel for pixel the same as the real module (checked against MicroPython 1.27's framebuf on
random calls); ``poly`` is not provided.

One deliberate difference: ``text`` draws the project's own font (``dicetray.font``, 5x7
glyphs in an 8x8 cell, one blank column on the left), not MicroPython's built-in font. Both advance
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
        # 8-pixel advance like framebuf; the glyphs are the project's own (dicetray.font).
        from dicetray import font

        for ch in s:
            font.text(self, ch, x + 1, y, 1, c)
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
