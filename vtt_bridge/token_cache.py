"""The join tokens joins have read, kept while the database says nothing changed.

A join must see the database as it stands when the join arrives: a token revoked by
any process (``vtt-bridge revoke-token``, another bridge on PostgreSQL) is refused at
once.  Reading the token's row for every join does that, but costs a trip to the
database thread per join, hundreds of them in a reconnect storm.  Here a join is
answered from memory when the database's change counter (``store.data_version``:
SQLite's ``PRAGMA data_version``, PostgreSQL's ``revision`` row, which every token or
table change by any process bumps) has not moved since the token was read, as a read
of the counter *sent after the join's frame arrived* says.  Joins wait for their turn
in the join gate after arriving, so a read sent for one join usually serves every
join that arrived before it was sent; joins of one loop turn share one read.

This process's own token and table writes do not move SQLite's counter (it counts
other connections' commits): every one of them calls :meth:`JoinTokens.forget` once
done, and a read that was on its way meanwhile is used for its own join only, never
kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vtt_bridge.committer import Committer
    from vtt_bridge.store import JoinToken
    from vtt_bridge.store_protocol import EventStore


class JoinTokens:
    """The join-token rows read for joins, valid while ``data_version`` stands still."""

    def __init__(self, committer: Committer, store: EventStore) -> None:
        self._committer = committer
        self._store = store
        #: The rows read (None: no such token), all read at counter ``_version``.
        self._rows: dict[str, JoinToken | None] = {}
        self._version: int | None = None
        #: Bumped by :meth:`forget`: a read begun before it is not kept.
        self._generation = 0
        #: Reads of the counter sent so far (each is numbered by this count)...
        self._sent = 0
        #: ...and the newest answered: its number and the counter it read.
        self._fresh = (0, -1)
        #: The counter read every join of this loop turn waits for (not yet sent).
        self._next: asyncio.Future[int] | None = None
        #: Trips to the database thread, for the storm bench and the tests.
        self.reads = 0

    def arrival(self) -> int:
        """A join arrives now: the mark :meth:`lookup` takes (reads sent so far)."""
        return self._sent

    async def lookup(self, token: str, arrived: int | None = None) -> JoinToken | None:
        """The row of join ``token`` as the database has it now, or as it had it at
        least since the join's :meth:`arrival` mark ``arrived`` (None: no table has
        the token); raises what the database raised."""
        if token in self._rows:
            number, version = self._fresh
            if arrived is None or number <= arrived:
                # Shielded: a join closed while it waits must not cancel the others'.
                version = await asyncio.shield(self._counter())
            if version == self._version and token in self._rows:
                return self._rows[token]
        generation = self._generation
        version, row = await self._counted(self._read, token)
        if generation == self._generation:
            if version != self._version:
                self._rows, self._version = {}, version
            self._rows[token] = row
        return row

    def forget(self) -> None:
        """This process changed tokens or tables in the database: read them again."""
        self._generation += 1
        self._rows, self._version = {}, None

    def _read(self, token: str) -> tuple[int, JoinToken | None]:
        # The counter first: a change committed between the two reads leaves the row
        # newer than its counter, which the next check finds moved.
        return self._store.data_version(), self._store.join_token(token)

    def _counter(self) -> asyncio.Future[int]:
        """The database's change counter, read once for every join of this loop turn
        (the read is sent at the end of the turn, after each of them arrived)."""
        if self._next is None:
            loop = asyncio.get_running_loop()
            self._next = loop.create_future()
            loop.call_soon(self._send_counter_read)
        return self._next

    def _send_counter_read(self) -> None:
        waiting, self._next = self._next, None
        assert waiting is not None

        def version() -> tuple[int, None]:
            return self._store.data_version(), None

        read = asyncio.ensure_future(self._counted(version))

        def done(read: asyncio.Future[tuple[int, JoinToken | None]]) -> None:
            if waiting.cancelled():
                return
            if read.cancelled():
                waiting.cancel()
            elif (error := read.exception()) is not None:
                waiting.set_exception(error)
            else:
                waiting.set_result(read.result()[0])

        read.add_done_callback(done)

    async def _counted(
        self, fn: Callable[..., tuple[int, JoinToken | None]], *args: str
    ) -> tuple[int, JoinToken | None]:
        """``fn(*args)`` on the database thread, its first value the counter read
        first: numbered, and kept as the newest counter when it is."""
        self._sent += 1
        self.reads += 1
        number = self._sent
        answer = await self._committer.in_db(fn, *args)
        if number > self._fresh[0]:
            self._fresh = (number, answer[0])
        return answer
