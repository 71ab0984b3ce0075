"""The benchmark runs and reports every figure (its numbers are read, never asserted on time)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = (
    "rules_evals_per_s_cpython",
    "rules_evals_per_s_micropython",
    "games_per_s_cpython",
    "games_per_s_micropython",
    "rules_heap_bytes_micropython",
)
TRAY_KEYS = (
    "i2c_bytes_per_press_median",
    "i2c_bytes_per_press_p95",
    "full_frame_bytes",
    "press_to_panel_ms_400k_p95",
    "heap_after_boot_bytes",
    "heap_peak_bytes",
    "idle_alloc_bytes_per_poll",
    "font_accent_bytes",
    "words_heap_bytes_en",
    "words_heap_bytes_fr",
)


PICO_KEYS = ("pico_press_ms_p95", "pico_press_first_ms_p95", "pico_heap_boot",
             "pico_heap_peak") + tuple(
    "pico_%s_%s_p95" % (kind, what) for kind in ("keep", "throw", "stop", "result", "setup")
    for what in ("ms", "first_ms"))
WEB_KEYS = ("web_start_ms", "web_start_cold_ms", "web_click_to_canvas_ms_p50",
            "web_click_to_canvas_ms_p95")


def test_bench_prints_one_json_line_with_every_key(micropython):
    # The emulated Pico's figures take minutes, the browser's ~25 s: switched off here, they are
    # null and the bench says why (tools/emupico/bench.py's own tests and the Pico tier cover the
    # Pico's side; host_tests/test_web.py the page's).
    env = dict(os.environ, DICETRAY_PICO_KIT="", DICETRAY_WEB_BENCH="0",  # and the page
               DICETRAY_PRESSCOST_BENCH="0",  # and the press costs (minutes on MicroPython)
               DICETRAY_ARENA_GAMES="40",  # the arena: a few games, its figures still there
               DICETRAY_SOAK_GAMES="2")  # the night: two games (its own tests: test_night.py)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "figures.py")],
                         env=env, capture_output=True, text=True, check=True, timeout=600).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    for key in KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    for key in TRAY_KEYS:
        assert isinstance(figures[key], (int, float)) and not isinstance(figures[key], bool), key

    # Bytes: whole numbers, the percentiles in order; 128x64 = 8 pages of 4 + 1 + 128 bytes.
    median, p95 = figures["i2c_bytes_per_press_median"], figures["i2c_bytes_per_press_p95"]
    assert isinstance(median, int) and isinstance(p95, int)
    assert 0 < median <= p95
    assert figures["full_frame_bytes"] == 8 * (4 + 1 + 128)
    # Bus time is at least the 9 bit times of each byte at 400 kHz, and the transfers add little.
    ms = figures["press_to_panel_ms_400k_p95"]
    assert p95 * 9 / 400 <= ms < p95 * 9 / 400 * 1.5

    # Live heap on MicroPython: the firmware's code alone is tens of kB; the peak includes boot.
    boot, peak = figures["heap_after_boot_bytes"], figures["heap_peak_bytes"]
    assert isinstance(boot, int) and isinstance(peak, int)
    assert 10_000 < boot <= peak < 1_000_000
    # The idle main loop allocates nothing on any screen, through dim and sleep.
    assert figures["idle_alloc_bytes_per_poll"] == 0
    # No press loads code before its first frame (trayhost.pressmeter's loads_tour).
    assert figures["press_loads_before_frame"] == 0
    assert "resume->" in out and "modules loaded before the first frame: none" in out
    # What French costs: each catalogue's live heap, a part of the tray's after boot; the
    # glyphs beyond ASCII, at least the columns of the 15 the font adds (13 accented capitals,
    # « and ») and at most the font's whole tables.
    from dicetray import font

    for code in ("en", "fr"):
        nbytes = figures["words_heap_bytes_" + code]
        assert isinstance(nbytes, int) and 1000 < nbytes < boot, code
        assert "live heap of the %s catalogue once loaded: %d bytes" % (code, nbytes) in out
    accents = figures["font_accent_bytes"]
    assert isinstance(accents, int)
    assert 15 * 5 < accents < len(font._GLYPHS) + len(font._INDEX) + len(font.CHARS.encode())

    for line in ("bytes from a press to its effect", "live heap after boot", "idle allocation"):
        assert line in out, line
    assert "Pico figures skipped: DICETRAY_PICO_KIT is empty" in out
    for key in PICO_KEYS:
        assert figures[key] is None, key
    for kind in ("exact", "random", "greedy", "baseline", "vs_random", "vs_greedy",
                 "vs_baseline"):
        share = figures["seats_loss_share_" + kind]
        assert isinstance(share, float) and 0 <= share <= 1, kind
    assert "tray vs 3 baseline" in out and "pooled: the tray seat pays" in out
    assert "Seat decision on the Pico skipped: DICETRAY_PICO_KIT is empty" in out
    assert figures["seats_decision_ms_pico"] is None
    # The seat's decision on the WebAssembly MicroPython beside the released seat's, its heap.
    for key in ("seats_decision_ms_wasm", "seats_decision_ms_baseline_wasm",
                "seats_decision_ratio_wasm", "seats_decision_alloc_bytes"):
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert "the released seat median" in out
    assert 0 < figures["seats_tables_bytes"] <= 8192  # the seat's tables: within 8 KB of heap
    # At 8 players: the warm-up whole and its largest piece, a decision; no press waits on them.
    for key in ("seats_warm_ms_wasm", "seats_warm_piece_ms_wasm", "seats_decision_8p_ms_wasm",
                "seats_decision_piece_ms_wasm", "seats_heap_peak_bytes"):
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["seats_warm_piece_ms_wasm"] <= figures["seats_warm_ms_wasm"]
    assert figures["seats_calls_before_frame"] == 0
    assert "the seat's work before the first frame: 0 calls" in out
    # A save on littlefs, today and as the last release saved (counted erases and programs).
    for key in ("erases_per_action", "programs_per_action", "flash_ms_p50", "flash_ms_p95",
                "flash_ms_max", "actions", "build_us_micropython"):
        for prefix in ("save_", "save_v4_"):
            assert isinstance(figures[prefix + key], (int, float)), prefix + key
    assert figures["save_actions"] == figures["save_v4_actions"] > 1000
    assert figures["save_erases_per_action"] < figures["save_v4_erases_per_action"]
    assert "save_erases_per_action" in out and "format 4" in out
    assert figures["save_undo_actions"] > figures["save_actions"]  # the slips' and undos' saves
    assert figures["save_undo_erases_per_action"] <= 0.1
    # The night: every game's start read, the figures there; the Pico's night skipped.
    assert figures["soak_games"] == 2
    assert isinstance(figures["soak_heap_drift_bytes"], int)
    assert isinstance(figures["soak_heap_slope_bytes_per_game"], float)
    assert 5000 < figures["soak_heap_peak_bytes"] < 200_000  # a game: seats, hints, saves
    assert "128x64: live heap at each game's start" in out and "128x32: slope" in out
    assert "games   1-  2: " in out
    assert "Pico night's soak skipped: DICETRAY_PICO_KIT is empty" in out
    for key in ("pico_soak_games", "pico_soak_heap_slope_bytes_per_game",
                "pico_soak_heap_drift_bytes", "pico_soak_heap_peak_bytes"):
        assert figures[key] is None, key
    assert "Browser figures skipped: DICETRAY_WEB_BENCH is 0" in out
    assert "Press cost figures skipped: DICETRAY_PRESSCOST_BENCH is 0" in out
    from bench.presscost import empty

    for key in empty():  # every key there, null when skipped
        assert figures[key] is None, key
    for key in WEB_KEYS:
        assert figures[key] is None, key


def test_the_turn_s_end_is_timed_on_micropython_for_each_firmware_given(micropython, tmp_path):
    # tools/bench/turnend.py: the stop that ends a turn and its result, per game, for each tree
    # given; its figures are read, never asserted on. A tree's own code is what runs: a copy
    # whose result cannot be drawn stops it, saying so.
    import shutil

    import pytest
    from mpy import MicroPythonError

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from bench import turnend

    printed = []
    best = turnend.compare([turnend.FIRMWARE], reps=5, rounds=2, log=printed.append)
    games = [(preset, players) for preset, players in turnend.GAMES]
    assert [(g[0], g[1]) for g in best[turnend.FIRMWARE]] == games
    assert all(isinstance(n, int) and n > 0 for g in best[turnend.FIRMWARE] for n in g[2:])
    assert len(printed) == 2 + len(games) and "lebon, 8" in printed[3]
    copy = tmp_path / "broken"
    shutil.copytree(turnend.FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    ui = copy / "dicetray" / "ui.py"
    source = ui.read_text()
    drawn = "\n    _ranked_cells(fb, w, h, 10, items)\n"  # the result's list, in its own body
    assert source.count(drawn) == 1
    ui.write_text(source.replace(drawn, "\n    raise ValueError('the copy drew this')\n"))
    with pytest.raises(MicroPythonError, match="the copy drew this"):
        turnend.compare([str(copy)], reps=5, rounds=1, log=printed.append)
