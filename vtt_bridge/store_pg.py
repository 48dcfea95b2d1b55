"""The event log in PostgreSQL: one database several bridge processes share.

``--db postgresql://...`` selects it (:func:`vtt_bridge.store_open.open_store`); SQLite
(:mod:`vtt_bridge.store`) stays the default.  The interface, and what acknowledged
means, are SQLite's: a call returns once its transaction has committed, and the
session runs with ``synchronous_commit=on`` (set here, whatever the server's default),
so with PostgreSQL's default ``fsync=on`` a commit is on disk before an
acknowledgement is sent, as SQLite's ``synchronous=FULL`` gives.  A group commit is one
transaction, as in SQLite.

Ownership: a store opened for a serving process (``bridge`` given) registers that
process and may write only the tables it has claimed; every commit re-checks the
claim in its own transaction (:mod:`vtt_bridge.store_pg_leases`).  A tool's store
(``bridge`` None) writes only tables nobody live owns.

The connections are psycopg 3's (docs/dependencies.md says why): one per thread that
calls the store, each opened at its first call and again after it is lost, so the
committer's lanes (:attr:`PostgresStore.commit_lanes` threads, one connection each)
commit different tables' groups at once while each table's stay on one lane, in order.
Not psycopg_pool's pool: it would hand any free connection to any thread, where a lane
keeps one for itself (a table's commits in order, no checkout per commit).  Every
connection is opened by :meth:`PostgresStore._connect`, so each carries this process's
``application_name`` (an expired owner's sessions, all of them, can be ended), the same
``synchronous_commit`` and timeout, and every commit on any of them re-checks the claim
in its own transaction.  A commit
whose connection broke during ``COMMIT`` may have committed or not: the store looks
(its first row, written under this process's epoch, is there or not) and answers as
the database does, so a command committed is never refused (its sender would resend
it and find its position taken) and one not committed is never acknowledged.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from vtt_bridge import event_upgrades  # noqa: F401  (registers the event upgrade steps)
from vtt_bridge.store import (
    AdminReply,
    CrashHook,
    JoinToken,
    LogRow,
    Snapshot,
    StoredAck,
    TableRow,
    VersionRun,
    _dumps,
    _log_row,
    events_in_range,
    opened_before,
    version_runs,
)
from vtt_bridge.store_pg_group import LOG_COLUMNS, MOST_ROWS, commit_rows
from vtt_bridge.store_pg_leases import (
    LIVE,
    Claimed,
    OwnedElsewhere,
    check_owners,
    claim,
    end_sessions_of_stale_owner,
    fence,
    heartbeat,
    leave,
    lock_owners,
    lost_tables,
    register,
    session_name,
)
from vtt_bridge.store_pg_schema import SCHEMA, SCHEMA_LOCK_KEY

log = logging.getLogger("vtt_bridge")

Cursor = psycopg.Cursor[tuple[Any, ...]]
_TABLE_COLUMNS = "id, name, seed, prompt_timeout, created_ms, dice"
_TOKEN_COLUMNS = "token, table_id, participant, role, revoked"
_ROW_COLUMNS = "position, first_event, command, events, meta, rules_version, wire_version"
#: Log rows one INSERT statement carries at most (14 values each, far within
#: PostgreSQL's 65,535 parameters).  A group's rows go in statements of a power of two
#: rows each (50 rows: 32, 16 and 2), so a connection sees at most nine statement texts,
#: each prepared by the server once (psycopg prepares a text it has run five times)
#: where a text per row count would be parsed and planned again at almost every commit.
INSERT_CHUNK = 256
_ROW_WIDTH = 14
#: Deadlines are looked for in pages of this many rows, newest first.
DEADLINE_PAGE = 256
#: Seconds without a heartbeat after which a serving process's tables may be claimed.
DEFAULT_LEASE_S = 5.0


class PostgresStore:
    """The event log in a PostgreSQL database (see the module's docstring)."""

    #: Several processes share the database: a table loads when it is claimed.
    shared = True

    def __init__(
        self,
        url: str,
        *,
        bridge: str | None = None,
        public_url: str = "",
        lease_s: float = DEFAULT_LEASE_S,
        crash_hook: CrashHook | None = None,
        connections: int = 1,
    ) -> None:
        """Connect to ``url`` and make the tables it lacks.  ``bridge``: this serving
        process's id, registered with ``public_url`` (where its clients connect, for
        redirects) and ``lease_s``; None for a tool that serves nothing.
        ``connections``: how many threads (the committer's lanes) commit at once
        (``--db-connections`` for a serving process; a tool commits on one)."""
        self._url = url
        #: Threads the committer may commit on at once, a connection each.
        self.commit_lanes = connections
        self._local = threading.local()
        self._opened: list[psycopg.Connection[tuple[Any, ...]]] = []
        self._opened_lock = threading.Lock()
        self._crash = crash_hook or (lambda point: None)
        self.bridge = bridge
        self.public_url = public_url
        self.lease_s = lease_s
        #: The epoch each table this process owns was claimed under.
        self.epochs: dict[str, int] = {}
        with self._transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            cur.execute(SCHEMA)
            if bridge is not None:
                register(cur, bridge, public_url, lease_s)

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        # A serving process's sessions carry its name, so another can end them once its
        # lease has run out (:func:`end_sessions_of_stale_owner`).
        name = "vtt-bridge" if self.bridge is None else session_name(self.bridge)
        db = psycopg.connect(self._url, autocommit=True, application_name=name)
        # Acknowledged means committed and flushed, whatever the server's default says.
        db.execute("SET synchronous_commit = on")
        if self.bridge is not None:
            # A process paused (or cut off) inside a commit holds its tables' owner rows
            # locked, and another process's claim of them waits on the lock: after a
            # lease the server ends such a session, so the claim goes on; the paused
            # process's commit then fails and is never acknowledged.
            timeout_ms = max(1, round(self.lease_s * 1000))
            db.execute(f"SET idle_in_transaction_session_timeout = {timeout_ms}")
        with self._opened_lock:
            self._opened = [c for c in self._opened if not c.closed] + [db]
        return db

    @property
    def _db(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The calling thread's connection, opened (again) if it has none that works."""
        db: psycopg.Connection[tuple[Any, ...]] | None = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            if db is not None:
                db.close()
            db = self._local.db = self._connect()
        return db

    @contextmanager
    def _transaction(self) -> Iterator[Cursor]:
        db = self._db
        with db.transaction(), db.cursor() as cur:
            yield cur

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._db.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    def close(self) -> None:
        """Close every thread's connection (pending work is already committed)."""
        with self._opened_lock:
            opened, self._opened = self._opened, []
        for db in opened:
            db.close()

    # -- ownership -------------------------------------------------------------------

    def claim(self, table_id: str) -> Claimed | OwnedElsewhere:
        """Take ``table_id`` for this process unless another live process owns it."""
        assert self.bridge is not None, "a tool's store claims no table"
        try:
            found = self._claim(table_id, waiting_ms=max(50, round(self.lease_s * 250)))
        except psycopg.errors.LockNotAvailable:
            # Its owner row stayed locked for a quarter of a lease: a commit of its owner
            # in flight, or one stuck in a paused owner's session, which is ended if
            # the owner's lease has run out; then the claim waits for the lock.
            with self._transaction() as cur:
                ended = end_sessions_of_stale_owner(cur, table_id)
            if ended:
                log.warning("table %s: ended %d session(s) of its stale owner", table_id, ended)
            found = self._claim(table_id, waiting_ms=None)
        if isinstance(found, Claimed):
            self.epochs[table_id] = found.epoch
        else:
            self.epochs.pop(table_id, None)
        return found

    def _claim(self, table_id: str, waiting_ms: int | None) -> Claimed | OwnedElsewhere:
        """One claim's transaction, waiting at most ``waiting_ms`` for the owner row's
        lock (None: as long as it takes)."""
        assert self.bridge is not None
        with self._transaction() as cur:
            if waiting_ms is not None:
                cur.execute(f"SET LOCAL lock_timeout = {int(waiting_ms)}")
            if not heartbeat(cur, self.bridge):  # claimed only while registered and live
                register(cur, self.bridge, self.public_url, self.lease_s)
            return claim(cur, self.bridge, table_id, self.epochs.get(table_id))

    def heartbeat(self) -> list[str]:
        """Renew this process's lease; returns the tables it held that another process
        has claimed since (forgotten here: their next commit would be refused anyway)."""
        assert self.bridge is not None, "a tool's store has no lease"
        with self._transaction() as cur:
            if not heartbeat(cur, self.bridge):
                register(cur, self.bridge, self.public_url, self.lease_s)
            lost = lost_tables(cur, self.bridge, self.epochs)
        for table_id in lost:
            del self.epochs[table_id]
        return lost

    def owner_url(self, table_id: str) -> str | None:
        """The public URL of the live process that owns ``table_id``, if one does."""
        rows = self._read(
            f"SELECT b.url FROM owners o JOIN bridges b ON b.id = o.owner "
            f"WHERE o.table_id = %s AND {LIVE}",
            (table_id,),
        )
        return str(rows[0][0]) if rows else None

    def leave(self) -> None:
        """Give up every table and this process's registration (graceful shutdown)."""
        assert self.bridge is not None, "a tool's store has no lease"
        with self._transaction() as cur:
            leave(cur, self.bridge)
        self.epochs.clear()

    # -- tables and tokens -----------------------------------------------------------

    def create_table(self, row: TableRow, tokens: list[JoinToken]) -> None:
        """Store a new table and its join tokens in one transaction; a serving process
        owns the table it creates (epoch 1), a tool's table is nobody's until claimed."""
        with self._transaction() as cur:
            cur.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
                (row.id, row.name, row.seed, row.prompt_timeout, row.created_ms, row.dice),
            )
            self._insert_tokens(cur, tokens)
            if self.bridge is not None:
                cur.execute(
                    "INSERT INTO owners (table_id, owner, epoch) VALUES (%s, %s, 1)",
                    (row.id, self.bridge),
                )
            self._bump(cur)
        if self.bridge is not None:
            self.epochs[row.id] = 1

    def import_table(
        self,
        row: TableRow,
        tokens: list[JoinToken],
        replies: list[AdminReply],
        rows: list[LogRow],
        snapshot: Snapshot | None,
    ) -> None:
        """Store a whole table from another database (``vtt-bridge migrate``) in one
        transaction: it is all there, or not at all.  Nobody owns it afterwards."""
        assert self.bridge is None, "a serving process imports nothing"
        with self._transaction() as cur:
            cur.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
                (row.id, row.name, row.seed, row.prompt_timeout, row.created_ms, row.dice),
            )
            self._insert_tokens(cur, tokens)
            self._put_replies(cur, replies)
            self._insert_rows(cur, [self._row_values(row.id, r) for r in rows])
            if snapshot is not None:
                self._put_snapshot(cur, row.id, snapshot)
            self._bump(cur)

    @staticmethod
    def _insert_tokens(cur: Cursor, tokens: list[JoinToken]) -> None:
        cur.executemany(
            f"INSERT INTO join_tokens ({_TOKEN_COLUMNS}) VALUES (%s, %s, %s, %s, %s)",
            [(t.token, t.table_id, t.participant, t.role, t.revoked) for t in tokens],
        )

    @staticmethod
    def _bump(cur: Cursor) -> None:
        """Tokens or tables changed: :meth:`data_version` moves."""
        cur.execute("UPDATE revision SET n = n + 1")

    def add_token(self, token: JoinToken, reply: AdminReply | None = None) -> None:
        """Store one more join token (and the answer to the message that issued it)."""
        with self._transaction() as cur:
            self._insert_tokens(cur, [token])
            self._put_replies(cur, [reply] if reply is not None else [])
            self._bump(cur)

    def revoke_token(self, token: str, reply: AdminReply | None = None) -> None:
        """Mark a join token revoked (and store the answer to the message that did)."""
        with self._transaction() as cur:
            cur.execute("UPDATE join_tokens SET revoked = true WHERE token = %s", (token,))
            self._put_replies(cur, [reply] if reply is not None else [])
            self._bump(cur)

    @staticmethod
    def _put_replies(cur: Cursor, replies: Sequence[AdminReply]) -> None:
        # A reply stored again moves to the end, as SQLite's INSERT OR REPLACE does.
        cur.executemany(
            "INSERT INTO admin_replies (table_id, participant, client, ref, digest, reply) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, participant, client, ref) "
            "DO UPDATE SET digest = excluded.digest, reply = excluded.reply, "
            "n = nextval(pg_get_serial_sequence('admin_replies', 'n'))",
            [
                (r.table_id, r.participant, r.client, r.ref, r.digest, _dumps(r.reply))
                for r in replies
            ],
        )

    def admin_replies(self, table_id: str) -> list[AdminReply]:
        """The stored answers to a table's admin messages, oldest first."""
        rows = self._read(
            "SELECT table_id, participant, client, ref, digest, reply FROM admin_replies "
            "WHERE table_id = %s ORDER BY n",
            (table_id,),
        )
        return [AdminReply(t, p, c, ref, d, json.loads(r)) for t, p, c, ref, d, r in rows]

    def tables(self) -> list[TableRow]:
        """Every table not archived, oldest first."""
        rows = self._read(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE NOT archived ORDER BY created_ms, id"
        )
        return [TableRow(*r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, unless there is none or it is archived."""
        rows = self._read(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = %s AND NOT archived", (table_id,)
        )
        return TableRow(*rows[0]) if rows else None

    def any_table(self, table_id: str) -> tuple[TableRow, bool] | None:
        """The table ``table_id`` archived or not, and whether it is archived; None if
        there is none."""
        rows = self._read(
            f"SELECT {_TABLE_COLUMNS}, archived FROM tables WHERE id = %s", (table_id,)
        )
        return (TableRow(*rows[0][:6]), bool(rows[0][6])) if rows else None

    def archive_table(self, table_id: str) -> None:
        """Archive a table and revoke every join token of it (its log stays)."""
        with self._transaction() as cur:
            cur.execute("UPDATE tables SET archived = true WHERE id = %s", (table_id,))
            cur.execute("UPDATE join_tokens SET revoked = true WHERE table_id = %s", (table_id,))
            self._bump(cur)

    def join_tokens(self, table_id: str) -> list[JoinToken]:
        """The join tokens of one table, revoked ones included."""
        rows = self._read(
            f"SELECT {_TOKEN_COLUMNS} FROM join_tokens WHERE table_id = %s ORDER BY n",
            (table_id,),
        )
        return [JoinToken(*r) for r in rows]

    def join_token(self, token: str) -> JoinToken | None:
        """One join token, if any table has it."""
        rows = self._read(f"SELECT {_TOKEN_COLUMNS} FROM join_tokens WHERE token = %s", (token,))
        return JoinToken(*rows[0]) if rows else None

    def revoked_tokens(self) -> list[str]:
        """Every revoked join token."""
        return [r[0] for r in self._read("SELECT token FROM join_tokens WHERE revoked")]

    def data_version(self) -> int:
        """A counter every change of tokens or tables bumps, by any process (the
        revocation poll reads the tokens again only when it moved)."""
        return int(self._read("SELECT n FROM revision")[0][0])

    # -- the log ---------------------------------------------------------------------

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
        """Commit a group of commands with the snapshots taken after them, tables'
        changed settings and the admin answers, in one transaction that first checks
        this process still owns every table it writes (raises
        :class:`~vtt_bridge.store_protocol.Fenced` if not, and writes nothing).

        Returns how long the transaction took, in milliseconds."""
        started = time.perf_counter()
        values = [self._row_values(table_id, row) for table_id, row in rows]
        written = {t for t, _ in rows} | {t for t, _ in snapshots} | {s.id for s in settings}
        written |= {r.table_id for r in replies}
        db = self._db
        if values and not (snapshots or settings or replies) and len(values) <= MOST_ROWS:
            # Rows alone, the usual group: one statement, its own transaction.  The
            # crash point comes before it is sent (nothing of it committed, as in the
            # transaction below, where it comes before COMMIT).
            self._crash("before_commit")
            try:
                commit_rows(db, self.bridge, self.epochs, values)
            except psycopg.OperationalError:
                if not db.broken or not self._committed(values[0]):
                    raise
            return (time.perf_counter() - started) * 1000
        try:
            # Pipelined: BEGIN, the owners' lock, the rows and the rest go out together
            # and the owners are checked once they are back, before COMMIT, so a group
            # commit costs two round trips to the server, not one a statement.  The
            # lock comes first in the transaction: nothing after it can land if the
            # check then refuses (the transaction rolls back).
            with db.pipeline() as pipe, db.transaction(), db.cursor() as owners:
                with db.cursor() as cur:
                    wanted = lock_owners(owners, written)
                    self._insert_rows(cur, values)
                    for table_id, snapshot in snapshots:
                        self._put_snapshot(cur, table_id, snapshot)
                    if settings:
                        cur.executemany(
                            "UPDATE tables SET prompt_timeout = %s, dice = %s WHERE id = %s",
                            [(s.prompt_timeout, s.dice, s.id) for s in settings],
                        )
                    if replies:
                        self._put_replies(cur, replies)
                    try:
                        pipe.sync()
                    except psycopg.DatabaseError:
                        # A position taken by the table's new owner is this process's
                        # lost claim, said as such: the lock's answer came back first.
                        if wanted:
                            check_owners(owners.fetchall(), self.bridge, self.epochs, wanted)
                        raise
                if wanted:
                    check_owners(owners.fetchall(), self.bridge, self.epochs, wanted)
                self._crash("before_commit")
        except psycopg.OperationalError:
            if not values or not db.broken or not self._committed(values[0]):
                raise
        return (time.perf_counter() - started) * 1000

    @staticmethod
    def _insert_rows(cur: Cursor, values: list[tuple[Any, ...]]) -> None:
        # One statement for a power of two rows, not a statement a row: a group commit's
        # rows cost a few statements in its round trip, not one each.  Written with
        # PostgreSQL's own $n placeholders on a raw cursor: psycopg parses a query's %s
        # placeholders again whenever it has more than 50 parameters (its cache's
        # limit), and that parse was most of the database thread's work a row.
        start = 0
        with psycopg.RawCursor(cur.connection) as raw:
            while start < len(values):
                count = min(INSERT_CHUNK, 1 << (len(values) - start).bit_length() - 1)
                chunk = values[start : start + count]
                raw.execute(_insert_statement(count), [value for row in chunk for value in row])
                start += count

    def _row_values(self, table_id: str, row: LogRow) -> tuple[Any, ...]:
        meta = row.meta
        ref = meta.get("ref")
        return (
            table_id,
            row.position,
            row.first_event,
            _dumps(row.command),
            _dumps(row.events),
            _dumps(meta),
            row.rules_version,
            row.wire_version,
            _text(meta.get("client")),
            ref if isinstance(ref, int) and not isinstance(ref, bool) else None,
            _text(meta.get("participant")),
            _text(meta.get("digest")),
            len(row.events),
            self.epochs.get(table_id, 0),
        )

    def _committed(self, first: tuple[Any, ...]) -> bool:
        """After the connection broke in a commit: whether it committed (its first row
        is in the log as written, under the same epoch)."""
        found = self._read(
            "SELECT meta, epoch FROM log WHERE table_id = %s AND position = %s",
            (first[0], first[1]),
        )
        return bool(found) and found[0] == (first[5], first[13])

    def write_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Store a snapshot; older ones of the table are dropped in the same transaction."""
        with self._transaction() as cur:
            fence(cur, self.bridge, self.epochs, [table_id])
            self._put_snapshot(cur, table_id, snapshot)

    def _put_snapshot(self, cur: Cursor, table_id: str, snapshot: Snapshot) -> None:
        deadlines = None if snapshot.deadlines is None else _dumps(snapshot.deadlines)
        cur.execute(
            "INSERT INTO snapshots (table_id, position, events, state, hash, rules_version, "
            "deadlines) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, position) "
            "DO UPDATE SET events = excluded.events, state = excluded.state, "
            "hash = excluded.hash, rules_version = excluded.rules_version, "
            "deadlines = excluded.deadlines",
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
        cur.execute(
            "DELETE FROM snapshots WHERE table_id = %s AND position < %s",
            (table_id, snapshot.position),
        )

    def latest_snapshot(self, table_id: str) -> Snapshot | None:
        """The newest snapshot of a table, if it has one."""
        rows = self._read(
            "SELECT position, events, state, hash, deadlines, rules_version FROM snapshots "
            "WHERE table_id = %s ORDER BY position DESC LIMIT 1",
            (table_id,),
        )
        if not rows:
            return None
        r = rows[0]
        deadlines = None if r[4] is None else json.loads(r[4])
        return Snapshot(r[0], r[1], json.loads(r[2]), r[3], deadlines, r[5])

    def log(self, table_id: str, since: int = 0) -> list[LogRow]:
        """The accepted commands of a table from position ``since`` on, in order."""
        rows = self._read(
            f"SELECT {_ROW_COLUMNS} FROM log WHERE table_id = %s AND position >= %s "
            "ORDER BY position",
            (table_id, since),
        )
        return [_log_row(r) for r in rows]

    def positions(self, table_id: str) -> int:
        """How many commands a table's log holds (its next position)."""
        (found,) = self._read("SELECT max(position) FROM log WHERE table_id = %s", (table_id,))
        return 0 if found[0] is None else int(found[0]) + 1

    def deadlines_before(self, table_id: str, prompts: set[str], position: int) -> dict[str, int]:
        """The deadlines the log gave ``prompts`` when they opened, looking back from
        ``position`` a page at a time (an open prompt opened recently, as a rule)."""
        found: dict[str, int] = {}
        while len(found) < len(prompts) and position > 0:
            page = self._read(
                "SELECT position, meta FROM log WHERE table_id = %s AND position < %s "
                "ORDER BY position DESC LIMIT %s",
                (table_id, position, DEADLINE_PAGE),
            )
            if not page:
                break
            for at, meta in page:
                position = at
                opened_before(meta, prompts, found)
                if len(found) == len(prompts):
                    break
        return found

    def highest_ref(self, table_id: str, client: str) -> int | None:
        """The highest seq ``client`` has acknowledged commands under at the table."""
        (found,) = self._read(
            "SELECT max(ref) FROM log WHERE table_id = %s AND client = %s", (table_id, client)
        )
        return None if found[0] is None else int(found[0])

    def find_ack(self, table_id: str, client: str, ref: int) -> StoredAck | None:
        """The newest logged command ``client`` sent with seq ``ref``, if any."""
        rows = self._read(
            "SELECT position, first_event, event_count, participant, digest FROM log "
            "WHERE table_id = %s AND client = %s AND ref = %s ORDER BY position DESC LIMIT 1",
            (table_id, client, ref),
        )
        if not rows:
            return None
        position, first, count, participant, digest = rows[0]
        # Older logs name no participant: it is the client key's first part.
        who = participant if participant is not None else client.split("/", 1)[0]
        return StoredAck(position, first, count, who, digest)

    def versions(self, table_id: str) -> list[VersionRun]:
        """Which positions of a table's log were written under which versions."""
        return version_runs(
            self._read(
                "SELECT position, rules_version, wire_version FROM log WHERE table_id = %s "
                "ORDER BY position",
                (table_id,),
            )
        )

    def events_between(self, table_id: str, start: int, end: int) -> list[dict[str, Any]]:
        """The events with index ``start`` <= i < ``end`` of a table, from the log, as
        this release sends them (events of an older wire version are upgraded)."""
        rows = self._read(
            "SELECT first_event, events, wire_version, command FROM log WHERE table_id = %s "
            "AND first_event < %s AND first_event >= coalesce((SELECT max(first_event) "
            "FROM log WHERE table_id = %s AND first_event <= %s), 0) ORDER BY first_event",
            (table_id, end, table_id, start),
        )
        return events_in_range(rows, start, end, lambda first: self.fight_at(table_id, first))

    def fight_at(self, table_id: str, first_event: int) -> str | None:
        """The ruleset named by the table's last ``start_combat`` logged at or before
        the row whose first event is ``first_event`` (as :meth:`Store.fight_at`)."""
        rows = self._read(
            "SELECT command::jsonb ->> 'ruleset' FROM log WHERE table_id = %s "
            "AND first_event <= %s AND command::jsonb ->> 'type' = 'start_combat' "
            "ORDER BY first_event DESC, position DESC LIMIT 1",
            (table_id, first_event),
        )
        return None if not rows or rows[0][0] is None else str(rows[0][0])


@functools.cache
def _insert_statement(rows: int) -> str:
    """The INSERT of ``rows`` log rows, with PostgreSQL's ``$n`` placeholders."""
    values = ", ".join(
        "(" + ", ".join(f"${_ROW_WIDTH * r + c + 1}" for c in range(_ROW_WIDTH)) + ")"
        for r in range(rows)
    )
    return f"INSERT INTO log ({LOG_COLUMNS}) VALUES {values}"


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
