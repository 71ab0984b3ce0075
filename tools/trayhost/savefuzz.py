"""Saves damaged on purpose, field by field, and the check that every accepted one plays on.

Real saves come from random games; a mutation (savemutate) changes what a save means (players,
phases, roll-offs, results, stakes, tokens, limits), not its bytes. play_on() loads a save the
way the tray does (through the two files the tray writes: save_record) and, when the checker
accepts it, plays it to its end with random legal actions, checking every state on the way.
The same code runs on CPython (the tests, tools/soak.py) and on MicroPython (the MicroPython
tier).
"""

import json

from dicetray.app import App
from dicetray.game import Game
from dicetray.options import OPTION_NAMES, PRESET_NAMES, PRESETS, changed, option
from dicetray.save_check import load
from dicetray.save_record import checksum, record, setup_of
from dicetray.screens import OVER, PHASE, PLAY, QUIT, RESULT, RESUME, STANDINGS, TALLY
from dicetray.state import SaveError
from dicetray.store_read import read_record

from trayhost.autoplay import SeededDice, apply
from trayhost.dicechoice import chance, pick
from trayhost.pins import ticks_add, ticks_diff
from trayhost.savemutate import mutate

ACTION_CAP = 20000  # a game from any accepted save ends long before this many actions
# A hex editor's files that cost the Pico's parser most, each just under the size limit (16 KB).
LONG_DIGITS = 15500
NESTED_DEPTH = 8170


def random_action(game, rng):
    """Any legal action, drawn at random: keeps, stops, "le bon" and stakes included."""
    if game.can_announce() and chance(rng, 3):
        return ("announce", pick(rng, ("is", "comes")))
    if game.contest is not None:
        return ("throw", ())
    if game.can_stop() and (not game.can_throw() or chance(rng, 2)):
        return ("stop",)
    keep = ()
    if game.can_keep():
        keep = tuple(i for i in range(3) if chance(rng, 2))[:2]
    return ("throw", keep)


class TieProneDice:
    """Dice that often repeat one throw, so that games are full of ties and play-offs."""

    def __init__(self, seed):
        self.rng = SeededDice(seed)
        self.pattern = [self.rng() for _ in range(3)]
        self.i = 0

    def __call__(self):
        self.i += 1
        if chance(self.rng, 4):
            return self.pattern[self.i % 3]
        return self.rng()


def real_saves(seed, count):
    """Up to count saves taken along one random game (preset, players and options drawn)."""
    rng = SeededDice(seed)
    opts = PRESETS[pick(rng, PRESET_NAMES)]
    if chance(rng, 2):
        name = pick(rng, OPTION_NAMES)
        allowed = option(name)[2]  # a range: few tokens, so games stay short
        value = allowed[0] + rng() if type(allowed) is range else pick(rng, allowed)
        opts = changed(opts, **{name: value})
    dice = SeededDice(seed + 1) if chance(rng, 2) else TieProneDice(seed + 1)
    game = Game(2 + rng() % 7 if chance(rng, 3) else 2 + rng() % 3, opts, dice)
    out = [game.to_dict()]
    while not game.over and len(out) < count * 40:
        apply(game, random_action(game, rng))
        out.append(game.to_dict())
    # Half of them while a tie is played off: the states with the most fields to agree.
    open_ = [d for d in out if d["contest"] is not None and d["contest"]["why"] == "tie"]
    rest = [d for d in out if d not in open_]
    half = min(len(open_), count // 2)
    return _spread(open_, half) + _spread(rest, count - half)


def long_number(digits=LONG_DIGITS):
    """The bytes of a real save whose player count is an integer of digits digits (CPython's
    json refuses to write one over 4300 digits, so the bytes are edited)."""
    save = real_saves(1, 1)[0]
    field = '"players": %d' % save["players"]
    return json.dumps(save).replace(field, '"players": 1' + "0" * (digits - 1), 1).encode()


def nested(depth=NESTED_DEPTH):
    """A save whose format is a list in a list ... depth deep."""
    return b'{"format": ' + b"[" * depth + b"]" * depth + b"}"


def _spread(saves, k):
    if k <= 0 or not saves:
        return []
    step = max(1, len(saves) // k)
    return saves[::step][:k]


def through_files(data):
    """The saved dict the boot reads back from data saved as the tray saves a game: its setup
    as JSON in game.json and the rest in the record of game.now (save_record); SaveError when
    the record is refused (store_read.read_record). A dict no record can hold (a value outside
    its field's digits, a setup that is no game's) is data itself: the boot reads it only from
    an older release's one-file save."""
    try:
        raw = json.dumps(setup_of(data)).encode()
        line = record(data, checksum(raw))
    except Exception:  # no record holds it
        return data
    return read_record(json.loads(raw), raw, line)


def play_on(data, seed, every=7):
    """("refused", reason) or ("played", actions): an accepted save is played to its end.

    Anything else that goes wrong raises: a crash, a game that does not end, or a state on
    the way that the checker would refuse (every `every` actions and at the end).
    """
    try:
        game = load(through_files(data), SeededDice(seed))
    except SaveError as e:
        return "refused", str(e)
    draw_every_screen(game)
    rng = SeededDice(seed + 7)
    actions = 0
    while not game.over:
        apply(game, random_action(game, rng))
        actions += 1
        if actions % every == 0:
            load(game.to_dict(), rng)
        if actions > ACTION_CAP:
            raise RuntimeError("an accepted save did not end in %d actions" % ACTION_CAP)
    load(game.to_dict(), rng)
    return "played", actions


class _Canvas:
    """Takes any drawing call and draws nothing: the screens' logic runs, not the pixels."""

    def __getattr__(self, name):
        return _nothing


def _nothing(*args):
    pass


class _Display:
    fb = _Canvas()
    width = 128
    height = 64


class _Buttons:
    """No button is pressed here; a screen shown sets OK's long meaning (App.show)."""

    def long_meaning(self, name, on):
        pass


def draw_every_screen(game):
    """Draw each screen a resumed game can show, as the tray's app does."""
    app = App(_Display(), _Buttons(), None, game.roll, ticks_diff, ticks_add)
    if game.over:  # the tray clears a finished save at boot; these close a game
        screens = [RESULT, OVER, TALLY]
    else:
        screens = [RESUME, PLAY, STANDINGS, TALLY, QUIT, PHASE]
        if game.last is not None:
            screens.append(RESULT)
    for screen in screens:
        app.play(game, screen)
        app.render()


def cases(seed, count, per_game=12):
    """count (save, mutated save) pairs: 1 to 3 mutations each, from several games."""
    rng = SeededDice(seed)
    out = []
    game_seed = seed * 1000
    while len(out) < count:
        game_seed += 1
        for save in real_saves(game_seed, per_game):
            bad = save
            for _ in range(1 + rng() % 3):
                bad = mutate(bad, rng)
            out.append(bad)
            if len(out) == count:
                break
    return out

