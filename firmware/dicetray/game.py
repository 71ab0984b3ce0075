"""One game of 421 as a state machine: players, turns, roll limits and actions (pure, no I/O).

The view of a Game, what screens and players read (never change it from outside):
  n, opts                  players and rules
  phase                    START, CHARGE, DECHARGE or OVER (dicetray.state)
  tokens, pot, out         each player's tokens, the pot, who left as a winner
  turn                     the turn under way: a state.Turn (number, order, count, dice...)
  contest                  the open roll-off or play-off (a state.Contest), or None
  last                     how the last turn ended (a state.TurnResult), or None
  result                   how the game ended (a state.GameResult), or None
  computers, hints         the seats the tray plays; whether a human's turn shows hints
  lang                     the language the game is played in (dicetray.words' code)
  current, over, max_throws(), may_stop_early(), can_throw(), can_keep(), must_stop(),
  can_stop(), can_announce(), active(), ranked(turn), sort_keys(turn)
  ended, decided           not saved, for the screens after an action: the turn that ended
                           (a state.Turn), the contest decided (Contest, best, worst rollers)

A keep (keep(i)) changes the state but has no event: turn.kept says which dice are kept.
take_back(fields) puts back an earlier moment of the game (the app's undo of a stop or a
stake): no event either.

Events are tuples whose first item names them. Each goes through Game.emit, the event sink
(settle and payout call it too), in the order things happen; each action returns those it
caused, take_events() the set-up's:
  ("roll", p, dice, n, kept)    p threw (n-th throw of the turn); kept = indices kept
  ("stop", p, n, name)          p's throws are over after n throws, with this combination
  ("contest", players, why, kind, rnd)  a roll-off (kind "die") or play-off ("throw") opens
  ("contest_roll", p, dice)     p's roll in it (one die or three)
  ("stake", p, stake)           "is" or "comes": what a repeated play-off is played for
  ("starter", p)                p starts the next turn
  ("tie_pass", players)         two players tied: nothing is paid, the hand passes
  ("pay", giver, taker, n, why) n tokens from giver (-1 is the pot) to taker
  ("turn", winner, loser, n)    the turn's result
  ("phase", name)               a phase begins
  ("out", p)                    p has no tokens left and leaves as a winner
  ("over", losers, winners, reason)
"""

from dicetray import settle
from dicetray.rules import LIMIT_AT_MOST, Options, RulesError, check_dice
from dicetray.settle import ranking
from dicetray.state import (
    DIE,
    FOR_WHAT_COMES,
    FOR_WHAT_IS,
    GAME_FIELDS,
    OVER,
    SAVE_FORMAT,
    SAVE_VERSION,
    STAKES,
    START,
    THROW,
    TIE,
    GameError,
    Turn,
    dump,
)
from dicetray.words import DEFAULT as DEFAULT_LANG

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_THROWS = 3


class Game:
    """A whole game. Actions: keep(die), throw(keep), stop(), announce(stake). Each returns its
    events. The view, what screens and players read: the module's docstring lists both."""

    ended = None
    decided = None
    _keys = None  # the turn ranked last: [finals, sort keys, places] (settle.ranking)
    _rolls = None  # the contest's rolls valued: [its results, their keys] (settle._roll_keys)

    def __init__(self, players, options, roll, _state=None, computers=(), hints=False,
                 lang=DEFAULT_LANG):
        if isinstance(options, str):  # a preset's name: for tests and tools, never on the tray
            from dicetray.options import PRESETS

            if options not in PRESETS:
                raise GameError("unknown preset: %r" % (options,))
            options = PRESETS[options]
        if not isinstance(options, Options):
            raise GameError("options must be an Options object or a preset name")
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise GameError("players must be %d..%d" % (MIN_PLAYERS, MAX_PLAYERS))
        self.opts = options
        self.n = players
        self.roll = roll
        self.events = []  # what happened since the last action returned (the first: the set-up)
        self.lang = lang  # the language it is played in (dicetray.words): a save's, if it says
        if _state is not None:
            for name, value in _state.items():  # MicroPython cannot update __dict__
                setattr(self, name, value)
            return
        self.tokens = [0] * players
        self.pot = options.tokens
        self.out = []
        self.phase = START
        self.turn = Turn()
        self.contest = None
        self.last = None
        self.result = None
        if len(computers) >= players:
            raise GameError("one seat at least stays human")
        self.computers = sorted(computers)  # seats the tray plays: the engine only keeps them
        self.hints = hints
        settle.start(self)  # who starts: seat 1, or a roll-off

    # ---- the view: what the players can do now -----------------------------------------

    @property
    def over(self):
        return self.phase == OVER

    @property
    def current(self):
        """The player expected to act, or None when the game is over."""
        c = self.contest
        if c is not None:
            return c.players[len(c.results)]
        if self.phase == OVER:
            return None
        return self.turn.order[self.turn.pos]

    def max_throws(self):
        """How many throws the current player may make in this turn."""
        return self.turn.limit or MAX_THROWS

    def may_stop_early(self):
        o = self.opts
        return self.turn.pos == 0 or o.limit == LIMIT_AT_MOST or o.le_bon

    def can_throw(self):
        if self.phase == OVER:
            return False
        return self.contest is not None or self.turn.count < self.max_throws()

    def can_keep(self):
        """Whether the current player may keep dice: between two of his throws."""
        t = self.turn
        return self.contest is None and self.phase != OVER and 0 < t.count < self.max_throws()

    def must_stop(self):
        """Whether the current player's throws are used up: only a stop is left to do."""
        return self.contest is None and self.phase != OVER \
            and self.turn.count >= self.max_throws()

    def can_stop(self):
        if self.contest is not None or self.phase == OVER or self.turn.count == 0:
            return False
        return self.turn.count >= self.max_throws() or self.may_stop_early()

    def can_announce(self):
        c = self.contest
        return c is not None and c.kind == THROW and c.why == TIE and c.round > 1 \
            and not c.results and c.stake is None

    def active(self):
        """Players still in the game, in seat order (a new list)."""
        if not self.out:  # the charge, and most of the décharge: everybody, without a test each
            return list(range(self.n))
        return [p for p in range(self.n) if p not in self.out]

    def ranked(self, turn=None):
        """Places in turn (this one) of the players done, best throw first; a tie: turn order.
        The list is shared (sort_keys): read it, never change it."""
        return ranking(self, turn)[2]

    def sort_keys(self, turn=None):
        """settle.key of each player done in turn (this one), in turn order (shared, as ranked).
        Each is worked out once, and placed among the throws before it as it comes: a turn's
        end ranks every throw, and so does each screen of the turns that follow, in a press's
        frame on the Pico (a stop's, a throw's). Kept for one turn's list of finals, that very
        list (a turn resumed or taken back holds a new one; finals only grow); not saved."""
        return ranking(self, turn)[1]

    # ---- actions -----------------------------------------------------------------------

    def keep(self, die, player=None):
        """Keep die (0..2) for the next throw, or release it if kept (turn.kept)."""
        self._check_turn(player)
        if type(die) is not int or not 0 <= die <= 2:
            raise GameError("dice are numbered 0..2")
        if not self.can_keep():
            raise GameError("nothing to keep now")
        kept = self.turn.kept ^ (1 << die)
        if kept == 7:
            raise GameError("a throw must throw at least one die")
        self.turn.kept = kept
        return self._flush()

    def throw(self, keep=(), last=False, player=None):
        """Throw the dice not kept (indices 0..2), which stay kept for the next throw if there
        is one (turn.kept). last: say "le bon" now."""
        self._check_turn(player)
        if self.contest is not None:
            if keep or last:
                raise GameError("a roll-off is one throw: nothing to keep")
            dice = _roll(self.roll, 1 if self.contest.kind == DIE else 3)
            settle.contest_roll(self, dice)
            return self._flush()
        t = self.turn
        if t.count >= self.max_throws():
            raise GameError("no throw left: %d of %d made" % (t.count, self.max_throws()))
        kept, mask = _kept_dice(t.count, keep)
        if last and not self.may_stop_early():
            raise GameError("le bon is not allowed here: %d throws are due" % self.max_throws())
        fresh = _roll(self.roll, 3 - len(kept))
        p = self.current
        # Kept dice stay where they are (under their KEEP button); fresh ones fill the rest.
        t.dice = [t.dice[i] if i in kept else fresh.pop() for i in (2, 1, 0)][::-1]
        t.count += 1
        t.kept = mask if t.count < self.max_throws() else 0
        self.emit("roll", p, tuple(t.dice), t.count, kept)
        if last:
            settle.finish_player(self)
        return self._flush()

    def stop(self, player=None):
        """End the current player's throws ("le bon" for a follower who stops early)."""
        self._check_turn(player)
        if self.contest is not None:
            raise GameError("a roll-off is under way: throw")
        if self.turn.count == 0:
            raise GameError("throw first")
        if not self.can_stop():
            raise GameError("%d throws are due, %d made" % (self.max_throws(), self.turn.count))
        settle.finish_player(self)
        return self._flush()

    def announce(self, stake, player=None):
        """In a repeated play-off, its first thrower plays "for what is" or "for what comes"."""
        self._check_turn(player)
        if stake not in STAKES:
            raise GameError("stake must be '%s' or '%s'" % (FOR_WHAT_IS, FOR_WHAT_COMES))
        c = self.contest
        if c is None or not self.can_announce():
            raise GameError("a stake is announced only before a repeated play-off")
        c.stake = stake
        self.emit("stake", self.current, stake)
        return self._flush()

    def take_back(self, fields):
        """Put the game back as it was at an earlier moment of it: fields, a dict, holds what
        changes in a game then (a record's fields, save_record: tokens, pot, out, phase, turn,
        contest, last, result, as objects). The app takes back this way the last stop or stake
        a human made while no die was thrown since (dicetray.takeback): no die is thrown
        again, nothing random is replayed. No event: the moment is one already told."""
        for name in fields:
            setattr(self, name, fields[name])
        self.ended = None
        self.decided = None
        self._keys = None
        self._rolls = None
        self.events = []

    def take_events(self):
        """The events not yet returned (after construction: the set-up, e.g. the roll-off)."""
        return self._flush()

    # ---- the event sink --------------------------------------------------------------------

    def emit(self, *event):
        """Tell that event happened (a tuple: the module's docstring lists them). The engine's
        one way out: game, settle and payout call it, in the order things happen; the action
        under way returns what it was told. A subclass that extends it sees every event as it
        happens, the set-up's too."""
        self.events.append(event)

    # ---- helpers for the actions ---------------------------------------------------------

    def _check_turn(self, player):
        if self.phase == OVER:
            raise GameError("the game is over")
        if player is not None and player != self.current:
            raise GameError("it is P%d's turn, not P%d's" % (self.current + 1, player + 1))

    def _flush(self):
        ev = self.events
        self.events = []
        return ev

    # ---- save and load -------------------------------------------------------------------

    def to_dict(self):
        """The complete state as a small JSON-compatible dict (the save format, state.py).

        dicetray.save_check.load() turns it back into a game."""
        d = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "players": self.n}
        d["options"] = self.opts.to_dict()
        d.update(dump(self, GAME_FIELDS))
        if self.lang != DEFAULT_LANG:  # a save without it speaks the default
            d["lang"] = self.lang
        return d

    def __eq__(self, other):
        return isinstance(other, Game) and self.to_dict() == other.to_dict()


def _kept_dice(count, keep):
    # The dice kept for a throw (indices, sorted) and their bit mask, or GameError.
    kept = tuple(keep)
    mask = 0
    if kept and count == 0:
        raise GameError("nothing to keep before the first throw")
    for i in kept:
        if type(i) is not int or not 0 <= i <= 2:
            raise GameError("kept dice are numbered 0..2, got %r" % (i,))
        mask |= 1 << i
    if len(set(kept)) != len(kept):
        raise GameError("a die is kept twice")
    if len(kept) == 3:
        raise GameError("a throw must throw at least one die")
    return tuple(sorted(kept)), mask


def _roll(roll, k):
    dice = [roll() for _ in range(k)]
    try:
        check_dice(dice, k)
    except RulesError as e:
        raise GameError(str(e)) from None
    return dice
