"""Reads saves of older formats as the current one (load only, and rarely).

Version 1 kept the turn's fields at the top of the save, its settling in "res" (None until
every player was done) and the last turn's number under "turn". Version 2 had no kept dice: the
app kept them, and a resume released them. Version 3 had no computer seats and no hints.
Version 4 kept the same fields as today, all in game.json (save_record keeps them in two files).
A tray updated in the middle of a game resumes it: the engine plays on exactly as the older
release would have.
"""

from dicetray.state import NOBODY, SAVE_VERSION, SaveError

_V1 = ("format", "version", "players", "options", "tokens", "pot", "out", "phase", "turn",
       "order", "pos", "limit", "count", "dice", "finals", "counts", "contest", "queue", "res",
       "last", "result")
_TURN = ("order", "pos", "limit", "count", "dice", "finals", "counts", "queue")


def from_v1(d):
    """The version 2 dict of a version 1 save (from_v2 reads it on); SaveError if it is not."""
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
        "format": d["format"], "version": 2, "players": d["players"],
        "options": d["options"], "tokens": d["tokens"], "pot": d["pot"], "out": d["out"],
        "phase": d["phase"], "turn": turn, "contest": d["contest"], "last": last,
        "result": d["result"],
    }


def from_v2(d):
    """The version 3 dict of a version 2 save (from_v3 reads it on): nothing kept (a resume
    released kept dice)."""
    turn = d.get("turn")
    if type(turn) is not dict:
        raise SaveError("bad save: turn must be a dict")
    turn = dict(turn)
    turn["kept"] = 0
    d = dict(d)
    d["turn"] = turn
    d["version"] = 3
    return d


def from_v3(d):
    """The version 4 dict of a version 3 save (from_v4 reads it on): every seat human, no
    hints."""
    d = dict(d)
    d["computers"] = []
    d["hints"] = False
    d["version"] = 4
    return d


def from_v4(d):
    """The current dict of a version 4 save: the same fields."""
    d = dict(d)
    d["version"] = SAVE_VERSION
    return d
