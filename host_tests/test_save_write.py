"""Saving (save_write.py): a press is answered on the panel before anything is written to flash,
where a sector erase would stand between the press and the panel."""

from test_tray import SpyStore, make_tray, play
from trayhost.autoplay import SeededDice


class OrderStore(SpyStore):
    """Notes, at each write, how many bytes the panel had received by then."""

    display = None
    step_start = 0  # the bytes the panel had when the poll under way began

    def __init__(self, fs):
        super().__init__(fs)
        self.at = []

    def note(self, what):
        self.at.append((what, self.step_start, self.display.bytes_sent))

    def save_game(self, data):
        self.note("game")
        super().save_game(data)

    def save_settings(self, settings):
        self.note("settings")
        super().save_settings(settings)

    def clear_game(self):
        self.note("clear")
        super().clear_game()


def test_every_write_to_flash_comes_after_the_panel_shows_the_press():
    tray = make_tray(5, store=OrderStore)
    store = tray.store
    store.display = tray.display
    app = tray.app
    step = app.step

    def noted_step(now):
        store.step_start = tray.display.bytes_sent
        step(now)

    app.step = noted_step
    play(tray, 3, "lebon", SeededDice(6))
    # Each write came after the very poll that wrote it had sent the press's effect.
    for what, start, sent in store.at:
        assert sent > start, "%s written before the panel moved" % what
    assert {"settings", "game", "clear"} <= {what for what, _, _ in store.at}
    assert len(store.at) > 30
