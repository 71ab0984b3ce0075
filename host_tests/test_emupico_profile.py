"""tools/emupico/profile.py's report from a board's timings (no emulator: the data is made up)."""

import pytest
from emupico import profile


def board_data():
    throw = {"App.press": (90000, 1), "Game.throw": (2000, 1), "Game.to_dict": (6000, 1),
             "Store.save_game": (78000, 1), "file.write": (45000, 1),
             "App.render": (50000, 1), "font.text": (40000, 6), "ui.turn": (49000, 1),
             "Display.show": (60000, 1), "plan_page": (18000, 4),
             "Panel.write_spans": (12000, 4)}
    frame = {"App.render": (50000, 1), "font.text": (44000, 6), "Display.show": (30000, 1),
             "plan_page": (5000, 3), "Panel.write_spans": (5000, 3)}
    return {
        "plain": [["press", "throw", 180000, 7000, 350, {}], ["frame", "roll animation frame",
                                                               78000, 0, 150, {}],
                  ["press", "keep", 74000, 800, 130, {}]],
        "timed": [["press", "throw", 210000, 7000, 350, throw],
                  ["frame", "roll animation frame", 92000, 0, 150, frame],
                  ["frame", "roll animation frame", 90000, 0, 150, frame],
                  ["press", "keep", 90000, 800, 130, {"App.render": (55000, 1)}]],
        "gc_boot": [60000, 7000], "gc_collect_us": 17000, "live_heap": 100000,
        "free_heap": 120000, "save_bytes": 64, "timer_overhead_us": 100, "timer_floor_us": 24,
    }


def test_pieces_add_up_and_nested_pieces_are_taken_out():
    s = profile.summarise(board_data())
    rows = dict(s["throw"]["rows"])
    assert s["throw"]["plain_median_ms"] == 180 and s["throw"]["timed_mean_ms"] == 210
    assert rows["    save: the record built and written (Store.save_game)"] == 78
    assert rows["    compare with the panel, the rest"] == 30  # show less plan_page and writes
    assert rows["    lay out the changed spans (plan_page)"] == 18
    assert rows["      calls"] == 6
    top = sum(v for label, v in rows.items() if label.startswith("  ") and label[2] != " ")
    assert top == pytest.approx(210)  # "the rest of the step" closes the gap to the whole step
    frames = s["roll animation frame"]
    assert (frames["n"], frames["plain_median_ms"], frames["timed_mean_ms"]) == (1, 78, 91)
    text = profile.table(s, board_data())
    assert "anim frame" in text and "17.0 ms with 100000 bytes" in text


def test_passes_that_played_differently_are_refused():
    data = board_data()
    data["timed"][-1][1] = "stop"
    with pytest.raises(RuntimeError, match="different presses"):
        profile.summarise(data)
