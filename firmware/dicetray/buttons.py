"""Debounced press and long-press events from polled pin levels and millisecond ticks."""

PRESS = "press"
LONG = "long"


class Buttons:
    """Turns raw pin levels into at most one event per physical press.

    Every button is polled; nothing here is interrupt driven. A press is accepted at the first
    edge seen (so the answer is immediate), and a release only once the pin has read "up" for
    ``debounce_ms`` in a row, so contact bounce on either edge can never make a second press.

    Buttons named in ``long_press`` have two meanings: they report ``PRESS`` when released before
    ``long_ms``, or ``LONG`` once when held that long (then nothing at release). The ``PRESS`` is
    said once the release has read "up" for ``said_ms``, so that OK answers as soon as it is let
    go (for ``debounce_ms`` if the press was that short: its own bounce); the press itself still
    ends only after ``debounce_ms`` of "up". Every other button reports ``PRESS`` at its first
    edge and nothing at release. Holding a button never repeats. A button found down at
    construction (or at ``clear()``) stays mute until it has been seen released.

    ``poll(now)`` returns ``None`` or one event, a ``(name, kind)`` tuple built once in
    ``__init__`` (so polling does not allocate); ``kind`` is ``PRESS`` or ``LONG``. When several
    buttons have something to say at once, one is returned per call, starting after the button
    that spoke last; call ``poll`` again (same ``now`` is fine) to drain them.

    Not polling for a while (an animation) is safe: a press made and released entirely between
    two polls is never seen; a button still down at the next poll is reported then, its long
    timer starting from that poll. To ignore whatever was pressed during an animation, call
    ``clear()`` afterwards: buttons still held stay mute until released.
    """

    debounce_ms = 40  # a release must read "up" this long; longer than switch bounce (~5-20 ms)
    said_ms = 5  # up this long after a steady press: a long-capable button's PRESS is said
    long_ms = 700  # held this long, a long-capable button gives LONG instead of PRESS

    def __init__(
        self, pins, ticks_diff, debounce_ms=None, long_ms=None, active_low=True, long_press=()
    ):
        if debounce_ms is not None:
            self.debounce_ms = debounce_ms
        if long_ms is not None:
            self.long_ms = long_ms
        # A plain dict has no reliable order on MicroPython: sort it so the scan order is fixed.
        items = sorted(pins.items()) if isinstance(pins, dict) else list(pins)
        names = [name for name, _ in items]
        for name in long_press:
            if name not in names:
                raise ValueError(f"unknown button: {name}")
        n = len(items)
        self.names = tuple(names)  # in scan order
        self._pins = [pin for _, pin in items]
        self._index = {name: i for i, name in enumerate(names)}
        self._press = [(name, PRESS) for name in names]
        self._long = [(name, LONG) if name in long_press else None for name in names]
        self._ticks_diff = ticks_diff
        self._down_level = 0 if active_low else 1
        self._down = [False] * n  # debounced state
        self._done = [False] * n  # this press already said (or must never say) its event
        self._t_down = [0] * n  # ticks when the press was accepted
        self._t_up = [None] * n  # ticks of the first "up" reading while down, or None
        self._next = 0  # where the next scan starts, so no button waits behind another
        self.clear()

    def poll(self, now):
        """Sample every pin once at ``now`` (ms ticks); return one event tuple or ``None``."""
        if True not in self._down:  # nothing held: only a pin reading "down" has news
            level = self._down_level
            for pin in self._pins:
                if pin.value() == level:
                    break
            else:
                return None
        n = len(self._pins)
        start = self._next
        for k in range(n):
            i = start + k
            if i >= n:
                i -= n
            event = self._step(i, now)
            if event is not None:
                self._next = i + 1 if i + 1 < n else 0
                return event
        return None

    def _step(self, i, now):
        pressed = self._pins[i].value() == self._down_level
        if not self._down[i]:
            if not pressed:
                return None
            # First edge: accept the press at once; bounce is absorbed by the slow release.
            self._down[i] = True
            self._t_down[i] = now
            self._t_up[i] = None
            self._done[i] = self._long[i] is None
            return self._press[i] if self._done[i] else None
        if pressed:
            self._t_up[i] = None
            if not self._done[i] and self._ticks_diff(now, self._t_down[i]) >= self.long_ms:
                self._done[i] = True
                return self._long[i]
            return None
        t_up = self._t_up[i]
        if t_up is None:
            self._t_up[i] = now
            return None
        up_ms = self._ticks_diff(now, t_up)
        if not self._done[i] and (up_ms >= self.debounce_ms or up_ms >= self.said_ms and
                                  self._ticks_diff(t_up, self._t_down[i]) >= self.debounce_ms):
            # A long-capable button let go before long_ms: its short meaning, said as soon as
            # the release is sure. Up for said_ms once the press's own bounce is over (it was
            # down debounce_ms first), else up for debounce_ms. The press ends below.
            self._done[i] = True
            return self._press[i]
        if up_ms >= self.debounce_ms:
            self._down[i] = False
        return None

    def is_down(self, name):
        """Whether ``name`` is down (debounced, as of the last poll, construction or clear)."""
        return self._down[self._index[name]]

    def any_down(self):
        """Whether any button is down (debounced), e.g. to wait for all to be let go."""
        return True in self._down

    def clear(self):
        """Forget pending presses: buttons down now stay mute until released, their release too.

        Call it after waking the display so the waking press does nothing else, or after an
        animation to drop what was pressed meanwhile.
        """
        for i in range(len(self._pins)):
            if self._down[i] or self._pins[i].value() == self._down_level:
                # Mute: no event for this press, nor its release, which still needs a steady "up".
                self._down[i] = True
                self._done[i] = True
                # An "up" reading seen before the clear must not count towards the release:
                # one bounce afterwards would end this press and the bounce back start another.
                self._t_up[i] = None
