"""What the tray keeps on flash for a post-mortem: a bounded error log, the last few bad files.

Neither ever raises: they run when something already went wrong.
"""


def append(fs, log, old, max_bytes, text):
    """Append text to the file log on fs, a line; never raises, flash use stays bounded.

    When the log would pass max_bytes it first becomes old (replacing the older one). An entry
    longer than max_bytes keeps its end, where a traceback names the error.
    """
    try:
        if type(text) is not str:
            text = str(text)
        if not text.endswith("\n"):
            text += "\n"
        raw = text.encode()
        if len(raw) > max_bytes:
            raw = raw[len(raw) - max_bytes :]
        mode = "ab"
        if not fs.exists(log):
            mode = "wb"  # the same when it is missing, and bounded if only stat failed
        elif fs.size(log) + len(raw) > max_bytes:
            _rotate(fs, log, old)
            mode = "wb"
        with fs.open(log, mode) as f:
            f.write(raw)
    except Exception:  # the error handler calls this: a failing log must not fail it
        pass


def _rotate(fs, log, old):
    try:
        fs.rename(log, old)
    except OSError:
        fs.remove(log)  # cannot keep it: drop it rather than let the log grow


def set_aside(fs, src, dst, kept):
    """Rename src to dst, the older dst files one step older (dst.1, dst.2 ... up to kept
    files), the oldest dropped. True when src is out of the way."""
    for i in range(kept - 1, 0, -1):
        newer = dst if i == 1 else "%s.%d" % (dst, i - 1)
        try:
            if fs.exists(newer):
                fs.rename(newer, "%s.%d" % (dst, i))
        except OSError:
            pass  # an odd file in the way (a folder): the newest is what matters
    try:
        fs.rename(src, dst)
        return True
    except OSError:
        pass
    try:
        fs.remove(dst)  # an old bad file of the other kind (file vs folder) is in the way
        fs.rename(src, dst)
        return True
    except OSError:
        return False
