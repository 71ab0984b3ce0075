"""The tray in a browser: the page's sources, its Python glue (webtray.py, runs in the page on
MicroPython), the build of the static site (build.py), a server for it on this computer's
network (serve.py) and the page's picture in the docs (picture.py)."""
