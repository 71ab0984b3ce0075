"""The tray in a browser: the page's sources, its Python glue (webtray.py, runs in the page on
MicroPython), the build of the static site (build.py) and a local server for it (serve.py)."""
