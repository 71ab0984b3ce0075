"""The twin's flash as MicroPython sees it: a VFS whose every call goes to the littlefs image the
driver keeps (tools/picotwin/flashfs.py), so a power cut meets a real littlefs. A file opened to
read comes over whole (an io.BytesIO: imports need a real stream); one opened to write sends
each write() as it comes. Each call charges the firmware's work so far (twinbus.charge), then
what the driver says the call took on the Pico (its "us": littlefs, the flash's busy times)."""

import binascii
import io

import twinbus


def _call(fn, *args, decode=False, data=None):
    """The driver's answer to a file call (its bytes, when decode); OSError for its error.
    data: bytes the call writes, sent after args (as hex, with the meter off: the twin's)."""
    twinbus.charge(True)
    try:
        if data is not None:
            args += (binascii.hexlify(data).decode(),)
        answer = twinbus.ask({"op": "fs", "fn": fn, "args": args})
        twinbus.spend(answer.get("us", 0))
        if "err" in answer:
            raise OSError(answer["err"])
        value = answer.get("ok")
        return binascii.unhexlify(value) if decode else value
    finally:
        twinbus.on()


class Flash:
    def __init__(self):
        self.cwd = "/"

    def _path(self, path):
        return path if path.startswith("/") else self.cwd.rstrip("/") + "/" + path

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def chdir(self, path):
        path = self._path(path)
        if _call("stat", path)[0] & 0x4000 == 0:
            raise OSError(20)  # ENOTDIR
        self.cwd = path

    def getcwd(self):
        return self.cwd

    def ilistdir(self, path):
        return iter([tuple(e) for e in _call("ilistdir", self._path(path))])

    def stat(self, path):
        return tuple(_call("stat", self._path(path)))

    def statvfs(self, path):
        return tuple(_call("statvfs", self._path(path)))

    def mkdir(self, path):
        _call("mkdir", self._path(path))

    def rmdir(self, path):
        _call("remove", self._path(path))

    def remove(self, path):
        _call("remove", self._path(path))

    def rename(self, old, new):
        _call("rename", self._path(old), self._path(new))

    def open(self, path, mode="r"):
        path = self._path(path)
        if "r" in mode and "+" not in mode:
            data = _call("read", path, decode=True)
            twinbus.off()
            try:
                return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode())
            finally:
                twinbus.on()
        return File(_call("open", path, mode.replace("t", "").replace("b", "") + "b"),
                    "b" in mode)


class File:
    """A file open for writing on the driver's littlefs."""

    def __init__(self, handle, binary):
        self.handle = handle
        self.binary = binary

    def write(self, data):
        if not self.binary and type(data) is str:
            data = data.encode()
        return _call("write", self.handle, data=data)

    def read(self, n=-1):
        data = _call("fread", self.handle, n, decode=True)
        return data if self.binary else data.decode()

    def readinto(self, buf):
        data = _call("fread", self.handle, len(buf), decode=True)
        buf[: len(data)] = data
        return len(data)

    def seek(self, offset, whence=0):
        return _call("seek", self.handle, offset, whence)

    def tell(self):
        return _call("seek", self.handle, 0, 1)

    def flush(self):
        _call("flush", self.handle)

    def close(self):
        if self.handle is not None:
            _call("close", self.handle)
            self.handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
