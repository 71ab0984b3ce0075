"""Bench figures of the tray in a browser: the built page (tools/web) in headless Chromium.

    python tools/bench/page.py        (tools/bench/figures.py includes these in its JSON line)

- web_start_ms: from the start of the page's navigation to the first frame painted on the
  canvas (MicroPython loaded, the firmware imported, the app booted): the median of LOADS
  reloads served by the service worker's copy, as a phone that has the page gets it.
  web_start_cold_ms: the first load, every file from the local server.
- web_click_to_canvas_ms_p50 / _p95: from a press's input event (its timeStamp: when the
  browser took the click) to the end of the canvas's first repaint after it, measured in the
  page (tray.js, window.trayStats); nearest-rank. The presses are KEEP1/KEEP2 on the setup
  menu and ROLL in the game's first turns: each answers at its first edge (OK answers at its
  release, so its figure would time the finger, not the tray). The browser's compositing of
  that repaint onto the screen comes after and is not counted.
Skipped, saying why (every figure null), where Chromium or Playwright is missing
(web.browser.unavailable) or DICETRAY_WEB_BENCH is 0 (host_tests/test_bench.py: it takes ~25 s).
"""

import os
import sys
import tempfile
import time

if __name__ == "__main__":  # run as a script: tools/, not this folder, heads the path
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from web import browser, build  # noqa: E402

from bench.tray import percentile  # noqa: E402

LOADS = 5
KEYS = "2121212121212121" + "o" + "r" * 16  # the setup menu up and down, OK, then rolls
FIGURES = ("web_start_ms", "web_start_cold_ms", "web_click_to_canvas_ms_p50",
           "web_click_to_canvas_ms_p95")
BUTTONS = {"1": "KEEP1", "2": "KEEP2", "r": "ROLL", "o": "OK"}
GAP_S = 0.5  # between presses: more than the roll animation


def measure(page, url):
    page.goto(url)
    cold = browser.started(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    warm = []
    for _ in range(LOADS):
        page.reload()
        warm.append(browser.started(page))
    latencies = []
    for k in KEYS:
        before = page.evaluate("window.trayStats.latencies.length")
        page.click("#" + BUTTONS[k])
        time.sleep(GAP_S)
        if k != "o":
            got = page.evaluate("window.trayStats.latencies")[before:]
            if not got:
                raise RuntimeError("a press of %s repainted nothing" % BUTTONS[k])
            latencies.append(got[0])
    return cold, warm, latencies


def web_figures():
    """The figures as a dict for the bench's JSON line (each None when skipped); prints them."""
    reason = browser.unavailable()
    if os.environ.get("DICETRAY_WEB_BENCH") == "0":
        reason = "DICETRAY_WEB_BENCH is 0"
    if reason:
        print("Browser figures skipped: " + reason)
        return dict.fromkeys(FIGURES)
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        build.build(site)
        with browser.served(site, os.path.join(tmp, "profile")) as (context, page, url):
            cold, warm, latencies = measure(page, url + "?seed=1")
            version = context.browser.version if context.browser else "?"
    figures = {
        "web_start_ms": round(percentile(warm, 50)),
        "web_start_cold_ms": round(cold),
        "web_click_to_canvas_ms_p50": round(percentile(latencies, 50), 1),
        "web_click_to_canvas_ms_p95": round(percentile(latencies, 95), 1),
    }
    print("Browser      (headless Chromium %s, %d presses)" % (version, len(latencies)))
    print("Browser      page start to first frame: %d ms (first load: %d ms)"
          % (figures["web_start_ms"], figures["web_start_cold_ms"]))
    print("Browser      click to canvas: median %.1f ms, p95 %.1f ms"
          % (figures["web_click_to_canvas_ms_p50"], figures["web_click_to_canvas_ms_p95"]))
    return figures


if __name__ == "__main__":
    print(web_figures())
