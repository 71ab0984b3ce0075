"""The pictures in docs/screens are what the tray shows today (tools/screens makes them), and
the hint bar draw.py draws under every screen."""

import os
import re

import pytest
from dicetray import font
from dicetray import screens as units
from emupico.panel import Panel
from PIL import Image
from screens import pictures


@pytest.fixture(scope="module")
def shots():
    return pictures.render()


def test_the_pictures_are_up_to_date(shots):
    found = pictures.problems(shots, pictures.OUT)
    assert not found, "\n".join(
        found + ["the screens changed: run `python tools/screens/pictures.py`"])


def test_each_picture_is_the_panel_4x_in_black_and_white_inside_a_grey_border(shots):
    b = pictures.BORDER * pictures.SCALE
    for shot in shots:
        assert (shot.width, shot.height) in ((128, 64), (128, 32)), shot.name
        path = os.path.join(pictures.OUT, shot.name + ".png")
        if not os.path.exists(path):
            continue  # the test above names it
        with Image.open(path) as img:
            rgb = img.convert("RGB")
        w, h = 4 * shot.width, 4 * shot.height
        assert rgb.size == (w + 2 * b, h + 2 * b), shot.name
        colours = dict((c, n) for n, c in rgb.getcolors(4) or ())
        inner = dict((c, n) for n, c in rgb.crop((b, b, b + w, b + h)).getcolors(4) or ())
        assert set(colours) <= {pictures.BLACK, pictures.WHITE, pictures.GREY}, shot.name
        assert set(inner) <= {pictures.BLACK, pictures.WHITE}, shot.name
        assert colours.get(pictures.GREY) == rgb.width * rgb.height - w * h, shot.name


def test_every_screen_of_the_app_has_a_picture(shots):
    screens_drawn = set(units.units())  # every screen the app can route to has a unit
    assert len(screens_drawn) >= 8
    missing = screens_drawn - {s.screen for s in shots}
    assert not missing, "add a picture of %s to tools/screens/scenes.py" % sorted(missing)


def test_two_runs_give_the_same_pictures(shots):
    again = pictures.render()
    assert [(s.name, s.bits) for s in again] == [(s.name, s.bits) for s in shots]
    assert pictures.png_bytes(again[0]) == pictures.png_bytes(shots[0])


def drained(shot):
    """Where the key bar of a screen that moves on by itself ends (its lit part), else None."""
    w, h = shot.width, shot.height
    edge = shot.bits[(h - 1) * w : h * w].find(b"\x00")
    return None if edge < 0 else edge


def test_the_hint_bar_has_a_lit_row_above_and_below_its_text_and_a_dark_row_above_it(shots):
    for shot in shots:
        w, h = shot.width, shot.height
        rows = [shot.bits[y * w : (y + 1) * w] for y in range(h)]
        edge = drained(shot)
        if edge is not None:  # draining: lit up to its edge, dark past it but its letters
            assert "waiting" in shot.name and 0 < edge < w - 6, shot.name
            bar = b"\x01" * edge + bytes(w - edge)
            assert rows[h - 9] == rows[h - 1] == bar, shot.name
            assert not any(r[edge] for r in rows[h - 9 :]), shot.name  # a dark column first
            rows[h - 9] = rows[h - 1] = b"\x01" * w  # the rest as any bar's
        # Lit but for an accent's notch (3 pixels wide at most) over an accented capital.
        notches = [run for run in rows[h - 9].split(b"\x01") if run]
        assert all(len(run) <= 3 for run in notches), (
            "%s: glyph tops touch the bar's top edge" % shot.name)
        accents = sum(ch in font.CHARS[font._RAISED :] for ch in hint_text(shot))
        assert len(notches) <= 2 * accents, "%s: ink over the hint bar's text" % shot.name
        assert rows[h - 1] == b"\x01" * w, "%s: glyphs touch the bar's bottom edge" % shot.name
        assert rows[h - 10] == bytes(w), "%s: the screen touches the hint bar" % shot.name
        assert any(not b for b in b"".join(rows[h - 8 : h - 1])), "%s: no hint" % shot.name


def hint_text(shot):
    """The hint bar's words of a shot, read in the tray's font (a 128x32 shot padded to 64);
    a draining bar's, dark on its lit part then lit past its edge."""
    w = shot.width
    rows = [shot.bits[y * w : (y + 1) * w] for y in range(shot.height)]
    rows += [bytes(w)] * (64 - len(rows))
    panel = Panel(rows)
    edge = drained(shot)
    if edge is None:
        return panel.read(shot.height - 8, ink=0)
    return panel.read(shot.height - 8, ink=0, x1=edge) + panel.read(shot.height - 8, x0=edge)


def tray_plays(shot):
    """The words in the key bar's frame, lit on dark."""
    w = shot.width
    rows = [shot.bits[y * w : (y + 1) * w] for y in range(shot.height)]
    rows += [bytes(w)] * (64 - len(rows))
    return " ".join(Panel(rows).read(shot.height - 8).split())


def test_every_hint_names_its_buttons_and_says_what_they_do_in_words(shots):
    seen = set()
    for shot in shots:
        if shot.screen == units.SETUP:
            continue  # the setup menu's hints are another change's
        if not shot.bits[(shot.height - 5) * shot.width + shot.width - 2] \
                and drained(shot) is None:
            # A frame, not a lit bar: the tray plays a seat, and there is nothing to press.
            said = "LE PLATEAU JOUE" if shot.name.endswith("_fr") else "TRAY PLAYS"
            assert tray_plays(shot) == said, shot.name
            continue
        text = hint_text(shot)
        seen.add(text)
        assert text, shot.name
        # A button by its name (KEEP1, ROLL, OK; GARDE 1), never a bare number (but GARDE's
        # second, elided: GARDE 1:EST  3:VIENT); no slashes or arrows.
        named = re.sub(r"^(GARDE \d:\S+ +)(\d:)", r"\1GARDE \2", text)
        assert not re.search(r"(^|[^A-Z ]|[^E] )\d+:", named), (shot.name, text)
        assert not set(text) & set("/^~|"), (shot.name, text)
    # The turn's first hint names the long OK that opens the table.
    assert "ROLL OR HOLD OK:TABLE" in seen and "KEEP1:IS  KEEP3:COMES" in seen
