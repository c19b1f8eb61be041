"""Standard output that fails loudly: a write that does not reach it ends the command.

Python prints nothing, silently, when standard output was closed (``>&-``), and a
full disk (``> /dev/full``) surfaces only at exit, as a traceback. While a command
runs, `checked_stdout` stands in for ``sys.stdout``: a write or flush that fails
raises `StdoutFailed`, which the command turns into one line on stderr and a
non-zero status, as the standard tools do. A reader that closes the pipe (``| head``)
still raises ``BrokenPipeError``, a quiet stop.
"""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["StdoutFailed", "checked_stdout", "discard_stdout"]


class StdoutFailed(Exception):
    """A write to standard output did not reach it; the message says why."""


class _Checked:
    """``stream`` (None when standard output is closed), its failed writes raising."""

    def __init__(self, stream):
        self._stream = stream

    def _call(self, name, *args):
        if self._stream is None:
            raise StdoutFailed("standard output is closed")
        try:
            return getattr(self._stream, name)(*args)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as error:  # ValueError: a closed file object
            reason = (os.strerror(error.errno) if getattr(error, "errno", None)
                      else str(error))
            raise StdoutFailed(reason) from None

    def write(self, text):
        return self._call("write", text)

    def writelines(self, lines):
        return self._call("writelines", lines)

    def flush(self):
        return self._call("flush")

    def isatty(self):
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def checked_stdout():
    """Make ``sys.stdout`` raise `StdoutFailed` on a failed write, and flush it at the end.

    Examples
    --------
    >>> import io
    >>> class Full(io.StringIO):
    ...     def flush(self):
    ...         raise OSError(28, "No space left on device")
    >>> sys.stdout, saved = Full(), sys.stdout
    >>> try:
    ...     with checked_stdout():
    ...         print("a table")
    ... except StdoutFailed as error:
    ...     print(error, file=saved)
    ... finally:
    ...     sys.stdout = saved
    No space left on device
    """
    original = sys.stdout
    sys.stdout = _Checked(original)
    try:
        yield
        sys.stdout.flush()  # a full disk shows here, not at exit
    finally:
        sys.stdout = original


def discard_stdout() -> None:
    """Point standard output at the null device, so the exit's flush of what is left fails not.

    After a failed write the stream still holds the text it could not write; Python
    would flush it again at exit and print a traceback of its own.
    """
    stream = sys.stdout
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a file (a test's capture)
        return
    os.dup2(os.open(os.devnull, os.O_WRONLY), descriptor)
