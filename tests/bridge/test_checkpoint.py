"""WAL checkpoints run beside the commits, not in them, and the WAL stays bounded.

Real SQLite files; the WAL's length is read from its index, as SQLite keeps it."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest

from vtt_bridge.checkpoint import WAL_LIMIT_PAGES
from vtt_bridge.store import LogRow, Store, TableRow

TABLES = [f"t{i}" for i in range(20)]


def _store(path: Path, *, delay: float, synchronous: str = "OFF") -> Store:
    store = Store(path, synchronous=synchronous, background_checkpoints=True)
    assert store.checkpointer is not None
    store.checkpointer.delay = delay  # before the first commit nudges it
    for table in TABLES:
        store.create_table(TableRow(table, table, 1, 30.0, 0), [])
    return store


def _commit(store: Store, count: int, start: int = 0) -> None:
    """``count`` one-command commits, round the tables (each touches pages of its own)."""
    for i in range(start, start + count):
        table, position = TABLES[i % len(TABLES)], i // len(TABLES)
        command = {"type": "move", "actor": "p0", "token": "t-p0", "path": [[i % 9, 1]]}
        events = [{"kind": "token_placed", "data": {"token": "t-p0", "at": [i % 9, 1]}}]
        store.append_many([(table, LogRow(position, position, command, events, {"t": i}))])


def _wal_pages(path: Path) -> int:
    """The pages in the WAL since it last started over: ``mxFrame`` of the WAL-index
    header in the ``-shm`` file (SQLite's file format, section 4.1), read without
    taking part (a checkpoint of the test's own would copy the WAL back)."""
    header = Path(f"{path}-shm").read_bytes()[:48]
    (pages,) = struct.unpack_from("=I", header, 16)
    return int(pages)


def _wait(condition: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail("timed out")
        time.sleep(0.02)


def test_the_commits_leave_the_wal_to_the_checkpoint_thread(tmp_path: Path) -> None:
    # Past SQLite's default of 1,000 pages: a writer checkpointing in its commit would
    # have started the WAL over by now.  Held back (a long delay), the thread has not.
    store = _store(tmp_path / "db.sqlite3", delay=3600)
    try:
        _commit(store, 400)
        pages = _wal_pages(tmp_path / "db.sqlite3")
        assert 1_000 < pages < WAL_LIMIT_PAGES
    finally:
        store.close()


def test_without_the_thread_sqlite_checkpoints_in_the_commit(tmp_path: Path) -> None:
    # The same commits through a store without it: the baseline the test above differs from.
    store = Store(tmp_path / "db.sqlite3", synchronous="OFF")
    try:
        for table in TABLES:
            store.create_table(TableRow(table, table, 1, 30.0, 0), [])
        _commit(store, 400)
        assert _wal_pages(tmp_path / "db.sqlite3") <= 1_100
    finally:
        store.close()


def test_the_thread_copies_the_wal_back_and_the_next_commit_starts_it_over(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path / "db.sqlite3", delay=0.05, synchronous="FULL")
    checkpointer = store.checkpointer
    assert checkpointer is not None
    try:
        _commit(store, 60)
        _wait(lambda: checkpointer.complete >= 1 and not checkpointer._wake.is_set())
        assert checkpointer.wal_pages > 0  # it had pages to copy
        _commit(store, 1, start=60)  # starts the WAL over: it holds this commit alone
        assert _wal_pages(tmp_path / "db.sqlite3") < 20
        assert store.integrity_check() == "ok"
        assert len(store.log("t0")) == 4
    finally:
        store.close()


def test_the_wal_stays_bounded_when_the_thread_never_catches_up(tmp_path: Path) -> None:
    # The thread held back for good: past the limit, the writer's own checkpoint (the
    # bound) copies the WAL and the file starts over.
    store = _store(tmp_path / "db.sqlite3", delay=3600)
    try:
        most = 0
        for start in range(0, 1_600, 100):
            _commit(store, 100, start)
            most = max(most, _wal_pages(tmp_path / "db.sqlite3"))
        assert most <= WAL_LIMIT_PAGES + 500  # one batch of commits past the limit, at most
        assert most > 1_000
    finally:
        store.close()


def test_every_commit_is_there_after_a_close_and_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = _store(path, delay=0.01, synchronous="FULL")
    _commit(store, 100)
    store.close()
    again = Store(path)
    try:
        assert again.integrity_check() == "ok"
        assert sum(len(again.log(t)) for t in TABLES) == 100
    finally:
        again.close()


def test_a_memory_database_has_no_checkpoint_thread() -> None:
    store = Store(":memory:", background_checkpoints=True)
    try:
        assert store.checkpointer is None
    finally:
        store.close()
