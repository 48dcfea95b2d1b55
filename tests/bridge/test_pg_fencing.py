"""Ownership on PostgreSQL: two processes' stores contending for tables in one database.

A claim takes a table nobody live owns and bumps its epoch; every commit re-checks owner
and epoch in its own transaction, so a process that was paused past its lease and lost
its table cannot append, and a log position is written once, under one epoch.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from vtt_bridge.store import LogRow, Snapshot, TableRow
from vtt_bridge.store_pg import PostgresStore
from vtt_bridge.store_pg_group import MOST_ROWS
from vtt_bridge.store_pg_leases import Claimed, OwnedElsewhere
from vtt_bridge.store_protocol import Fenced

ROW = TableRow("t1", "Keep", 7, 30.0, 0)


def _row(position: int) -> LogRow:
    return LogRow(position, position, {"type": "end_turn"}, [{"kind": "x"}], {"t": position})


def _bridge(dsn: str, name: str, lease_s: float = 1.0) -> PostgresStore:
    return PostgresStore(dsn, bridge=name, public_url=f"ws://{name}.test/ws", lease_s=lease_s)


def _expire(dsn: str, bridge: str) -> None:
    """Make ``bridge``'s heartbeat older than its lease, as if it had been paused."""
    with psycopg.connect(dsn) as db:
        db.execute(
            "UPDATE bridges SET heartbeat = now() - interval '1 hour' WHERE id = %s", (bridge,)
        )


def _epochs(dsn: str) -> list[tuple[int, int]]:
    with psycopg.connect(dsn) as db:
        return db.execute(
            "SELECT position, epoch FROM log WHERE table_id = 't1' ORDER BY position"
        ).fetchall()


def test_a_live_owner_keeps_its_table_and_others_are_redirected(pg_dsn: str) -> None:
    a, b = _bridge(pg_dsn, "a"), _bridge(pg_dsn, "b")
    try:
        a.create_table(ROW, [])
        assert a.epochs == {"t1": 1}
        assert b.claim("t1") == OwnedElsewhere("t1", "a", "ws://a.test/ws")
        assert a.claim("t1") == Claimed("t1", 1)  # its own claim again bumps nothing
        a.append("t1", _row(0))
        with pytest.raises(Fenced):
            b.append("t1", _row(1))  # b never claimed it
        assert _epochs(pg_dsn) == [(0, 1)]
    finally:
        a.close()
        b.close()


def test_a_stale_owner_is_fenced_after_a_takeover(pg_dsn: str) -> None:
    a, b = _bridge(pg_dsn, "a"), _bridge(pg_dsn, "b")
    try:
        a.create_table(ROW, [])
        a.append_many([("t1", _row(0)), ("t1", _row(1))])
        _expire(pg_dsn, "a")  # a is paused past its lease
        assert b.claim("t1") == Claimed("t1", 2)
        b.append("t1", _row(2))
        # a wakes up and commits what it had applied meanwhile: refused, nothing written.
        with pytest.raises(Fenced) as refused:
            a.append_many([("t1", _row(2))])
        assert refused.value.table_ids == ["t1"]
        with pytest.raises(Fenced):
            a.write_snapshot("t1", Snapshot(3, 3, {}, "h"))
        assert a.heartbeat() == ["t1"]  # its next beat says what it lost
        assert a.epochs == {}
        assert a.claim("t1") == OwnedElsewhere("t1", "b", "ws://b.test/ws")
        assert _epochs(pg_dsn) == [(0, 1), (1, 1), (2, 2)]
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("rows", [3, MOST_ROWS + 1], ids=["one-statement", "transaction"])
def test_a_group_with_one_lost_table_writes_nothing_of_any(pg_dsn: str, rows: int) -> None:
    """A group commit is all or nothing, in one statement (the usual group) or in a
    transaction (a longer one): a table lost among others refuses the whole group, said
    as that table; and the same group without it commits whole."""
    a, b = _bridge(pg_dsn, "a"), _bridge(pg_dsn, "b")
    try:
        for name in ("t1", "t2", "t3"):
            a.create_table(TableRow(name, name, 7, 30.0, 0), [])
        _expire(pg_dsn, "a")
        assert b.claim("t2") == Claimed("t2", 2)
        a.heartbeat()  # live again: t1 and t3 are still its own
        group = [(f"t{1 + i % 3}", _row(i // 3)) for i in range(rows)]
        with pytest.raises(Fenced) as refused:
            a.append_many(group)
        assert refused.value.table_ids == ["t2"]
        with psycopg.connect(pg_dsn) as db:
            assert db.execute("SELECT count(*) FROM log").fetchone() == (0,)
        a.append_many([(t, r) for t, r in group if t != "t2"])
        with psycopg.connect(pg_dsn) as db:
            found = db.execute("SELECT table_id, position, epoch FROM log").fetchall()
        assert sorted(found) == sorted((t, r.position, 1) for t, r in group if t != "t2")
    finally:
        a.close()
        b.close()


def test_a_commit_and_a_takeover_racing_never_write_one_position_twice(pg_dsn: str) -> None:
    """The old owner keeps committing while the new one claims and commits: each commit
    either lands before the claim (the new owner then starts after it) or is refused."""
    a, b = _bridge(pg_dsn, "a"), _bridge(pg_dsn, "b")
    try:
        a.create_table(ROW, [])
        a.append("t1", _row(0))
        stop = threading.Event()
        written: list[int] = []
        refusals: list[int] = []

        def old_owner() -> None:
            position = 1
            while not stop.is_set():
                try:
                    a.append("t1", _row(position))
                    written.append(position)
                    position += 1
                except Fenced:
                    refusals.append(position)
                    return

        thread = threading.Thread(target=old_owner)
        thread.start()
        time.sleep(0.2)
        _expire(pg_dsn, "a")
        assert b.claim("t1") == Claimed("t1", 2)
        start = b.positions("t1")  # the new owner loads the tail after its claim
        for position in range(start, start + 5):
            b.append("t1", _row(position))
        stop.set()
        thread.join(10)
        assert refusals, "the old owner's commit after the claim was refused"
        rows = _epochs(pg_dsn)
        assert [p for p, _ in rows] == list(range(start + 5))  # each position once, in order
        assert {p for p, e in rows if e == 1} == {0, *written}
        assert all(e == 2 for p, e in rows if p >= start) and start == len(written) + 1
    finally:
        a.close()
        b.close()


def test_a_graceful_leave_hands_tables_over_at_once(pg_dsn: str) -> None:
    a, b = _bridge(pg_dsn, "a", lease_s=3600), _bridge(pg_dsn, "b")
    try:
        a.create_table(ROW, [])
        assert isinstance(b.claim("t1"), OwnedElsewhere)
        a.leave()
        assert b.claim("t1") == Claimed("t1", 2)  # at once, and the epoch still grows
        b.append("t1", _row(0))
        with pytest.raises(Fenced):
            a.append("t1", _row(1))
    finally:
        a.close()
        b.close()


def test_a_tool_writes_only_tables_nobody_live_owns(pg_dsn: str) -> None:
    a = _bridge(pg_dsn, "a")
    tool = PostgresStore(pg_dsn)
    try:
        tool.create_table(TableRow("free", "Free", 1, 30.0, 0), [])
        tool.append("free", _row(0))  # nobody owns it: a migration may fill it
        a.create_table(ROW, [])
        with pytest.raises(Fenced):
            tool.append("t1", _row(0))
        assert a.claim("free") == Claimed("free", 1)
        with pytest.raises(Fenced):
            tool.append("free", _row(1))
    finally:
        a.close()
        tool.close()


def test_a_lost_connection_fails_one_commit_and_the_next_reconnects(pg_dsn: str) -> None:
    a = _bridge(pg_dsn, "a", lease_s=3600)
    try:
        a.create_table(ROW, [])
        a.append("t1", _row(0))
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            (killed,) = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone() or (0,)
        assert killed == 1  # the store's one connection
        with pytest.raises(psycopg.OperationalError):
            a.append("t1", _row(1))  # not committed, so refused: its sender sends it again
        a.append("t1", _row(1))  # on a new connection, under the same claim
        assert _epochs(pg_dsn) == [(0, 1), (1, 1)]
    finally:
        a.close()


def test_an_owner_paused_inside_a_commit_holds_up_a_takeover_for_a_lease_at_most(
    pg_dsn: str,
) -> None:
    """Paused between its owner-row lock and its COMMIT, a process's session sits idle in
    its transaction: the server ends it after the lease, so the claim waiting on the lock
    goes on, and the paused commit never lands."""
    a, b = _bridge(pg_dsn, "a", lease_s=0.5), _bridge(pg_dsn, "b")
    try:
        a.create_table(ROW, [])
        a.append("t1", _row(0))
        paused = a._db  # its session, as a commit in flight leaves it
        paused.execute("BEGIN")
        paused.execute("SELECT * FROM owners WHERE table_id = 't1' FOR UPDATE")
        paused.execute(
            "INSERT INTO log (table_id, position, first_event, command, events, meta, "
            "event_count, epoch) VALUES ('t1', 1, 1, '{}', '[]', '{}', 0, 1)"
        )
        _expire(pg_dsn, "a")
        began = time.monotonic()
        assert b.claim("t1") == Claimed("t1", 2)  # waited for the lock, not for ever
        assert time.monotonic() - began < 5
        # The server ended the session (idle too long, or ended by the claim): nothing
        # landed.
        with pytest.raises(
            (psycopg.errors.IdleInTransactionSessionTimeout, psycopg.errors.AdminShutdown)
        ):
            paused.execute("COMMIT")
        assert _epochs(pg_dsn) == [(0, 1)]
    finally:
        a.close()
        b.close()


def test_a_lock_a_stale_owner_never_lets_go_of_is_ended_by_the_claim(pg_dsn: str) -> None:
    """Paused in the middle of sending a commit, a process's session is not idle in its
    transaction (the server waits for the rest), so no timeout ends it: the claim, finding
    the row locked and its owner's lease run out, ends the owner's sessions and goes on;
    a live owner's sessions are never ended."""
    a, b = _bridge(pg_dsn, "a"), _bridge(pg_dsn, "b")
    holder = psycopg.connect(pg_dsn, application_name="vtt-bridge a")  # one of a's sessions
    try:
        a.create_table(ROW, [])
        lock = "SELECT * FROM owners WHERE table_id = 't1' FOR UPDATE"
        holder.execute(lock)
        found: list[object] = []
        waiting = threading.Thread(target=lambda: found.append(b.claim("t1")))
        waiting.start()
        waiting.join(1.0)
        assert waiting.is_alive()  # a is live: the claim waits for its commit...
        assert holder.execute("SELECT 1").fetchone() == (1,)  # ...and ends nothing
        holder.rollback()
        waiting.join(10)
        assert found == [OwnedElsewhere("t1", "a", "ws://a.test/ws")]
        holder.execute(lock)
        _expire(pg_dsn, "a")
        began = time.monotonic()
        assert b.claim("t1") == Claimed("t1", 2)
        assert time.monotonic() - began < 5
        with pytest.raises(psycopg.OperationalError):
            holder.execute("SELECT 1")  # its session was ended
    finally:
        holder.close()
        a.close()
        b.close()
