"""The Pico's flash as MicroPython's rp2 port formats it, on littlefs-python: its littlefs
configuration (block 4096 B, read and prog size 32, cache 128, lookahead 32, block_cycles 100,
352 blocks: a Pico's 1.4 MB filesystem) and a RAM block device that counts the programs and
erases the chip would make. The flash bench (bench/flashsave.py) and the host twin's chip
(picotwin/flashfs.py) both stand on it.
"""

from littlefs.context import UserContext

BLOCK_SIZE = 4096
BLOCK_COUNT = 352
LFS_CONFIG = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=32,
                  cache_size=128, lookahead_size=32, block_cycles=100)


class CountingDevice(UserContext):
    """A RAM block device that counts what the flash chip would do. With images a list, the
    flash as a power cut before each program or erase would leave it is added to it."""

    def __init__(self, image=None):
        super().__init__(BLOCK_SIZE * BLOCK_COUNT, None if image is None else bytearray(image))
        self.erases = 0
        self.programs = 0
        self.images = None

    def prog(self, cfg, block, off, data):
        self.programs += 1
        if self.images is not None:
            self.images.append(bytes(self.buffer))
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.erases += 1
        if self.images is not None:
            self.images.append(bytes(self.buffer))
        return super().erase(cfg, block)
