"""A bounded error log on flash: one file, rotated to a second when full; writing never raises."""


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
