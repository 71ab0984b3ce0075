"""tools/emupico/bench.py without an emulator: the bot, the keepalive guard, the figures."""

import pytest
from emupico.bench import KINDS, Bench, Keepalive, PicoError, choose, percentile, summary
from emupico.kit import Panel, screen_of
from screens.pictures import render


@pytest.fixture(scope="module")
def shots():
    return {s.name: Panel([s.bits[y * 128 : (y + 1) * 128] for y in range(64)])
            for s in render() if (s.width, s.height) == (128, 64)}


def test_the_bot_plays_every_screen(shots):
    def bot(name, kept=False):
        panel = shots[name]
        return choose(screen_of(panel), panel.hints(), kept)

    assert bot("setup") == ("OK", "setup")
    assert bot("turn_ready") == ("ROLL", "throw")
    assert bot("turn_thrown") == ("KEEP1", "keep")
    assert bot("turn_thrown", kept=True) == ("OK", "stop")
    assert bot("turn_last_throw", kept=True) == ("OK", "stop")
    assert bot("result") == ("OK", "result")
    assert bot("start_rolloff") == ("ROLL", None)
    assert bot("start_decided") == ("OK", None)
    assert bot("playoff_stake") == ("KEEP1", None)  # play for what is
    assert bot("phase_decharge") == ("OK", None)
    assert bot("over") == ("OK", None)
    assert bot("tally") == ("OK", None)
    assert bot("quit") == ("OK", None)  # no: back to the game
    assert choose("turn", "KEEP DICE, THEN ROLL", True) == ("ROLL", "throw")  # must throw on


def test_no_press_window_meets_a_predicted_keepalive():
    k = Keepalive(period=5000, margin=100, drift=10)
    k.booted(1000)
    assert k.wait_before(1000, 800) == 0
    assert k.wait_before(5099, 800) == 0  # ends just before 6000 - 100
    wait = k.wait_before(5500, 800)
    assert wait == 6000 + 10 + 100 - 5500 + 1
    assert k.wait_before(5500 + wait, 800) == 0
    assert k.wait_before(10500, 800) == 11000 + 20 + 100 - 10500 + 1  # the second one, drifted


def test_summary_gives_nearest_rank_p95_per_kind_and_overall():
    got = {k: [] for k in KINDS}
    got["keep"] = [{"first_byte_ms": f, "last_byte_ms": f + 20} for f in range(1, 21)]
    # OK acts on its release: the kit counts from the press, the figures from the release.
    got["setup"] = [{"key": "OK", "hold_ms": 120, "first_byte_ms": 400.0, "last_byte_ms": 500.0}]
    s = summary(got)
    assert (s["pico_keep_first_ms_p95"], s["pico_keep_ms_p95"]) == (19, 39)
    assert (s["pico_setup_first_ms_p95"], s["pico_setup_ms_p95"]) == (280.0, 380.0)
    assert s["pico_throw_ms_p95"] is None and s["pico_heap_peak"] is None
    assert (s["pico_press_first_ms_p95"], s["pico_press_ms_p95"]) == (20, 40)  # 20th of 21
    got["keep"] = [dict(x, key="KEEP1", hold_ms=120) for x in got["keep"]]
    assert summary(got)["pico_keep_ms_p95"] == 39  # a KEEP acts as it goes down
    got["setup"] = [dict(got["setup"][0], ok_at_once=True)]  # so does OK where held it is OK
    assert summary(got)["pico_setup_ms_p95"] == 500.0
    assert percentile([5, 1, 4, 2, 3], 50) == 3


class ScriptedPico:
    """Hands Bench the panels and latency figures a test scripts, one pair per press."""

    def __init__(self, presses):
        self.presses = list(presses)  # (key pressed, figures, panel after)
        self.pressed = []
        self.quiet = []  # the quiet asked for, press by press
        self.after = None

    def now(self):
        return 2000

    def latency(self, key, quiet):
        want, figures, self.after = self.presses.pop(0)
        assert key == want
        self.pressed.append(key)
        self.quiet.append(quiet)
        return dict({"first_byte_ms": 60.0, "last_byte_ms": 80.0, "bytes": 200}, **figures)

    def panel(self):
        return self.after


def test_presses_are_classified_by_what_follows(shots):
    pico = ScriptedPico([
        ("OK", {}, shots["phase_decharge"]),  # a result that leads to a phase change
        ("OK", {}, shots["turn_ready"]),  # the next result, back to a turn
        ("ROLL", {"bytes": 3000, "last_byte_ms": 430.0}, shots["turn_thrown"]),  # animated
        ("KEEP1", {}, shots["turn_kept"]),
        ("OK", {"bytes": 2000}, shots["turn_ready"]),  # a stop that met a keepalive
    ])
    bench = Bench(pico, log=lambda line: None)
    bench.keepalive.booted(1000)
    panel = bench.step(shots["result"])
    assert screen_of(panel) == "phase" and not bench.got["result"]
    panel = bench.step(shots["result"])
    assert len(bench.got["result"]) == 1
    panel = bench.step(panel)
    assert len(bench.got["throw"]) == 1 and not bench.kept
    panel = bench.step(panel)
    assert len(bench.got["keep"]) == 1 and bench.kept
    bench.step(panel)
    assert not bench.got["stop"] and bench.spoiled == 1 and not bench.kept
    assert pico.pressed == ["OK", "OK", "ROLL", "KEEP1", "OK"]
    assert pico.quiet == [100, 100, 300, 100, 100]


def test_a_throw_waits_out_its_animation_even_when_its_save_stalls_the_frames(shots):
    # The save after the animation's first frame holds the CPU for up to ~190 ms: a throw's
    # window asks for 300 ms of quiet, and one that still ended before the animation's end is
    # an error, not a sample (the next press would meet the animation, not landed dice).
    pico = ScriptedPico([("ROLL", {"first_byte_ms": 13.0, "last_byte_ms": 14.0},
                          shots["turn_thrown"])])
    bench = Bench(pico, log=lambda line: None)
    bench.keepalive.booted(1000)
    with pytest.raises(PicoError, match="before its roll animation"):
        bench.step(shots["turn_ready"])
    assert pico.quiet == [300] and not bench.got["throw"]
