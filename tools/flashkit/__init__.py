"""The flash tool's parts (tools/flash.sh runs tools/flash.py, the command line, over these).

    pico_usb   the board behind one small interface (Board, Usb), and SerialBoard over mpremote
"""
