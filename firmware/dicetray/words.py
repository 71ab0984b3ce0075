"""The language the tray speaks: its catalogue of every text shown, loaded alone.

A language is one catalogue module, dicetray.words_<code> (words_en.py, words_fr.py: the same
names in each), and its code in LANGS. The screens read a text when they draw it, as
words.T.NAME, so that the language can change under them; only the language in use is loaded
(use()), and the one it replaces is let go: on the Pico the other catalogue costs no heap. The
language is the VM's, as the display is: one tray a VM.
"""

import sys

from dicetray.lazy import drop

LANGS = ("en", "fr")  # the setup's order
DEFAULT = "en"  # a new tray's, and a settings file's or a save's without a language


class _Unread:
    """words.T before any catalogue is loaded: the first text read loads the language set
    (use), so that a tray whose settings say another loads the default's never."""

    def __getattr__(self, name):
        return getattr(use(lang), name)


_UNREAD = _Unread()
T = _UNREAD  # the catalogue of the language spoken, once loaded
lang = DEFAULT  # the code of the language spoken


def use(code):
    """Speak the language code from now on (DEFAULT if it is none of LANGS); return its
    catalogue, loaded now if it is not, the one it replaces let go."""
    global T, lang
    if code not in LANGS:
        code = DEFAULT
    if code != lang or T is _UNREAD:
        drop("words_" + lang)
        __import__("dicetray.words_" + code)
        T = sys.modules["dicetray.words_" + code]
        lang = code
    return T


def step(code, by):
    """The language by steps after code in LANGS (by -1: before it), wrapping round."""
    i = LANGS.index(code) if code in LANGS else 0
    return LANGS[(i + by) % len(LANGS)]
