"""The SQLite event log: tables, join tokens, and every accepted command with its events.

Acknowledged means committed.  The database runs in WAL mode with ``synchronous=FULL``
so a commit survives power loss; each accepted command is one row, written and committed
before its sender hears back.  Calls are blocking: the bridge runs them on one dedicated
worker thread (see :class:`vtt_bridge.hub.Hub`) so the event loop never waits on a disk
flush, and a single writer needs no locking beyond SQLite's own.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed INTEGER NOT NULL,
    prompt_timeout REAL NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS join_tokens (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    participant TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('gm', 'player', 'spectator'))
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    position INTEGER NOT NULL,
    first_event INTEGER NOT NULL,
    command TEXT NOT NULL,
    events TEXT NOT NULL,
    meta TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
);
"""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table's settings as stored."""

    id: str
    name: str
    seed: int
    prompt_timeout: float
    created_ms: int


@dataclass(frozen=True, slots=True)
class JoinToken:
    """A join token: who a connection becomes when it joins with it."""

    token: str
    table_id: str
    participant: str
    role: str


@dataclass(frozen=True, slots=True)
class LogRow:
    """One accepted command with the events it caused (plain JSON-safe values)."""

    position: int
    first_event: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    meta: dict[str, Any]


class Store:
    """The event log in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the database (pending work is already committed)."""
        self._db.close()

    def create_table(self, row: TableRow, tokens: list[JoinToken]) -> None:
        """Store a new table and its join tokens in one transaction."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?)",
                (row.id, row.name, row.seed, row.prompt_timeout, row.created_ms),
            )
            self._db.executemany(
                "INSERT INTO join_tokens VALUES (?, ?, ?, ?)",
                [(t.token, t.table_id, t.participant, t.role) for t in tokens],
            )

    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        rows = self._db.execute("SELECT * FROM tables ORDER BY created_ms, id").fetchall()
        return [TableRow(*r) for r in rows]

    def join_tokens(self, table_id: str) -> list[JoinToken]:
        """The join tokens of one table."""
        rows = self._db.execute(
            "SELECT * FROM join_tokens WHERE table_id = ? ORDER BY role, participant", (table_id,)
        ).fetchall()
        return [JoinToken(*r) for r in rows]

    def append(self, table_id: str, row: LogRow) -> None:
        """Commit one accepted command; raises if ``position`` is not the next one."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO log VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    row.position,
                    row.first_event,
                    _dumps(row.command),
                    _dumps(row.events),
                    _dumps(row.meta),
                ),
            )

    def log(self, table_id: str) -> list[LogRow]:
        """Every accepted command of a table, in order."""
        rows = self._db.execute(
            "SELECT position, first_event, command, events, meta FROM log "
            "WHERE table_id = ? ORDER BY position",
            (table_id,),
        ).fetchall()
        return [
            LogRow(pos, first, json.loads(cmd), json.loads(evs), json.loads(meta))
            for pos, first, cmd, evs, meta in rows
        ]

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file (``"ok"`` when sound)."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
