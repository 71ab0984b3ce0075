"""Plays a whole game of 421 on the host and prints every throw, keep, payout and phase change.

    python tools/gamelog.py --preset lebon --players 4 --seed 7
    python tools/gamelog.py --preset classic --players 2 --dice 4,2,1,6,6,5 --option le_bon=on

Decisions (what to keep, when to stop) come from a simple bot; the dice from --dice (scripted, in
order) or from a seeded generator. Follow the game against the rule text of the preset.
"""

import argparse
import sys

import trayhost  # noqa: F401  (first: the firmware importable as on the Pico)
from dicetray.game import Game, GameError
from dicetray.options import OPTION_NAMES, PRESET_NAMES, PRESETS, changed
from dicetray.rules import RulesError, evaluate
from trayhost.autoplay import ScriptedDice, SeededDice, play_random


def who(p):
    return "the pot" if p < 0 else "P%d" % (p + 1)


def dice_str(dice):
    return "-".join(str(d) for d in dice)


class Printer:
    """Turns game events into lines a person can check against the rule text."""

    def __init__(self, game, out=print):
        self.game = game
        self.out = out

    def standings(self):
        g = self.game
        parts = ["%s %d" % (who(p), g.tokens[p]) for p in range(g.n) if p not in g.out]
        return "  tokens: " + ", ".join(parts) + (" | pot %d" % g.pot if g.pot else "")

    def events(self, evs):
        for ev in evs:
            self.event(ev)

    def event(self, ev):
        """Print the lines of one event; a kind not in EVENT_LINES prints nothing."""
        lines_of = self.EVENT_LINES.get(ev[0])
        if lines_of is not None:
            for line in lines_of(self, *ev[1:]):
                self.out(line)

    # One method per event kind: the event's fields in, the lines to print out.

    def _roll(self, p, dice, n, kept):
        kept_faces = " ".join(str(dice[i]) for i in kept)
        keep = " keeping %s," % kept_faces if kept else ""
        name = evaluate(dice, self.game.opts).name
        line = "  %s throw %d/%d:%s %s  (%s)"
        return [line % (who(p), n, self.game.max_throws(), keep, dice_str(dice), name)]

    def _stop(self, p, n, name):
        return ["  %s stops after %d throw%s with %s" % (who(p), n, "s" if n > 1 else "", name)]

    def _contest(self, players, why, kind, rnd):
        names = ", ".join(who(p) for p in players)
        what = "one die each" if kind == "die" else "one throw of three dice each"
        if why == "start":
            return ["Who starts: %s (%s), round %d" % (names, what, rnd)]
        label = "roll-off" if kind == "die" else "play-off (qui barre demarre)"
        return ["  tie: %s, %s in this order, %s, round %d" % (names, label, what, rnd)]

    def _contest_roll(self, p, dice):
        return ["    %s rolls %s" % (who(p), dice_str(dice))]

    def _stake(self, p, stake):
        return ["    %s plays for %s" % (who(p), "what is" if stake == "is" else "what comes")]

    def _starter(self, p):
        return ["Turn %d (%s), %s starts" % (self.game.turn.number, self.game.phase, who(p))]

    def _tie_pass(self, order):
        return ["  tie between two players: nothing is paid, the hand passes"]

    def _pay(self, giver, taker, n, why):
        paid = "  %s gives %d token%s to %s" % (who(giver), n, "s" if n != 1 else "", who(taker))
        return [paid, self.standings()]

    def _turn(self, winner, loser, moved):
        last, opts = self.game.last, self.game.opts
        return ["  best %s (%s), worst %s (%s)" % (
            who(winner), evaluate(last.wdice, opts).name,
            who(loser), evaluate(last.ldice, opts).name)]

    def _phase(self, name):
        return ["== %s ==" % name.upper()]

    def _out(self, p):
        return ["  %s has no tokens left and leaves as a winner" % who(p)]

    def _over(self, losers, winners, reason):
        lines = ["== GAME OVER (%s) ==" % reason]
        if winners:
            lines.append("winners: " + ", ".join(who(p) for p in winners))
        lines.append("%s pay%s the round" % (" and ".join(who(p) for p in losers),
                                             "s" if len(losers) == 1 else ""))
        return lines

    EVENT_LINES = {
        "roll": _roll, "stop": _stop, "contest": _contest, "contest_roll": _contest_roll,
        "stake": _stake, "starter": _starter, "tie_pass": _tie_pass, "pay": _pay, "turn": _turn,
        "phase": _phase, "out": _out, "over": _over,
    }


def parse_option(text):
    name, _, raw = text.partition("=")
    if name not in OPTION_NAMES:
        raise SystemExit("unknown option %r; options: %s" % (name, ", ".join(OPTION_NAMES)))
    low = raw.lower()
    if low in ("true", "on", "yes"):
        return name, True
    if low in ("false", "off", "no"):
        return name, False
    try:
        return name, int(raw)
    except ValueError:
        return name, raw


def play(preset, players, dice, options=(), seed=0, out=print, max_actions=100000):
    """Play and print one game; returns the finished Game."""
    opts = changed(PRESETS[preset], **dict(options))
    game = Game(players, opts, dice)
    printer = Printer(game, out)
    out("421 dice tray: preset %s, %d players, %d tokens" % (preset, players, opts.tokens))
    differs = ", ".join("%s=%s" % kv for kv in options)
    if differs:
        out("options changed: " + differs)
    for ev in game.take_events():
        printer.event(ev)
    try:
        play_random(game, SeededDice(seed + 1000), max_actions, printer.events)
    except RuntimeError as e:
        raise SystemExit("error: %s" % e) from None
    return game


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=PRESET_NAMES, default="classic")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1, help="seed for the dice and the bot")
    ap.add_argument("--dice", help="scripted dice, comma-separated, used in order")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="change one option of the preset (repeatable)")
    args = ap.parse_args(argv)
    dice = SeededDice(args.seed)
    if args.dice:
        dice = ScriptedDice(int(v) for v in args.dice.replace(" ", "").split(",") if v)
    try:
        play(args.preset, args.players, dice, [parse_option(o) for o in args.option], args.seed)
    except (GameError, RulesError) as e:
        raise SystemExit("error: %s" % e) from None
    except IndexError as e:
        raise SystemExit("error: %s" % e) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
