"""Tables shared by several bridge processes: which one serves a table, as the hub sees it.

With a shared database (PostgreSQL, ``EventStore.shared``) a table is served by the one
process that owns it (:mod:`vtt_bridge.store_pg_leases`).  A process takes a table when
a join for it arrives and nobody live owns it; when another live process owns it, the
join is answered with a redirect to that process's public URL instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from vtt_bridge.store_protocol import EventStore

#: Runs a blocking store call on the database thread (``Committer.in_db``).
InDb = Callable[..., Awaitable[Any]]

log = logging.getLogger("vtt_bridge")


class OwnedElsewhere(Exception):
    """A table another live process serves: its clients are sent to ``url``."""

    def __init__(self, table_id: str, url: str) -> None:
        """``url``: the owner's public WebSocket URL."""
        super().__init__(f"table {table_id} is served at {url}")
        self.table_id = table_id
        self.url = url


def take(store: EventStore, table_id: str) -> int:
    """Claim ``table_id`` for this process (on the database thread); returns its epoch.
    Raises :class:`OwnedElsewhere` when a live process owns it."""
    from vtt_bridge.store_pg import PostgresStore  # psycopg: only with a shared store
    from vtt_bridge.store_pg_leases import Claimed

    assert isinstance(store, PostgresStore), "only a shared store's tables are claimed"
    found = store.claim(table_id)
    if isinstance(found, Claimed):
        return found.epoch
    raise OwnedElsewhere(table_id, found.url)


async def keep_lease(store: EventStore, in_db: InDb, lease_s: float) -> None:
    """Renew this process's lease every third of ``lease_s`` (so two missed beats still
    leave it live), for as long as the server runs.  A table another process has
    claimed meanwhile is logged; its next commit is refused by the fence whatever
    happens here.  A failed heartbeat (the database unreachable) is tried at the next
    beat: the lease runs out on the database's clock if it keeps failing."""
    from vtt_bridge.store_pg import PostgresStore

    assert isinstance(store, PostgresStore), "only a shared store has a lease"
    while True:
        await asyncio.sleep(lease_s / 3)
        try:
            lost = await in_db(store.heartbeat)
        except Exception:
            log.exception("heartbeat failed; tried again in %.1f s", lease_s / 3)
            continue
        for table_id in lost:
            log.warning("table %s was taken over by another process", table_id)


async def hand_over(store: EventStore, in_db: InDb) -> None:
    """A graceful shutdown: give up every table at once, so the next join of each,
    through any process, claims it without waiting for the lease to run out."""
    from vtt_bridge.store_pg import PostgresStore

    assert isinstance(store, PostgresStore), "only a shared store hands tables over"
    await in_db(store.leave)
