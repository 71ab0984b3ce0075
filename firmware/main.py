"""The dice tray: build the board, then play; holding OK at power-up enters safe mode."""

from dicetray.board import Board
from dicetray.display import Display

board = Board()
display = Display(board.i2c, ticks_diff=board.ticks_diff, **board.display_settings())
if board.held_at_boot("OK"):
    from dicetray.crash import safe_mode

    safe_mode(display)
else:
    from dicetray.runner import run

    run(board, display)
