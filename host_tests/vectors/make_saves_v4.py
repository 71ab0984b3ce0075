"""Writes saves_v4.json: saves of format version 4 (the whole game in one JSON file) and how that
engine played each one on.

Run it against the firmware of commit a172668 (the last engine that writes version 4; it refuses
to run on a later one), from this folder, with V4 a checkout of that commit:
    PYTHONPATH=$V4/firmware:$V4/tools python make_saves_v4.py
The moments are make_saves_v2.py's (every preset, 2, 4 and 8 players, one save of each kind of
moment and one action from the end), from games with computer seats and hints as version 4
added them: the bot plays every seat, so the seats only shape the save.
"""

from dicetray import rules
from dicetray.options import PRESET_NAMES
from dicetray.state import SAVE_VERSION

rules.PRESET_NAMES = PRESET_NAMES  # where make_saves_v2's engine kept them
import make_saves_v2 as v2  # noqa: E402


def snapshots(preset, players, seed):
    # Every save the game wrote, every other seat the tray's (one human at least).
    return v2.snapshots(preset, players, seed, computers=list(range(1, players, 2)),
                        hints=seed % 2 == 0)


def main():
    assert SAVE_VERSION == 4, "run this on commit a172668: it writes version 4 saves"
    v2.write("saves_v4.json", snapshots, 13, 7, 70)


if __name__ == "__main__":
    main()
