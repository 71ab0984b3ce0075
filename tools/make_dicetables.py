"""Runs tools/make/dicetables.py: firmware/dicetray/firsttable.py names this path (its head)."""

import os
import runpy

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "make", "dicetables.py"),
               run_name="__main__")
