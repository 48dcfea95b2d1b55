"""Opening the event log ``--db`` names: a SQLite file (the default) or a PostgreSQL URL."""

from __future__ import annotations

from pathlib import Path

from vtt_bridge.store import CrashHook, Store
from vtt_bridge.store_protocol import EventStore

#: What ``--db`` holds: a SQLite file's path, or a ``postgresql://`` URL (kept as text:
#: a ``Path`` would fold its ``//``).
Database = Path | str


def is_postgres_url(database: object) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


def database_arg(raw: str) -> Database:
    """``--db``'s value: the URL as given for PostgreSQL, else a path."""
    return raw if is_postgres_url(raw) else Path(raw)


def open_store(
    database: Database,
    *,
    synchronous: str = "FULL",
    crash_hook: CrashHook | None = None,
    background_checkpoints: bool = False,
    bridge: str | None = None,
    public_url: str = "",
    lease_s: float | None = None,
    connections: int = 1,
) -> EventStore:
    """The store for ``database``.  ``synchronous`` and ``background_checkpoints`` are
    SQLite's; ``bridge``, ``public_url``, ``lease_s`` and ``connections`` PostgreSQL's (a
    serving process's id, the URL its clients reach it at, its lease and how many
    connections it commits through at once; see
    :class:`vtt_bridge.store_pg.PostgresStore`).  psycopg is imported only for PostgreSQL."""
    if is_postgres_url(database):
        from vtt_bridge.store_pg import DEFAULT_LEASE_S, PostgresStore

        return PostgresStore(
            str(database),
            bridge=bridge,
            public_url=public_url,
            lease_s=DEFAULT_LEASE_S if lease_s is None else lease_s,
            crash_hook=crash_hook,
            connections=connections,
        )
    return Store(
        database,
        synchronous=synchronous,
        crash_hook=crash_hook,
        background_checkpoints=background_checkpoints,
    )
