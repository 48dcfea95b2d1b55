"""Tables shared by several bridge processes: which one serves a table, as the hub sees it.

With a shared database (PostgreSQL, ``EventStore.shared``) a table is served by the one
process that owns it (:mod:`vtt_bridge.store_pg_leases`).  A process takes a table when
a join for it arrives and nobody live owns it; when another live process owns it, the
join is answered with a redirect to that process's public URL instead.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import protocol
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.tables import Session

if TYPE_CHECKING:
    from vtt_bridge.parts import HubParts

#: Runs a blocking store call on the database thread (``Committer.in_db``).
InDb = Callable[..., Awaitable[Any]]

log = logging.getLogger("vtt_bridge")
#: The close code after a ``redirect``: a normal close, the message said where to go.
REDIRECT_CLOSE = 1000


class OwnedElsewhere(Exception):
    """A table another live process serves: its clients are sent to ``url`` (after
    ``retry_after`` seconds, None: at once)."""

    def __init__(self, table_id: str, url: str, retry_after: float | None = None) -> None:
        """``url``: the owner's public WebSocket URL."""
        super().__init__(f"table {table_id} is served at {url}")
        self.table_id = table_id
        self.url = url
        self.retry_after = retry_after


#: Tables one process loads at once on a shared database.  After a host dies its
#: tables' clients all come back at once; beyond this many loads the others are asked
#: to come back in a moment, so the loads do not hold up the commits of tables already
#: served (every load runs on the one database thread).
MAX_LOADS = 16
#: The moment they are asked to wait, in seconds: drawn in this range, so they do not
#: all come back together either.
LOAD_RETRY_S = (0.5, 2.0)


def room_to_load(store: EventStore, loading: int, most: int, table_id: str) -> None:
    """Raise :class:`OwnedElsewhere` naming this process itself, with a ``retry_after``,
    when ``loading`` loads are under way already and at most ``most`` may be."""
    if loading < most:
        return
    from vtt_bridge.store_pg import PostgresStore

    assert isinstance(store, PostgresStore), "only a shared store loads on demand"
    raise OwnedElsewhere(table_id, store.public_url, round(random.uniform(*LOAD_RETRY_S), 2))


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


async def keep_lease(
    store: EventStore, in_db: InDb, lease_s: float, on_lost: Callable[[str], None]
) -> None:
    """Renew this process's lease every third of ``lease_s`` (so two missed beats still
    leave it live), for as long as the server runs.  A table another process has
    claimed meanwhile is logged; its next commit is refused by the fence whatever
    happens here.  A failed heartbeat (the database unreachable) is tried at the next
    beat: the lease runs out on the database's clock if it keeps failing.  ``on_lost``
    is called with each table another process has claimed meanwhile."""
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
            on_lost(table_id)


async def hand_over(store: EventStore, in_db: InDb) -> None:
    """A graceful shutdown: give up every table at once, so the next join of each,
    through any process, claims it without waiting for the lease to run out."""
    from vtt_bridge.store_pg import PostgresStore

    assert isinstance(store, PostgresStore), "only a shared store hands tables over"
    await in_db(store.leave)


def redirect(
    session: Session, ref: int | None, url: str, retry_after: float | None, now_ms: int
) -> None:
    """Send ``session`` a ``redirect`` to ``url``, then close its connection (1000)."""
    message = protocol.Redirect(seq=session.next_seq(), ref=ref, url=url, retry_after=retry_after)
    session.send(message, now_ms)
    session.close_after_sent(REDIRECT_CLOSE, "redirect")


async def give_up(hub: HubParts, table_id: str, now_ms: int) -> None:
    """Another process serves ``table_id`` now: forget it here and send each member to
    the new owner (a ``redirect``); with no live owner to name (it is being claimed),
    close them with 1012 so they reconnect where they started and are led on from
    there.  Their unanswered commands go with them: the client sends them again."""
    from vtt_bridge.store_pg import PostgresStore

    table = hub.tables.pop(table_id, None)
    if table is None:
        return
    table.moved = True
    for token, known in list(hub.by_token.items()):
        if known is table:
            del hub.by_token[token]
    store = hub.store
    assert isinstance(store, PostgresStore), "only a shared store's tables move"
    try:
        url = await hub.committer.in_db(store.owner_url, table_id)
    except Exception:
        log.exception("table %s: its new owner could not be read", table_id)
        url = None
    log.info("table %s moved to %s: %d members sent on", table_id, url, len(table.sessions))
    for member in list(table.sessions):
        hub.leave(member, now_ms)
        if url is not None:
            redirect(member, None, url, None, now_ms)
        else:
            member.kick(1012, "table moving")
