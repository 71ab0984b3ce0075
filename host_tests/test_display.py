"""The OLED driver against a fake panel that decodes the SSD1306 / SH1106 byte stream: the frame
and its page spans (fast_python.py), the chip and its link (panel.py)."""

import random

import pytest
import trayhost.framebuf
from dicetray import display as display_mod
from dicetray import font
from dicetray import panel as panel_mod
from dicetray.display import Display
from dicetray.fast_python import next_span
from hypothesis import given, settings
from hypothesis import strategies as st
from trayhost.canvas import pixel_rows
from trayhost.oled import ETIMEDOUT, FakeI2C, FakePanel, ProtocolError

DRIVERS = ("ssd1306", "sh1106")
CONFIGS = [(drv, h, rot) for drv in DRIVERS for h in (64, 32) for rot in (False, True)]
PRINTABLE = "".join(chr(c) for c in range(32, 127))


def make(driver="ssd1306", height=64, rotate=False, **kw):
    """A display on a fake bus whose module is mounted the way ``rotate`` compensates."""
    i2c = FakeI2C(driver=driver, height=height, upside_down=rotate)
    return i2c, Display(i2c, height=height, driver=driver, rotate=rotate, **kw)


def rows_of(d):
    """The frame buffer as rows of 0/1, read straight from its MONO_VLSB bytes."""
    return pixel_rows(d.buffer, d.width, d.height)


def rotated(rows):
    return [bytearray(reversed(row)) for row in reversed(rows)]


def scene(fb, height):
    """Something busy: text, outlines, a filled pip, a diagonal and a checker corner."""
    font.text(fb, "421 Nenette", 0, 0)
    fb.rect(2, 10, 40, height - 12, 1)
    r = height // 4
    for dy in range(-r, r + 1):  # the pip: an ellipse 21 wide, 2r + 1 high
        half = int(10 * (1 - (dy / r) ** 2) ** 0.5)
        fb.fill_rect(80 - half, height // 2 + dy, 2 * half + 1, 1, 1)
    for x in range(128):
        fb.pixel(x, height - 1 - x * (height - 10) // 127, 1)
    for x in range(100, 128):
        for y in range(height - 10, height):
            if (x + y) % 2:
                fb.pixel(x, y, 1)


def recover(i2c, d, limit=None):
    """Call show() until the driver is back (bounded), as the app's main loop would."""
    for _ in range(limit or d.panel.retry_every * 3):
        if d.show():
            return True
    return False


def assert_shows(i2c, d, rotate=False):
    want = rows_of(d)
    got = i2c.panel.pixels()
    assert got == (rotated(want) if rotate else want), "\n" + i2c.panel.to_text()


# -- drawing reaches the glass exactly --------------------------------------------------------


@pytest.mark.parametrize("driver,height,rotate", CONFIGS)
def test_full_draw_shows_the_frame_buffer(driver, height, rotate):
    i2c, d = make(driver, height, rotate)
    assert d.ok and i2c.panel.is_on
    assert_shows(i2c, d)  # the power-on noise was cleared
    scene(d.fb, height)
    assert d.show()
    assert_shows(i2c, d)
    assert i2c.panel.errors == []
    assert d.bytes_sent == i2c.bytes_written


@pytest.mark.parametrize("driver", DRIVERS)
def test_rotate_turns_the_image_on_an_upright_module(driver):
    i2c = FakeI2C(driver=driver)  # mounted upright: rotate=True must show it upside down
    d = Display(i2c, driver=driver, rotate=True)
    scene(d.fb, 64)
    d.show()
    assert_shows(i2c, d, rotate=True)
    assert not i2c.panel.seg_remap and not i2c.panel.com_remap  # done by the chip, not by us


def test_sh1106_writes_its_columns_2_to_129():
    i2c = FakeI2C(driver="sh1106")
    noise = [bytes(page) for page in i2c.panel.ram]
    d = Display(i2c, driver="sh1106")
    d.fb.pixel(0, 0, 1)
    d.fb.pixel(127, 63, 1)
    d.show()
    ram = i2c.panel.ram
    assert ram[0][2] == 0x01 and ram[0][3] == 0
    assert ram[7][129] == 0x80 and ram[7][128] == 0
    for p in range(8):  # the four columns outside the glass are never written
        assert [ram[p][c] for c in (0, 1, 130, 131)] == [noise[p][c] for c in (0, 1, 130, 131)]
    assert_shows(i2c, d)


def test_a_custom_column_offset_is_honoured():
    i2c = FakeI2C(driver="ssd1306", width=64, height=48, col_offset=32)
    d = Display(i2c, width=64, height=48, col_offset=32)
    scene(d.fb, 48)
    d.show()
    assert_shows(i2c, d)


# -- only what changed is sent ---------------------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_one_pixel_sends_one_short_page_write(driver):
    i2c, d = make(driver)
    scene(d.fb, 64)
    d.show()
    i2c.reset_counts()
    d.fb.pixel(70, 30, 1 - d.fb.pixel(70, 30))  # flip one pixel
    assert d.show()
    assert i2c.transactions == [4, 1 + d.span_step]  # page + column, then span_step data bytes
    assert i2c.bytes_written == 5 + d.span_step < d.full_frame_bytes() // 50
    assert_shows(i2c, d)


def test_a_change_at_the_right_edge_is_widened_leftwards():
    i2c, d = make("sh1106")
    d.fb.pixel(127, 5, 1)
    i2c.reset_counts()
    d.show()
    assert i2c.transactions == [4, 1 + d.span_step]
    assert_shows(i2c, d)


def test_changes_far_apart_in_a_page_are_split_into_spans():
    i2c, d = make()
    d.fb.pixel(3, 0, 1)
    d.fb.pixel(20, 0, 1)  # same page, 17 columns apart: two short spans cost less than a long one
    d.fb.pixel(50, 63, 1)
    i2c.reset_counts()
    d.show()
    short = 1 + d.span_step
    assert i2c.transactions == [4, short, 4, short, 4, short]
    assert_shows(i2c, d)


def reference_spans(a, b, i, end, gap):
    """Every (first, last) span a byte-by-byte scan finds from i: a change more than gap bytes
    after the last one starts a new span."""
    spans = []
    while i < end:
        if a[i] != b[i]:
            if spans and i - spans[-1][1] <= gap:
                spans[-1][1] = i
            else:
                spans.append([i, i])
        i += 1
    return [tuple(s) for s in spans]


def test_the_python_span_finder_finds_what_a_byte_by_byte_scan_finds():
    rng = random.Random(5)
    checked = 0
    for _ in range(2000):
        n = rng.randrange(1, 140)
        a = bytearray(rng.getrandbits(8) for _ in range(n))
        b = bytearray(a)
        for _ in range(rng.randrange(0, 6)):  # a few changes, lone bytes or runs
            j = rng.randrange(n)
            for k in range(j, min(n, j + rng.choice((1, 1, 2, 5, 12)))):
                b[k] ^= 1 << rng.randrange(8)
        gap, start, end = rng.randrange(1, 20), rng.randrange(n), n
        i = start
        got = []
        while True:
            span = next_span(a, b, i, end, gap)
            if span < 0:
                break
            got.append((span >> 11, span & 2047))
            i = (span & 2047) + 1
        assert got == reference_spans(a, b, start, end, gap)
        checked += bool(got)
    assert checked > 1000


def reference_transfers(old, new, width, step, gap, col0=0):
    """What bringing a panel from old to new should put on the bus, worked out plainly: per
    page, each span of reference_spans rounded up to step columns (moved left at the right
    edge), sent as page + column, then the data."""
    sent = []
    shown = bytearray(old)
    for page in range(len(old) // width):
        base, end = page * width, (page + 1) * width
        i = base
        while i < end:
            spans = reference_spans(new, shown, i, end, gap)
            if not spans:
                break
            first, last = spans[0]
            n = min(-(-(last - first + 1) // step) * step, width)
            first = min(first, end - n)
            col = first - base + col0
            sent.append(bytes([0x00, 0xB0 | page, col & 15, 0x10 | col >> 4]))
            sent.append(bytes([0x40]) + bytes(new[first : first + n]))
            shown[first : first + n] = new[first : first + n]
            i = first + n
    return sent


@pytest.mark.parametrize("driver", DRIVERS)
def test_each_page_s_changes_go_out_as_the_plain_reference_says(driver):
    rng = random.Random(11)
    i2c, d = make(driver)
    col0 = 2 if driver == "sh1106" else 0
    sent = []
    write = i2c.writeto
    i2c.writeto = lambda addr, buf, stop=True: sent.append(bytes(buf)) or write(addr, buf, stop)
    checked = 0
    for _ in range(300):
        old = bytes(d.buffer)
        for _ in range(rng.randrange(0, 8)):  # lone bytes, runs, and the right edge's
            j = rng.choice((rng.randrange(1024), 128 * rng.randrange(8) + 125))
            for k in range(j, min(1024, j + rng.choice((1, 1, 3, 9, 20, 60)))):
                d.buffer[k] = rng.getrandbits(8)
        want = reference_transfers(old, d.buffer, 128, d.span_step, d.split_gap, col0)
        sent.clear()
        assert d.show()
        assert sent == want
        checked += len(want)
    assert checked > 1000
    assert_shows(i2c, d)


def test_changes_close_together_in_a_page_stay_one_span():
    i2c, d = make()
    d.fb.pixel(3, 0, 1)
    d.fb.pixel(3 + d.split_gap, 0, 1)  # split_gap columns apart: still one span
    i2c.reset_counts()
    d.show()
    width = -(-(d.split_gap + 1) // d.span_step) * d.span_step  # the span, rounded up
    assert i2c.transactions == [4, 1 + width]
    assert_shows(i2c, d)


@pytest.mark.parametrize("driver", DRIVERS)
def test_nothing_changed_sends_nothing(driver):
    i2c, d = make(driver)
    scene(d.fb, 64)
    d.show()
    i2c.reset_counts()
    d.fb.pixel(5, 5, d.fb.pixel(5, 5))  # drawn over with the same value
    assert d.show()
    assert i2c.transactions == []
    assert i2c.bytes_written == 0


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("height", (64, 32))
def test_invalidate_resends_configuration_and_one_full_frame(driver, height):
    i2c, d = make(driver, height)
    scene(d.fb, height)
    d.show()
    i2c.reset_counts()
    d.invalidate()
    d.show()
    config, frame, switch_on = len(d.panel.init_seq), d.full_frame_bytes(), 2
    assert frame == height // 8 * 133
    assert i2c.transactions[0] == config and i2c.transactions[-1] == switch_on
    assert i2c.bytes_written == config + frame + switch_on
    assert len(i2c.transactions) == 2 + 2 * height // 8
    assert_shows(i2c, d)


# -- losing the panel and getting it back ----------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_unplug_mid_game_keeps_drawing_without_raising(driver):
    i2c, d = make(driver)
    scene(d.fb, 64)
    d.show()
    i2c.unplug()
    d.fb.fill_rect(0, 20, 30, 10, 1)
    assert d.show() is False
    assert not d.ok
    sent = d.bytes_sent
    for i in range(50):  # the game goes on: draw, show, draw...
        d.fb.pixel(i, 40, 1)
        d.contrast(i)
        d.dim(i % 2)
        assert d.show() is False
    assert d.bytes_sent == sent
    assert rows_of(d)[40][:50] == bytearray([1] * 50)


def test_retries_are_spaced_out():
    i2c, d = make()
    i2c.unplug()
    d.fb.pixel(1, 1, 1)
    d.show()  # fails: lost
    failed = i2c.failed
    for _ in range(d.panel.retry_every * 4):
        d.show()
    assert i2c.failed - failed == 4


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("errno_", (5, ETIMEDOUT))
def test_replug_shows_the_current_frame(driver, errno_):
    i2c, d = make(driver)
    i2c.fail_errno = errno_
    scene(d.fb, 64)
    d.show()
    i2c.unplug()
    d.fb.fill(0)
    font.text(d.fb, "replugged", 10, 30)
    d.show()
    i2c.replug()  # RAM is noise, the controller unconfigured
    assert not i2c.panel.is_on
    assert recover(i2c, d)
    assert d.ok and i2c.panel.is_on
    assert_shows(i2c, d)
    assert i2c.panel.errors == []


def test_panel_missing_at_boot_comes_up_later():
    i2c = FakeI2C()
    i2c.unplug()
    d = Display(i2c)
    assert not d.ok
    font.text(d.fb, "hello", 0, 0)
    assert d.show() is False
    i2c.replug()
    assert recover(i2c, d)
    assert_shows(i2c, d)


def test_retry_by_ticks_waits_retry_ms_across_the_wrap():
    i2c, d = make()
    t = (1 << 30) - 100  # ticks_ms about to wrap
    i2c.unplug()
    font.text(d.fb, "lost", 0, 0)
    assert d.show(t) is False  # the write fails: lost
    i2c.replug()
    assert d.show(t) is False  # the back-off starts here
    assert d.show(wrap(t + d.panel.retry_ms - 1)) is False
    assert not i2c.panel.is_on
    assert d.show(wrap(t + d.panel.retry_ms)) is True
    assert_shows(i2c, d)


def wrap(ticks):
    return ticks & ((1 << 30) - 1)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_power_cycle_nobody_noticed_is_repaired_by_the_keepalive(driver):
    i2c, d = make(driver)
    t = (1 << 30) - 1000
    scene(d.fb, 64)
    d.show(t)
    i2c.unplug()
    i2c.replug()  # while nothing was being sent: no error, the driver cannot know
    d.fb.fill_rect(0, 0, 20, 20, 0)
    assert d.show(wrap(t + 10)) is True  # acknowledged, yet the panel is unconfigured
    assert i2c.panel.pixels() != rows_of(d)
    assert i2c.panel.notes  # the fake saw writes to an unconfigured panel and excused them
    d.show(wrap(t + d.panel.refresh_ms - 1))
    assert i2c.panel.pixels() != rows_of(d)
    d.show(wrap(t + d.panel.refresh_ms))
    assert_shows(i2c, d)
    assert i2c.panel.errors == []


def test_without_ticks_invalidate_repairs_an_unnoticed_power_cycle():
    i2c, d = make("sh1106")
    scene(d.fb, 64)
    d.show()
    i2c.unplug()
    i2c.replug()
    d.fb.fill_rect(0, 0, 20, 20, 0)
    d.show()
    assert i2c.panel.pixels() != rows_of(d)
    d.invalidate()
    d.show()
    assert_shows(i2c, d)


def test_the_keepalive_is_invisible_and_spaced_out():
    i2c, d = make()
    scene(d.fb, 64)
    d.show(0)
    before = i2c.panel.pixels()
    i2c.reset_counts()
    for t in range(0, 3 * d.panel.refresh_ms, 100):
        d.show(t)
        assert i2c.panel.pixels() == before
    keepalives = i2c.transactions.count(len(d.panel.init_seq))
    assert keepalives == 2
    assert i2c.bytes_written == keepalives * (len(d.panel.init_seq) + d.full_frame_bytes() + 2)


def test_a_press_s_frame_goes_alone_and_the_keepalive_due_then_follows_it():
    i2c, d = make()
    scene(d.fb, 64)
    d.show(0)
    due = d.panel.refresh_ms
    d.fb.fill_rect(0, 0, 8, 8, 0)  # what a press changed, as the keepalive falls due
    i2c.reset_counts()
    d.show(due, pressed=True)
    assert i2c.panel.pixels() == rows_of(d)
    assert i2c.transactions.count(len(d.panel.init_seq)) == 0  # no configuration with it
    assert 0 < i2c.bytes_written < 100  # the changed page's span only
    i2c.reset_counts()
    d.show(due + 5)  # the next poll: the keepalive, the whole frame
    assert i2c.transactions.count(len(d.panel.init_seq)) == 1
    assert i2c.bytes_written == len(d.panel.init_seq) + d.full_frame_bytes() + 2
    assert i2c.panel.pixels() == rows_of(d)


def test_a_glitch_mid_frame_is_repaired():
    i2c, d = make()
    d.panel.retry_every = 1
    scene(d.fb, 64)
    i2c.glitch(after=3, partial=40)  # the second page's data is cut after 40 bytes
    assert d.show() is False
    assert recover(i2c, d)
    assert_shows(i2c, d)
    assert i2c.panel.errors == []


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("op", (0xA8, 0xDA, 0x81))
def test_a_transfer_cut_inside_a_command_does_not_derail_the_next_init(driver, op):
    i2c, d = make(driver)
    d.panel.retry_every = 1
    scene(d.fb, 64)
    i2c.unplug()
    d.show()
    i2c.replug()
    cut = bytes(d.panel.init_seq).index(op, 4) + 1  # the chip is left waiting for an argument
    i2c.glitch(partial=cut)
    assert d.show() is False
    assert i2c.panel._pending == op
    assert recover(i2c, d)
    assert_shows(i2c, d)
    assert i2c.panel.mux == 64 and i2c.panel.errors == []


# -- contrast, dimming, sleep ----------------------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_contrast_dim_and_sleep_reach_the_panel(driver):
    i2c, d = make(driver, contrast=0x40)
    panel = i2c.panel
    assert panel.contrast == 0x40 == d.contrast()
    d.contrast(200)
    assert panel.contrast == 200
    d.dim(True)
    assert panel.contrast == d.panel.dim_contrast
    d.contrast(100)  # remembered, not applied while dim
    assert panel.contrast == d.panel.dim_contrast
    d.dim(False)
    assert panel.contrast == 100
    scene(d.fb, 64)
    d.sleep(True)
    d.show()  # RAM keeps up while asleep
    assert not panel.is_on
    assert not any(any(row) for row in panel.pixels())
    assert panel.ram_image() == rows_of(d)
    d.sleep(False)
    assert_shows(i2c, d)


def test_settings_changed_while_unplugged_apply_after_replug():
    i2c, d = make()
    i2c.unplug()
    d.show()
    d.contrast(222)
    d.sleep(True)
    i2c.replug()
    assert recover(i2c, d)
    assert i2c.panel.contrast == 222 and not i2c.panel.is_on
    d.dim(True)
    d.sleep(False)
    assert i2c.panel.contrast == d.panel.dim_contrast and i2c.panel.is_on


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        Display(FakeI2C(), driver="ssd1309")
    with pytest.raises(ValueError):
        Display(FakeI2C(), rotate=90)
    with pytest.raises(ValueError):
        Display(FakeI2C(), width=130)


# -- CPython draws on the host's framebuf stand-in -------------------------------------------


def test_cpython_draws_on_the_framebuf_stand_in():
    import framebuf

    assert display_mod.framebuf is framebuf is trayhost.framebuf
    i2c, d = make()
    assert isinstance(d.fb, trayhost.framebuf.FrameBuffer)
    font.text(d.fb, "421", 0, 0)
    d.show()
    lit = [(x, y) for y, row in enumerate(i2c.panel.pixels()) for x, v in enumerate(row) if v]
    assert len(lit) > 20 and all(x < 17 and y < 7 for x, y in lit)  # three 5x7 glyphs
    assert_shows(i2c, d)


# -- the fake itself refuses what a panel would not take -------------------------------------


def test_fake_refuses_an_unknown_command():
    i2c = FakeI2C(driver="sh1106")
    with pytest.raises(ProtocolError, match="unknown sh1106 command 0x20"):
        i2c.writeto(0x3C, b"\x00\x20\x00")  # horizontal addressing is SSD1306 only


def test_fake_refuses_data_before_init():
    with pytest.raises(ProtocolError, match="before the panel was initialised"):
        FakeI2C().writeto(0x3C, b"\x40\xff")


def test_fake_refuses_the_wrong_address():
    i2c = FakeI2C()
    with pytest.raises(ProtocolError, match="no device"):
        i2c.writeto(0x3D, b"\x00\xaf")
    lenient = FakeI2C(panel=FakePanel(strict=False))
    with pytest.raises(OSError):
        lenient.writeto(0x3D, b"\x00\xaf")
    assert lenient.panel.errors == ["write to 0x3D: no device there"]


@pytest.mark.parametrize(
    "stream,message",
    [
        (b"\x01\xaf", "bad control byte"),
        (b"\x00\x81\x00", None),  # fine: contrast 0
        (b"\x00\x81", None),  # fine: the argument may come in the next transfer
        (b"\x40", "nothing after it"),
        (b"\x00\x1f", "unknown ssd1306 command 0x1F"),  # column 240 does not exist
        (b"\x00\x26", "not modelled"),
    ],
)
def test_fake_checks_each_transfer(stream, message):
    i2c = FakeI2C()
    if message is None:
        i2c.writeto(0x3C, stream)
    else:
        with pytest.raises(ProtocolError, match=message):
            i2c.writeto(0x3C, stream)


def test_fake_refuses_data_while_a_command_waits_for_its_argument():
    i2c, d = make()
    i2c.writeto(0x3C, b"\x00\x81")
    with pytest.raises(ProtocolError, match="awaits its argument"):
        i2c.writeto(0x3C, b"\x40\x00")


def test_fake_flags_a_misconfigured_panel_at_switch_on():
    i2c = FakeI2C(height=32)
    d = Display(FakeI2C(height=64))  # a 128x64 init sequence...
    with pytest.raises(ProtocolError, match="multiplex ratio 64"):
        i2c.writeto(0x3C, bytes(d.panel.init_seq) + b"\xaf")  # ...sent to a 128x32 module


def test_fake_decodes_horizontal_addressing_and_single_command_bytes():
    panel = FakePanel()
    init, _ = panel_mod._init_commands("ssd1306", 64, False, False, 0x12)
    panel.receive(bytes(init))
    panel.ram = [bytearray(128) for _ in range(8)]  # no power-on noise
    # Co=1 control bytes: one command each; window columns 10..11, pages 2..3, then data.
    panel.receive(b"\x80\x20\x80\x00\x80\x21\x80\x0a\x80\x0b\x80\x22\x80\x02\x80\x03")
    panel.receive(b"\x80\xaf\x40\x01\x02\x04\x08\x10")  # one command, then data to the end
    img = panel.pixels()
    lit = sorted((x, y) for y, row in enumerate(img) for x, v in enumerate(row) if v)
    # 0x01 -> (10, 16), 0x02 -> (11, 17), then page 3: 0x04 -> (10, 26), 0x08 -> (11, 27),
    # then back to page 2, column 10: 0x10 replaces 0x01 there.
    assert lit == sorted([(10, 20), (11, 17), (10, 26), (11, 27)])


def test_fake_writevto_is_one_transfer():
    i2c, d = make()
    i2c.reset_counts()
    i2c.writevto(0x3C, (b"\x00", bytes([0xB0, 0x00, 0x10])))
    i2c.writevto(0x3C, [b"\x40", memoryview(b"\xff\x01")])
    assert i2c.transactions == [4, 3]
    assert i2c.panel.ram[0][:2] == b"\xff\x01"


def test_fake_replug_loses_configuration_and_ram():
    i2c, d = make()
    i2c.unplug()
    with pytest.raises(OSError):
        i2c.writeto(0x3C, b"\x00\xaf")
    i2c.replug()
    assert not i2c.panel.initialised and not i2c.panel.is_on
    assert i2c.scan() == [0x3C]


# -- the property: whatever happens, one good show() puts the frame on the glass ---------------

coord_x = st.integers(-4, 132)
coord_y = st.integers(-4, 68)
colour = st.integers(0, 1)
draw_ops = st.one_of(
    st.tuples(st.just("pixel"), coord_x, coord_y, colour),
    st.tuples(st.just("rect"), coord_x, coord_y, st.integers(0, 40), st.integers(0, 40), colour),
    st.tuples(
        st.just("fill_rect"), coord_x, coord_y, st.integers(0, 140), st.integers(0, 70), colour
    ),
    st.tuples(st.just("text"), st.text(PRINTABLE, max_size=8), coord_x, coord_y, colour),
    st.tuples(st.just("fill"), colour),
)
bus_ops = st.one_of(
    st.sampled_from([("show",), ("show",), ("unplug",), ("replug",), ("invalidate",)]),
    st.tuples(st.just("glitch"), st.integers(0, 6), st.integers(0, 140), st.booleans()),
    st.tuples(st.just("contrast"), st.integers(0, 255)),
    st.tuples(st.just("dim"), st.booleans()),
    st.tuples(st.just("sleep"), st.booleans()),
)


@settings(max_examples=150, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    ticks=st.booleans(),
    ops=st.lists(st.one_of(draw_ops, bus_ops), max_size=30),
)
def test_panel_ends_equal_to_the_frame_buffer(config, ticks, ops):
    """Whatever was drawn, shown, unplugged, cut or switched, the app's loop gets it right.

    With ticks the driver repairs even an unnoticed power cycle by itself (the keepalive);
    without, the app's remedy for "the screen looks wrong" is ``invalidate()``.
    """
    driver, height, rotate = config
    i2c, d = make(driver, height, rotate)
    d.panel.retry_every = 2
    now = (1 << 30) - 2000  # let the clock wrap during the run
    for op in ops:
        name, args = op[0], op[1:]
        now = wrap(now + 97)
        if name == "show":
            d.show(now if ticks else None)
        elif name in ("invalidate", "contrast", "dim", "sleep"):
            getattr(d, name)(*args)
        elif name in ("unplug", "replug"):
            getattr(i2c, name)()
        elif name == "glitch":
            i2c.glitch(*args)
        elif name == "text":
            font.text(d.fb, args[0], args[1], args[2], 1, args[3])
        else:
            getattr(d.fb, name)(*args)
    i2c.cancel_glitch()
    i2c.replug()
    d.sleep(False)
    if ticks:
        for _ in range(20):
            now = wrap(now + max(d.panel.retry_ms, d.panel.refresh_ms) // 4)
            d.show(now)
    else:
        d.invalidate()
        assert recover(i2c, d, limit=20)
    assert d.ok and i2c.panel.is_on
    assert_shows(i2c, d)
    assert i2c.panel.errors == []
    assert d.bytes_sent == i2c.bytes_written
