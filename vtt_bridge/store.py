"""The SQLite event log: tables, join tokens, and every accepted command with its events.

Acknowledged means committed.  The database runs in WAL mode with ``synchronous=FULL``
so a commit survives power loss; each accepted command is one row, written and committed
before its sender hears back.  Calls are blocking: the bridge runs them on one dedicated
worker thread (see :class:`vtt_bridge.committer.Committer`) so the event loop never
waits on a disk flush, and a single writer needs no locking beyond SQLite's own.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.versions import RULES_VERSION
from protocol.versions import WIRE_VERSION, upgrade_events
from vtt_bridge import event_upgrades  # noqa: F401  (registers the event upgrade steps)
from vtt_bridge.checkpoint import WAL_LIMIT_PAGES, Checkpointer

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
    rules_version INTEGER NOT NULL DEFAULT 1,
    deadlines TEXT,
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
    rules_version INTEGER NOT NULL DEFAULT 1,
    wire_version INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (table_id, position)
);
"""
#: Find a client's acknowledged command by its seq (a retransmission of a command older
#: than what start-up loaded, see ``find_ack``), and the rows holding old events (a
#: catch-up from before the events kept in memory), without reading the whole log.
CLIENT_INDEX = """
CREATE INDEX IF NOT EXISTS log_by_client ON log (
    table_id, json_extract(meta, '$.client'), json_extract(meta, '$.ref')
);
CREATE INDEX IF NOT EXISTS log_by_event ON log (table_id, first_event);
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
    """One accepted command with the events it caused (plain JSON-safe values), and
    the rules and wire versions of the release that wrote it (see ``engine.versions``
    and ``protocol.versions``; rows of databases older than versions are version 1)."""

    position: int
    first_event: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    meta: dict[str, Any]
    rules_version: int = RULES_VERSION
    wire_version: int = WIRE_VERSION


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
    """A table's encounter state after its first ``position`` commands (``events`` events).

    ``hash`` is :func:`stored_hash` of ``state`` as stored, in the form of
    ``rules_version``; ``deadlines`` are the open prompts' deadlines at that point (None
    in snapshots written before they were kept)."""

    position: int
    events: int
    state: dict[str, Any]
    hash: str
    deadlines: dict[str, int] | None = None
    rules_version: int = RULES_VERSION


@dataclass(frozen=True, slots=True)
class StoredAck:
    """A logged command found by its client and seq (a retransmission)."""

    position: int
    first_event: int
    events: int
    participant: str
    #: The digest of the message it answered (``seq_reused``); None in older logs.
    digest: str | None = None


@dataclass(frozen=True, slots=True)
class VersionRun:
    """Consecutive log positions ``first``..``last`` written under the same versions."""

    first: int
    last: int
    rules_version: int
    wire_version: int


#: Called at named points of a commit (``"before_commit"``, ``"mid_snapshot"``) so a
#: crash test can kill the process exactly there; a no-op otherwise.
CrashHook = Callable[[str], object]
SYNCHRONOUS = ("FULL", "EXTRA", "NORMAL", "OFF")


class Store:
    """The event log in one SQLite file."""

    #: One process serves the file: every table loads at start-up.
    shared = False
    #: The file has one writer: the committer commits on one thread.
    commit_lanes = 1

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        crash_hook: CrashHook | None = None,
        background_checkpoints: bool = False,
    ) -> None:
        """Open (or create) the log at ``path``.  ``background_checkpoints``: copy the
        WAL back into the database on a thread of its own rather than in the commit
        that fills it (:mod:`vtt_bridge.checkpoint`; the server does, tools need not)."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self._crash = crash_hook or (lambda point: None)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        # A group commit's rows go in as one statement (``append_many``), whose statement
        # journal spilled to a temporary file at about every other commit (an open, an
        # unlink and writes each time); in memory it is a copy of a few pages.
        self._db.execute("PRAGMA temp_store=MEMORY")
        self._db.executescript(SCHEMA)
        self._migrate()
        self.checkpointer: Checkpointer | None = None
        if background_checkpoints and str(path) != ":memory:":
            # SQLite's own checkpoint in the commit stays as the bound, at a WAL four
            # times its default: reached only when the background cannot keep up.
            self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_LIMIT_PAGES}")
            self.checkpointer = Checkpointer(path, synchronous=synchronous)

    def _migrate(self) -> None:
        # Databases made before a column existed get it with its default.
        # A release before versions wrote version 1: the default says so (and adding a
        # column with a constant default rewrites nothing).
        for table, column, ddl in (
            ("tables", "dice", "dice TEXT NOT NULL DEFAULT 'gm'"),
            ("tables", "archived", "archived INTEGER NOT NULL DEFAULT 0"),
            ("join_tokens", "revoked", "revoked INTEGER NOT NULL DEFAULT 0"),
            ("log", "rules_version", "rules_version INTEGER NOT NULL DEFAULT 1"),
            ("log", "wire_version", "wire_version INTEGER NOT NULL DEFAULT 1"),
            ("snapshots", "rules_version", "rules_version INTEGER NOT NULL DEFAULT 1"),
            ("snapshots", "deadlines", "deadlines TEXT"),
        ):
            names = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in names:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {ddl}")
        # Built once on a database that has none (one pass over the log).
        self._db.executescript(CLIENT_INDEX)

    def close(self) -> None:
        """Close the database (pending work is already committed)."""
        if self.checkpointer is not None:
            self.checkpointer.close()
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
        """Every table not archived, oldest first."""
        rows = self._db.execute(
            "SELECT id, name, seed, prompt_timeout, created_ms, dice FROM tables "
            "WHERE archived = 0 ORDER BY created_ms, id"
        ).fetchall()
        return [TableRow(*r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, unless there is none or it is archived."""
        r = self._db.execute(
            "SELECT id, name, seed, prompt_timeout, created_ms, dice FROM tables "
            "WHERE id = ? AND archived = 0",
            (table_id,),
        ).fetchone()
        return None if r is None else TableRow(*r)

    def any_table(self, table_id: str) -> tuple[TableRow, bool] | None:
        """The table ``table_id`` archived or not, and whether it is archived; None if
        there is none."""
        r = self._db.execute(
            "SELECT id, name, seed, prompt_timeout, created_ms, dice, archived FROM tables "
            "WHERE id = ?",
            (table_id,),
        ).fetchone()
        return None if r is None else (TableRow(*r[:6]), bool(r[6]))

    def archive_table(self, table_id: str) -> None:
        """Archive a table: it no longer loads, and every join token of it is revoked
        (a running server refuses them at once and closes their connections as it does
        a revocation's).  Its log and snapshots stay in the database."""
        with self._transaction():
            self._db.execute("UPDATE tables SET archived = 1 WHERE id = ?", (table_id,))
            self._db.execute("UPDATE join_tokens SET revoked = 1 WHERE table_id = ?", (table_id,))

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
        values = [
            value
            for table_id, row in rows
            for value in (
                table_id,
                row.position,
                row.first_event,
                _dumps(row.command),
                _dumps(row.events),
                _dumps(row.meta),
                row.rules_version,
                row.wire_version,
            )
        ]
        with self._transaction():
            # One statement for up to INSERT_CHUNK rows rather than ``executemany``'s
            # one step per row: each step releases the GIL and takes it back, and the
            # event loop, busy meanwhile, made every row a thread switch.
            for start in range(0, len(rows), INSERT_CHUNK):
                count = min(INSERT_CHUNK, len(rows) - start)
                self._db.execute(
                    _INSERT_ROWS + ", ".join([_ROW_VALUES] * count),
                    values[8 * start : 8 * (start + count)],
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
        deadlines = None if snapshot.deadlines is None else _dumps(snapshot.deadlines)
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (table_id, position, events, state, hash, "
            "rules_version, deadlines) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                snapshot.position,
                snapshot.events,
                _dumps(snapshot.state),
                snapshot.hash,
                snapshot.rules_version,
                deadlines,
            ),
        )
        self._crash("mid_snapshot")
        self._db.execute(
            "DELETE FROM snapshots WHERE table_id = ? AND position < ?",
            (table_id, snapshot.position),
        )

    def latest_snapshot(self, table_id: str) -> Snapshot | None:
        """The newest snapshot of a table, if it has one."""
        r = self._db.execute(
            "SELECT position, events, state, hash, deadlines, rules_version FROM snapshots "
            "WHERE table_id = ? ORDER BY position DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        if r is None:
            return None
        deadlines = None if r[4] is None else json.loads(r[4])
        return Snapshot(r[0], r[1], json.loads(r[2]), r[3], deadlines, r[5])

    def log(self, table_id: str, since: int = 0) -> list[LogRow]:
        """The accepted commands of a table from position ``since`` on, in order."""
        rows = self._db.execute(
            f"SELECT {_ROW_COLUMNS} FROM log WHERE table_id = ? AND position >= ? "
            "ORDER BY position",
            (table_id, since),
        ).fetchall()
        return [_log_row(r) for r in rows]

    def positions(self, table_id: str) -> int:
        """How many commands a table's log holds (its next position)."""
        r = self._db.execute(
            "SELECT max(position) FROM log WHERE table_id = ?", (table_id,)
        ).fetchone()
        return 0 if r[0] is None else int(r[0]) + 1

    def deadlines_before(self, table_id: str, prompts: set[str], position: int) -> dict[str, int]:
        """The deadlines the log gave ``prompts`` when they opened, looking back from
        ``position`` (newest first: an open prompt opened recently, as a rule)."""
        found: dict[str, int] = {}
        cursor = self._db.execute(
            "SELECT meta FROM log WHERE table_id = ? AND position < ? ORDER BY position DESC",
            (table_id, position),
        )
        for (meta,) in cursor:
            if len(found) == len(prompts):
                break
            opened_before(meta, prompts, found)
        cursor.close()
        return found

    def highest_ref(self, table_id: str, client: str) -> int | None:
        """The highest seq ``client`` has acknowledged commands under in the table's log
        (read off :data:`CLIENT_INDEX`)."""
        r = self._db.execute(
            "SELECT max(json_extract(meta, '$.ref')) FROM log WHERE table_id = ? "
            "AND json_extract(meta, '$.client') = ?",
            (table_id, client),
        ).fetchone()
        return r[0] if isinstance(r[0], int) else None

    def find_ack(self, table_id: str, client: str, ref: int) -> StoredAck | None:
        """The newest logged command ``client`` sent with seq ``ref``, if any."""
        # Not ORDER BY position: the planner would walk the primary key instead of the
        # index.  A client may have reused a seq: the newest row is the one.
        rows = self._db.execute(
            "SELECT position, first_event, json_array_length(events), "
            "json_extract(meta, '$.participant'), json_extract(meta, '$.digest') "
            "FROM log WHERE table_id = ? "
            "AND json_extract(meta, '$.client') = ? AND json_extract(meta, '$.ref') = ?",
            (table_id, client, ref),
        ).fetchall()
        if not rows:
            return None
        r = max(rows)
        # Older logs name no participant: it is the client key's first part.
        participant = r[3] if isinstance(r[3], str) else client.split("/", 1)[0]
        return StoredAck(r[0], r[1], r[2], participant, r[4] if isinstance(r[4], str) else None)

    def versions(self, table_id: str) -> list[VersionRun]:
        """Which positions of a table's log were written under which versions."""
        return version_runs(
            self._db.execute(
                "SELECT position, rules_version, wire_version FROM log WHERE table_id = ? "
                "ORDER BY position",
                (table_id,),
            )
        )

    def events_between(self, table_id: str, start: int, end: int) -> list[dict[str, Any]]:
        """The events with index ``start`` <= i < ``end`` of a table, from the log, as
        this release sends them (events of an older wire version are upgraded)."""
        rows = self._db.execute(
            "SELECT first_event, events, wire_version, command FROM log WHERE table_id = ? "
            "AND first_event < ? AND first_event >= coalesce((SELECT max(first_event) "
            "FROM log WHERE table_id = ? AND first_event <= ?), 0) ORDER BY first_event",
            (table_id, end, table_id, start),
        ).fetchall()
        return events_in_range(rows, start, end, lambda first: self.fight_at(table_id, first))

    def fight_at(self, table_id: str, first_event: int) -> str | None:
        """The ruleset named by the table's last ``start_combat`` logged at or before
        the row whose first event is ``first_event``: the fight that row ran in, which
        upgrading its events to this release's words needs (None: no fight yet)."""
        row = self._db.execute(
            "SELECT json_extract(command, '$.ruleset') FROM log WHERE table_id = ? "
            "AND first_event <= ? AND json_extract(command, '$.type') = 'start_combat' "
            "ORDER BY first_event DESC, position DESC LIMIT 1",
            (table_id, first_event),
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file (``"ok"`` when sound)."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._committed)

    def _committed(self) -> None:
        """After a commit: the background checkpoint has work."""
        if self.checkpointer is not None:
            self.checkpointer.nudge()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` when the block raises;
    ``committed`` is called after a commit."""

    def __init__(self, db: sqlite3.Connection, committed: Callable[[], None]) -> None:
        self._db = db
        self._committed = committed

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        if exc_type is None:
            self._committed()


_ROW_COLUMNS = "position, first_event, command, events, meta, rules_version, wire_version"
#: Log rows one INSERT statement carries (8 values each, within SQLite's default limit
#: of 32,766 variables; each count is one cached statement).
INSERT_CHUNK = 64
_INSERT_ROWS = (
    "INSERT INTO log (table_id, position, first_event, command, events, meta, "
    "rules_version, wire_version) VALUES "
)
_ROW_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"


def _log_row(r: tuple[Any, ...]) -> LogRow:
    return LogRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), json.loads(r[4]), r[5], r[6])


def version_runs(rows: Iterable[tuple[int, int, int]]) -> list[VersionRun]:
    """``(position, rules_version, wire_version)`` rows, in order, as runs."""
    runs: list[VersionRun] = []
    for position, rules, wire in rows:
        last = runs[-1] if runs else None
        if last is not None and (last.rules_version, last.wire_version) == (rules, wire):
            runs[-1] = VersionRun(last.first, position, rules, wire)
        else:
            runs.append(VersionRun(position, position, rules, wire))
    return runs


def events_in_range(
    rows: Iterable[tuple[int, str, int, str]],
    start: int,
    end: int,
    fight_at: Callable[[int], str | None],
) -> list[dict[str, Any]]:
    """The events with index ``start`` <= i < ``end`` among log rows
    ``(first_event, events, wire_version, command)``, upgraded to this release's wire;
    ``fight_at(first_event)`` names the ruleset of the fight a row ran in (the upgrade of
    an older row's moments to its game's clock needs it)."""
    found: list[dict[str, Any]] = []
    for first, events, wire, command in rows:
        decoded = json.loads(events)
        if wire != WIRE_VERSION:
            decoded = upgrade_events(decoded, json.loads(command), wire, fight_at(first))
        for offset, event in enumerate(decoded):
            if start <= first + offset < end:
                found.append(event)
    return found


def opened_before(meta: str, prompts: set[str], found: dict[str, int]) -> None:
    """Add to ``found`` the deadlines a log row's ``meta`` gave ``prompts`` not found yet
    (the log is read newest first: the newest opening of a prompt is the one)."""
    for prompt, deadline in json.loads(meta).get("deadlines", {}).items():
        if prompt in prompts and prompt not in found:
            found[prompt] = deadline


def stored_hash(plain: Any) -> str:
    """The hash a snapshot is stored with: SHA-256 of the canonical JSON (sorted keys,
    no spaces) of its plain state.  Defined here, by the storage format, and not by the
    engine, so a snapshot's integrity can be checked before (and whatever) the engine
    of the day makes of it; it equals ``engine.state_hash`` of the state it holds."""
    text = json.dumps(plain, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


_ENCODE_SORTED = msgspec.json.Encoder(order="sorted").encode
_DECODE = msgspec.json.Decoder().decode


def _dumps(value: Any) -> str:
    """``value`` as compact JSON with sorted keys, for a column.

    msgspec writes it at a tenth of ``json.dumps``'s cost (the rows' JSON was most of
    the database thread's Python).  msgspec writes a NaN or an infinity as ``null``, so
    text without a ``null`` in it holds no such number and is taken as written: the
    values are the engine's plain builtins, which read back as they were written (a
    tuple as a list, as ``json.dumps`` writes it too).  Text with a ``null`` (a None, or
    a string holding the word) is read back and compared: only if that gives ``value``
    again is it kept, else (a NaN or an infinity; a tuple; an int beyond 64 bits)
    ``json.dumps`` writes it, refusing the non-finite as it always did.  Both are JSON
    that reads back the same: the text is not compared anywhere, only read.  Checking
    for ``null`` costs a scan of the text; reading back cost three times the encoding."""
    try:
        text = _ENCODE_SORTED(value)
        if b"null" not in text or _DECODE(text) == value:
            return text.decode("utf-8")
    except (TypeError, OverflowError, msgspec.MsgspecError):
        pass
    return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
