"""A whole tray on fake hardware, driven by key strings; runs on CPython and on MicroPython.

Keys (the simulator uses the same): "1" "2" "3" KEEP1..3, "r" ROLL, "o" OK, "O" OK held long,
"." one second with no press. Each key is a press of PRESS_MS then a release and REST_MS of
polling, like fingers on the tray. Fakes here are minimal and portable; on CPython a caller may
pass the decoding panel (trayhost.oled) or the tests' power-cut flash instead.
"""

from dicetray.app import LONG_BUTTONS, PLAY, SETUP, App
from dicetray.buttons import Buttons
from dicetray.display import Display
from dicetray.store import Store

from trayhost.autoplay import SeededDice, bot_action
from trayhost.pins import FakePin, ticks_add, ticks_diff

NAMES = ("KEEP1", "KEEP2", "KEEP3", "ROLL", "OK")
KEYS = {"1": "KEEP1", "2": "KEEP2", "3": "KEEP3", "r": "ROLL", "o": "OK", "O": "OK"}
POLL_MS = 5
PRESS_MS = 60
LONG_MS = 900
REST_MS = 420  # longer than the roll animation, so no key lands in it


class RecordingI2C:
    """Takes every write; keeps the byte count and a running checksum of the whole stream."""

    def __init__(self):
        self.bytes = 0
        self.sum = 0
        self.connected = True

    def writeto(self, addr, buf):
        if not self.connected:
            raise OSError(5)
        s = self.sum
        for b in buf:
            s = (s * 31 + b) & 0xFFFFFFFF
        self.sum = s
        self.bytes += len(buf)
        return len(buf)


class MemFS:
    """A dict of files with atomic rename: what Store needs, on any Python."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        return _MemFile(self, path, mode)

    def rename(self, a, b):
        if a not in self.files:
            raise OSError(2)
        self.files[b] = self.files.pop(a)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def exists(self, path):
        return path in self.files

    def size(self, path):
        if path not in self.files:
            raise OSError(2)
        return len(self.files[path])


class _MemFile:
    def __init__(self, fs, path, mode):
        self.fs, self.path, self.mode = fs, path, mode
        if "r" in mode:
            if path not in fs.files:
                raise OSError(2)
            self.data = fs.files[path]
        else:
            self.data = b"" if "w" in mode else fs.files.get(path, b"")
        self.binary = "b" in mode
        self.pos = 0

    def read(self, n=-1):
        chunk = self.data[self.pos:] if n < 0 else self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk if self.binary else chunk.decode()

    def write(self, s):
        self.data += s if isinstance(s, bytes) else s.encode()
        return len(s)

    def close(self):
        if "r" not in self.mode:
            self.fs.files[self.path] = self.data

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Buzzer:
    def __init__(self):
        self.tones = 0

    def tone(self, hz):
        self.tones += 1

    def off(self):
        pass


class Tray:
    """App + buttons + display + store on fakes, with a clock that only moves when told.

    The display is the driver on ``i2c`` (a RecordingI2C unless given), or ``display``: any
    display (the interface in dicetray/display.py). The store is ``store``, or one on ``fs``;
    the buzzer ``buzzer``, or a Buzzer. rest_ms: the rest after each key's release (a quick
    player's is shorter: a key may then land in the roll animation, and lands the dice).
    """

    rest_ms = REST_MS

    def __init__(self, roll, i2c=None, fs=None, width=128, height=64, driver="ssd1306",
                 start_ms=0, seed=1, display=None, store=None, buzzer=None):
        self.now = start_ms
        self.pins = {n: FakePin() for n in NAMES}
        if display is None:
            i2c = i2c if i2c is not None else RecordingI2C()
            display = Display(i2c, width, height, driver=driver, ticks_diff=ticks_diff)
        self.i2c = i2c
        self.display = display
        self.buttons = Buttons([(n, self.pins[n]) for n in NAMES], ticks_diff,
                               long_press=LONG_BUTTONS)
        self.store = store if store is not None else Store(fs=fs if fs is not None else MemFS())
        self.fs = self.store.fs
        self.buzzer = buzzer if buzzer is not None else Buzzer()
        self.roll = roll
        self.app = App(self.display, self.buttons, self.store, roll, ticks_diff, ticks_add,
                       self.buzzer, seed)
        self.app.boot(self.now)
        self.display.show(self.now)
        self.busy = True  # the boot's work: its quiet moment comes at the first idle poll

    def run(self, ms):
        """Poll every POLL_MS for ms, as runner.run does: a quiet poll after work is App.quiet's
        moment (the Pico's main loop also collects the heap's garbage there). A poll that made
        a piece of the seats' work (App.working) is followed by the next without a pause on
        the Pico; here it counts POLL_MS too, about what a piece takes there."""
        for _ in range(ms // POLL_MS):
            self.now = ticks_add(self.now, POLL_MS)
            if self.app.step(self.now):
                self.busy = True
            elif self.busy:
                self.busy = False
                self.app.quiet()

    def key(self, k):
        if k == ".":
            self.run(1000)
            return
        pin = self.pins[KEYS[k]]
        pin.press()
        self.run(LONG_MS if k == "O" else PRESS_MS)
        pin.release()
        self.run(self.rest_ms)

    def keys(self, text):
        for k in text:
            self.key(k)


def bot_keys(app, bot, want):
    """The keys a player would press next: set up `want` (players, preset), then play it."""
    s = app.screen
    if s == SETUP:
        menu = app.units[SETUP]
        settings, cursor = menu.settings, menu.cursor
        if settings["preset"] != want[1]:
            return "2" * ((1 - cursor) % 20) + "r" if cursor != 1 else "r"
        if settings["players"] != want[0]:
            return "1" * cursor + "r" if cursor else "r"
        return "o"
    if s != PLAY:
        return "o"
    g = app.game
    action = bot_action(g, bot)
    if action[0] == "announce":
        return "1" if action[1] == "is" else "3"
    if action[0] == "stop":
        return "o"
    mask = 0
    for i in action[1]:
        mask |= 1 << i
    if g.contest is not None or not g.turn.count:
        return "r"
    # Release first, then keep: the tray refuses a third kept die, even for a moment.
    kept = g.turn.kept
    off = kept & ~mask
    on = mask & ~kept
    return "".join("123"[i] for bits in (off, on) for i in range(3) if bits & (1 << i)) + "r"


def game_keys(tray, players, preset, bot, max_keys=20000, pressed_for=None):
    """The bot (a SeededDice) at the buttons until a game of `preset` is played and setup shows
    again. A generator: it yields each key once pressed, so a caller can look between keys.
    pressed_for(app, keys), if given, says what is pressed for the keys the bot chose
    (trayhost.slips: a slip taken back first)."""
    pressed = 0
    for app in moments(tray):
        if pressed >= max_keys:
            raise RuntimeError("no end after %d keys" % max_keys)
        keys = bot_keys(app, bot, (players, preset))
        for k in keys if pressed_for is None else pressed_for(app, keys):
            tray.key(k)
            pressed += 1
            yield k


def moments(tray, limit=None):
    """tray.app at each moment of a game, from the setup (or a game under way) until a game
    was played and the setup shows again; RuntimeError after limit moments (None: no bound).
    The loop of every game the bot plays (game_keys, seats_game, slips.twin_game)."""
    started = False
    n = 0
    while limit is None or n < limit:
        app = tray.app
        if app.screen == PLAY:
            started = True
        if started and app.screen == SETUP:
            return
        yield app
        n += 1
    raise RuntimeError("no end after %d moments" % limit)


def seats_game(tray, players, preset, bot, computers, hints=False, wait_ms=500, limit=20000,
               hurry=None):
    """A game of `preset` whose last `computers` seats the tray plays (dicetray.seat), the bot
    pressing for the humans only when a human acts (on a computer's moment it waits wait_ms,
    then presses hurry(app)'s key, if any: trayhost.night's quick player), until setup shows
    again. A generator: yields after each key or wait ("." for a wait)."""
    app = tray.app
    if app.screen == SETUP:  # set as the menu would: TRAY PLAYS and HINTS
        app.units[SETUP].settings.update(computers=computers, hints=hints)
    for app in moments(tray, limit):
        g = app.game
        if g is None or g.over or g.current not in g.computers:
            for k in bot_keys(app, bot, (players, preset)):
                tray.key(k)
                yield k
        else:
            tray.run(wait_ms)
            key = hurry and hurry(app)
            if key:
                tray.key(key)
            yield "."


def play_game(tray, players, preset, seed, max_keys=20000):
    """Press buttons until a whole game of `preset` is played; returns the keys pressed."""
    pressed = 0
    for _ in game_keys(tray, players, preset, SeededDice(seed), max_keys):
        pressed += 1
    return pressed


def game_line(preset, keys, tray):
    """tour()'s line for one game: preset, keys, bus bytes and checksum, back at setup."""
    return [preset, keys, tray.i2c.bytes, tray.i2c.sum, tray.app.screen == SETUP]


def tour(seed=3, players=3, watch=None):
    """Every preset played to its end through the buttons, each on a fresh tray; a line per
    game. watch(tray), if given, sees each tray before its game is played (the bench's meter)."""
    from dicetray.options import PRESET_NAMES  # here: not resident in a MicroPython bench

    lines = []
    for i, preset in enumerate(PRESET_NAMES):
        tray = Tray(SeededDice(seed + i), seed=seed + i)
        if watch is not None:
            watch(tray)
        lines.append(game_line(preset, play_game(tray, players, preset, seed + i), tray))
    return lines
