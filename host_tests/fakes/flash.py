"""A fake littlefs flash for the store: files in a dict, power cuts, a full chip, failing calls.

Durability model (littlefs, copy-on-write):
- Opening a new file for writing creates it, empty, on flash at once.
- Written bytes reach flash but are committed only by close(); until then a reboot finds the
  previous content (an empty file when it was new). A failed write (full flash, or a broken
  one) makes close() commit nothing, like littlefs' errored files.
- rename() and remove() are atomic, and rename replaces a target of the same kind.
With torn=True the flash is harsher than littlefs (FAT-like): opening for "w" truncates the file
on flash at once and every byte written is durable as soon as it is written, so a power cut
leaves a torn file.

Errors are MicroPython-shaped: OSError(errno) with the errno as its only argument, so code that
reads e.errno instead of e.args[0] fails on CPython too.
"""

ENOENT = 2
EIO = 5
EBADF = 9
EISDIR = 21
EINVAL = 22
ENOSPC = 28
ENOTEMPTY = 39


class PowerCut(BaseException):
    """The power failed. A BaseException so that `except Exception` cannot swallow it."""


class FakeFlash:
    """The interface of store's filesystem adapter: open, rename, remove, exists, size.

    Test knobs:
      cut_after_bytes = k   the k-th byte written from now is the last to reach flash, then
                            PowerCut (0: the next write call cuts before any byte)
      cut_at_rename = True  the next rename raises PowerCut before it takes effect
      capacity = n          bytes of file data the chip holds; a write beyond: OSError(ENOSPC)
      broken = {"open", "read", "write", "close", "rename", "remove", "stat"}: those calls
                            raise OSError(EIO) ("stat" makes exists() False and size() fail)
    After a cut every call raises PowerCut; reboot() gives the state the flash keeps.
    """

    def __init__(self, capacity=None, torn=False):
        self.files = {}  # path -> bytes committed on flash
        self.dirs = set()
        self.capacity = capacity
        self.torn = torn
        self.cut_at_rename = False
        self.broken = set()
        self.handles = []  # files open now
        self.dead = False
        self._cut_after = None
        self.written = 0  # bytes written since cut_after_bytes was last set

    @property
    def cut_after_bytes(self):
        return self._cut_after

    @cut_after_bytes.setter
    def cut_after_bytes(self, k):
        self._cut_after = k
        self.written = 0

    # ---- what a reboot finds ----------------------------------------------------------

    def reboot(self):
        """A fresh flash holding what survived: committed files; open files are lost."""
        fresh = FakeFlash(self.capacity, self.torn)
        fresh.files = dict(self.files)
        fresh.dirs = set(self.dirs)
        return fresh

    def listdir(self):
        return sorted(set(self.files) | self.dirs)

    def mkdir(self, path):
        self._enter("mkdir")
        if path in self.files or path in self.dirs:
            raise OSError(17)  # EEXIST
        self._check_parent(path)
        self.dirs.add(path)

    def used(self):
        """Bytes of file data on flash, counting uncommitted writes (copy-on-write)."""
        total = sum(len(v) for v in self.files.values())
        if not self.torn:
            total += sum(len(h.pending) - h.base for h in self.handles if h.kind != "r")
        return total

    # ---- the adapter interface --------------------------------------------------------

    def open(self, path, mode):
        self._enter("open")
        binary = "b" in mode
        kind = mode.replace("b", "")
        if kind not in ("r", "w", "a") or len(mode) != len(kind) + binary:
            raise ValueError("mode %r is not one the store uses" % mode)
        if path in self.dirs:
            raise OSError(EISDIR)
        if kind == "r" and path not in self.files:
            raise OSError(ENOENT)
        self._check_parent(path)
        if path not in self.files or (kind == "w" and self.torn):
            self.files[path] = b""
        f = FakeFile(self, path, kind, binary)
        self.handles.append(f)
        return f

    def rename(self, old, new):
        self._enter("rename")
        if not self._is(old):
            raise OSError(ENOENT)
        self._check_parent(new)
        if self.cut_at_rename:
            self._cut("before rename %s -> %s" % (old, new))
        old_dir = old in self.dirs
        if self._is(new) and (new in self.dirs) != old_dir:
            raise OSError(EISDIR)  # littlefs: the target must be of the same kind
        if old == new:
            return
        if old_dir:
            if self._children(new):
                raise OSError(ENOTEMPTY)
            if new.startswith(old + "/"):
                raise OSError(EINVAL)
            self.dirs.discard(new)
            self.dirs.add(new)
            self.dirs.discard(old)
            for p in self._children(old):
                moved = new + p[len(old) :]
                if p in self.dirs:
                    self.dirs.discard(p)
                    self.dirs.add(moved)
                else:
                    self.files[moved] = self.files.pop(p)
        else:
            self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._enter("remove")
        if path in self.files:
            del self.files[path]
        elif path in self.dirs:
            if self._children(path):
                raise OSError(ENOTEMPTY)
            self.dirs.discard(path)
        else:
            raise OSError(ENOENT)

    def exists(self, path):
        self._alive()
        return "stat" not in self.broken and self._is(path)

    def size(self, path):
        self._enter("stat")
        if path in self.files:
            return len(self.files[path])
        if path in self.dirs:
            return 0
        raise OSError(ENOENT)

    # ---- helpers ----------------------------------------------------------------------

    def _alive(self):
        if self.dead:
            raise PowerCut("the power is off: reboot()")

    def _enter(self, op):
        self._alive()
        if op in self.broken:
            raise OSError(EIO)

    def _cut(self, where):
        self.dead = True
        raise PowerCut(where)

    def _is(self, path):
        return path in self.files or path in self.dirs

    def _children(self, path):
        prefix = path + "/"
        return [p for p in set(self.files) | self.dirs if p.startswith(prefix)]

    def _check_parent(self, path):
        parent = path.rpartition("/")[0]
        if parent and parent not in self.dirs:
            raise OSError(ENOENT)


class FakeFile:
    """An open file: read() for "r", write() for "w" and "a"; a context manager."""

    def __init__(self, flash, path, kind, binary):
        self.flash = flash
        self.path = path
        self.kind = kind
        self.binary = binary
        self.closed = False
        self.erred = False  # a write failed: close() commits nothing
        committed = flash.files[path]
        self.data = committed if kind == "r" else b""
        self.pos = 0
        self.pending = committed if kind == "a" else b""  # what close() commits
        self.base = len(self.pending)  # bytes already on flash before this handle wrote

    def read(self, n=-1):
        self._check("read", "r")
        end = len(self.data) if n is None or n < 0 else self.pos + n
        chunk = self.data[self.pos : end]
        self.pos += len(chunk)
        return chunk if self.binary else chunk.decode()

    def write(self, data):
        if "write" in self.flash.broken:
            self.erred = True  # littlefs marks a file whose write failed: close commits nothing
        self._check("write", "wa")
        if self.binary:
            if isinstance(data, str):
                raise TypeError("a binary file takes bytes")
            raw = bytes(data)
        else:
            if not isinstance(data, str):
                raise TypeError("a text file takes str")
            raw = data.encode()
        fl = self.flash
        if fl.capacity is not None and fl.used() + len(raw) > fl.capacity:
            self.erred = True
            raise OSError(ENOSPC)
        k = fl.cut_after_bytes
        if k is not None and fl.written + len(raw) >= k:
            self._land(raw[: max(0, k - fl.written)])
            fl._cut("after byte %d" % k)
        self._land(raw)
        return len(data)

    def close(self):
        if self.closed:
            return
        fl = self.flash
        fl._alive()
        self.closed = True
        fl.handles.remove(self)
        if "close" in fl.broken:
            raise OSError(EIO)  # and nothing is committed
        if self.kind != "r" and not self.erred:
            fl.files[self.path] = self.pending

    def flush(self):
        self._check("flush", "wa")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _land(self, raw):
        fl = self.flash
        fl.written += len(raw)
        self.pending += raw
        if fl.torn:
            fl.files[self.path] = self.pending

    def _check(self, op, kinds):
        self.flash._enter(op)
        if self.closed or self.kind not in kinds:
            raise OSError(EBADF)


def saved_game(files, root=""):
    """The saved dict that the files of a flash hold, as the boot reads them (unchecked): the
    setup in game.json with the record in game.now, or an older release's whole game.json."""
    import json

    from dicetray.state import SAVE_VERSION
    from dicetray.store_read import read_record

    raw = files[root + "game.json"]
    data = json.loads(raw)
    if data.get("version") != SAVE_VERSION:
        return data
    return read_record(data, raw, files[root + "game.now"])
