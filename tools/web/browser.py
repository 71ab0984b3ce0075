"""Headless Chromium for the page's test tier and bench: Debian's chromium, driven by
Playwright's Python client (its own Node driver comes in the wheel; no browser is downloaded)."""

import os
from contextlib import contextmanager

from web.build import MICROPYTHON

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}  # a phone's portrait viewport, in CSS pixels
DESKTOP = {"width": 1280, "height": 800}


def unavailable():
    """Why the page cannot be driven here ("" when it can)."""
    if not os.path.exists(CHROMIUM):
        return "%s is missing (Debian's chromium package; tools/bootstrap.sh installs it " \
               "under CI=true)" % CHROMIUM
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright (Python) is missing: run tools/bootstrap.sh"
    if not os.path.isfile(os.path.join(MICROPYTHON, "micropython.wasm")):
        return "the MicroPython npm package is missing: run tools/bootstrap.sh (needs npm)"
    return ""


def launch(playwright, user_dir, viewport=PHONE, **options):
    """A fresh headless Chromium with its own profile in user_dir: a persistent context (a
    service worker and localStorage live as long as the profile), one page per new_page().
    options: Playwright's, e.g. has_touch=True for a touch screen (a coarse pointer)."""
    return playwright.chromium.launch_persistent_context(
        user_dir, executable_path=CHROMIUM, headless=True, args=ARGS, viewport=viewport,
        **options)


@contextmanager
def served(site, user_dir, **options):
    """(context, page, url) for the with block: the page built in site, served on loopback,
    and a fresh Chromium (launch: user_dir, options) with its first page; both shut after."""
    from playwright.sync_api import sync_playwright

    from web import serve

    server = serve.start(site)
    try:
        with sync_playwright() as pw:
            context = launch(pw, user_dir, **options)
            try:
                page = context.pages[0] if context.pages else context.new_page()
                yield context, page, "http://%s:%d/" % (serve.LOOPBACK, server.server_port)
            finally:
                context.close()
    finally:
        server.shutdown()
        server.server_close()


def started(page):
    """The page's tray started: its start time (ms, window.trayStats); RuntimeError with the
    page's own error if it stopped instead."""
    page.wait_for_function("() => window.trayStats && (window.trayStats.startMs !== null"
                           " || window.trayStats.error)", timeout=30000)
    error = page.evaluate("window.trayStats.error")
    if error:
        raise RuntimeError("the page did not start: " + error)
    return page.evaluate("window.trayStats.startMs")
