"""The named points where ``vtt-bridge serve --crash-at POINT[:N]`` kills itself
(:func:`vtt_bridge.app.crash_hook`), shared by :mod:`bench.crash` and
:mod:`bench.crash_several`:

* ``before_commit``: nothing of the batch is committed yet (on SQLite and PostgreSQL's
  pipelined transaction it is written, not committed; a PostgreSQL group of rows only,
  one statement, has not been sent);
* ``after_commit``: committed, before any acknowledgement;
* ``after_ack``: acknowledged, before the broadcast;
* ``mid_snapshot``: inside the snapshot's transaction.
"""

NAMED_POINTS = ("before_commit", "after_commit", "after_ack", "mid_snapshot")
