"""The flash tool's parts (tools/flash.sh runs tools/flash.py, the command line, over these).

    exits      the exit codes, FlashError, and the advice that ends several messages
    listing    what a board or a build holds, as plain data (Entry, Listing)
    pico_usb   the board behind one small interface (Board, Usb), and SerialBoard over mpremote
"""
