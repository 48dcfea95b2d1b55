"""WAL checkpoints off the commit path: a thread of its own copies the log back.

In WAL mode SQLite appends every commit to the ``-wal`` file and, by default, the
commit that takes the file past 1,000 pages also copies it back into the database
(a *checkpoint*: the WAL's fsync, the pages' writes, the database's fsync) before its
``COMMIT`` returns.  That commit's commands wait for all of it before their
acknowledgements: under the bench's load that was a commit in every few dozen, the
tail of the commit latency, and so of the acknowledgement's.

With a :class:`Checkpointer` the writing connection checkpoints by itself only past
:data:`WAL_LIMIT_PAGES` (``wal_autocheckpoint``); after a commit the store calls
:meth:`Checkpointer.nudge`
and this thread, on a second connection, runs a ``PASSIVE`` checkpoint a moment
later, which runs beside the next commits instead of in front of them (SQLite lets a
checkpoint and a writer work at once in WAL mode).  Durability is SQLite's own: a
commit is durable once its WAL frames are synced (``synchronous=FULL``, unchanged);
a checkpoint only moves committed pages, syncing the WAL before and the database
after, and a crash at any point leaves a database that recovers from the WAL.

The WAL stays bounded: a passive checkpoint copies what was committed when it
began, and once it has copied everything the next commit starts the file over.
Under a load that never pauses it may never find the WAL still; past
:data:`WAL_LIMIT_PAGES` the writer's own automatic checkpoint (SQLite's, kept as the
bound) copies the little the background left and the file starts over.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("vtt_bridge")

#: Seconds after a commit before the checkpoint runs: the commits of that moment share
#: one checkpoint (its two fsyncs) instead of each paying for one.
CHECKPOINT_DELAY_S = 0.5
#: WAL pages past which the writing connection checkpoints in its commit, as SQLite
#: does by default at 1,000: about 16 MB of 4 KiB pages, reached only when the
#: background checkpoints cannot catch up with a load that never pauses.
WAL_LIMIT_PAGES = 4_000


class Checkpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` on a connection and a thread of its own,
    a moment after each :meth:`nudge`, until :meth:`close`."""

    def __init__(
        self, path: str | Path, *, synchronous: str = "FULL", delay: float = CHECKPOINT_DELAY_S
    ) -> None:
        self.delay = delay
        #: Pages in the WAL when the last checkpoint began (0: none run yet).
        self.wal_pages = 0
        #: Checkpoints run, and how many of them copied the whole WAL.
        self.runs = 0
        self.complete = 0
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        # The checkpoint's own syncs (the WAL before copying, the database after) follow
        # this connection's setting: the writer's.
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vtt-checkpoint", daemon=True)
        self._thread.start()

    def nudge(self) -> None:
        """Something was committed: checkpoint soon (cheap; called after every commit)."""
        self._wake.set()

    def close(self) -> None:
        """Stop the thread (after the checkpoint it may be running) and close its
        connection; the writer's close does the last checkpoint."""
        self._stop.set()
        self._wake.set()
        self._thread.join()
        self._db.close()

    def checkpoint(self) -> bool:
        """One passive checkpoint now; True when it copied the whole WAL."""
        busy, pages, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.wal_pages = max(0, pages)
        self.runs += 1
        done = not busy and copied == pages
        self.complete += done
        return bool(done)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._stop.is_set():
                return
            # Gather the commits of the next moment into this one checkpoint.
            if self._stop.wait(self.delay):
                return
            self._wake.clear()
            try:
                if not self.checkpoint():
                    self._wake.set()  # commits came meanwhile: the rest next time
            except sqlite3.Error:
                # A busy or failing checkpoint loses nothing (the WAL keeps every
                # commit); the next nudge tries again.
                log.exception("background checkpoint failed")
