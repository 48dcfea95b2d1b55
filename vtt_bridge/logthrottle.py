"""One log line per interval for a failure that repeats, not one per attempt.

A flood of connection attempts against a full file table fails the same way thousands of
times a second (``accept()``: "Too many open files"; a refused handshake); a line and a
traceback for each fills the disk and hides everything else.  :class:`RepeatFilter` lets
the first record of a kind through, counts the ones that follow within ``interval``
seconds, and says how many there were on the next line of that kind it lets through.
"""

from __future__ import annotations

import errno
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable

#: Kinds of record remembered at once; the least recently seen is forgotten first.
KINDS_KEPT = 1024
#: What a message's kind ignores: numbers and addresses.  asyncio formats its messages
#: before logging them ("Exception in callback ... handle: <TimerHandle when=955.6 ...>"),
#: so the same failure never has the same text twice.
_VARYING = re.compile(r"0x[0-9a-fA-F]+|\d+(?:\.\d+)?")
#: Characters of a message that name its kind.
KIND_CHARS = 160


class RepeatFilter(logging.Filter):
    """A handler filter passing at most one warning-or-worse record of each kind (logger,
    level, message with its numbers left out, exception type) per ``interval`` seconds:
    "closing c7: no join in time" and "closing c9: no join in time" are one kind,
    "closing c9: rate limit exceeded" another.

    Records below WARNING always pass: they are not failures, and a deployment that
    logs them asked to see each one."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        #: kind -> [when one was last let through, how many were held back since]
        self._kinds: OrderedDict[tuple[object, ...], list[float]] = OrderedDict()

    def filter(self, record: logging.LogRecord) -> bool:
        """True to let ``record`` through."""
        _without_traceback_if_out_of_files(record)
        if record.levelno < logging.WARNING or self.interval <= 0:
            return True
        exc = record.exc_info[0] if record.exc_info else None
        text = record.getMessage()[:KIND_CHARS]
        kind = (record.name, record.levelno, _VARYING.sub("#", text), exc)
        now = self._clock()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen[0] < self.interval:
            seen[1] += 1
            self._kinds.move_to_end(kind)
            return False
        if seen is not None and seen[1]:
            held = int(seen[1])
            # Appended to the template: the count is no format argument of its own.
            record.msg = f"{record.msg} [{held} more like this in the last {self.interval:g} s]"
            record.repeated = held
        self._kinds[kind] = [now, 0]
        self._kinds.move_to_end(kind)
        while len(self._kinds) > KINDS_KEPT:
            self._kinds.popitem(last=False)
        return True


#: The operating system's words for a full file table: the process's (``EMFILE``,
#: ``ulimit -n``) or the system's (``ENFILE``).
OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE})


def _without_traceback_if_out_of_files(record: logging.LogRecord) -> None:
    """A failure for lack of files (asyncio's "socket.accept() out of system resource")
    is the machine's limit, not a bug: one line saying so, not a traceback.

    So is its echo at shutdown: asyncio retries ``accept()`` a second after it ran out of
    files, on a timer that closing the server does not cancel, and that retry then meets
    the closed listener (``ValueError: Invalid file descriptor: -1``)."""
    exc = record.exc_info[1] if record.exc_info else None
    if (
        record.name == "asyncio"
        and isinstance(exc, ValueError)
        and "_start_serving" in str(record.msg)
        and "Invalid file descriptor" in str(exc)
    ):
        record.msg = (
            "asyncio's accept() retry after running out of files met the listener "
            "already closed at shutdown (harmless)"
        )
        record.args, record.exc_info, record.exc_text = None, None, None
        # A warning, so the repeat filter lets one through: asyncio arms one retry for
        # every accept() that failed, and they all fire at once.
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return
    if isinstance(exc, OSError) and exc.errno in OUT_OF_FILES:
        record.msg = (
            f"{record.getMessage().splitlines()[0]}: {exc.strerror} (the open-file limit is "
            "reached; new connections wait until files free up; see --max-connections)"
        )
        record.args = None
        record.exc_info = None
        record.exc_text = None
