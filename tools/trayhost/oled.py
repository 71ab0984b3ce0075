"""A fake I2C bus with one SSD1306 or SH1106 OLED that decodes the bytes into lit pixels.

The bus (transfers, unplugging, glitches) is here; the panel it carries is oledpanel.FakePanel,
whose commands oledcommands interprets. FakePanel and ProtocolError are importable from here.
"""

import errno

from trayhost.oledpanel import FakePanel, ProtocolError

__all__ = ("EIO", "ETIMEDOUT", "FakeI2C", "FakePanel", "ProtocolError")

EIO = errno.EIO  # what MicroPython's machine.I2C raises when nobody acknowledges
ETIMEDOUT = errno.ETIMEDOUT  # what it raises when a held-down bus times out


class FakeI2C:
    """``machine.I2C`` as far as a display needs it: ``writeto``, ``writevto``, ``scan``.

    ``connected = False`` unplugs the module: every transfer raises ``OSError(fail_errno)``.
    ``connected = True`` plugs it back: the panel powers up with noise in RAM and unconfigured
    (and knows whether any transfer failed meanwhile, see ``FakePanel``).
    ``glitch()`` makes one future transfer fail while the panel stays powered. ``transactions``
    holds the length of every completed transfer, ``bytes_written`` their sum.
    """

    def __init__(self, panel=None, fail_errno=EIO, **panel_args):
        self.panel = panel if panel is not None else FakePanel(**panel_args)
        self.fail_errno = fail_errno
        self._connected = True
        self._glitch = None  # (transfers to let through first, bytes delivered, unplug after)
        self.transactions = []
        self.bytes_written = 0
        self.failed = 0
        self._failed_unplugged = 0  # transfers refused since the module was unplugged

    @property
    def connected(self):
        return self._connected

    @connected.setter
    def connected(self, value):
        if value and not self._connected:
            self.panel.power_on(noticed=self._failed_unplugged > 0)
        elif not value and self._connected:
            self._failed_unplugged = 0
        self._connected = bool(value)

    def unplug(self):
        self.connected = False

    def replug(self):
        self.connected = True

    def glitch(self, after=0, partial=0, unplug=False):
        """Fail the transfer ``after`` transfers from now, once ``partial`` bytes reached the
        panel; ``unplug`` leaves the module unplugged from then on."""
        self._glitch = (after, partial, unplug)

    def cancel_glitch(self):
        """Forget a ``glitch()`` that has not fired yet."""
        self._glitch = None

    def reset_counts(self):
        self.transactions = []
        self.bytes_written = 0

    def scan(self):
        return [self.panel.addr] if self._connected else []

    def writeto(self, addr, buf, stop=True):
        return self._transfer(addr, bytes(buf), stop)

    def writevto(self, addr, vector, stop=True):
        return self._transfer(addr, b"".join(bytes(part) for part in vector), stop)

    def _transfer(self, addr, data, stop):
        if not stop:
            self.panel.error("transfer without STOP: not modelled")
        if not self._connected:
            self.failed += 1
            self._failed_unplugged += 1
            raise OSError(self.fail_errno)
        if addr != self.panel.addr:
            self.panel.error(f"write to 0x{addr:02X}: no device there")
            self.failed += 1
            raise OSError(EIO)
        if self._glitch is not None:
            after, partial, unplug = self._glitch
            if after == 0:
                self._glitch = None
                self.panel.receive(data[:partial], complete=False)
                if unplug:
                    self._connected = False
                    self._failed_unplugged = 1
                self.failed += 1
                raise OSError(self.fail_errno)
            self._glitch = (after - 1, partial, unplug)
        self.panel.receive(data)
        self.transactions.append(len(data))
        self.bytes_written += len(data)
        return len(data)
