"""Debounced press and long-press events from polled pin levels and millisecond ticks."""

PRESS = "press"
LONG = "long"


class Edges:
    """What a board's pin interrupts note for Buttons, per button in scan order: ``flag[i]``
    set to 1 at each change of its level, ``at[i]`` the ticks of the latest and ``first[i]``
    those of the first since the flag was last zeroed (noted when the interrupt's handler ran,
    which a flash write can hold back). ``note(i, now)`` is what the handler does."""

    def __init__(self, n):
        self.flag = bytearray(n)
        self.at = [0] * n
        self.first = [0] * n

    def note(self, i, now):
        """A change of button i's level at now: no allocation (an interrupt handler's)."""
        if not self.flag[i]:
            self.first[i] = now
        self.flag[i] = 1
        self.at[i] = now


class Buttons:
    """Turns pin levels into at most one event per physical press.

    The levels are polled and debounced here. A press is accepted at the first edge seen (so
    the answer is immediate), and a release only once the pin has read "up" for
    ``debounce_ms`` in a row, so contact bounce on either edge can never make a second press.
    Buttons named in ``long_press`` report ``PRESS`` when released before ``long_ms`` (said once
    the release has read "up" for ``said_ms``, so that OK answers as soon as it is let go), or
    ``LONG`` once when held that long; every other button reports ``PRESS`` at its first edge.
    Holding a button never repeats. A button found down at construction (or at ``clear()``)
    stays mute until it has been seen released.

    ``poll(now)`` returns ``None`` or one event, a ``(name, kind)`` tuple built once in
    ``__init__`` (polling does not allocate). When several buttons have something to say at
    once, one is returned per call, starting after the button that spoke last; call ``poll``
    again (same ``now`` is fine) to drain them. With ``edges``, buttons first seen down at
    the same poll speak in the order they went down (their first edges), so that a KEEP
    pressed just before ROLL keeps its die.

    Polls more than ``stall_ms`` apart mean the main loop was held up (a save, a long drawing)
    and a tap may have come and gone unread. ``edges`` (an ``Edges`` the board's pin interrupts
    fill) tells what the levels could not: a button found up whose level changed was tapped
    (its ``PRESS`` is said then); a held button found up has been up since its last change; a
    held button found down whose level changed ``again_ms`` after its press was let go and
    pressed again (the new press starts once the pin has been steady ``steady_ms``). Between
    polls on time, edges are bounce or noise and are ignored. ``clear()`` forgets what was
    pressed meanwhile: buttons still held stay mute until released, taps are forgotten.
    """

    debounce_ms = 40  # a release must read "up" this long; longer than switch bounce (~5-20 ms)
    said_ms = 5  # up this long after a steady press: a long-capable button's PRESS is said
    long_ms = 700  # held this long, a long-capable button gives LONG instead of PRESS
    # Polls further apart than this: the main loop was held up and a tap may have come and gone
    # unread. Idle polls come far more often, and no finger's tap is this short.
    stall_ms = 20
    # Longer than a press's own bounce plus the longest a flash write holds the interrupt's
    # note back: an edge noted later than this after the press is the finger's.
    again_ms = 70
    steady_ms = 15  # longer than a release's bounce reading "down"

    def __init__(
        self, pins, ticks_diff, debounce_ms=None, long_ms=None, active_low=True, long_press=(),
        edges=None,
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
        if edges is not None and len(edges.flag) != n:
            raise ValueError("edges for %d buttons, not %d" % (len(edges.flag), n))
        self.names = tuple(names)  # in scan order
        self._pins = [pin for _, pin in items]
        self._press = [(name, PRESS) for name in names]
        self._longs = [(name, LONG) if name in long_press else None for name in names]
        self._long = list(self._longs)  # each button's now (long_meaning)
        self._ticks_diff = ticks_diff
        self._down_level = 0 if active_low else 1
        self._down = [False] * n  # debounced state
        self._done = [False] * n  # this press already said (or must never say) its event
        self._t_down = [0] * n  # ticks when the press was accepted
        self._t_up = [None] * n  # ticks of the first "up" reading while down, or None
        self._edges = edges  # filled by the board's pin interrupts; flags zeroed at every poll
        self._flag = None if edges is None else edges.flag
        self._zeros = bytes(n)  # the flags' value once read: copied in, no allocation
        self._tapped = [False] * n  # a tap between polls came and went (edges): say it next
        self._again = [False] * n  # a held button let go and pressed again between polls
        self._polled = None  # ticks of the last poll
        self._next = 0  # where the next scan starts, so no button waits behind another
        self.clear()

    def poll(self, now):
        """Sample every pin once at ``now`` (ms ticks); return one event tuple or ``None``."""
        flag = self._flag
        fresh = False  # a pin changed since the last poll: the order of new presses counts
        if flag is not None:
            polled = self._polled
            self._polled = now
            if max(flag):  # max, not `in`: MicroPython's bytearray has no int `in`
                fresh = True
                if polled is not None and self._ticks_diff(now, polled) > self.stall_ms:
                    self._taps(flag)
                else:  # polls on time: the levels read tell what the buttons did
                    flag[:] = self._zeros
        if True not in self._down and True not in self._tapped:
            # Nothing held or tapped: only a pin reading "down" has news.
            level = self._down_level
            for pin in self._pins:
                if pin.value() == level:
                    break
            else:
                return None
        n = len(self._pins)
        start = self._earliest(self._next) if fresh else self._next
        for k in range(n):
            i = start + k
            if i >= n:
                i -= n
            event = self._step(i, now)
            if event is not None:
                self._next = i + 1 if i + 1 < n else 0
                return event
        return None

    def _earliest(self, start):
        """Where this poll's scan starts: at the button that went down first (its first edge)
        among those not yet down or tapped between polls, if any; else at start."""
        first = self._edges.first
        level = self._down_level
        best = -1
        for i in range(len(self._pins)):
            if (not self._down[i] and self._pins[i].value() == level) or self._tapped[i]:
                if best < 0 or self._ticks_diff(first[i], first[best]) < 0:
                    best = i
        return start if best < 0 else best

    def _taps(self, flag):
        """After a stall, zero the flags and mark the buttons whose level changed meanwhile:
        an idle one found up was tapped; a held one found up was let go at its last change (its
        release is timed from there); a held one found down, changed well after its press, was
        let go and pressed again (_step starts that press once the pin is steady)."""
        at = self._edges.at
        for i in range(len(flag)):
            if flag[i]:
                flag[i] = 0
                up = self._pins[i].value() != self._down_level
                if not self._down[i]:
                    self._tapped[i] = up
                elif up:  # let go meanwhile: up since its last change, not since this poll
                    self._t_up[i] = at[i]
                elif self._ticks_diff(at[i], self._t_down[i]) >= self.again_ms:
                    self._again[i] = True

    def _step(self, i, now):
        pressed = self._pins[i].value() == self._down_level
        if not self._down[i]:
            if not pressed:
                if not self._tapped[i]:
                    return None
                # Pressed and let go while the loop was held up: the press, said now, then
                # its release debounced from here (the tap's own bounce may still go on).
                self._tapped[i] = False
                self._down[i] = True
                self._done[i] = True
                self._t_down[i] = now
                self._t_up[i] = now
                return self._press[i]
            self._tapped[i] = False
            # First edge: accept the press at once; bounce is absorbed by the slow release.
            self._down[i] = True
            self._t_down[i] = now
            self._t_up[i] = None
            self._done[i] = self._long[i] is None
            return self._press[i] if self._done[i] else None
        if pressed:
            self._t_up[i] = None
            if self._again[i]:
                if self._ticks_diff(now, self._edges.at[i]) < self.steady_ms:
                    return None  # a new press, or a release bouncing: the next polls tell
                # Let go and pressed again while the loop was held up: a new press from now.
                # A long-capable button's first press ended short: its meaning is said now.
                self._again[i] = False
                said = self._done[i]
                self._t_down[i] = now
                self._done[i] = self._long[i] is None
                if self._done[i] or not said:
                    return self._press[i]
                return None
            if not self._done[i] and self._ticks_diff(now, self._t_down[i]) >= self.long_ms:
                self._done[i] = True
                return self._longs[i]  # its own: begun with its long meaning, it keeps it
            return None
        self._again[i] = False  # it reads up: that was a release bouncing, ended as ever
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

    def pending(self, name):
        """Whether name (a long-capable button) is held and its meaning not said yet: let go
        before ``long_ms``, it says ``PRESS``; held that long, ``LONG``."""
        i = self.names.index(name)
        return self._down[i] and not self._done[i]

    def long_meaning(self, name, on):
        """Whether name, a long-capable button, has its long meaning now. Off (a screen where
        held it means what it means), it says ``PRESS`` at its first edge as the others do;
        on, it waits to be let go or held ``long_ms``. A press under way keeps its course."""
        i = self.names.index(name)
        self._long[i] = self._longs[i] if on else None

    def any_down(self):
        """Whether any button is down (debounced), e.g. to wait for all to be let go."""
        return True in self._down

    def clear(self):
        """Forget pending presses: buttons down now stay mute until released, their release too.

        Call it after waking the display so the waking press does nothing else, or after an
        animation to drop what was pressed meanwhile (taps between polls too).
        """
        if self._flag is not None:
            self._flag[:] = self._zeros
        for i in range(len(self._pins)):
            self._tapped[i] = False
            self._again[i] = False
            if self._down[i] or self._pins[i].value() == self._down_level:
                # Mute: no event for this press, nor its release, which still needs a steady "up".
                self._down[i] = True
                self._done[i] = True
                # An "up" reading seen before the clear must not count towards the release:
                # one bounce afterwards would end this press and the bounce back start another.
                self._t_up[i] = None
