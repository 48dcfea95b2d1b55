"""The server's garbage collection: every collection short, the full one rare.

Python's cyclic collector stops the event loop (and every table) for as long as it
walks the objects of the generation it collects.  A busy server's young objects are not
all garbage: each connection's receive loop waits in a chain of about ten of them (its
coroutines, the reader's future) remade by each frame, each table's state is remade by
each command, and the events a table keeps live as long as the table.  At 1,000 tables
at human pace (``bench.bridge --human``) a young collection found about 86,000 of them
alive, 66 ms of the loop every 4 to 5 s, and the next generation's 358,000, 250 ms:
those pauses, not the work, made the acknowledgements' p99 (about 45 to 120 ms).

So after every collection what survived it is frozen (``gc.freeze()``, a list splice):
a collection walks only what was made since the one before, and each object is walked
once, young (2 to 5 ms at 1,000 tables).  What Python would have found later, garbage
cycles among objects that had survived, waits for a full collection
(:meth:`Collections.full`: every object thawed, collected, frozen again), which walks
the whole heap (at 1,000 tables about a million objects, 0.7 to 0.8 s of the loop).
Those cycles come from connections: a closed one leaves about
:data:`CONNECTION_GARBAGE` objects (12 KiB) in cycles (aiohttp's request and protocol,
the transport, the outbound side).  The tables' own growth (their events, their states)
is not garbage.  So a full collection is due once the connections closed since the last
one would leave :data:`FULL_GROWTH` of the objects it left as garbage (Python's own
share for its full collections), or :data:`FULL_EVERY_S` passed (whatever else leaks
into a cycle), and never sooner than :data:`FULL_MIN_INTERVAL_S` or
:data:`FULL_SPACING` times the last one's pause after it: full collections take at most
half a per cent of the loop's time.  Young collections come every
:data:`YOUNG_THRESHOLD` net allocations (CPython's default is 700).

What start-up made (the tables as loaded, the modules) is frozen before the first
connection, as before, and everything is thawed at shutdown (a process that starts
several servers, as the tests do, must not keep every earlier one's objects).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "CONNECTION_GARBAGE",
    "FULL_EVERY_S",
    "FULL_GROWTH",
    "FULL_MIN_INTERVAL_S",
    "FULL_SPACING",
    "YOUNG_THRESHOLD",
    "Collections",
]

log = logging.getLogger("vtt_bridge")

#: Net allocations of tracked objects between young collections: a collection walks
#: about what the loop made since the last one (at 1,000 tables at human pace, 2 to 3
#: ms).
YOUNG_THRESHOLD = 1_000
#: Objects a closed connection leaves in garbage cycles (measured: 67).
CONNECTION_GARBAGE = 70
#: A full collection is due once the connections closed since the last one would
#: leave this share of the objects it left as garbage ...
FULL_GROWTH = 0.25
#: ... or this many seconds have passed since it ...
FULL_EVERY_S = 1800.0
#: ... but never sooner than this many seconds after it ...
FULL_MIN_INTERVAL_S = 10.0
#: ... or this many times its pause.
FULL_SPACING = 200.0
#: How often the event loop looks whether a full collection is due.
_CHECK_S = 1.0
#: The policies running in this process, and Python's thresholds before the first.
_running: list[Collections] = []
_saved: list[tuple[int, int, int]] = []


class Collections:
    """The policy (see the module docstring) between :meth:`start` and :meth:`stop`."""

    def __init__(
        self,
        connections: Callable[[], int] = lambda: 0,
        *,
        young: int = YOUNG_THRESHOLD,
        growth: float = FULL_GROWTH,
        every: float = FULL_EVERY_S,
        min_interval: float = FULL_MIN_INTERVAL_S,
        spacing: float = FULL_SPACING,
    ) -> None:
        """``connections``: how many of the server's connections have closed so far."""
        self._connections = connections
        #: Net allocations between young collections.
        self.young = young
        #: The tunables of :attr:`due` (the module's constants by default).
        self.growth = growth
        self.every = every
        self.min_interval = min_interval
        self.spacing = spacing
        #: Objects the last full collection left (frozen).
        self.left = 0
        self._closed_at_full = 0
        self._last_full = 0.0
        #: Full collections run, and how long the last took, in ms.
        self.full_collections = 0
        self.last_full_ms = 0.0

    def start(self) -> None:
        """Collect and freeze what exists now, then freeze after every collection."""
        if not _running:  # the first of the process's servers (tests run several)
            _saved.append(gc.get_threshold())
        _running.append(self)
        self._full()
        gc.set_threshold(self.young, 10, 10)
        gc.callbacks.append(self._collected)

    def stop(self) -> None:
        """Stop; once no other server of the process runs one, back to Python's own
        collections as they were, everything thawed."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self in _running:
            _running.remove(self)
            if not _running:
                gc.set_threshold(*_saved.pop())
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Called by the collector, on whichever thread allocated (the event loop's or
        # a database thread), holding the GIL.
        if phase == "stop":
            gc.freeze()

    @property
    def due(self) -> bool:
        """Whether a full collection is due (see the module docstring)."""
        since = time.monotonic() - self._last_full
        if since < max(self.min_interval, self.spacing * self.last_full_ms / 1000):
            return False
        closed = self._connections() - self._closed_at_full
        return since >= self.every or closed * CONNECTION_GARBAGE > self.growth * self.left

    def full(self) -> float:
        """Collect everything (thawed first), freeze what is left; the ms it took."""
        began = time.perf_counter()
        self._full()
        ms = (time.perf_counter() - began) * 1000
        self.full_collections += 1
        self.last_full_ms = ms
        log.info(
            "full garbage collection: %.1f ms, %d objects kept",
            ms,
            self.left,
            extra={"gc_ms": round(ms, 1), "gc_objects": self.left},
        )
        return ms

    def _full(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.left = gc.get_freeze_count()
        self._closed_at_full = self._connections()
        self._last_full = time.monotonic()

    async def run(self) -> None:
        """On the event loop: run each full collection once due."""
        while True:
            await asyncio.sleep(_CHECK_S)
            if self.due:
                self.full()
