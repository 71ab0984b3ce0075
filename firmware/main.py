"""The dice tray: build the board, then play; holding OK at power-up enters safe mode."""

from dicetray import runner
from dicetray.board import Board
from dicetray.display import Display

board = Board()
display = Display(board.i2c, ticks_diff=board.ticks_diff, **board.display_settings())
if board.held_at_boot("OK"):
    runner.safe_mode(display)
else:
    runner.run(board, display)
