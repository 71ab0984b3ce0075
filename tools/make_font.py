"""Runs tools/make/font.py: firmware/dicetray/font.py names this path (in its data's marker)."""

import os
import runpy

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "make", "font.py"),
               run_name="__main__")
