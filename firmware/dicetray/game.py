"""One game of 421 as a state machine: players, phases, turns, roll limits, ties, payouts, end."""

from dicetray.rules import K_NENETTE, PRESETS, Options, RulesError, check_dice, evaluate, is_figure

SAVE_FORMAT = "dicetray-game"
SAVE_VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_THROWS = 3

# Phases
START = "start"  # who starts the first turn (a roll-off)
CHARGE = "charge"
DECHARGE = "decharge"
OVER = "over"
PHASES = (START, CHARGE, DECHARGE, OVER)


class GameError(ValueError):
    """An illegal action or a bad saved state; the game is left unchanged."""


class SaveError(GameError):
    """A saved game this tray cannot resume; the message says why. Only the checker raises it."""


class Game:
    """A whole game. Actions: throw(keep), stop(), announce(stake). Each returns its events.

    Events are tuples whose first item names them:
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

    def __init__(self, players, options, roll, _state=None):
        if isinstance(options, str):
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
        if _state is not None:
            for name, value in _state.items():  # MicroPython cannot update __dict__
                setattr(self, name, value)
            return
        self.tokens = [0] * players
        self.pot = options.tokens
        self.out = []  # players who left as winners, in order
        self.phase = START
        self.turn = 0  # turns played so far (1 while the first one is under way)
        self.order = []  # this turn's players, the starter first
        self.pos = 0  # index in order of the player throwing
        self.limit = 0  # throws allowed to followers; 0 until the first player stops
        self.count = 0  # throws made by the current player
        self.dice = []  # the current player's dice
        self.finals = []  # dice of the players who are done this turn, in order
        self.counts = []  # their numbers of throws
        self.contest = None  # an open roll-off / play-off (dict), see _open_contest
        self.queue = []  # further contests this turn needs: [players, want]
        self.res = None  # this turn's resolution in progress (dict)
        self.last = None  # the last finished turn, for display
        self.result = None  # at the end: {"losers", "winners", "reason"}
        start = options.start
        if start == "seat1":
            self._begin_play(0)
        else:
            kind = "die" if start == "die" else "throw"
            want = "low" if start == "throw_low" else "high"
            self._open_contest(list(range(players)), want, kind, "start")

    # ---- what the players can do now ---------------------------------------------------

    @property
    def over(self):
        return self.phase == OVER

    @property
    def current(self):
        """The player expected to act, or None when the game is over."""
        c = self.contest
        if c is not None:
            return c["players"][len(c["results"])]
        if self.phase == OVER:
            return None
        return self.order[self.pos]

    def max_throws(self):
        """How many throws the current player may make in this turn."""
        return self.limit or MAX_THROWS

    def may_stop_early(self):
        o = self.opts
        return self.pos == 0 or o.limit == "at_most" or o.le_bon

    def can_throw(self):
        if self.phase == OVER:
            return False
        return self.contest is not None or self.count < self.max_throws()

    def can_keep(self):
        return self.contest is None and self.phase != OVER and self.count > 0

    def can_stop(self):
        if self.contest is not None or self.phase == OVER or self.count == 0:
            return False
        return self.count >= self.max_throws() or self.may_stop_early()

    def can_announce(self):
        c = self.contest
        return c is not None and c["kind"] == "throw" and c["why"] != "start" \
            and c["round"] > 1 and not c["results"] and c["stake"] is None

    def active(self):
        """Players still in the game, in seat order."""
        return [p for p in range(self.n) if p not in self.out]

    # ---- actions -----------------------------------------------------------------------

    def throw(self, keep=(), last=False, player=None):
        """Throw the dice not kept (indices 0..2 of the current dice). last: say "le bon" now."""
        self._check_turn(player)
        if self.contest is not None:
            if keep or last:
                raise GameError("a roll-off is one throw: nothing to keep")
            c = self.contest
            dice = self._roll(1 if c["kind"] == "die" else 3)
            return self._contest_roll(dice)
        if self.count >= self.max_throws():
            raise GameError("no throw left: %d of %d made" % (self.count, self.max_throws()))
        kept = self._check_keep(keep)
        if last and not self.may_stop_early():
            raise GameError("le bon is not allowed here: %d throws are due" % self.max_throws())
        fresh = self._roll(3 - len(kept))
        p = self.current
        # Kept dice stay where they are (under their KEEP button); fresh ones fill the rest.
        dice = [self.dice[i] if i in kept else fresh.pop() for i in (2, 1, 0)][::-1]
        self.dice = dice
        self.count += 1
        self._emit("roll", p, tuple(dice), self.count, kept)
        if last:
            self._finish_player()
        return self._flush()

    def stop(self, player=None):
        """End the current player's throws ("le bon" for a follower who stops early)."""
        self._check_turn(player)
        if self.contest is not None:
            raise GameError("a roll-off is under way: throw")
        if self.count == 0:
            raise GameError("throw first")
        if not self.can_stop():
            raise GameError("%d throws are due, %d made" % (self.max_throws(), self.count))
        self._finish_player()
        return self._flush()

    def announce(self, stake, player=None):
        """In a repeated play-off, its first thrower plays "for what is" or "for what comes"."""
        self._check_turn(player)
        if stake not in ("is", "comes"):
            raise GameError("stake must be 'is' or 'comes'")
        if not self.can_announce():
            raise GameError("a stake is announced only before a repeated play-off")
        self.contest["stake"] = stake
        self._emit("stake", self.current, stake)
        return self._flush()

    def take_events(self):
        """The events not yet returned (after construction: the set-up, e.g. the roll-off)."""
        return self._flush()

    # ---- helpers for the actions ---------------------------------------------------------

    def _check_turn(self, player):
        if self.phase == OVER:
            raise GameError("the game is over")
        if player is not None and player != self.current:
            raise GameError("it is P%d's turn, not P%d's" % (self.current + 1, player + 1))

    def _check_keep(self, keep):
        kept = tuple(keep)
        if not kept:
            return kept
        if self.count == 0:
            raise GameError("nothing to keep before the first throw")
        for i in kept:
            if type(i) is not int or not 0 <= i <= 2:
                raise GameError("kept dice are numbered 0..2, got %r" % (i,))
        if len(set(kept)) != len(kept):
            raise GameError("a die is kept twice")
        if len(kept) == 3:
            raise GameError("a throw must throw at least one die")
        return tuple(sorted(kept))

    def _roll(self, k):
        dice = [self.roll() for _ in range(k)]
        try:
            check_dice(dice, k)
        except RulesError as e:
            raise GameError(str(e)) from None
        return dice

    def _flush(self):
        ev = self.events
        self.events = []
        return ev

    def _emit(self, *event):
        self.events.append(event)

    # ---- a turn -----------------------------------------------------------------------

    def _begin_play(self, starter):
        self.phase = CHARGE
        self._emit("phase", CHARGE)
        self._new_turn(starter)

    def _new_turn(self, starter):
        self.turn += 1
        act = self.active()
        i = act.index(starter)
        self.order = act[i:] + act[:i]
        self.pos = 0
        dry = self.phase == CHARGE and self.opts.dry_charge
        self.limit = 1 if dry else 0
        self.count = 0
        self.dice = []
        self.finals = []
        self.counts = []
        self.res = None
        self._emit("starter", starter)

    def _finish_player(self):
        p = self.current
        self._emit("stop", p, self.count, evaluate(self.dice, self.opts).name)
        self.finals.append(self.dice)
        self.counts.append(self.count)
        if self.pos == 0 or self.opts.limit_from == "previous":
            self.limit = self.count
        self.pos += 1
        self.count = 0
        self.dice = []
        if self.pos == len(self.order):
            self.pos -= 1  # stays on the last player until the next turn starts
            self._resolve_turn()

    def _key(self, i):
        # Sort key of the i-th player of the turn: strength, then the tie rules that need no dice.
        o = self.opts
        combo = evaluate(self.finals[i], o)
        later = o.tie == "later" or (o.nenette_later_wins and combo.kind == K_NENETTE)
        return (combo.strength, -self.counts[i] if o.fewer_throws_win else 0, i if later else 0)

    def _resolve_turn(self):
        keys = [self._key(i) for i in range(len(self.order))]
        top = max(keys)
        bottom = min(keys)
        best = [self.order[i] for i, k in enumerate(keys) if k == top]
        worst = [self.order[i] for i, k in enumerate(keys) if k == bottom]
        self.res = {
            "winner": best[0] if len(best) == 1 else -1,
            "loser": worst[0] if len(worst) == 1 else -1,
            "amount": -1,
        }
        if top == bottom:
            if self.opts.two_player_pass and len(self.order) == 2:
                self._emit("tie_pass", tuple(self.order))
                self.last = self._summary(self.order[0], self.order[1], 0, True)
                self._new_turn(self.order[1])
                return
            # In the charge the pot pays whoever did best: only the loser is settled (#14).
            self.queue = [[best, "both" if self.phase == DECHARGE else "low"]]
        else:
            self.queue = []
            if len(worst) > 1:
                self.queue.append([worst, "low"])
            # Who wins a tie for best only matters when the winner pays.
            if len(best) > 1 and self.phase == DECHARGE:
                self.queue.append([best, "high"])
        self._next_contest()

    def _next_contest(self):
        if self.queue:
            players, want = self.queue.pop(0)
            kind = "throw" if self.opts.tie == "playoff" else "die"
            self._open_contest(players, want, kind, "tie")
        else:
            self._pay()

    # ---- roll-offs and play-offs ------------------------------------------------------

    def _open_contest(self, players, want, kind, why, rnd=1):
        if why == "tie":
            # Seat order of the turn; a play-off ("qui barre demarre") runs from the last back.
            players = [p for p in self.order if p in players]
            if kind == "throw":
                players.reverse()
        self.contest = {
            "players": players,
            "want": want,
            "kind": kind,
            "why": why,
            "round": rnd,
            "results": [],
            "stake": None,  # announced once, before a repeated play-off; None plays "is"
        }
        self._emit("contest", tuple(players), why, kind, rnd)

    def _contest_roll(self, dice):
        c = self.contest
        p = self.current
        c["results"].append(dice)
        self._emit("contest_roll", p, tuple(dice))
        if len(c["results"]) == len(c["players"]):
            self._close_contest()
        return self._flush()

    def _contest_key(self, dice):
        if len(dice) == 1:
            return dice[0]
        return evaluate(dice, self.opts).strength

    def _close_contest(self):
        c = self.contest
        self.contest = None
        keys = [self._contest_key(d) for d in c["results"]]
        players = c["players"]
        top = max(keys)
        bottom = min(keys)
        high = [p for p, k in zip(players, keys) if k == top]
        low = [p for p, k in zip(players, keys) if k == bottom]
        want = c["want"]
        if c["why"] == "start":
            pick = high if want == "high" else low
            if len(pick) > 1:
                self._open_contest(pick, want, c["kind"], "start", c["round"] + 1)
            else:
                self._begin_play(pick[0])
            return
        if c["stake"] == "comes":
            self.res["amount"] = max(evaluate(d, self.opts).tokens for d in c["results"])
        if self.phase == CHARGE and want == "both":
            want = "low"  # a save from before #14 was honoured: the pot pays, the best is moot
        again = []
        if top == bottom:
            again.append([players, want])
        else:
            # The loser's tie first, then the winner's (#14), as _resolve_turn queues them.
            if want != "high":
                if len(low) == 1:
                    self.res["loser"] = low[0]
                else:
                    again.append([low, "low"])
            if want != "low":
                if len(high) == 1:
                    self.res["winner"] = high[0]
                else:
                    again.append([high, "high"])
        if again:
            # A new tie inside the contest: the same kind of contest again, next round.
            players, want = again.pop(0)
            self.queue = again + self.queue
            self._open_contest(players, want, c["kind"], "tie", c["round"] + 1)
        else:
            self._next_contest()

    # ---- payouts, phases, end ------------------------------------------------------------

    def _amount(self, winner, loser):
        o = self.opts
        if self.res["amount"] >= 0:
            return self.res["amount"]
        wc = evaluate(self._final_of(winner), o)
        lc = evaluate(self._final_of(loser), o)
        if o.nenette_fixed and lc.kind == K_NENETTE:
            return o.nenette_fixed
        if o.deduct and is_figure(lc):
            return max(1, wc.tokens - lc.tokens)
        return wc.tokens

    def _final_of(self, p):
        return self.finals[self.order.index(p)]

    def _pay(self):
        res = self.res
        loser = res["loser"]
        winner = res["winner"]
        if winner < 0:
            # Charge with a tie for best: any of them did the best throw; the pot pays.
            winner = self._best_of_turn(loser)
        amount = self._amount(winner, loser)
        if self.phase == CHARGE:
            moved = min(amount, self.pot)  # never more than the pot holds
            giver = -1
            self.pot -= moved
        else:
            moved = min(amount, self.tokens[winner])  # never more than the winner holds
            giver = winner
            self.tokens[winner] -= moved
        self.tokens[loser] += moved
        self.last = self._summary(winner, loser, moved, False)
        self._emit("turn", winner, loser, moved)
        self._emit("pay", giver, loser, moved, self.phase)
        if self.phase == CHARGE:
            if self.pot == 0:
                self._end_charge(loser)
            else:
                self._new_turn(loser)
        else:
            self._after_decharge_turn(winner, loser)

    def _best_of_turn(self, loser):
        # The first best throw of the turn that is not the loser's (all may have tied).
        keys = [self._key(i) for i in range(len(self.order))]
        top = max(keys)
        for i, k in enumerate(keys):
            if k == top and self.order[i] != loser:
                return self.order[i]
        return self.order[keys.index(top)]

    def _summary(self, winner, loser, moved, passed):
        return {
            "turn": self.turn,
            "phase": self.phase,
            "winner": winner,
            "loser": loser,
            "amount": moved,
            "wdice": list(self._final_of(winner)),
            "ldice": list(self._final_of(loser)),
            "passed": passed,
        }

    def _end_charge(self, loser):
        holders = [p for p in range(self.n) if self.tokens[p] > 0]
        empty = [p for p in range(self.n) if self.tokens[p] == 0]
        if self.opts.end == "first_out":
            if empty:
                self._finish(self._most_tokens(), empty, "first_out")
                return
        else:
            for p in empty:
                self._leave(p)
            if len(holders) == 1:
                self._finish(holders, self.out[:], "espagnole")
                return
        self.phase = DECHARGE
        self._emit("phase", DECHARGE)
        if self.opts.decharge_start == "fewest":
            loser = self._fewest_from(loser)
        self._new_turn(loser)

    def _after_decharge_turn(self, winner, loser):
        if self.tokens[winner] == 0:
            if self.opts.end == "first_out":
                self._finish(self._most_tokens(), [winner], "first_out")
                return
            self._leave(winner)
            left = self.active()
            if len(left) == 1:
                self._finish(left, self.out[:], "last_holder")
                return
        self._new_turn(loser)

    def _leave(self, p):
        self.out.append(p)
        self._emit("out", p)

    def _most_tokens(self):
        top = max(self.tokens)
        return [p for p in range(self.n) if self.tokens[p] == top]

    def _fewest_from(self, first):
        # The holder of the fewest tokens; a tie goes to the first of them clockwise from `first`.
        act = self.active()
        low = min(self.tokens[p] for p in act)
        i = act.index(first)
        for p in act[i:] + act[:i]:
            if self.tokens[p] == low:
                return p
        return first

    def _finish(self, losers, winners, reason):
        self.phase = OVER
        self.contest = None
        self.queue = []
        self.result = {"losers": list(losers), "winners": list(winners), "reason": reason}
        self._emit("over", tuple(losers), tuple(winners), reason)

    # ---- save and load -------------------------------------------------------------------

    _FIELDS = (
        "tokens", "pot", "out", "phase", "turn", "order", "pos", "limit", "count", "dice",
        "finals", "counts", "contest", "queue", "res", "last", "result",
    )  # fmt: skip

    def to_dict(self):
        """The complete state as a small JSON-compatible dict."""
        d = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "players": self.n}
        d["options"] = self.opts.to_dict()
        for name in self._FIELDS:
            d[name] = _copy(getattr(self, name))
        return d

    @classmethod
    def from_dict(cls, data, roll):
        """Rebuild a game saved by to_dict(); raises SaveError on anything bad or foreign."""
        from dicetray.savecheck import check_agree, check_state

        state, options, players = check_state(data)
        game = cls(players, options, roll, _state=state)
        check_agree(game)
        return game

    def __eq__(self, other):
        return isinstance(other, Game) and self.to_dict() == other.to_dict()


def _copy(v):
    # A deep copy of plain data with tuples turned into lists (what JSON gives back).
    if isinstance(v, (list, tuple)):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v
