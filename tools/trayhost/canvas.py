"""The display interface (firmware/dicetray/display.py) on a bare frame buffer: no bus, no driver.

The simulator's screen. What the app last showed is what a person sees, dark while the display
sleeps; a browser canvas would be another class with these members.
"""

import framebuf  # CPython: trayhost's stand-in, put in place when the package was imported


def pixel_rows(buf, width, height):
    """MONO_VLSB frame buffer bytes as rows (bytearrays) of 0/1, top row first."""
    return [
        bytearray((buf[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width))
        for y in range(height)
    ]


class CanvasDisplay:
    """``fb``, ``width``, ``height``, ``show``, ``dim``, ``sleep``; ``pixels()`` to look at it.

    ``changes`` counts the changes of what the screen shows, so a viewer redraws only then.
    """

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * ((height + 7) // 8))
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self._shown = bytes(self.buffer)
        self.dimmed = False
        self.asleep = False
        self.changes = 0

    def show(self, now=None, pressed=False):
        if self.buffer != self._shown:
            self._shown = bytes(self.buffer)
            self.changes += 1
        return True

    def dim(self, on=True):
        self.dimmed = bool(on)

    def sleep(self, on=True):
        if bool(on) != self.asleep:
            self.asleep = bool(on)
            self.changes += 1

    def pixels(self):
        """Rows (bytearrays of 0/1) of what the screen shows: all dark while asleep."""
        if self.asleep:
            return [bytearray(self.width) for _ in range(self.height)]
        return pixel_rows(self._shown, self.width, self.height)
