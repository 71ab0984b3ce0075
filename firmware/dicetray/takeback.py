"""Taking back a human's last stop or stake while no die was thrown since (App.offer keeps what
it goes back to: the record saved last): the question asked from a turn's result or the game
over, and the undo itself (said yes to there, or KEEP1 on the table, whose key bar offers it:
screens_between); and a stop made as OK went down taken back before it showed
(App.stop_ahead). Loaded only while the question is shown or an undo made (dicetray.lazy's
UNDO); what stays loaded in play is App.offer and the words that name what it takes back
(screens_between.undo_text).
"""

from dicetray import ui, words
from dicetray.save_record import CHUNK, NESTED, RECORD_FIELDS, Io, build, fields
from dicetray.save_write import GAME_DUE, TALLY_DUE
from dicetray.screens_between import PLAY, undo_text


def unit(unit, app, key, long, now):
    """Take back the last stop or stake (App.undo)? KEEP1: yes, the turn as it was before it;
    any other button: no, back to the screen it was asked from (unit.told)."""
    if key is None:
        ui.message(app.fb, app.w, app.h, undo_text(app, words.T.UNDO_ASK),
                   words.T.UNDO_LINES, words.T.KEYS_UNDO_ASK)
    elif key == "KEEP1":
        app.take_back()
    else:
        app.show(unit.told)


def take_back(app):
    """The undo offered made (App.take_back): the game as it was just before the stop or stake,
    dice and keeps, read from the record kept; saved like any action. A game's end taken back
    takes its round off the tally, so that played again it is counted once."""
    raw = app.undo[0]
    app.offer(None, None)
    g = app.game
    due = GAME_DUE
    if g.over and app.tally.uncount(g):
        due |= TALLY_DUE
    restore(g, raw)
    app.needs_save(due)
    app.show(PLAY)


def restore(g, raw):
    """Put the game g back as raw (a record, save_record) holds it."""
    was = fields(Io(raw, 1 + CHUNK, len(raw) - CHUNK), {}, RECORD_FIELDS, g.n, g.opts.tokens)
    for name, kind in RECORD_FIELDS:
        if kind in NESTED and was[name] is not None:
            was[name] = build(NESTED[kind][0], was[name])
    g.take_back(was)
