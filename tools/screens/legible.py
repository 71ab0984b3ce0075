"""Whether a table can read the panel at a glance: the rules every drawn frame keeps.

    rec = Recorder()                 # records what the screens draw (font.text, a die)
    with rec:                        # patched in: dicetray.font, dicetray.draw, ui, ui_contest
        app.render()
    problems = check(rec.fields, display.buffer, 128, 64)   # [] when the frame reads well

The frame is read from its MONO_VLSB bytes (dicetray.display's buffer); the fields are what
drew it, so each text's place, size and ink are known, and its pixels are compared with the
font's glyphs. The rules, each a kind of problem:

- "touch": two words, or a word and a mark (a seat's * by a big name), on the same rows
  with fewer than GAP blank columns between their ink. A text drawn in two inks (a key bar
  drained letter by letter) is one text.
- "cut": a text whose glyphs do not all show as the font draws them: something drawn over
  it took part of it. A text hidden whole (its box all of one colour: under a message box
  that covers whole rows) is no problem.
- "owner": a number that says nothing of what it counts. A token of digits ("10", "1/3",
  "--" is no number) is owned when its own text has a word with a letter ("P1 10",
  "POT 21", "THROW 1/3", "TOP P1 654"), when it carries its unit ("85%", "+0.9T": a chance,
  tokens), when it is a throw written as its dice (three faces 1..6, highest first: the
  throw's own name, "542"), or when the nearest text on its left on the same rows, its
  cell's label, has a letter ("P3* 421" ... "12"); a count after another bare count, or
  alone, has no owner ("10 10 1").
- "far": a count (a text of digits alone, a cell's tokens) with more text after it on its
  rows, not right after its owner: more than a space and two pixels (9 blank columns) from
  the text on its left, or no nearer to it than to the text on its right ("P1    13 P2":
  P1's 13 read as P2's). A setup row's value, alone on the right of its row, is no count.
- "pips": a die whose pips a glance cannot count: its pips, each a patch of the pips' ink
  (lit on an open die, dark on a kept one) that touches neither the die's border nor
  another pip, not even at a corner, are fewer or more than its value.
- "stack": a text's ink (an accent's too, in the row above its cell) with no blank row
  between it and another lit pixel above or below it, its own column or the next: a line
  on the line above, an accent on the foot of the line above, a text on a die or on the
  lit edge of a box it is not inside (the key bar). A dark text (inside a lit bar, cell or
  box) and the key bar's own text, inside its frame, keep their margins by drawing.
"""

import re

from dicetray import draw, font, ui, ui_contest

GAP = draw.GAP
_NUMBER = re.compile(r"^[+-]?\d*(?:[/.]\d+)?[%T]?$")
_DICE = re.compile(r"^(?:A|[1-6])[1-6A]{2}$")
_COUNT = re.compile(r"^\d{1,3}$")


class Field:
    """One drawing: a text (x, y, scale, ink, s) or a mark (s None): a die."""

    def __init__(self, x, y, x1, y1, ink, s=None, scale=1, kind="text"):
        self.x, self.y, self.x1, self.y1 = x, y, x1, y1  # its box, inclusive
        self.ink = ink
        self.s = s
        self.scale = scale
        self.kind = kind

    def __repr__(self):
        return "%s %r at %d,%d" % (self.kind, self.s, self.x, self.y)


class Recorder:
    """Records the fields the screens draw while it is entered; clear() (font.clear, a new
    screen) forgets them."""

    def __init__(self):
        self.fields = []
        self._saved = []

    def __enter__(self):
        text, clear, die, big_name = font.text, font.clear, draw.die, draw.big_name
        fields = self.fields

        def record_text(fb, s, x, y, scale=1, c=1):
            if s:
                fields.append(Field(x, y, x + font.width(s, scale) - 1, y + 7 * scale - 1,
                                    c, s, scale))
            return text(fb, s, x, y, scale, c)

        def record_clear(fb):
            del fields[:]
            clear(fb)

        def record_die(fb, x, y, s, value, kept=False, hint=False):
            n = len(fields)
            die(fb, x, y, s, value, kept, hint)
            del fields[n:]  # its "?" is the die's own ink
            fields[:] = [f for f in fields if not (f.kind == "die" and f.x == x and f.y == y)]
            f = Field(x, y, x + s - 1, y + s - 1, 1, None, 1, "die")
            f.value, f.kept = value, kept
            fields.append(f)

        def record_name(fb, p, x, y, seats=()):
            n = len(fields)
            big_name(fb, p, x, y, seats)
            if len(fields) > n + 1:  # a seat's mark: "P2*", a letter's gap from its name
                fields[n + 1].of = fields[n]

        hints, refusal = draw.hints, ui.refusal

        def record_hints(fb, w, h, text, lit=True, left=-1):
            # The key bar drawn again (it drains): what it showed before is gone.
            fields[:] = [f for f in fields if f.y < h - 9]
            n = len(fields)
            hints(fb, w, h, text, lit, left)
            for f in fields[n:]:
                f.inside = True  # in the bar's lit part or its frame

        def record_refusal(fb, w, h, why, game=None):
            # Under the box: the fields on its rows, whole (one it covers in part stays, to
            # show cut).
            top, high = ui.refusal_rows(h, game)
            fields[:] = [f for f in fields if not (top <= f.y and f.y1 < top + high)]
            for f in fields:  # a die the box covers in part: its pips are not to be read
                if f.kind == "die" and f.y < top + high and top <= f.y1:
                    f.value = 0
            refusal(fb, w, h, why, game)

        self._saved = [(font, "text", text), (font, "clear", clear), (draw, "die", die),
                       (ui, "refusal", refusal)]
        font.text, font.clear, draw.die = record_text, record_clear, record_die
        ui.refusal = record_refusal
        for module in (draw, ui, ui_contest):
            self._saved.append((module, "big_name", module.big_name))
            module.big_name = record_name
        for module, name in ((draw, "hints"), (ui, "hints"), (ui_contest, "_hints")):
            self._saved.append((module, name, getattr(module, name)))
            setattr(module, name, record_hints)
        return self

    def __exit__(self, *exc):
        for module, name, value in reversed(self._saved):
            setattr(module, name, value)
        self._saved = []


def _column(buf, w, h, x, y, n):
    # The bits of rows y..y+n-1 of column x in a MONO_VLSB buffer (bit 0: row y); None when
    # any of them is off the panel.
    if not (0 <= x < w and 0 <= y and y + n <= h):
        return None
    page = y >> 3
    bits = buf[page * w + x]
    if page + 1 < h >> 3:
        bits |= buf[(page + 1) * w + x] << 8
    if page + 2 < h >> 3 and (y & 7) + n > 16:
        bits |= buf[(page + 2) * w + x] << 16
    return bits >> (y & 7) & ((1 << n) - 1)


def _glyph_cols(ch):
    # ch's 5 columns, bit r the cell's row r (0-6: the letter; 7: Ç's cedilla).
    i = font._glyph(ch)
    cols = font._GLYPHS[i : i + 5]
    return bytes(c >> 1 for c in cols) if _raised(ch) else cols


def _raised(ch):
    # An accented capital: drawn from the row above its cell, its accent there (font._RAISED).
    return font._RAISED * 5 <= font._glyph(ch) < font._BOX * 5


def _accent(ch):
    # The columns of ch's accent row (the row above its cell), or None when it has none.
    if not _raised(ch):
        return None
    i = font._glyph(ch)
    return [c & 1 for c in font._GLYPHS[i : i + 5]]


def _ink(f):
    # The pixels a text lights as the font draws it: its glyphs' and their accents'.
    sc = f.scale
    out = set()
    for k, ch in enumerate(f.s):
        cols = _glyph_cols(ch)
        accent = _accent(ch)
        for i in range(5):
            x = f.x + (6 * k + i) * sc
            rows = [r for r in range(8) if cols[i] >> r & 1]
            if accent is not None and accent[i]:
                rows.append(-1)
            for r in rows:
                for dx in range(sc):
                    for dy in range(sc):
                        out.add((x + dx, f.y + r * sc + dy))
    return out


def _stacked(f, buf, w, h, fields):
    # What lit pixel sits on text f's ink with no blank row between (the "stack" rule): the
    # text or mark it belongs to ("a box edge" when no field drew it), or None.
    if not f.ink or getattr(f, "inside", False):
        return None
    ink = _ink(f)
    for x, y in ink:
        for dy in (-1, 1):
            for dx in (-1, 0, 1):
                q = (x + dx, y + dy)
                if q in ink or not (0 <= q[0] < w and 0 <= q[1] < h):
                    continue
                if _column(buf, w, h, q[0], q[1], 1):
                    for g in fields:
                        if g is not f and g.x <= q[0] <= g.x1 \
                                and g.y - g.scale <= q[1] <= g.y1 + 1:
                            return g.s or g.kind
                    return "a box edge"
    return None


def _ink_span(f):
    # The first and last columns of a text's ink (a glyph's blank lead columns are not ink).
    if f.s is None:
        return f.x, f.x1
    first = last = None
    for k, ch in enumerate(f.s):
        cols = _glyph_cols(ch)
        for i in range(5):
            if cols[i] & 0x7F:
                x = f.x + (6 * k + i) * f.scale
                if first is None:
                    first = x
                last = x + f.scale - 1
    return first, last


def _shows(f, buf, w, h):
    """"ok": every glyph as the font draws it; "hidden": its box all of one colour; "cut"."""
    sc = f.scale
    rows = 7 * sc
    full = (1 << rows) - 1
    bad = False
    for k, ch in enumerate(f.s):
        cols = _glyph_cols(ch)
        for i in range(5):
            want = 0
            for r in range(7):
                if cols[i] >> r & 1:
                    want |= ((1 << sc) - 1) << (r * sc)
            if not f.ink:
                want ^= full
            for dx in range(sc):
                if _column(buf, w, h, f.x + (6 * k + i) * sc + dx, f.y, rows) != want:
                    bad = True
        # An accent reads only as drawn: its row above the cell holds it and nothing else
        # across the letter's five columns (not lost in a lit bar, not run into a line above).
        accent = _accent(ch)
        if accent is not None:
            for i in range(5):
                want = ((1 << sc) - 1) if accent[i] == f.ink else 0
                for dx in range(sc):
                    if _column(buf, w, h, f.x + (6 * k + i) * sc + dx, f.y - sc, sc) != want:
                        bad = True
    if not bad:
        return "ok"
    seen = {_column(buf, w, h, x, f.y, rows) for x in range(f.x, f.x1 + 1)}
    return "hidden" if seen == {0} or seen == {full} else "cut"


def _joined(fields):
    # A text drawn in two inks, the second part a column past where the first's next letter
    # goes (a key bar drained letter by letter, draw.hints), is one text.
    out = []
    for f in fields:
        prev = out[-1] if out else None
        if prev is not None and f.s is not None and prev.s is not None and f.y == prev.y \
                and f.scale == prev.scale and f.x == prev.x + 6 * f.scale * len(prev.s) + 1 \
                and f.ink != getattr(prev, "parts", [prev])[-1].ink:
            out[-1] = Field(prev.x, prev.y, f.x1, f.y1, None, prev.s + f.s, f.scale)
            out[-1].parts = getattr(prev, "parts", [prev]) + [f]
        else:
            out.append(f)
    return out


def _numbers_unowned(f, left):
    # The number tokens of text f that own nothing (see the module's "owner"); left: the
    # nearest text on its left on the same rows, or None.
    tokens = f.s.split()
    if any(re.search("[A-Za-zÀ-ÿ]", t) for t in tokens):
        return []
    bare = [t for t in tokens if _NUMBER.match(t) and re.search(r"\d", t)
            and not t.endswith(("%", "T")) and not _DICE.match(t)]
    if not bare:
        return []
    if left is not None and re.search("[A-Za-zÀ-ÿ]", left.s):
        return []
    return bare


def pips(buf, w, h, x, y, s, kept):
    """How many pips a glance counts on the die of s pixels drawn at (x, y) in buf: the
    patches of the pips' ink (lit on an open die, dark on a kept one), 8-connected, inside
    the square and touching neither its edge nor what touches the edge (its border)."""
    ink = 0 if kept else 1
    cells = {(i, j) for i in range(s) for j in range(s)
             if _column(buf, w, h, x + i, y + j, 1) == ink}
    seen = set()
    count = 0
    for start in sorted(cells):
        if start in seen:
            continue
        patch, todo = {start}, [start]
        while todo:
            i, j = todo.pop()
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    q = (i + di, j + dj)
                    if q in cells and q not in patch:
                        patch.add(q)
                        todo.append(q)
        seen |= patch
        if not any(i in (0, s - 1) or j in (0, s - 1) for i, j in patch):
            count += 1
    return count


def check(fields, buf, w, h):
    """The problems of the frame in buf (MONO_VLSB, w x h) drawn by fields: a list of
    (kind, what) with kind "touch", "cut", "owner", "far", "pips" or "stack" (the module's
    rules); [] reads well."""
    problems = []
    visible = []
    for f in _joined(fields):
        if f.s is None:
            visible.append(f)
            value = getattr(f, "value", 0)
            if value and pips(buf, w, h, f.x, f.y, f.x1 - f.x + 1, f.kept) != value:
                problems.append(("pips", "a %d at %d,%d" % (value, f.x, f.y)))
            continue
        parts = getattr(f, "parts", [f])
        shows = [_shows(p, buf, w, h) for p in parts]
        if all(s == "hidden" for s in shows):
            continue
        if any(s != "ok" for s in shows):
            problems.append(("cut", f.s))
        visible.append(f)
    spans = [(_ink_span(f), f) for f in visible]
    for i, ((a0, a1), a) in enumerate(spans):
        for (b0, b1), b in spans[i + 1 :]:
            if a.kind == "die" or b.kind == "die":
                continue  # a die is no word (the fields' own test parts it from text)
            if getattr(a, "of", None) is b or getattr(b, "of", None) is a:
                continue
            if a.y > b.y1 or b.y > a.y1:
                continue
            gap = b0 - a1 - 1 if a0 <= b0 else a0 - b1 - 1
            if gap < GAP:
                problems.append(("touch", "%s | %s" % (a.s or a.kind, b.s or b.kind)))
    texts = [f for f in visible if f.s is not None]
    for f in texts:
        other = _stacked(f, buf, w, h, visible)
        if other is not None:
            problems.append(("stack", "%s / %s" % (f.s, other)))
    for f in texts:
        lefts = [g for g in texts if g is not f and g.x1 < f.x and g.y <= f.y1 and f.y <= g.y1]
        left = max(lefts, key=lambda g: g.x1) if lefts else None
        for t in _numbers_unowned(f, left):
            problems.append(("owner", "%s in %r" % (t, f.s)))
        if left is not None and _COUNT.match(f.s):
            start = _ink_span(f)[0]
            near = start - _ink_span(left)[1] - 1
            rights = [g for g in texts if g.x > f.x1 and g.y <= f.y1 and f.y <= g.y1]
            right = min(rights, key=lambda g: g.x) if rights else None
            if right is not None and (near > 9 or _ink_span(right)[0] - f.x1 - 1 <= near):
                problems.append(("far", "%r after %r" % (f.s, left.s)))
    return problems


def accent_shorter(ch, plain):
    """Whether the accented capital ch draws its plain capital's letter shorter: some pixel of
    plain's glyph, drawn at the same place, is missing from ch's (the accent must add, not
    squash)."""
    from framebuf import MONO_VLSB, FrameBuffer

    def drawn(c):
        buf = bytearray(8 * 3)
        fb = FrameBuffer(buf, 8, 24, MONO_VLSB)
        font.text(fb, c, 0, 8)
        return {(x, y) for x in range(8) for y in range(24) if fb.pixel(x, y)}

    return not drawn(plain) <= drawn(ch)
