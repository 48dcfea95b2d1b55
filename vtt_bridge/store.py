"""The SQLite event log: tables, join tokens, and every accepted command with its events.

Acknowledged means committed.  The database runs in WAL mode with ``synchronous=FULL``
so a commit survives power loss; each accepted command is one row, written and committed
before its sender hears back.  Calls are blocking: the bridge runs them on one dedicated
worker thread (see :class:`vtt_bridge.committer.Committer`) so the event loop never
waits on a disk flush, and a single writer needs no locking beyond SQLite's own.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed INTEGER NOT NULL,
    prompt_timeout REAL NOT NULL,
    created_ms INTEGER NOT NULL,
    dice TEXT NOT NULL DEFAULT 'gm'
);
CREATE TABLE IF NOT EXISTS join_tokens (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    participant TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL REFERENCES tables(id),
    position INTEGER NOT NULL,
    events INTEGER NOT NULL,
    state TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
);
CREATE TABLE IF NOT EXISTS admin_replies (
    table_id TEXT NOT NULL REFERENCES tables(id),
    participant TEXT NOT NULL,
    client TEXT NOT NULL,
    ref INTEGER NOT NULL,
    digest TEXT NOT NULL,
    reply TEXT NOT NULL,
    PRIMARY KEY (table_id, participant, client, ref)
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
    dice: str = "gm"


@dataclass(frozen=True, slots=True)
class JoinToken:
    """A join token: who a connection becomes when it joins with it."""

    token: str
    table_id: str
    participant: str
    role: str
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class LogRow:
    """One accepted command with the events it caused (plain JSON-safe values)."""

    position: int
    first_event: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    meta: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AdminReply:
    """The answer to an admin message (``issue_token``, ``revoke_token``,
    ``configure_table``), stored in the transaction that carries it out, so the message
    sent again after a restart is answered the same and not carried out twice."""

    table_id: str
    participant: str
    client: str
    ref: int
    digest: str
    reply: list[Any]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's encounter state after its first ``position`` commands (``events`` events)."""

    position: int
    events: int
    state: dict[str, Any]
    hash: str


#: Called at named points of a commit (``"before_commit"``, ``"mid_snapshot"``) so a
#: crash test can kill the process exactly there; a no-op otherwise.
CrashHook = Callable[[str], object]
SYNCHRONOUS = ("FULL", "EXTRA", "NORMAL", "OFF")


class Store:
    """The event log in one SQLite file."""

    def __init__(
        self, path: str | Path, *, synchronous: str = "FULL", crash_hook: CrashHook | None = None
    ) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self._crash = crash_hook or (lambda point: None)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        # Databases made before a column existed get it with its default.
        for table, column, ddl in (
            ("tables", "dice", "dice TEXT NOT NULL DEFAULT 'gm'"),
            ("join_tokens", "revoked", "revoked INTEGER NOT NULL DEFAULT 0"),
        ):
            names = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in names:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {ddl}")

    def close(self) -> None:
        """Close the database (pending work is already committed)."""
        self._db.close()

    def create_table(self, row: TableRow, tokens: list[JoinToken]) -> None:
        """Store a new table and its join tokens in one transaction."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, name, seed, prompt_timeout, created_ms, dice) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (row.id, row.name, row.seed, row.prompt_timeout, row.created_ms, row.dice),
            )
            self._insert_tokens(tokens)

    def _insert_tokens(self, tokens: list[JoinToken]) -> None:
        self._db.executemany(
            "INSERT INTO join_tokens (token, table_id, participant, role, revoked) "
            "VALUES (?, ?, ?, ?, ?)",
            [(t.token, t.table_id, t.participant, t.role, int(t.revoked)) for t in tokens],
        )

    def add_token(self, token: JoinToken, reply: AdminReply | None = None) -> None:
        """Store one more join token (and the answer to the message that issued it)."""
        with self._transaction():
            self._insert_tokens([token])
            self._put_replies([reply] if reply is not None else [])

    def revoke_token(self, token: str, reply: AdminReply | None = None) -> None:
        """Mark a join token revoked: it no longer joins (and store the answer to the
        message that revoked it)."""
        with self._transaction():
            self._db.execute("UPDATE join_tokens SET revoked = 1 WHERE token = ?", (token,))
            self._put_replies([reply] if reply is not None else [])

    def _put_replies(self, replies: Sequence[AdminReply]) -> None:
        self._db.executemany(
            "INSERT OR REPLACE INTO admin_replies VALUES (?, ?, ?, ?, ?, ?)",
            [
                (r.table_id, r.participant, r.client, r.ref, r.digest, _dumps(r.reply))
                for r in replies
            ],
        )

    def admin_replies(self, table_id: str) -> list[AdminReply]:
        """The stored answers to a table's admin messages, oldest first."""
        rows = self._db.execute(
            "SELECT table_id, participant, client, ref, digest, reply FROM admin_replies "
            "WHERE table_id = ? ORDER BY rowid",
            (table_id,),
        ).fetchall()
        return [AdminReply(t, p, c, ref, d, json.loads(r)) for t, p, c, ref, d, r in rows]

    def _put_settings(self, row: TableRow) -> None:
        self._db.execute(
            "UPDATE tables SET prompt_timeout = ?, dice = ? WHERE id = ?",
            (row.prompt_timeout, row.dice, row.id),
        )

    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        rows = self._db.execute(
            "SELECT id, name, seed, prompt_timeout, created_ms, dice FROM tables "
            "ORDER BY created_ms, id"
        ).fetchall()
        return [TableRow(*r) for r in rows]

    def join_tokens(self, table_id: str) -> list[JoinToken]:
        """The join tokens of one table, revoked ones included."""
        rows = self._db.execute(
            "SELECT token, table_id, participant, role, revoked FROM join_tokens "
            "WHERE table_id = ? ORDER BY rowid",
            (table_id,),
        ).fetchall()
        return [JoinToken(t, tid, p, role, bool(rev)) for t, tid, p, role, rev in rows]

    def join_token(self, token: str) -> JoinToken | None:
        """One join token, if any table has it."""
        r = self._db.execute(
            "SELECT token, table_id, participant, role, revoked FROM join_tokens WHERE token = ?",
            (token,),
        ).fetchone()
        return None if r is None else JoinToken(r[0], r[1], r[2], r[3], bool(r[4]))

    def revoked_tokens(self) -> list[str]:
        """Every revoked join token."""
        return [r[0] for r in self._db.execute("SELECT token FROM join_tokens WHERE revoked = 1")]

    def data_version(self) -> int:
        """A number that changes whenever another connection (another process, such as
        ``vtt-bridge revoke-token``) commits to the database, and only then (SQLite's
        ``PRAGMA data_version``): a check that costs no read of any table."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def append(self, table_id: str, row: LogRow) -> None:
        """Commit one accepted command; raises if ``position`` is not the next one."""
        self.append_many([(table_id, row)])

    def append_many(
        self,
        rows: list[tuple[str, LogRow]],
        snapshots: Sequence[tuple[str, Snapshot]] = (),
        settings: Sequence[TableRow] = (),
        replies: Sequence[AdminReply] = (),
    ) -> float:
        """Commit several accepted commands in one transaction (group commit), with the
        ``snapshots`` taken after them (a table's older ones are dropped), tables'
        changed ``settings`` and the ``replies`` to the messages that changed them.

        Returns how long the transaction took, in milliseconds, for the counters."""
        started = time.perf_counter()
        with self._transaction():
            self._db.executemany(
                "INSERT INTO log VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        table_id,
                        row.position,
                        row.first_event,
                        _dumps(row.command),
                        _dumps(row.events),
                        _dumps(row.meta),
                    )
                    for table_id, row in rows
                ],
            )
            for table_id, snapshot in snapshots:
                self._put_snapshot(table_id, snapshot)
            for row in settings:
                self._put_settings(row)
            self._put_replies(replies)
            self._crash("before_commit")
        return (time.perf_counter() - started) * 1000

    def write_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Store a snapshot; older ones of the table are dropped in the same transaction."""
        with self._transaction():
            self._put_snapshot(table_id, snapshot)

    def _put_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
            (table_id, snapshot.position, snapshot.events, _dumps(snapshot.state), snapshot.hash),
        )
        self._crash("mid_snapshot")
        self._db.execute(
            "DELETE FROM snapshots WHERE table_id = ? AND position < ?",
            (table_id, snapshot.position),
        )

    def latest_snapshot(self, table_id: str) -> Snapshot | None:
        """The newest snapshot of a table, if it has one."""
        r = self._db.execute(
            "SELECT position, events, state, hash FROM snapshots WHERE table_id = ? "
            "ORDER BY position DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        return None if r is None else Snapshot(r[0], r[1], json.loads(r[2]), r[3])

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

    def events_between(self, table_id: str, start: int, end: int) -> list[dict[str, Any]]:
        """The events with index ``start`` <= i < ``end`` of a table, from the log."""
        rows = self._db.execute(
            "SELECT first_event, events FROM log WHERE table_id = ? AND first_event < ? "
            "AND first_event + json_array_length(events) > ? ORDER BY position",
            (table_id, end, start),
        ).fetchall()
        found: list[dict[str, Any]] = []
        for first, events in rows:
            for offset, event in enumerate(json.loads(events)):
                if start <= first + offset < end:
                    found.append(event)
        return found

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
