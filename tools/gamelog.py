"""Plays a whole game of 421 on the host and prints every throw, keep, payout and phase change.

    python tools/gamelog.py --preset lebon --players 4 --seed 7
    python tools/gamelog.py --preset classic --players 2 --dice 4,2,1,6,6,5 --option le_bon=on

Decisions (what to keep, when to stop) come from a simple bot; the dice from --dice (scripted, in
order) or from a seeded generator. Follow the game against the rule text of the preset.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from autoplay import ScriptedDice, SeededDice, apply, bot_action  # noqa: E402
from dicetray.game import Game, GameError  # noqa: E402
from dicetray.rules import OPTION_NAMES, PRESET_NAMES, PRESETS, RulesError, evaluate  # noqa: E402


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

    def event(self, ev):
        g = self.game
        kind = ev[0]
        say = self.out
        if kind == "roll":
            _, p, dice, n, kept = ev
            kept_faces = " ".join(str(dice[i]) for i in kept)
            keep = " keeping %s," % kept_faces if kept else ""
            name = evaluate(dice, g.opts).name
            line = "  %s throw %d/%d:%s %s  (%s)"
            say(line % (who(p), n, g.max_throws(), keep, dice_str(dice), name))
        elif kind == "stop":
            _, p, n, name = ev
            say("  %s stops after %d throw%s with %s" % (who(p), n, "s" if n > 1 else "", name))
        elif kind == "contest":
            _, players, why, ckind, rnd = ev
            names = ", ".join(who(p) for p in players)
            what = "one die each" if ckind == "die" else "one throw of three dice each"
            if why == "start":
                say("Who starts: %s (%s), round %d" % (names, what, rnd))
            else:
                label = "roll-off" if ckind == "die" else "play-off (qui barre demarre)"
                say("  tie: %s, %s in this order, %s, round %d" % (names, label, what, rnd))
        elif kind == "contest_roll":
            _, p, dice = ev
            say("    %s rolls %s" % (who(p), dice_str(dice)))
        elif kind == "stake":
            _, p, stake = ev
            say("    %s plays for %s" % (who(p), "what is" if stake == "is" else "what comes"))
        elif kind == "starter":
            say("Turn %d (%s), %s starts" % (g.turn, g.phase, who(ev[1])))
        elif kind == "tie_pass":
            say("  tie between two players: nothing is paid, the hand passes")
        elif kind == "pay":
            _, giver, taker, n, why = ev
            say("  %s gives %d token%s to %s" % (who(giver), n, "s" if n != 1 else "", who(taker)))
            say(self.standings())
        elif kind == "turn":
            _, w, lo, n = ev
            last = g.last
            say("  best %s (%s), worst %s (%s)" % (
                who(w), evaluate(last["wdice"], g.opts).name,
                who(lo), evaluate(last["ldice"], g.opts).name))
        elif kind == "phase":
            say("== %s ==" % ev[1].upper())
        elif kind == "out":
            say("  %s has no tokens left and leaves as a winner" % who(ev[1]))
        elif kind == "over":
            _, losers, winners, reason = ev
            say("== GAME OVER (%s) ==" % reason)
            if winners:
                say("winners: " + ", ".join(who(p) for p in winners))
            say("%s pay%s the round" % (" and ".join(who(p) for p in losers),
                                        "s" if len(losers) == 1 else ""))


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
    opts = PRESETS[preset].replace(**dict(options))
    game = Game(players, opts, dice)
    printer = Printer(game, out)
    out("421 dice tray: preset %s, %d players, %d tokens" % (preset, players, opts.tokens))
    changed = ", ".join("%s=%s" % kv for kv in options)
    if changed:
        out("options changed: " + changed)
    for ev in game.take_events():
        printer.event(ev)
    bot = SeededDice(seed + 1000)
    for _ in range(max_actions):
        if game.over:
            return game
        for ev in apply(game, bot_action(game, bot)):
            printer.event(ev)
    raise SystemExit("the game did not end within %d actions" % max_actions)


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
