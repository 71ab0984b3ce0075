"""The desktop simulator: python tools/sim/play.py (tools/run.sh --sim runs it).

    play  the tray on fake hardware, played in this terminal or headless from a key script
    view  its picture as lines of text, fitted to the terminal, with a status line
"""
