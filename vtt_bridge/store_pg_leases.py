"""Which process owns which table, on PostgreSQL: registration, heartbeats, claims, fencing.

Each serving process has a row in ``bridges`` with its public URL and a heartbeat it
renews on the database's clock (``now()``, so no two hosts' clocks are compared); it
is *live* while its heartbeat is younger than its lease.  A table's owner and lease
epoch live in its ``owners`` row.  A claim takes a table nobody live owns and bumps
its epoch, in one transaction that holds the row locked; every group commit locks the
``owners`` rows of the tables it writes (``SELECT ... FOR UPDATE``) and goes on only if
each still names this process under the epoch it claimed (:func:`fence`).  So a
process paused past its lease, whose tables another has claimed since, has its next
commit refused, whatever its own clock says, and a log position (the log's primary
key is the table and the position) is never written twice.  No advisory lock is the
fence: a lock is held by a session, and a partitioned session may hold one for a while
after its process lost the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import psycopg

from vtt_bridge.store_protocol import Fenced

#: The condition a ``bridges`` row ``b`` is live under, on the database's clock.
LIVE = "b.heartbeat > now() - make_interval(secs => b.lease_s)"


@dataclass(frozen=True, slots=True)
class Claimed:
    """A table this process now owns, under ``epoch``."""

    table_id: str
    epoch: int


@dataclass(frozen=True, slots=True)
class OwnedElsewhere:
    """A table a live process owns: ``url`` is that process's public URL."""

    table_id: str
    owner: str
    url: str


def register(
    cur: psycopg.Cursor[tuple[object, ...]], bridge: str, url: str, lease_s: float
) -> None:
    """Add (or renew) this process's row, its heartbeat taken now."""
    cur.execute(
        "INSERT INTO bridges (id, url, lease_s) VALUES (%s, %s, %s) ON CONFLICT (id) "
        "DO UPDATE SET url = excluded.url, lease_s = excluded.lease_s, heartbeat = now()",
        (bridge, url, lease_s),
    )


def heartbeat(cur: psycopg.Cursor[tuple[object, ...]], bridge: str) -> bool:
    """Renew this process's heartbeat; False if its row is gone (it left)."""
    cur.execute("UPDATE bridges SET heartbeat = now() WHERE id = %s", (bridge,))
    return cur.rowcount == 1


def leave(cur: psycopg.Cursor[tuple[object, ...]], bridge: str) -> None:
    """Give up every table at once (a graceful shutdown): the next claim of each takes it
    without waiting for the lease to run out.  The rows stay, owned by nobody (``""``),
    so the next claim bumps the epoch: epochs only grow."""
    cur.execute("UPDATE owners SET owner = '' WHERE owner = %s", (bridge,))
    cur.execute("DELETE FROM bridges WHERE id = %s", (bridge,))


def claim(
    cur: psycopg.Cursor[tuple[object, ...]], bridge: str, table_id: str, held: int | None
) -> Claimed | OwnedElsewhere:
    """Take ``table_id`` unless another live process owns it (run in a transaction).

    ``held``: the epoch this process already holds it under, if it thinks it does; a
    claim by a process that still owns it under that epoch bumps nothing."""
    cur.execute(
        "INSERT INTO owners (table_id, owner, epoch) VALUES (%s, %s, 1) "
        "ON CONFLICT (table_id) DO NOTHING",
        (table_id, bridge),
    )
    if cur.rowcount == 1:
        return Claimed(table_id, 1)
    cur.execute(
        f"SELECT o.owner, o.epoch, b.url, coalesce({LIVE}, false) FROM owners o "
        "LEFT JOIN bridges b ON b.id = o.owner WHERE o.table_id = %s FOR UPDATE OF o",
        (table_id,),
    )
    found = cur.fetchone()
    assert found is not None  # the insert found the row; owners rows are never deleted
    owner, epoch, url, live = found
    assert isinstance(owner, str) and isinstance(epoch, int)
    if owner == bridge and epoch == held:
        return Claimed(table_id, epoch)
    if owner != bridge and live:
        return OwnedElsewhere(table_id, owner, str(url))
    cur.execute(
        "UPDATE owners SET owner = %s, epoch = epoch + 1 WHERE table_id = %s RETURNING epoch",
        (bridge, table_id),
    )
    bumped = cur.fetchone()
    assert bumped is not None and isinstance(bumped[0], int)
    return Claimed(table_id, bumped[0])


def session_name(bridge: str) -> str:
    """The ``application_name`` of a serving process's database sessions: how another
    process finds them (:func:`end_sessions_of_stale_owner`)."""
    return f"vtt-bridge {bridge}"


def end_sessions_of_stale_owner(cur: psycopg.Cursor[tuple[object, ...]], table_id: str) -> int:
    """End the database sessions of ``table_id``'s owner if it is no longer live (its
    lease ran out on the database's clock); how many were ended.

    A process paused or cut off in the middle of a commit holds its tables' owner rows
    locked for as long as its session lasts, which may be for ever (a paused process's
    kernel keeps its connection open), and a claim waits on that lock.  Its lease has
    run out, so it may no longer write anyway: ending its session rolls its commit back
    (never acknowledged) and frees the rows.  A live owner's sessions are never ended."""
    cur.execute(
        "SELECT count(pg_terminate_backend(a.pid)) FROM owners o "
        "JOIN bridges b ON b.id = o.owner "
        "JOIN pg_stat_activity a ON a.application_name = 'vtt-bridge ' || o.owner "
        f"WHERE o.table_id = %s AND NOT ({LIVE}) AND a.pid <> pg_backend_pid()",
        (table_id,),
    )
    row = cur.fetchone()
    return int(str(row[0])) if row else 0


def fence(
    cur: psycopg.Cursor[tuple[object, ...]],
    bridge: str | None,
    epochs: dict[str, int],
    table_ids: Iterable[str],
) -> None:
    """In a commit's transaction: lock the ``owners`` rows of ``table_ids`` and raise
    :class:`Fenced` unless this process owns each under the epoch it holds.

    A tool's store (``bridge`` None: ``create-table``, ``migrate``) serves no table: it
    may write only a table nobody live owns."""
    wanted = lock_owners(cur, table_ids)
    if wanted:
        check_owners(cur.fetchall(), bridge, epochs, wanted)


def lock_owners(cur: psycopg.Cursor[tuple[object, ...]], table_ids: Iterable[str]) -> list[str]:
    """Send the query of :func:`fence` that locks the ``owners`` rows of ``table_ids``
    (its rows are read later: in a pipeline, after the batch's other statements are
    sent); the tables asked for, none for an empty batch (then nothing is sent)."""
    wanted = sorted(set(table_ids))
    if wanted:
        cur.execute(
            f"SELECT o.table_id, o.owner, o.epoch, coalesce({LIVE}, false) FROM owners o "
            "LEFT JOIN bridges b ON b.id = o.owner WHERE o.table_id = ANY(%s) "
            "ORDER BY o.table_id FOR UPDATE OF o",
            (wanted,),
        )
    return wanted


def check_owners(
    found: list[tuple[object, ...]], bridge: str | None, epochs: dict[str, int], wanted: list[str]
) -> None:
    """Raise :class:`Fenced` unless the locked rows ``found`` name ``bridge`` under the
    epochs it holds for every table ``wanted`` (see :func:`fence`)."""
    rows = {str(r[0]): (r[1], r[2], bool(r[3])) for r in found}
    if bridge is None:
        lost = [t for t in wanted if t in rows and rows[t][2]]
    else:
        lost = [
            t for t in wanted if rows.get(t, (None, None, False))[:2] != (bridge, epochs.get(t))
        ]
    if lost:
        raise Fenced(lost)


def lost_tables(
    cur: psycopg.Cursor[tuple[object, ...]], bridge: str, epochs: dict[str, int]
) -> list[str]:
    """The tables this process holds that another has claimed since."""
    if not epochs:
        return []
    cur.execute(
        "SELECT table_id, owner, epoch FROM owners WHERE table_id = ANY(%s)", (list(epochs),)
    )
    current = {str(t): (o, e) for t, o, e in cur.fetchall()}
    return sorted(t for t, e in epochs.items() if current.get(t) != (bridge, e))
