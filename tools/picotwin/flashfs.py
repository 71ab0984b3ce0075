"""The twin's flash chip: a littlefs image (littlefs-python, mounted as the rp2 port mounts it,
trayhost.picoflash's configuration) that survives power cycles, and the file calls the VM makes
on it. A power cut can be armed to fall before the flash's next n-th program or erase: what the
chip holds then is what the next boot mounts.
"""

from __future__ import annotations

import binascii

from littlefs import FileHandle, LittleFS, lfs
from littlefs.errors import LittleFSError
from trayhost.picoflash import BLOCK_COUNT, BLOCK_SIZE, LFS_CONFIG, CountingDevice

ENOENT, EBADF, EIO = 2, 9, 5
DIR, FILE = 0x4000, 0x8000  # MicroPython's stat modes
LFS_DIR = 2  # littlefs's type of a folder
LFS_ERR_IO = -5
_F = lfs.LFSFileFlag
# A mode's letters -> littlefs's open flags, as MicroPython's VfsLfs2 sets them.
_FLAGS = {"w": _F.wronly | _F.creat | _F.trunc, "a": _F.wronly | _F.creat | _F.append,
          "x": _F.wronly | _F.creat | _F.excl, "+": _F.rdwr}


class PowerCut(Exception):
    """The power went while littlefs was writing: nothing after this reaches the chip."""


class Chip(CountingDevice):
    """The flash chip: counts programs and erases; cut_in, when set, is how many more of them
    reach the chip whole before the power goes. The one it goes in is torn: a program's first
    half lands (NOR flash programs in order), an erase leaves the block as it was."""

    def __init__(self, image=None):
        super().__init__(image)
        self.cut_in = None
        self.cut = False

    def _goes(self):
        """True when the power goes in this program or erase (or went before it)."""
        if self.cut:
            return True
        if self.cut_in is None:
            return False
        if self.cut_in <= 0:
            self.cut, self.cut_in = True, None
            return True
        self.cut_in -= 1
        return False

    # littlefs-python ignores what a callback raises: a cut answers LFS_ERR_IO instead, and
    # Flash.serve turns the failed call into PowerCut.
    def prog(self, cfg, block, off, data):
        if self.cut:
            return LFS_ERR_IO
        if self._goes():
            start = block * cfg.block_size + off
            half = len(data) // 2
            self.buffer[start : start + half] = data[:half]
            return LFS_ERR_IO
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        if self._goes():
            return LFS_ERR_IO
        return super().erase(cfg, block)


class Flash:
    """The littlefs on the chip, and the VM's file calls on it (serve)."""

    def __init__(self, image=None):
        self.chip = Chip(image)
        self.lfs = None
        self.files = {}
        self.formatted = image is None
        if image is None:
            LittleFS(context=self.chip, mount=False, **LFS_CONFIG).format()

    def image(self):
        return bytes(self.chip.buffer)

    def mount(self):
        """At power-up: mount what the chip holds (the port formats a chip that does not
        mount: so does this). Files left open by the last boot are forgotten, uncommitted."""
        self.chip.cut = False
        self.files = {}
        self.lfs = LittleFS(context=self.chip, mount=False, **LFS_CONFIG)
        try:
            self.lfs.mount()
        except LittleFSError:
            self.lfs.format()
            self.lfs.mount()
            self.formatted = True

    def power_off(self):
        """The power goes: open files are dropped unclosed (nothing more reaches the chip)."""
        for f in self.files.values():
            _forget(f)
        self.lfs = None
        self.files = {}

    # ---- the VM's calls -----------------------------------------------------------------

    def serve(self, fn, args):
        """{"ok": value} or {"err": errno} for one call; PowerCut when the power goes."""
        try:
            answer = {"ok": getattr(self, "fs_" + fn)(*args)}
        except LittleFSError as e:
            answer = {"err": -e.code}
        except OSError as e:  # littlefs-python's FileNotFoundError and the like
            cause = e.__cause__
            answer = {"err": -cause.code if isinstance(cause, LittleFSError) else e.errno or EIO}
        if self.chip.cut:
            raise PowerCut
        return answer

    def fs_stat(self, path):
        st = self.lfs.stat(path)
        mode = DIR if st.type == LFS_DIR else FILE
        return [mode, 0, 0, 0, 0, 0, st.size if mode == FILE else 0, 0, 0, 0]

    def fs_ilistdir(self, path):
        out = []
        for entry in self.lfs.scandir(path):
            mode = DIR if entry.type == LFS_DIR else FILE
            out.append([entry.name, mode, 0, entry.size if mode == FILE else 0])
        return out

    def fs_statvfs(self, path):
        free = BLOCK_COUNT - self.lfs.used_block_count
        return [BLOCK_SIZE, BLOCK_SIZE, BLOCK_COUNT, free, free, 0, 0, 0, 0, 255]

    def fs_mkdir(self, path):
        self.lfs.mkdir(path)

    def fs_remove(self, path):
        self.lfs.remove(path)

    def fs_rename(self, old, new):
        self.lfs.rename(old, new)

    def fs_read(self, path):
        with self.lfs.open(path, "rb", buffering=0) as f:
            data = f.readall()
        return binascii.hexlify(data).decode()

    def fs_open(self, path, mode):
        """Open for writing with the flags MicroPython's VfsLfs2 gives littlefs for mode
        ("wb", "ab", "xb", "r+b"...): "a" creates, as it does there."""
        flags = 0
        for ch, flag in _FLAGS.items():
            if ch in mode:
                flags |= flag
        handle = len(self.files) + 1
        while handle in self.files:
            handle += 1
        self.files[handle] = FileHandle(self.lfs.fs, lfs.file_open(self.lfs.fs, path, flags))
        return handle

    def _file(self, handle):
        if handle not in self.files:
            raise OSError(EBADF)
        return self.files[handle]

    def fs_write(self, handle, hexdata):
        return self._file(handle).write(binascii.unhexlify(hexdata))

    def fs_fread(self, handle, n):
        f = self._file(handle)
        data = f.readall() if n is None or n < 0 else f.read(n)
        return binascii.hexlify(data or b"").decode()

    def fs_seek(self, handle, offset, whence):
        return self._file(handle).seek(offset, whence)

    def fs_flush(self, handle):
        self._file(handle).flush()

    def fs_close(self, handle):
        f = self.files.pop(handle, None)
        if f is not None:
            try:
                f.close()  # littlefs commits the file here
            finally:
                _forget(f)

    # ---- the host's own calls (flash.sh's copies) --------------------------------------

    def lfs_call(self, name):
        """A littlefs call by name, on the mounted filesystem (mkdir, remove)."""
        return lambda *args: getattr(self.lfs, name)(*args)

    def write_file(self, path, data):
        with self.lfs.open(path, "wb", buffering=0) as f:
            f.write(data)

    # ---- the host's own view (flash.sh's copies, the tests) ------------------------------

    def listing(self):
        """{path: bytes or None for a folder} of every entry."""
        out = {}
        for top, dirs, files in self.lfs.walk("/"):
            base = top.rstrip("/")
            for d in dirs:
                out[base + "/" + d] = None
            for name in files:
                with self.lfs.open(base + "/" + name, "rb", buffering=0) as f:
                    out[base + "/" + name] = f.readall()
        return out


def _forget(f):
    """Mark a littlefs-python file closed without closing it in littlefs: it is closed there
    already (a failed close), or the power went. Else its finalizer would close it, and littlefs
    would write to the chip, or assert on a file it no longer knows."""
    setattr(f, "__IOBase_closed", True)  # what littlefs-python's own close() sets
