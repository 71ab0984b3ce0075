"""The flash tool's parts (tools/flash.sh runs tools/flash.py, the command line, over these).

    build      firmware/ compiled by mpy-cross, listed as the board must hold it
    checks     what the board runs, whether it can take the build, whether the game runs
    exits      the exit codes, FlashError, and the advice that ends several messages
    listing    what a board or a build holds, as plain data (Entry, Listing)
    planner    the plan: listings of the build and the board in, steps out (pure)
    pico_usb   the board behind one small interface (Board, Usb), and SerialBoard over mpremote
"""
