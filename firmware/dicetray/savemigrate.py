"""Reads a save of the first release (format version 1) as version 2 (load only, and rarely).

Version 1 kept the turn's fields at the top of the save, its settling in "res" (None until
every player was done) and the last turn's number under "turn". A tray updated in the middle
of a game resumes it: the engine plays on exactly as the first release would have.
"""

from dicetray.game import SaveError
from dicetray.state import NOBODY, SAVE_VERSION

_V1 = ("format", "version", "players", "options", "tokens", "pot", "out", "phase", "turn",
       "order", "pos", "limit", "count", "dice", "finals", "counts", "contest", "queue", "res",
       "last", "result")
_TURN = ("order", "pos", "limit", "count", "dice", "finals", "counts", "queue")


def from_v1(d):
    """The version 2 dict of a version 1 save; SaveError if it is not one."""
    if len(d) != len(_V1) or [k for k in _V1 if k not in d]:
        raise SaveError("bad save: a version 1 save must have keys " + ", ".join(_V1))
    turn = {"number": d["turn"]}
    for name in _TURN:
        turn[name] = d[name]
    res = d["res"]
    if res is None:
        res = {"winner": NOBODY, "loser": NOBODY, "amount": NOBODY}
    elif type(res) is not dict or sorted(res) != ["amount", "loser", "winner"]:
        raise SaveError("bad save: res must be a dict with keys winner, loser, amount")
    for name in ("winner", "loser", "amount"):
        turn[name] = res[name]
    last = d["last"]
    if type(last) is dict and "turn" in last and "number" not in last:
        last = dict(last)
        last["number"] = last.pop("turn")
    return {
        "format": d["format"], "version": SAVE_VERSION, "players": d["players"],
        "options": d["options"], "tokens": d["tokens"], "pot": d["pot"], "out": d["out"],
        "phase": d["phase"], "turn": turn, "contest": d["contest"], "last": last,
        "result": d["result"],
    }
