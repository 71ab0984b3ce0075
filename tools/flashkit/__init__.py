"""The flash tool's parts; tools/flash.py, the command line, runs them (tools/flash.sh runs it).

    exits      the exit codes, FlashError, and the advice that ends several messages
    listing    what a board or a build holds, as plain data (Entry, Listing)
    build      firmware/ compiled by mpy-cross, listed as the board must hold it
    pico_usb   the board behind one small interface (Board, Usb), and SerialBoard over mpremote
    checks     what the board runs, whether it can take the build, whether the game runs
    native     which form a module of machine code takes on the board: .mpy or source
    planner    the plan: listings of the build and the board in, steps out (pure)
    update     running the plan on a board: copy, remove, verify, reset
"""
