"""MicroPython's ``framebuf`` on CPython, as far as the firmware draws: MONO_VLSB, no text.

``trayhost`` installs this module as ``framebuf`` where there is none, so the firmware's own
``import framebuf`` runs unchanged. It has what the screens draw with (``fill``, ``fill_rect``,
``rect``, ``pixel``, ``blit`` with a key and a palette), with framebuf's argument order and
clipping; the bytes are framebuf's, which host_tests/test_framebuf.py checks against
MicroPython's own on random drawings. Text is the firmware's own font (``dicetray.font``): a
``blit`` of a strip of glyph columns per string.
"""

MONO_VLSB = 0  # the only format here: byte (y // 8) * width + x, bit y % 8


class FrameBuffer:
    """A MONO_VLSB frame buffer over ``buf``: byte ``(y // 8) * stride + x``, bit ``y % 8``."""

    def __init__(self, buf, width, height, format, stride=None):
        if format != MONO_VLSB:
            raise ValueError("only MONO_VLSB is implemented")
        if stride is None:
            stride = width
        if width < 1 or height < 1 or stride < width:
            raise ValueError("invalid size")
        if len(buf) < ((height + 7) // 8) * stride:
            raise ValueError("buffer too small")
        self._buf = buf
        self._width = width
        self._height = height
        self._stride = stride

    def pixel(self, x, y, c=None):
        """Set pixel (x, y) to c, or with no c return it (None off the buffer)."""
        if not (0 <= x < self._width and 0 <= y < self._height):
            return None
        i = (y >> 3) * self._stride + x
        if c is None:
            return (self._buf[i] >> (y & 7)) & 1
        if c:
            self._buf[i] |= 1 << (y & 7)
        else:
            self._buf[i] &= ~(1 << (y & 7)) & 0xFF
        return None

    def fill_rect(self, x, y, w, h, c):
        if w < 1 or h < 1 or x + w <= 0 or y + h <= 0 or x >= self._width or y >= self._height:
            return
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self._width), min(y + h, self._height)
        buf, stride = self._buf, self._stride
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
        self.fill_rect(0, 0, self._width, self._height, c)

    def rect(self, x, y, w, h, c):
        """A one-pixel outline (framebuf's optional ``f`` for filled: use fill_rect)."""
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def blit(self, src, x, y, key=-1, palette=None):
        """Copy src's pixels to (x, y), clipped. A palette maps a source colour c to its pixel
        (c, 0); then pixels equal to key are left out (transparent), as framebuf compares.
        A column at a time: the source column's rows of each colour, moved down to y, set or
        cleared in the destination column's pages at once."""
        sw, sh, ss, sb = src._width, src._height, src._stride, src._buf
        top, bottom = max(y, 0), min(y + sh, self._height)
        if top >= bottom:
            return
        buf, stride = self._buf, self._stride
        full = (1 << sh) - 1  # the source's rows: a last page's bits past them are no pixels
        into = ((1 << (bottom - top)) - 1) << top  # the destination rows written
        first, last = top >> 3, (bottom - 1) >> 3
        spages = range((sh + 7) >> 3)
        colours = (0, 1) if palette is None else (palette.pixel(0, 0), palette.pixel(1, 0))
        for sx in range(max(0, -x), min(sw, self._width - x)):
            col = 0
            for p in spages:
                col |= sb[p * ss + sx] << (8 * p)
            dx = x + sx
            d = 0
            for p in range(first, last + 1):
                d |= buf[p * stride + dx] << (8 * p)
            for v in (0, 1):
                c = colours[v]
                if c == key:
                    continue
                rows = col if v else ~col & full
                rows = (rows << y if y >= 0 else rows >> -y) & into
                d = d | rows if c else d & ~rows
            for p in range(first, last + 1):
                buf[p * stride + dx] = (d >> (8 * p)) & 0xFF
